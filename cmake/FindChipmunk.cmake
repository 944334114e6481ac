# FindChipmunk: Chipmunk2D 7 (Debian's libchipmunk-dev ships no CMake config and no pkg-config file).
# Defines Chipmunk_FOUND, Chipmunk_INCLUDE_DIR, Chipmunk_LIBRARY and the imported target Chipmunk::Chipmunk.
find_path(Chipmunk_INCLUDE_DIR NAMES chipmunk/chipmunk.h)
find_library(Chipmunk_LIBRARY NAMES chipmunk)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Chipmunk REQUIRED_VARS Chipmunk_LIBRARY Chipmunk_INCLUDE_DIR)
if(Chipmunk_FOUND AND NOT TARGET Chipmunk::Chipmunk)
  add_library(Chipmunk::Chipmunk UNKNOWN IMPORTED)
  set_target_properties(Chipmunk::Chipmunk PROPERTIES
    IMPORTED_LOCATION "${Chipmunk_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Chipmunk_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES m)
endif()
mark_as_advanced(Chipmunk_INCLUDE_DIR Chipmunk_LIBRARY)
