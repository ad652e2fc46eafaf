# shogun_capture: the beams' readings taken by a C interrupt handler (shogun_capture.c).
add_library(usermod_shogun_capture INTERFACE)
target_sources(usermod_shogun_capture INTERFACE ${CMAKE_CURRENT_LIST_DIR}/shogun_capture.c)
target_include_directories(usermod_shogun_capture INTERFACE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(usermod INTERFACE usermod_shogun_capture)
