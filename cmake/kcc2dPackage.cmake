# Installs kcc2d as a CMake package (find_package(kcc2d [COMPONENTS ...])) and as pkg-config modules, one component
# per library. Each library is one kcc_package_component() call in the root CMakeLists.txt, then kcc_package_finish()
# writes the package's config and version files.
#
# kcc_package_component(<name>
#   TARGETS <target>...            libraries installed and exported as kcc2d::<export name>
#   HEADERS <file>...              public headers, installed to include/kcc
#   PACKAGES <package>...          CMake packages the targets link (found again by the installed package; the find
#                                  modules among them, cmake/Find<package>.cmake, are installed with it)
#   COMPONENTS <component>...      kcc2d components the targets link (loaded first by the package)
#   PKGCONFIG <module> <description>  writes <module>.pc
#   PKGCONFIG_REQUIRES <module>... pkg-config modules of the dependencies that have one
#   PKGCONFIG_LIBS <target>...     imported targets of the dependencies that have none: their library goes in Libs
#   PKGCONFIG_SYSTEM_LIBS <flag>...  system libraries beside libm (the threads' flags): where -lm goes, see below)
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(KCC_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kcc2d)

# -L / -l flags for a library file, leaving out directories the linker searches anyway.
function(kcc_pkgconfig_link_flags out library)
  get_filename_component(dir ${library} DIRECTORY)
  get_filename_component(name ${library} NAME_WE)
  string(REGEX REPLACE "^lib" "" name ${name})
  set(flags)
  if(NOT dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
    list(APPEND flags -L${dir})
  endif()
  list(APPEND flags -l${name})
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# The .pc file is written at install time, so that its prefix is the one installed to (cmake --install --prefix).
function(kcc_write_pkgconfig module description targets requires imported system)
  set(KCC_PC_NAME ${module})
  set(KCC_PC_DESCRIPTION ${description})
  string(JOIN ", " KCC_PC_REQUIRES ${requires})
  set(libs -L\${libdir})
  foreach(target ${targets})
    get_target_property(output ${target} OUTPUT_NAME)
    if(NOT output)
      set(output ${target})
    endif()
    list(APPEND libs -l${output})
  endforeach()
  set(cflags -I\${includedir})
  foreach(target ${imported})
    get_target_property(location ${target} IMPORTED_LOCATION)
    kcc_pkgconfig_link_flags(flags ${location})
    list(APPEND libs ${flags})
    get_target_property(include_dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
    foreach(dir ${include_dirs})
      if(NOT dir IN_LIST CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES)
        list(APPEND cflags -I${dir})
      endif()
    endforeach()
  endforeach()
  # A static library records no dependencies of its own: its users link libm (and threads) themselves.
  set(system -lm ${system})
  if(BUILD_SHARED_LIBS)
    list(JOIN system " " KCC_PC_LIBS_PRIVATE)
  else()
    list(APPEND libs ${system})
    set(KCC_PC_LIBS_PRIVATE)
  endif()
  list(JOIN libs " " KCC_PC_LIBS)
  list(JOIN cflags " " KCC_PC_CFLAGS)
  if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
    set(KCC_PC_LIBDIR ${CMAKE_INSTALL_LIBDIR})
  else()
    set(KCC_PC_LIBDIR \${prefix}/${CMAKE_INSTALL_LIBDIR})
  endif()
  if(IS_ABSOLUTE ${CMAKE_INSTALL_INCLUDEDIR})
    set(KCC_PC_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
  else()
    set(KCC_PC_INCLUDEDIR \${prefix}/${CMAKE_INSTALL_INCLUDEDIR})
  endif()
  set(KCC_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")  # left for the install-time pass below
  set(staged ${PROJECT_BINARY_DIR}/pkgconfig/${module}.pc.in)
  set(final ${PROJECT_BINARY_DIR}/pkgconfig/${module}.pc)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/kcc2d.pc.in ${staged} @ONLY)
  install(CODE "configure_file(\"${staged}\" \"${final}\" @ONLY)
    file(INSTALL \"${final}\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\")")
endfunction()

function(kcc_package_component name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" ""
    "TARGETS;HEADERS;PACKAGES;COMPONENTS;PKGCONFIG;PKGCONFIG_REQUIRES;PKGCONFIG_LIBS;PKGCONFIG_SYSTEM_LIBS")
  install(TARGETS ${arg_TARGETS} EXPORT kcc2d-${name}-targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT kcc2d-${name}-targets NAMESPACE kcc2d:: DESTINATION ${KCC_PACKAGE_DIR})
  install(FILES ${arg_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kcc)
  if(arg_PKGCONFIG)
    list(GET arg_PKGCONFIG 0 module)
    list(GET arg_PKGCONFIG 1 description)
    kcc_write_pkgconfig(${module} ${description} "${arg_TARGETS}" "${arg_PKGCONFIG_REQUIRES}" "${arg_PKGCONFIG_LIBS}"
      "${arg_PKGCONFIG_SYSTEM_LIBS}")
  endif()
  set_property(GLOBAL APPEND PROPERTY KCC_PACKAGE_COMPONENTS ${name})
  set_property(GLOBAL APPEND PROPERTY KCC_PACKAGE_PACKAGES ${arg_PACKAGES})
  set_property(GLOBAL APPEND_STRING PROPERTY KCC_PACKAGE_DECLARATIONS
    "set(_kcc2d_${name}_packages ${arg_PACKAGES})\nset(_kcc2d_${name}_components ${arg_COMPONENTS})\n")
endfunction()

function(kcc_package_finish)
  get_property(components GLOBAL PROPERTY KCC_PACKAGE_COMPONENTS)
  get_property(packages GLOBAL PROPERTY KCC_PACKAGE_PACKAGES)
  get_property(declarations GLOBAL PROPERTY KCC_PACKAGE_DECLARATIONS)
  set(KCC_PACKAGE_DECLARATIONS "set(_kcc2d_components ${components})\n${declarations}")
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kcc2d-config.cmake.in
    ${PROJECT_BINARY_DIR}/kcc2d-config.cmake INSTALL_DESTINATION ${KCC_PACKAGE_DIR})
  # 0.x: a new minor version may change the API.
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/kcc2d-config-version.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  set(files ${PROJECT_BINARY_DIR}/kcc2d-config.cmake ${PROJECT_BINARY_DIR}/kcc2d-config-version.cmake)
  list(REMOVE_DUPLICATES packages)
  foreach(package ${packages})
    if(EXISTS ${PROJECT_SOURCE_DIR}/cmake/Find${package}.cmake)
      list(APPEND files ${PROJECT_SOURCE_DIR}/cmake/Find${package}.cmake)
    endif()
  endforeach()
  install(FILES ${files} DESTINATION ${KCC_PACKAGE_DIR})
endfunction()
