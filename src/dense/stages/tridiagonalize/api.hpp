#pragma once
// Stage 1 of the one-stage path: distributed blocked Householder reduction of a
// Hermitian matrix to real symmetric tridiagonal form, T = Qᴴ A Q (ELPA1's tridiag).
#include <vector>

#include "core/instantiate.hpp"
#include "tseig/device.hpp"
#include "tseig/matrix.hpp"

namespace tseig::dense {

/// d (n) and e (n-1) of the tridiagonal matrix, plus the reflector scalars.
/// Q = H(0)·H(1)···H(n-2), H(j) = I − tau[j]·v_j·v_jᴴ, v_j(0..j) = 0, v_j(j+1) = 1 and
/// v_j(j+2..n-1) stored in column j of A below the subdiagonal (as LAPACK ?hetrd 'L').
template <class T>
struct Tridiagonal {
  std::vector<real_t<T>> d, e;
  std::vector<T> tau;
};

/// Collective over A's grid. A: n×n, square blocks (mb == nb), rsrc = csrc = 0,
/// lower triangle valid. Overwritten by the reflectors. Every rank receives d, e, tau.
/// Communication is along process rows and columns only.
template <Device D, class T>
Tridiagonal<T> tridiagonalize(DistMatrix<T>& A);

// Host instantiations live in host.cpp; the CUDA backend adds its own beside it.
#define TSEIG_EXTERN(T) \
  extern template Tridiagonal<T> tridiagonalize<Device::host, T>(DistMatrix<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_EXTERN)
#undef TSEIG_EXTERN

}  // namespace tseig::dense
