# A MicroPython manifest (tools/manifestfile.py gives include()): asyncio frozen, as in
# the PyPI port.
include("$(MPY_DIR)/extmod/asyncio")  # noqa: F821
