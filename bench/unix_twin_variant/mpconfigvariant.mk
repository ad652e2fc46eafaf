# Built by bench/unix_twin.py. Only asyncio is frozen, as in the PyPI unix port; no module the
# bench does not use that needs a submodule (btree, ssl). ffi maps the ROMFS image
# (firmware/sim_rom.py): the PyPI port maps it from CPython, which a plain binary cannot.
FROZEN_MANIFEST = $(VARIANT_DIR)/manifest.py
MICROPY_PY_BTREE = 0
MICROPY_PY_SSL = 0
MICROPY_PY_FFI = 1
