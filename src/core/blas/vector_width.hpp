#pragma once
// How wide the SIMD vectors of the linked BLAS's kernels are, as far as the library says:
// tseig's own kernels (compiled for the build machine) can be wider than the BLAS's when
// OpenBLAS runs kernels for an older core (OPENBLAS_CORETYPE=Haswell on an AVX-512 CPU
// uses 256-bit vectors), and then they outrun its GEMMs.

namespace tseig::blas {

/// 32 for OpenBLAS running AVX/AVX2 kernels (cores Haswell, Zen, SandyBridge, the
/// Bulldozer family), else 64: its AVX-512 cores, and every core or BLAS not known here,
/// assumed as wide as anything tseig builds, so that nothing is chosen against it
/// unmeasured.
int vector_bytes();

}  // namespace tseig::blas
