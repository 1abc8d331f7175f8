// SVQB, Cholesky-QR2 and block projection. The small dense steps (eigendecomposition,
// Cholesky) run on rank 0 and are broadcast, so every rank transforms its rows alike.
#include "sparse/solvers/block_orthogonalize.hpp"

#include <algorithm>
#include <cmath>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "sparse/solvers/rayleigh_ritz.hpp"
#include "tseig/error.hpp"

namespace tseig::sparse::detail {

template <class T>
int svqb(const MultiVector<T>& x, const std::type_identity_t<MultiVector<T>>* sx, double drop,
         const SparseTuneParameters& tune, SolverTimes& times, std::span<const double> removed) {
  const int k = x.cols();
  if (k == 0) return 0;
  std::vector<T> g = gram(x, sx ? *sx : x, times, times.orthogonalization);
  std::vector<real_t<T>> d(k);
  for (int j = 0; j < k; ++j) {
    const double gjj = std::real(g[j + j * k]);
    const bool rounding = !removed.empty() && gjj <= drop * drop * (gjj + removed[j]);
    d[j] = gjj > 0 && !rounding ? real_t<T>(1 / std::sqrt(gjj)) : real_t<T>(0);
  }
  for (int b = 0; b < k; ++b)
    for (int a = 0; a < k; ++a) g[a + b * k] *= d[a] * d[b];
  const SmallEigen<T> e = projected_eigen(x.comm(), k, std::move(g), std::vector<T>{}, tune, times,
                                          times.orthogonalization);
  Timer timer(times.orthogonalization);
  const double top = e.values[k - 1];
  // Keep the largest directions first: θ ascending, so walk from the top.
  std::vector<T> s;
  int kept = 0;
  for (int j = k - 1; j >= 0 && e.values[j] > drop * top && top > 0; --j, ++kept)
    for (int a = 0; a < k; ++a)
      s.push_back(d[a] * e.vectors[a + static_cast<std::size_t>(j) * k] /
                  real_t<T>(std::sqrt(static_cast<double>(e.values[j]))));
  transform_in_place(x, s.data(), kept);
  if (sx) transform_in_place(*sx, s.data(), kept);
  return kept;
}

template <class T>
bool cholesky_qr2(const MultiVector<T>& x, const std::type_identity_t<MultiVector<T>>* sx,
                  SolverTimes& times) {
  const int k = x.cols();
  int rank = 0;
  MPI_Comm_rank(x.comm(), &rank);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<T> r = gram(x, sx ? *sx : x, times, times.orthogonalization);
    int info = 0;
    if (rank == 0) {
      Timer timer(times.orthogonalization);
      info = lapack::potrf('U', k, r.data(), k);
    }
    agree(x.comm(), std::span<int>(&info, 1), times);
    if (info != 0) return false;
    agree(x.comm(), std::span<T>(r), times);
    Timer timer(times.orthogonalization);
    // X·R⁻¹ on the row-major block: its transpose R⁻ᵀ·Xᵀ.
    for (const MultiVector<T>* y : {&x, sx})
      if (y && y->local_rows() > 0)
        blas::trsm('L', 'U', 'T', 'N', k, y->local_rows(), T(1), r.data(), k, y->data(), y->ld());
  }
  return true;
}

template <class T>
std::vector<double> project_out(const MultiVector<T>& q, const MultiVector<T>& sq,
                                const MultiVector<T>& x,
                                const std::type_identity_t<MultiVector<T>>* sx,
                                SolverTimes& times) {
  if (q.cols() == 0 || x.cols() == 0) return {};
  std::vector<T> c = gram(sq, x, times, times.orthogonalization);
  Timer timer(times.orthogonalization);
  // Q is S-orthonormal, so the S-norm² of Q·c_j is ‖c_j‖².
  std::vector<double> removed(x.cols(), 0.0);
  for (int j = 0; j < x.cols(); ++j)
    for (int a = 0; a < q.cols(); ++a)
      removed[j] += std::norm(c[a + static_cast<std::size_t>(j) * q.cols()]);
  for (T& v : c) v = -v;
  transform(q, c.data(), x, T(1));
  if (sx) transform(sq, c.data(), *sx, T(1));
  return removed;
}

template <class T>
int orthonormalize_against(const MultiVector<T>& q, const MultiVector<T>& sq,
                           const MultiVector<T>& x, const std::type_identity_t<MultiVector<T>>* sx,
                           double drop, const SparseTuneParameters& tune, SolverTimes& times) {
  int kept = x.cols();
  for (int pass = 0; pass < 2 && kept > 0; ++pass) {
    const MultiVector<T> xv = x.view(0, kept);
    const MultiVector<T> sxv = sx ? sx->view(0, kept) : MultiVector<T>{};
    const std::vector<double> removed = project_out(q, sq, xv, sx ? &sxv : nullptr, times);
    kept = svqb(xv, sx ? &sxv : nullptr, drop, tune, times, removed);
  }
  return kept;
}

#define TSEIG_INSTANTIATE(T)                                                                \
  template int svqb(const MultiVector<T>&, const MultiVector<T>*, double,                   \
                    const SparseTuneParameters&, SolverTimes&, std::span<const double>);    \
  template bool cholesky_qr2(const MultiVector<T>&, const MultiVector<T>*, SolverTimes&);   \
  template std::vector<double> project_out(const MultiVector<T>&, const MultiVector<T>&,    \
                                           const MultiVector<T>&, const MultiVector<T>*,    \
                                           SolverTimes&);                                   \
  template int orthonormalize_against(const MultiVector<T>&, const MultiVector<T>&,         \
                                      const MultiVector<T>&, const MultiVector<T>*, double, \
                                      const SparseTuneParameters&, SolverTimes&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse::detail
