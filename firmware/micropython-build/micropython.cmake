# The tower's own C modules, for MicroPython's esp32 make (USER_C_MODULES=<this file>;
# `make firmware-image` passes it).
include(${CMAKE_CURRENT_LIST_DIR}/shogun_capture/micropython.cmake)
