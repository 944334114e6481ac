# kcc_run's standard output is its own, whatever Chipmunk prints at its first cpSpaceNew (Debian's debug build
# prints a banner): with --csv - the first line is the CSV header, with --quiet the summary.
#   -DKCC_RUN=path/to/kcc_run -DLEVELS=tests/levels
function(first_line out)
  execute_process(COMMAND ${KCC_RUN} ${LEVELS}/run.tmj ${LEVELS}/platform3.txt ${ARGN} RESULT_VARIABLE status
    OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "kcc_run ${ARGN} exits with ${status}: ${errors}")
  endif()
  string(REGEX MATCH "^[^\n]*" line "${output}")
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

first_line(csv --csv -)
if(NOT csv STREQUAL "frame,time,x,y,vx,vy,flags,floor,events")
  message(FATAL_ERROR "kcc_run --csv -: the first line of standard output is '${csv}', not the CSV header")
endif()
first_line(quiet --quiet)
if(NOT quiet MATCHES "^kcc_run: 186 frames ")
  message(FATAL_ERROR "kcc_run --quiet: the first line of standard output is '${quiet}', not the summary")
endif()
