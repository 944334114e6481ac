# KCC_HAVE_THREAD_POOL: ON when the controller's sources define kcc_thread_pool_create (bench/bench_tasks.h then uses
# kcc_thread_pool; without it, its own pthread pool). Included by bench/ and tests/.
set(KCC_HAVE_THREAD_POOL OFF)
file(GLOB kcc_controller_sources ${PROJECT_SOURCE_DIR}/controller/*.c)
foreach(source ${kcc_controller_sources})
  file(STRINGS ${source} definition REGEX "^kcc_thread_pool\\* kcc_thread_pool_create\\(")
  if(definition)
    set(KCC_HAVE_THREAD_POOL ON)
  endif()
endforeach()
