#pragma once
// The triangular inverse behind tseig::invert_triangular, on the working layout.
#include "core/instantiate.hpp"
#include "tseig/device.hpp"
#include "tseig/linalg.hpp"

namespace tseig::dense {

/// Collective. In-place inverse of the upper triangular A (strict lower triangle
/// zeroed). Working layout.
template <Device D, class T>
void invert_upper(DistMatrix<T>& A);

// Host instantiations live in host.cpp; the CUDA backend adds its own beside it.
#define TSEIG_EXTERN(T) extern template void invert_upper<Device::host, T>(DistMatrix<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_EXTERN)
#undef TSEIG_EXTERN

}  // namespace tseig::dense
