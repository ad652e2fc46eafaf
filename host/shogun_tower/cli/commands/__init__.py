"""One module per `shogun-tower` subcommand; each exposes ``register(subparsers)``.

The CLI discovers the modules here, so adding a subcommand is adding a file.
"""
