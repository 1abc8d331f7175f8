// The built-in preconditioners. Jacobi: the inverse magnitude of the matrix diagonal,
// read once from the local storage (CRS or SELL-C-σ; a row's own column c is local
// column c − first_row, which is < local_rows). Chebyshev: p(A) as a Chebyshev series
// in t = (H − center)/half, summed by the three-term recurrence; for a Matrix every
// step is one fused pass (detail::chebyshev_sum), as in ChebFD's filter.
#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <numbers>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/instantiate.hpp"
#include "sparse/kernels/chebyshev_sum.hpp"
#include "sparse/matrix_data.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/linear_operator.hpp"

namespace tseig::sparse {

namespace {

template <class T>
std::vector<T> local_diagonal(const MatrixData<T>& d) {
  std::vector<T> diag(d.local_rows, T(0));
  if (d.format == SparseFormat::crs) {
    for (int i = 0; i < d.local_rows; ++i)
      for (std::int64_t j = d.crs.row_ptr[i]; j < d.crs.row_ptr[i + 1]; ++j)
        if (d.crs.col[j] == i) diag[i] += d.crs.val[j];
    return diag;
  }
  const SellStorage<T>& s = d.sell;
  for (int chunk = 0; chunk < s.chunks(); ++chunk)
    for (int r = 0; r < s.chunk; ++r) {
      const int row = s.row[static_cast<std::size_t>(chunk) * s.chunk + r];
      if (row < 0) continue;
      for (int j = 0; j < s.width[chunk]; ++j) {
        const std::int64_t slot = s.chunk_ptr[chunk] + static_cast<std::int64_t>(j) * s.chunk + r;
        if (s.col[slot] == row) diag[row] += s.val[slot];
      }
    }
  return diag;
}

/// Chebyshev coefficients c_0..c_degree (in t ∈ [−1, 1] ↦ a ∈ [alpha, beta]) of the
/// Chebyshev-iteration polynomial p(a) = (1 − T_n(μ(a)) / T_n(μ(0))) / a, n = degree + 1,
/// μ(a) = (beta + alpha − 2a) / (beta − alpha) = −t: interpolation at the n Chebyshev
/// nodes, exact for p's degree n − 1.
std::vector<double> chebyshev_iteration_coefficients(double alpha, double beta, int degree) {
  const int n = degree + 1;
  const double tn0 = std::cosh(n * std::acosh((beta + alpha) / (beta - alpha)));
  std::vector<double> c(n, 0.0);
  for (int j = 0; j < n; ++j) {
    const double angle = std::numbers::pi * (j + 0.5) / n;  // t_j = cos(angle)
    const double a = ((beta - alpha) * std::cos(angle) + beta + alpha) / 2;
    const double p = (1 - std::cos(n * (std::numbers::pi - angle)) / tn0) / a;  // T_n(−t_j)
    for (int k = 0; k < n; ++k) c[k] += 2.0 / n * p * std::cos(k * angle);
  }
  c[0] /= 2;
  return c;
}

/// y ← Σ_k c_k T_k(t)·x, t = (H − center)/half, one panel of columns at a time (the
/// recurrence's blocks stay contiguous; see detail::Panels).
template <class T>
void chebyshev_series(const LinearOperator<T>& h, double center, double half,
                      const std::vector<double>& c, const MultiVector<T>& x,
                      const MultiVector<T>& y, detail::Panels<T>& panels) {
  const Matrix<T>* a = h.matrix();
  const int degree = static_cast<int>(c.size()) - 1;
  for (int first = 0; first < x.cols(); first += detail::Panels<T>::columns) {
    const int w = std::min(detail::Panels<T>::columns, x.cols() - first);
    // A panel of power-of-two width sums straight into y (the sum is only touched row by
    // row, so y's stride costs nothing), any other into a padded block.
    const bool padded = !std::has_single_bit(static_cast<unsigned>(w));
    const int recurrence = a ? 2 : 3;
    const std::vector<MultiVector<T>> b =
        panels.blocks(h.layout(), w, recurrence + (padded ? 1 : 0));
    MultiVector<T> previous = b[0], current = b[1], spare = a ? MultiVector<T>() : b[2];
    const MultiVector<T> sum = padded ? b[recurrence] : y.view(first, w);
    detail::load_panel(x.view(first, w), current);  // T_0, zero beyond w
    if (a) {
      detail::chebyshev_sum(*a, std::span<const double>(c), center, half, current, previous, sum);
    } else {
      for (int i = 0; i < sum.local_rows(); ++i)  // sum = c_0·T_0, not reading what y held
        for (int j = 0; j < sum.cols(); ++j) sum(i, j) = T(c[0]) * current(i, j);
      for (int k = 1; k <= degree; ++k) {
        // spare ← T_k = 2t·T_{k−1} − T_{k−2} (t·T_0 for k = 1), sum += c_k·T_k
        const double scale = k == 1 ? 1 : 2;
        h.apply(current, spare);
        axpby(T(-scale * center / half), current, T(scale / half), spare);
        if (k > 1) axpby(T(-1), previous, T(1), spare);
        axpby(T(c[k]), spare, T(1), sum);
        std::swap(previous, spare);
        std::swap(previous, current);
      }
    }
    if (padded) y.view(first, w).assign(sum.view(0, w));
  }
}

}  // namespace

template <class T>
Preconditioner<T> chebyshev_preconditioner(const LinearOperator<T>& h, SpectralBounds bounds,
                                           int degree, Which which) {
  const double width = bounds.upper - bounds.lower;
  raise_if_any(h.comm(), !(degree >= 0) || !(width > 0) || !std::isfinite(width),
               ErrorCode::invalid_argument,
               "chebyshev_preconditioner: need degree >= 0 and finite bounds lower < upper");
  // A = s·(H − sigma) on [alpha, beta]; t = (2A − beta − alpha)/(beta − alpha).
  const double s = which == Which::smallest ? 1 : -1;
  const double sigma = which == Which::smallest ? bounds.lower : bounds.upper;
  const double beta = width, alpha = width / ((degree + 2.0) * (degree + 2.0));
  const double center = sigma + s * (beta + alpha) / 2, half = s * (beta - alpha) / 2;
  auto c = std::make_shared<const std::vector<double>>(
      chebyshev_iteration_coefficients(alpha, beta, degree));
  auto panels = std::make_shared<detail::Panels<T>>();
  return Preconditioner<T>(
      [h, center, half, c, panels](const MultiVector<T>& x, const MultiVector<T>& y) {
        chebyshev_series(h, center, half, *c, x, y, *panels);
      });
}

template <class T>
Preconditioner<T> jacobi_preconditioner(const Matrix<T>& a) {
  auto scale = std::make_shared<std::vector<T>>(local_diagonal(a.data()));
  for (T& v : *scale) v = std::abs(v) > 0 ? T(1 / std::abs(v)) : T(1);
  return Preconditioner<T>([scale](const MultiVector<T>& x, const MultiVector<T>& y) {
    for (int i = 0; i < x.local_rows(); ++i)
      for (int j = 0; j < x.cols(); ++j) y(i, j) = (*scale)[i] * x(i, j);
  });
}

#define TSEIG_INSTANTIATE(T)                                                              \
  template TSEIG_API Preconditioner<T> jacobi_preconditioner(const Matrix<T>&);           \
  template TSEIG_API Preconditioner<T> chebyshev_preconditioner(const LinearOperator<T>&, \
                                                                SpectralBounds, int, Which);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
