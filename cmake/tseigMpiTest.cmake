# add_mpi_program(name SOURCES src... RANKS n... [LIBRARIES lib...] [LABELS label...] [TIMEOUT s]
#                 [NO_SANITIZE])
#   One MPI executable registered with ctest once per rank count (name_np<N>),
#   oversubscribing the cores; it passes when every rank exits 0 (C and Fortran tests).
#   NO_SANITIZE: not in the sanitizer job (a test whose subject the sanitizer's runtime
#   changes, such as address-space caps: ASan's allocator aborts where malloc fails).
# add_mpi_test(name SOURCES src... RANKS n... [LABELS label...] [TIMEOUT s])
#   The same for a GoogleTest program linked with the MPI-aware main.
set(TSEIG_MPIEXEC_FLAGS --oversubscribe CACHE STRING "Extra flags for mpiexec in tests")
# The environment of every test that starts mpiexec: root in containers, 1 BLAS thread per
# rank, ranks yield when idle (oversubscribed). Open MPI: the ob1 messaging layer, which
# it selects here anyway after probing the fabric layers (0.2 s per start); and a job
# whose rank exits non-zero ends at once (by default Open MPI waits 1 s before SIGKILL
# even when every rank has already exited; the error tests exit non-zero by design).
set(TSEIG_TEST_MPI_ENV
    "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1;OMPI_MCA_mpi_yield_when_idle=1;OMPI_MCA_pml=ob1;OMPI_MCA_odls_base_sigkill_timeout=0")
# tseig_test_optimisation(target): -O1 for a test program's own code (C and C++) in
# optimised builds. It is set-up and checks around the library, which keeps the build's
# flags: the test programs compiled in 55 % of their -O3 time (test_eigensolver 14.7 s
# against 6.2) and ran as fast (test_eigensolver, test_sparse_chebfd, test_sparse_kernels,
# two runs each).
function(tseig_test_optimisation target)
  target_compile_options(${target} PRIVATE
    $<$<AND:$<COMPILE_LANGUAGE:C,CXX>,$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-O1>)
endfunction()

function(add_mpi_program name)
  cmake_parse_arguments(ARG "NO_SANITIZE" "TIMEOUT" "SOURCES;RANKS;LIBRARIES;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARIES})
  tseig_toolchain_options(${name})
  tseig_test_optimisation(${name})
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
    # TSEIG_TEST_MPI_ENV, and in sanitizer builds: leaks checked, minus those inside Open
    # MPI and OpenBLAS (whose plugins stay loaded, so their frames can be named and
    # suppressed) (tests/sanitizers/lsan.supp), and any undefined behaviour fails the test.
    set_tests_properties(${name}_np${np} PROPERTIES
      LABELS "${labels}" TIMEOUT ${ARG_TIMEOUT} PROCESSORS ${np}
      ENVIRONMENT "${TSEIG_TEST_MPI_ENV};OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_mca_base_component_disable_dlclose=1;ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0;LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/sanitizers/lsan.supp:print_suppressions=0;UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
  endforeach()
endfunction()

function(add_mpi_test name)
  add_mpi_program(${name} ${ARGN} LIBRARIES tseig_test_main)
  tseig_compile_options(${name})
endfunction()
