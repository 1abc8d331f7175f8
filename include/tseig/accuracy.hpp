#pragma once
// Accuracy measures used by tests, tseig-solve and benchmarks. All collective.
#include <vector>

#include "tseig/export.hpp"
#include "tseig/matrix.hpp"

namespace tseig::accuracy {

/// max_i ‖A z_i − λ_i z_i‖₂ / (N ‖A‖₁) over the first w.size() columns of Z.
template <class T>
TSEIG_API real_t<T> residual(const DistMatrix<T>& A, const std::vector<real_t<T>>& w,
                             const DistMatrix<T>& Z);

/// ‖ZᴴZ − I‖_max over the first nev columns of Z.
template <class T>
TSEIG_API real_t<T> orthogonality(const DistMatrix<T>& Z, int nev);

/// Generalized problem H z = λ S z: max_i ‖H z_i − λ_i S z_i‖₂ / ((‖H‖₁ + |λ_i| ‖S‖₁) ‖z_i‖₂)
/// over the first w.size() columns of Z, the normwise backward error of each pair.
template <class T>
TSEIG_API real_t<T> generalized_residual(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                         const std::vector<real_t<T>>& w, const DistMatrix<T>& Z);

/// S-orthogonality ‖ZᴴSZ − I‖_max over the first nev columns of Z.
template <class T>
TSEIG_API real_t<T> s_orthogonality(const DistMatrix<T>& S, const DistMatrix<T>& Z, int nev);

/// max_i |w_i − ref_i| / max(‖ref‖_∞, tiny) over min(w.size(), ref.size()) values.
template <class R>
TSEIG_API R eigenvalue_error(const std::vector<R>& w, const std::vector<R>& ref);

}  // namespace tseig::accuracy
