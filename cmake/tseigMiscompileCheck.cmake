# Guards against compilers that generate wrong code with the flags this project uses.
#
# Known case: g++ 12.2 (Debian 12) with AVX-512 enabled (-march=native on an AVX-512 CPU,
# -mavx512f, -march=x86-64-v4, ...) and its SLP vectorizer stores brace-initialised
# vectors of 64-bit constants wrongly ({1, 1, 1, 0} becomes {1, 1, 1, 1}).
# cmake/probes/vector_constant_probe.cpp is compiled and run with the project's real C++
# flags; when it fails, the narrowest flag that makes it pass (-fno-tree-slp-vectorize:
# loop vectorization stays on) goes into TSEIG_WORKAROUND_FLAGS, which tseig_compile_options
# adds to every C/C++ target and the tseig target hands to its consumers.
#
# TSEIG_MISCOMPILE_WORKAROUND: AUTO (probe and decide), ON (always add the flag),
# OFF (never; a probe that fails then only warns: for measuring what the flag costs).
set(TSEIG_MISCOMPILE_WORKAROUND "AUTO" CACHE STRING
    "Compiler miscompile workaround: AUTO (probe the compiler), ON (always), OFF (never)")
set_property(CACHE TSEIG_MISCOMPILE_WORKAROUND PROPERTY STRINGS AUTO ON OFF)

set(_tseig_probe_src ${CMAKE_CURRENT_LIST_DIR}/probes/vector_constant_probe.cpp)
set(_tseig_slp_flag -fno-tree-slp-vectorize)

# The C++ flags of a Release/RelWithDebInfo/... build of our targets, as a list.
function(_tseig_project_cxx_flags out)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  separate_arguments(flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${config}}")
  if(TSEIG_NATIVE)
    list(APPEND flags -march=native)
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# Compiles and runs the probe with the project's flags plus `extra`; sets `out` to
# TRUE (right code), FALSE (wrong code) or UNKNOWN (could not be run: cross-compiling).
function(_tseig_probe out extra)
  _tseig_project_cxx_flags(flags)
  list(APPEND flags ${extra})
  if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
    set(${out} UNKNOWN PARENT_SCOPE)
    return()
  endif()
  set(CMAKE_TRY_COMPILE_CONFIGURATION ${CMAKE_BUILD_TYPE})
  unset(_tseig_probe_run CACHE)
  unset(_tseig_probe_compiled CACHE)
  try_run(_tseig_probe_run _tseig_probe_compiled ${CMAKE_BINARY_DIR}/CMakeFiles/tseig_probe
          ${_tseig_probe_src} COMPILE_DEFINITIONS ${flags} CXX_STANDARD 20
          COMPILE_OUTPUT_VARIABLE compile_log RUN_OUTPUT_VARIABLE run_log)
  if(NOT _tseig_probe_compiled)
    message(FATAL_ERROR "tseig: the compiler probe does not compile with ${flags}:\n${compile_log}")
  endif()
  if(_tseig_probe_run EQUAL 0)
    set(${out} TRUE PARENT_SCOPE)
  else()
    string(REGEX MATCH "([0-9]+) case\\(s\\) miscompiled" wrong "${run_log}")
    set(_tseig_probe_wrong "${CMAKE_MATCH_1}" PARENT_SCOPE)
    set(${out} FALSE PARENT_SCOPE)
  endif()
  unset(_tseig_probe_run CACHE)
  unset(_tseig_probe_compiled CACHE)
endfunction()

# Where the probe cannot run: g++ 12 with AVX-512 in the flags is taken as affected.
function(_tseig_known_affected out)
  set(${out} FALSE PARENT_SCOPE)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    _tseig_project_cxx_flags(flags)
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_FLAGS "${flags}")
    string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${CMAKE_REQUIRED_FLAGS}")
    unset(_tseig_flags_enable_avx512 CACHE)
    check_cxx_source_compiles("#ifndef __AVX512F__\n#error no AVX-512\n#endif\nint main() {}"
                              _tseig_flags_enable_avx512)
    set(${out} ${_tseig_flags_enable_avx512} PARENT_SCOPE)
    unset(_tseig_flags_enable_avx512 CACHE)
  endif()
endfunction()

set(TSEIG_WORKAROUND_FLAGS "")
set(_tseig_id "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(TSEIG_MISCOMPILE_WORKAROUND STREQUAL "ON")
  set(TSEIG_WORKAROUND_FLAGS ${_tseig_slp_flag})
  message(STATUS "tseig: compiler check: ${_tseig_slp_flag} added (TSEIG_MISCOMPILE_WORKAROUND=ON)")
else()
  _tseig_probe(_tseig_right "")
  if(_tseig_right STREQUAL "UNKNOWN")
    _tseig_known_affected(_tseig_affected)
    set(_tseig_how "cannot run a probe (cross-compiling); ${_tseig_id}")
    if(_tseig_affected)
      set(_tseig_right FALSE)
      set(_tseig_how "${_tseig_how} with AVX-512 enabled is known to miscompile")
    else()
      set(_tseig_right TRUE)
      set(_tseig_how "${_tseig_how} with these flags is not known to miscompile")
    endif()
  elseif(_tseig_right)
    set(_tseig_how "${_tseig_id} compiles the vector-constant probe correctly")
  else()
    set(_tseig_how "${_tseig_id} MISCOMPILES the vector-constant probe (${_tseig_probe_wrong} cases wrong: g++ 12 SLP vectorizer + AVX-512)")
  endif()

  if(_tseig_right)
    message(STATUS "tseig: compiler check: ${_tseig_how}; no workaround needed")
  elseif(TSEIG_MISCOMPILE_WORKAROUND STREQUAL "OFF")
    message(WARNING "tseig: compiler check: ${_tseig_how}; TSEIG_MISCOMPILE_WORKAROUND=OFF, "
                    "so nothing is done: results may be wrong (ctest toolchain_probe fails)")
  else()
    _tseig_probe(_tseig_fixed ${_tseig_slp_flag})
    if(_tseig_fixed STREQUAL "FALSE")  # UNKNOWN when cross-compiling: trust the flag
      message(FATAL_ERROR "tseig: compiler check: ${_tseig_how}, and ${_tseig_slp_flag} does not "
                          "fix it. Use another compiler or configure with -DTSEIG_NATIVE=OFF.")
    endif()
    set(TSEIG_WORKAROUND_FLAGS ${_tseig_slp_flag})
    message(STATUS "tseig: compiler check: ${_tseig_how}; adding ${_tseig_slp_flag} to every "
                   "C/C++ target and to consumers' flags")
  endif()
endif()
