#pragma once
// The Cholesky kernel behind tseig::cholesky, on the working layout.
#include "core/instantiate.hpp"
#include "tseig/device.hpp"
#include "tseig/linalg.hpp"

namespace tseig::dense {

/// Collective. Right-looking blocked Cholesky A = UᴴU reading only the upper
/// triangle; U replaces it, the strict lower triangle is zeroed. Working layout.
template <Device D, class T>
void cholesky_upper(DistMatrix<T>& A);

// Host instantiations live in host.cpp; the CUDA backend adds its own beside it.
#define TSEIG_EXTERN(T) extern template void cholesky_upper<Device::host, T>(DistMatrix<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_EXTERN)
#undef TSEIG_EXTERN

}  // namespace tseig::dense
