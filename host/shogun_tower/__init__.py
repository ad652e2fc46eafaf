"""Shogun Tower host software: rules, game state, serial link, simulated device, assistant."""

__version__ = "0.1.0"
