#pragma once
// Block-vector algebra of the block solvers, with the time split kept: Gram matrices as
// one local GEMM and one allreduce, block × small matrix as one GEMM, and the broadcasts
// that keep every rank's decisions identical. A row-major local block with row stride ld
// is the column-major matrix Xᵀ (cols × rows, leading dimension ld), which BLAS takes.
#include <mpi.h>

#include <algorithm>
#include <bit>
#include <span>
#include <vector>

#include "core/blas/host.hpp"
#include "core/mpi_types.hpp"
#include "sparse/random.hpp"
#include "sparse/solvers/tall_skinny.hpp"
#include "tseig/sparse/linear_operator.hpp"
#include "tseig/sparse/multivector.hpp"

namespace tseig::sparse::detail {

/// Entries uniform in [−1, 1] (re and im apart), a function of (seed, global row,
/// column) like MultiVector::fill_random, for the columns that refill a block lost to
/// rank deficiency. fill_random's real ±1 columns, which KPM wants, are too few on a
/// small order: on n = 6 a fresh ±1 column lay in the span of the five kept (LOBPCG), on
/// n = 2 every one is parallel to one of two directions (ChebFD).
template <class T>
void fill_uniform(const MultiVector<T>& x, std::uint64_t seed) {
  for (int i = 0; i < x.local_rows(); ++i)
    for (int j = 0; j < x.cols(); ++j) {
      const std::uint64_t h =
          random_bits(seed, static_cast<std::uint64_t>(x.layout().first_row + i),
                      static_cast<std::uint64_t>(j));
      const auto re = static_cast<real_t<T>>(2 * random_unit(h) - 1);
      if constexpr (is_complex_v<T>)
        x(i, j) = T(re, static_cast<real_t<T>>(2 * random_unit(mix64(h)) - 1));
      else
        x(i, j) = re;
    }
}

/// Adds the seconds of its scope to one field of a SolverTimes, less the communication
/// time `times` gained meanwhile (so the parts never overlap).
class Timer {
 public:
  explicit Timer(double& field, const SolverTimes* times = nullptr)
      : field_(field), times_(times), comm_start_(times ? times->communication : 0) {}
  ~Timer() { field_ += MPI_Wtime() - start_ - (times_ ? times_->communication - comm_start_ : 0); }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

 private:
  double& field_;
  const SolverTimes* times_;
  double comm_start_;
  double start_ = MPI_Wtime();
};

/// Collective: in-place sum over the ranks, timed as communication.
template <class T>
void reduce(MPI_Comm comm, std::span<T> v, SolverTimes& times) {
  Timer t(times.communication);
  sum_over_ranks(comm, v);
}

/// Collective: rank 0's values everywhere, so that decisions taken on them agree.
template <class T>
void agree(MPI_Comm comm, std::span<T> v, SolverTimes& times) {
  Timer t(times.communication);
  if (!v.empty()) MPI_Bcast(v.data(), static_cast<int>(v.size()), mpi_type<T>(), 0, comm);
}

/// Whether this build has tall-skinny kernels for T (real and complex double).
template <class T>
inline constexpr bool has_tall_skinny = tall_skinny_kernels &&
                                        (std::is_same_v<T, double> ||
                                         std::is_same_v<T, std::complex<double>>);

template <class T>
using TallGramTarget = std::conditional_t<is_complex_v<T>, ComplexGramTarget, GramTarget>;

/// Whether the tall-skinny kernels take a product of blocks this wide (a complex column
/// is two real ones).
template <class T>
bool tall_skinny_fits(int k, int l) {
  return std::max(k, l) * (is_complex_v<T> ? 2 : 1) <= tall_skinny_max_columns;
}

/// This rank's part of XᴴY (x.cols() × y.cols(), column-major) into g.
template <class T>
void local_gram(const MultiVector<T>& x, const MultiVector<T>& y, T* g) {
  const int k = x.cols(), l = y.cols(), n = x.local_rows();
  if (k == 0 || l == 0) return;
  if constexpr (has_tall_skinny<T>)
    if (tall_skinny_fits<T>(k, l)) {
      const TallGramTarget<T> target{l, y.data(), static_cast<std::size_t>(y.ld()), g};
      return tall_gram(n, k, x.data(), x.ld(), std::span(&target, 1));
    }
  // Yᵀ·conj(X) = (XᴴY)ᵀ, then transpose.
  std::vector<T> gt(static_cast<std::size_t>(l) * k);
  blas::gemm('N', 'C', l, k, n, T(1), y.data(), y.ld(), x.data(), x.ld(), T(0), gt.data(), l);
  for (int b = 0; b < l; ++b)
    for (int a = 0; a < k; ++a) g[a + static_cast<std::size_t>(b) * k] = gt[b + a * l];
}

/// XᴴY into g and XᴴZ into h (this rank's parts), in one pass over X where the
/// tall-skinny kernels take them.
template <class T>
void local_gram(const MultiVector<T>& x, const MultiVector<T>& y, T* g, const MultiVector<T>& z,
                T* h) {
  const int k = x.cols();
  if constexpr (has_tall_skinny<T>)
    if (k > 0 && y.cols() > 0 && z.cols() > 0 &&
        tall_skinny_fits<T>(k, std::max(y.cols(), z.cols()))) {
      const TallGramTarget<T> targets[2] = {
          {y.cols(), y.data(), static_cast<std::size_t>(y.ld()), g},
          {z.cols(), z.data(), static_cast<std::size_t>(z.ld()), h}};
      return tall_gram(x.local_rows(), k, x.data(), x.ld(), std::span(targets));
    }
  local_gram(x, y, g);
  local_gram(x, z, h);
}

/// Collective: XᴴY with one allreduce.
template <class T>
std::vector<T> gram(const MultiVector<T>& x, const MultiVector<T>& y, SolverTimes& times,
                    double& local_part) {
  std::vector<T> g(static_cast<std::size_t>(x.cols()) * y.cols(), T(0));
  {
    Timer t(local_part);
    local_gram(x, y, g.data());
  }
  reduce(x.comm(), std::span<T>(g), times);
  return g;
}

/// Y ← X·S (+ beta·Y) with S column-major x.cols() × y.cols(), the same on every rank.
template <class T>
void transform(const MultiVector<T>& x, const T* s, const MultiVector<T>& y, T beta = T(0)) {
  const int k = x.cols(), l = y.cols(), n = x.local_rows();
  if (l == 0 || n == 0) return;
  if (k == 0) {
    axpby(T(0), y, beta, y);
    return;
  }
  if constexpr (has_tall_skinny<T>)
    if (tall_skinny_fits<T>(k, l) && std::imag(beta) == 0)
      return tall_transform(n, k, l, x.data(), x.ld(), s, std::real(beta), y.data(), y.ld());
  blas::gemm('T', 'N', l, n, k, T(1), s, k, x.data(), x.ld(), beta, y.data(), y.ld());
}

/// X(:, 0:cols) ← X·S in place (S column-major x.cols() × cols, cols ≤ x.cols()), some
/// hundred rows at a time through a buffer that stays in cache: a row of the product
/// needs only its own row of X, and no block-sized temporary is allocated (first
/// touching one costs more than the product).
template <class T>
void transform_in_place(const MultiVector<T>& x, const T* s, int cols) {
  const int k = x.cols(), n = x.local_rows();
  if (k == 0 || cols == 0 || n == 0) return;
  if constexpr (has_tall_skinny<T>)
    if (tall_skinny_fits<T>(k, cols))
      return tall_transform(n, k, cols, x.data(), x.ld(), s, 0.0, x.data(), x.ld());
  const int chunk = std::max(16, (128 << 10) / static_cast<int>(sizeof(T) * k));
  std::vector<T> buffer(static_cast<std::size_t>(std::min(chunk, n)) * k);
  for (int first = 0; first < n; first += chunk) {
    const int rows = std::min(chunk, n - first);
    T* block = x.data() + static_cast<std::size_t>(first) * x.ld();
    for (int i = 0; i < rows; ++i)
      std::copy_n(block + static_cast<std::size_t>(i) * x.ld(), k,
                  buffer.data() + static_cast<std::size_t>(i) * k);
    blas::gemm('T', 'N', cols, rows, k, T(1), s, k, buffer.data(), k, T(0), block, x.ld());
  }
}

/// Contiguous blocks for panel-wise work, kept between calls: the sparse kernels run
/// several times faster on a contiguous block of power-of-two width than on a strided
/// view or an odd width, whose rows use only part of each cache line (64³ Laplacian, 2
/// ranks: width 16 in 2.8 ms, width 20 in 10.7 ms, width 12 in 3.7 ms), and allocating
/// and first touching a block costs about one kernel pass. A panel has at most `columns`
/// columns (rows of 128 bytes) and is held in blocks of the power of two above its
/// width, packed into the same few allocations whatever the width.
template <class T>
struct Panels {
  static constexpr int columns = std::max(1, 128 / static_cast<int>(sizeof(T)));
  /// `count` blocks of width std::bit_ceil(w) (w ≤ columns), entries unspecified.
  std::vector<MultiVector<T>> blocks(const VectorLayout& layout, int w, int count) {
    const int width = static_cast<int>(std::bit_ceil(static_cast<unsigned>(w)));
    while (static_cast<int>(storage.size()) < count) storage.emplace_back(layout, columns);
    std::vector<MultiVector<T>> b;
    for (int i = 0; i < count; ++i) b.push_back(storage[i].packed(width));
    return b;
  }
  std::vector<MultiVector<T>> storage;
};

/// block ← x, with block's columns beyond x's zeroed (block at least as wide as x).
template <class T>
void load_panel(const MultiVector<T>& x, MultiVector<T> block) {
  block.view(0, x.cols()).assign(x);
  if (block.cols() > x.cols()) block.view(x.cols(), block.cols() - x.cols()).set_zero();
}

/// Y ← F(X) one panel of at most Panels::columns columns at a time, each copied into a
/// contiguous block of `layout` (so F may be an operator that needs its layout). F
/// writes a full panel straight into Y (its rows are only written), a narrower one into
/// a padded block first.
template <class T, class F>
void by_panels(Panels<T>& panels, const VectorLayout& layout, const MultiVector<T>& x,
               const MultiVector<T>& y, F&& f) {
  for (int first = 0; first < x.cols(); first += Panels<T>::columns) {
    const int w = std::min(Panels<T>::columns, x.cols() - first);
    const bool padded = !std::has_single_bit(static_cast<unsigned>(w));
    const std::vector<MultiVector<T>> b = panels.blocks(layout, w, padded ? 2 : 1);
    load_panel(x.view(first, w), b[0]);
    if (!padded) {
      f(b[0], y.view(first, w));
      continue;
    }
    f(b[0], b[1]);
    y.view(first, w).assign(b[1].view(0, w));
  }
}

/// Per column j of the local rows: Σ|hx_ij − θ_j·sx_ij|² into sums[j], Σ|x_ij|² into
/// sums[m + j], and the residual hx_ij − θ_j·sx_ij into r (restrict: the sums stay apart
/// from the blocks, so the loop vectorizes).
template <class T>
void residual_sums(const MultiVector<T>& x, const MultiVector<T>& hx, const MultiVector<T>& sx,
                   const real_t<T>* __restrict theta, double* __restrict sums,
                   const MultiVector<T>& r) {
  const int m = x.cols();
  for (int i = 0; i < x.local_rows(); ++i) {
    const T* __restrict xr = &x(i, 0);
    const T* __restrict hr = &hx(i, 0);
    const T* __restrict sr = &sx(i, 0);
    T* __restrict out = &r(i, 0);
    for (int j = 0; j < m; ++j) {
      const T d = hr[j] - theta[j] * sr[j];
      out[j] = d;
      sums[j] += std::norm(d);
      sums[m + j] += std::norm(xr[j]);
    }
  }
}

/// r(:, k) ← hx(:, col[k]) − θ_k·sx(:, col[k]) for the k < r.cols() listed columns.
template <class T>
void residual_block(const MultiVector<T>& hx, const MultiVector<T>& sx, const int* __restrict col,
                    const real_t<T>* __restrict theta, const MultiVector<T>& r) {
  const int nr = r.cols();
  for (int i = 0; i < r.local_rows(); ++i) {
    const T* __restrict hr = &hx(i, 0);
    const T* __restrict sr = &sx(i, 0);
    T* __restrict out = &r(i, 0);
    for (int k = 0; k < nr; ++k) out[k] = hr[col[k]] - theta[k] * sr[col[k]];
  }
}

/// Column k of x ← its column col[k], for k < count, in place (col ascending, col[k] ≥ k,
/// so no column is overwritten before it is read).
template <class T>
void compact_columns(const MultiVector<T>& x, const int* __restrict col, int count) {
  for (int i = 0; i < x.local_rows(); ++i) {
    T* __restrict row = &x(i, 0);
    for (int k = 0; k < count; ++k) row[k] = row[col[k]];
  }
}

/// A block of `cols` columns whose rows start on cache lines: the solver reads parts of
/// rows (X of [X P W]), and a row stride of a whole number of 64-byte lines lets them stream
/// (20 of 60 doubles per row read at 8.3 GB/s, of 64 at 14.7 GB/s, on the development VM).
template <class T>
MultiVector<T> line_aligned(const VectorLayout& layout, int cols) {
  constexpr int line = std::max(1, 64 / static_cast<int>(sizeof(T)));
  return MultiVector<T>(layout, (cols + line - 1) / line * line).view(0, cols);
}

/// Copies column `from` of `x` into column `to` of `y` (local rows).
template <class T>
void copy_column(const MultiVector<T>& x, int from, const MultiVector<T>& y, int to) {
  for (int i = 0; i < x.local_rows(); ++i) y(i, to) = x(i, from);
}

/// The Hermitian part (A + Aᴴ)/2 of the column-major n × n `a`, exactly Hermitian.
template <class T>
void make_hermitian(int n, std::vector<T>& a) {
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      const T v = (a[i + j * n] + conj_if_complex(a[j + i * n])) / real_t<T>(2);
      a[i + j * n] = v;
      a[j + i * n] = conj_if_complex(v);
    }
}

}  // namespace tseig::sparse::detail
