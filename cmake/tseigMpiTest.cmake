# add_mpi_program(name SOURCES src... RANKS n... [LIBRARIES lib...] [LABELS label...] [TIMEOUT s]
#                 [NO_SANITIZE])
#   One MPI executable registered with ctest once per rank count (name_np<N>),
#   oversubscribing the cores; it passes when every rank exits 0 (C and Fortran tests).
#   NO_SANITIZE: not in the sanitizer job (a test whose subject the sanitizer's runtime
#   changes, such as address-space caps: ASan's allocator aborts where malloc fails).
# add_mpi_test(name SOURCES src... RANKS n... [LABELS label...] [TIMEOUT s])
#   The same for a GoogleTest program linked with the MPI-aware main.
set(TSEIG_MPIEXEC_FLAGS --oversubscribe CACHE STRING "Extra flags for mpiexec in tests")
function(add_mpi_program name)
  cmake_parse_arguments(ARG "NO_SANITIZE" "TIMEOUT" "SOURCES;RANKS;LIBRARIES;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARIES})
  tseig_toolchain_options(${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  # One instance (2 ranks where registered, else the first count) also runs in the
  # sanitizer job (label "sanitize", preset asan).
  list(GET ARG_RANKS 0 sanitize_np)
  if(2 IN_LIST ARG_RANKS)
    set(sanitize_np 2)
  endif()
  foreach(np IN LISTS ARG_RANKS)
    set(labels "mpi;np${np};${ARG_LABELS}")
    if(np EQUAL sanitize_np AND NOT ARG_NO_SANITIZE)
      list(APPEND labels sanitize)
    endif()
    add_test(NAME ${name}_np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${TSEIG_MPIEXEC_FLAGS}
                     ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS})
    # Root in containers, 1 BLAS thread per rank, ranks yield when idle (oversubscribed);
    # sanitizer builds: leaks checked, minus those inside Open MPI and OpenBLAS (whose
    # plugins stay loaded, so their frames can be named and suppressed)
    # (tests/sanitizers/lsan.supp), and any undefined behaviour fails the test.
    set_tests_properties(${name}_np${np} PROPERTIES
      LABELS "${labels}" TIMEOUT ${ARG_TIMEOUT} PROCESSORS ${np}
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1;OMPI_MCA_mpi_yield_when_idle=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_mca_base_component_disable_dlclose=1;ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0;LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/sanitizers/lsan.supp:print_suppressions=0;UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
  endforeach()
endfunction()

function(add_mpi_test name)
  add_mpi_program(${name} ${ARGN} LIBRARIES tseig_test_main)
  tseig_compile_options(${name})
endfunction()
