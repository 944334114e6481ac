# One doc test (see CMakeLists.txt here): builds the block's target and, for a program, runs it. A failure prints
# what the compiler or the program said, then a line naming the page and the line of the block's fence.
#   -DWHERE=docs/page.md:LINE -DBUILD_DIR=... -DTARGET=... -DCONFIG=... [-DRUN=executable -DRUN_DIR=...]
set(config)
if(CONFIG)
  set(config --config ${CONFIG})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET} ${config}
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0 AND output MATCHES "No rule to make target '${TARGET}'|unknown target '${TARGET}'")
  message(FATAL_ERROR "${WHERE}: no longer a C block: the page changed after ctest read its tests (the build has "
    "read the pages again): run ctest again")
endif()
if(NOT status EQUAL 0)
  # The build tool's own progress lines say nothing about the block.
  string(REGEX REPLACE "(^|\n)(\\[ *[0-9]+%\\]|g?make|Built target|Scanning|Consolidate)[^\n]*" "" output "${output}")
  message("${output}")
  message(FATAL_ERROR "${WHERE}: this C block does not compile (the compiler's messages above name the page's lines)")
endif()
if(RUN)
  execute_process(COMMAND ${RUN} WORKING_DIRECTORY ${RUN_DIR} RESULT_VARIABLE status OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message("${output}")
    message(FATAL_ERROR "${WHERE}: this C program, run in ${RUN_DIR}, exits with ${status} (its output is above)")
  endif()
  message(STATUS "${WHERE}: compiled and ran")
else()
  message(STATUS "${WHERE}: compiled")
endif()
