# tseig_toolchain_options(target): the flags every C/C++ target of the project needs to get
# right code from this compiler (TSEIG_WORKAROUND_FLAGS, cmake/tseigMiscompileCheck.cmake).
function(tseig_toolchain_options target)
  if(TSEIG_WORKAROUND_FLAGS)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C,CXX>:${TSEIG_WORKAROUND_FLAGS}>)
  endif()
endfunction()

# tseig_compile_options(target): warnings and optimisation flags for our own targets.
function(tseig_compile_options target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-unused-parameter>)
  if(TSEIG_NATIVE)
    # 256-bit vectors for the auto-vectorized loops (bulge chase, tile products): g++ tunes
    # for znver1 on a CPU that reports itself as family 23 model 1 (virtual machines do)
    # and then prefers 128-bit ones. No effect without AVX; AVX-512 tunings prefer 256 too.
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-march=native -mprefer-vector-width=256>)
  endif()
  tseig_toolchain_options(${target})
endfunction()
