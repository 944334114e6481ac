# FindcJSON: cJSON (Debian's libcjson-dev). Found by hand (find_path / find_library) so the result is the same
# with or without the package's own CMake config. Defines cJSON_FOUND and the imported target cJSON::cJSON.
find_path(cJSON_INCLUDE_DIR NAMES cjson/cJSON.h)
find_library(cJSON_LIBRARY NAMES cjson)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(cJSON REQUIRED_VARS cJSON_LIBRARY cJSON_INCLUDE_DIR)
if(cJSON_FOUND AND NOT TARGET cJSON::cJSON)
  add_library(cJSON::cJSON UNKNOWN IMPORTED)
  set_target_properties(cJSON::cJSON PROPERTIES
    IMPORTED_LOCATION "${cJSON_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${cJSON_INCLUDE_DIR}")
endif()
mark_as_advanced(cJSON_INCLUDE_DIR cJSON_LIBRARY)
