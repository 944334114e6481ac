# FindCglm: cglm (Debian's libcglm-dev 0.8.8 ships a .pc file but no CMake config). Defines the imported target
# cglm::cglm. Only the header-only struct API is used, but libcglm is linked so the non-inline symbols resolve.
find_path(Cglm_INCLUDE_DIR NAMES cglm/struct.h)
find_library(Cglm_LIBRARY NAMES cglm)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Cglm REQUIRED_VARS Cglm_INCLUDE_DIR Cglm_LIBRARY)
if(Cglm_FOUND AND NOT TARGET cglm::cglm)
  add_library(cglm::cglm UNKNOWN IMPORTED)
  set_target_properties(cglm::cglm PROPERTIES
    IMPORTED_LOCATION "${Cglm_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Cglm_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES m)
endif()
mark_as_advanced(Cglm_INCLUDE_DIR Cglm_LIBRARY)
