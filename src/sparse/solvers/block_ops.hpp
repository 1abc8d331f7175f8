#pragma once
// Block-vector algebra of the block solvers, with the time split kept: Gram matrices as
// one local GEMM and one allreduce, block × small matrix as one GEMM, and the broadcasts
// that keep every rank's decisions identical. A row-major local block with row stride ld
// is the column-major matrix Xᵀ (cols × rows, leading dimension ld), which BLAS takes.
#include <mpi.h>

#include <algorithm>
#include <span>
#include <vector>

#include "core/blas/host.hpp"
#include "core/mpi_types.hpp"
#include "tseig/sparse/linear_operator.hpp"
#include "tseig/sparse/multivector.hpp"

namespace tseig::sparse::detail {

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

/// This rank's part of XᴴY (x.cols() × y.cols(), column-major) into g.
template <class T>
void local_gram(const MultiVector<T>& x, const MultiVector<T>& y, T* g) {
  const int k = x.cols(), l = y.cols(), n = x.local_rows();
  if (k == 0 || l == 0) return;
  // Yᵀ·conj(X) = (XᴴY)ᵀ, then transpose.
  std::vector<T> gt(static_cast<std::size_t>(l) * k);
  blas::gemm('N', 'C', l, k, n, T(1), y.data(), y.ld(), x.data(), x.ld(), T(0), gt.data(), l);
  for (int b = 0; b < l; ++b)
    for (int a = 0; a < k; ++a) g[a + static_cast<std::size_t>(b) * k] = gt[b + a * l];
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
  blas::gemm('T', 'N', l, n, k, T(1), s, k, x.data(), x.ld(), beta, y.data(), y.ld());
}

/// Collective: squared 2-norms per column of X and of Y in one reduction (x then y).
template <class T>
std::vector<double> squared_norms(const MultiVector<T>& x, const MultiVector<T>& y,
                                  SolverTimes& times) {
  std::vector<double> s(x.cols() + y.cols(), 0.0);
  for (int i = 0; i < x.local_rows(); ++i) {
    for (int j = 0; j < x.cols(); ++j) s[j] += std::norm(x(i, j));
    for (int j = 0; j < y.cols(); ++j) s[x.cols() + j] += std::norm(y(i, j));
  }
  reduce(x.comm(), std::span<double>(s), times);
  return s;
}

/// Contiguous blocks of `columns` columns (128-byte rows) kept between calls: the sparse
/// kernels run several times faster on them than on a strided view or an odd width
/// (64³ Laplacian, 2 ranks: width 16 in 2.8 ms, width 20 in 10.7 ms), and allocating
/// and first touching a block costs about one kernel pass.
template <class T>
struct Panels {
  static constexpr int columns = std::max(1, 128 / static_cast<int>(sizeof(T)));
  std::vector<MultiVector<T>> blocks;
  /// Blocks 0 … count − 1, allocated with `layout` on first use.
  void reserve(const VectorLayout& layout, int count) {
    while (static_cast<int>(blocks.size()) < count) blocks.emplace_back(layout, columns);
  }
};

/// Y ← F(X) one panel of Panels::columns columns at a time, each copied into and out of
/// contiguous blocks of `layout` (so F may be an operator that needs its layout).
template <class T, class F>
void by_panels(Panels<T>& panels, const VectorLayout& layout, const MultiVector<T>& x,
               const MultiVector<T>& y, F&& f) {
  panels.reserve(layout, 2);
  for (int first = 0; first < x.cols(); first += Panels<T>::columns) {
    const int w = std::min(Panels<T>::columns, x.cols() - first);
    MultiVector<T> in = panels.blocks[0].view(0, w), out = panels.blocks[1].view(0, w);
    in.assign(x.view(first, w));
    f(in, out);
    y.view(first, w).assign(out);
  }
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
