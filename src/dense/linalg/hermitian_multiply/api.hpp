#pragma once
// The product behind tseig::hermitian_multiply, on the working layout.
#include "core/instantiate.hpp"
#include "tseig/device.hpp"
#include "tseig/linalg.hpp"
#include "tseig/tune.hpp"

namespace tseig::dense {

/// Collective. C(:, 0:ncb) = Aᴴ·B(:, 0:ncb) as in tseig::hermitian_multiply. A has the
/// working layout; B and C have A's grid, rows blocked like A's (mb = A.nb(), rsrc = 0)
/// and the same column layout as each other. Block rows of A are taken about
/// tune.multiply_depth at a time.
template <Device D, class T>
void hermitian_multiply_aligned(Triangle uplo_a, Triangle uplo_c, const DistMatrix<T>& A,
                                const DistMatrix<T>& B, DistMatrix<T>& C, int ncb,
                                const TuneParameters& tune);

// Host instantiations live in host.cpp; the CUDA backend adds its own beside it.
#define TSEIG_EXTERN(T)                                                                    \
  extern template void hermitian_multiply_aligned<Device::host, T>(                        \
      Triangle, Triangle, const DistMatrix<T>&, const DistMatrix<T>&, DistMatrix<T>&, int, \
      const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_EXTERN)
#undef TSEIG_EXTERN

}  // namespace tseig::dense
