#pragma once
// The sweeps of the window solvers (ChebFD's subspace iteration and its Krylov–Schur
// variant) over a block vector, one subspace block of nb columns at a time through two
// scratch blocks: the window filter y ← p(H)·y, the projected matrix yᴴHy and the Ritz
// residuals ‖Hy_j − θ_j y_j‖. A block stays in cache through all degree steps, and no
// block as wide as y is allocated (with y, three such blocks were most of ChebFD's
// memory). The filter may take `in_turn` blocks at once, a degree step each in turn,
// each block's halo exchange travelling during the sweep of the one before it
// (detail::chebyshev_sums); each further block costs three scratch blocks.
#include <algorithm>
#include <span>
#include <vector>

#include "sparse/kernels/chebyshev_sum.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/matrix.hpp"

namespace tseig::sparse::detail {

template <class T>
class BlockSweeps {
 public:
  using R = real_t<T>;
  BlockSweeps(const Matrix<T>& a, int nb, int in_turn, SolverTimes& times)
      : a_(a), nb_(nb), in_turn_(std::max(1, in_turn)), times_(times) {
    scratch_.emplace_back(a, nb);
  }

  /// y ← p(H)·y, p = Σ c_k T_k(H̃), H̃ = (H − center)/half, one subspace block at a time
  /// (one fused sweep per degree step), or in_turn blocks taking turns. Each sum is kept
  /// in a contiguous block (y's blocks are strided views), copied into y at the end.
  void filter(const MultiVector<T>& y, const std::vector<double>& c, double center, double half) {
    Timer timer(times_.spmmv);
    const int group = std::min(in_turn_, (y.cols() + nb_ - 1) / nb_);
    while (static_cast<int>(scratch_.size()) < group) scratch_.emplace_back(a_, nb_);
    std::vector<detail::ChebyshevSeries<T>> series;
    series.reserve(group);
    for (int first = 0; first < y.cols(); first += group * nb_) {
      series.clear();
      for (int s = 0; s < group && first + s * nb_ < y.cols(); ++s) {
        const int w = std::min(nb_, y.cols() - first - s * nb_);
        const Scratch& b = scratch_[s];
        b.u0.view(0, w).assign(y.view(first + s * nb_, w));
        series.emplace_back(a_, std::span<const double>(c), center, half, b.u0.view(0, w),
                            b.u1.view(0, w), b.sum.view(0, w));
      }
      detail::chebyshev_sums(std::span<detail::ChebyshevSeries<T>>(series));
      for (int s = 0; s < static_cast<int>(series.size()); ++s) {
        const int w = std::min(nb_, y.cols() - first - s * nb_);
        y.view(first + s * nb_, w).assign(scratch_[s].sum.view(0, w));
        applications_ += static_cast<std::int64_t>(w) * series[s].degree();
      }
    }
  }

  /// Vectors H has been applied to (a filter of degree d counts d per column).
  std::int64_t applications() const { return applications_; }

  /// A block of nb columns for the caller, free until the next sweep.
  MultiVector<T> scratch() const { return scratch_[0].u0; }

  /// Collective: yᴴHy (column-major) with one reduction.
  std::vector<T> projected_h(const MultiVector<T>& y) {
    const int k = y.cols();
    std::vector<T> g(static_cast<std::size_t>(k) * k, T(0));
    by_blocks(y, [&](int first, const MultiVector<T>&, const MultiVector<T>& hu) {
      local_gram(y, hu, g.data() + static_cast<std::size_t>(first) * k);
    });
    reduce(a_.comm(), std::span<T>(g), times_);
    return g;
  }

  /// Collective: ‖Hy_j − θ_j y_j‖² (entries 0 … k−1), then ‖y_j‖² (k … 2k−1), with one
  /// reduction.
  std::vector<double> residual_norms(const MultiVector<T>& y, const std::vector<R>& theta) {
    const int k = y.cols();
    std::vector<double> sq(2 * static_cast<std::size_t>(k), 0.0);
    by_blocks(y, [&](int first, const MultiVector<T>& u, const MultiVector<T>& hu) {
      for (int i = 0; i < u.local_rows(); ++i)
        for (int j = 0; j < u.cols(); ++j) {
          sq[first + j] += std::norm(hu(i, j) - T(theta[first + j]) * u(i, j));
          sq[k + first + j] += std::norm(u(i, j));
        }
    });
    reduce(a_.comm(), std::span<double>(sq), times_);
    return sq;
  }

 private:
  /// f(first, u, hu) for each subspace block u of y (copied into a contiguous block: the
  /// kernels want one) and hu = H·u.
  template <class F>
  void by_blocks(const MultiVector<T>& y, F&& f) {
    for (int first = 0; first < y.cols(); first += nb_) {
      const int w = std::min(nb_, y.cols() - first);
      MultiVector<T> u = scratch_[0].u0.view(0, w), hu = scratch_[0].u1.view(0, w);
      {
        Timer t(times_.spmmv);
        u.assign(y.view(first, w));
        spmmv(a_, u, hu);
        applications_ += w;
      }
      Timer t(times_.rayleigh_ritz);
      f(first, u, hu);
    }
  }

  /// One subspace block each: the recurrence (or a block and H·block), the filter's sum.
  struct Scratch {
    Scratch(const Matrix<T>& a, int nb)
        : u0(a.vector_layout(), nb), u1(a.vector_layout(), nb), sum(a.vector_layout(), nb) {}
    MultiVector<T> u0, u1, sum;
  };

  const Matrix<T>& a_;
  const int nb_, in_turn_;
  std::vector<Scratch> scratch_;  // one per block in turn, the second on first use
  SolverTimes& times_;
  std::int64_t applications_ = 0;
};

/// Column j of y ← column order[j], row by row in place.
template <class T>
void permute_columns(const MultiVector<T>& y, const std::vector<int>& order) {
  std::vector<T> row(order.size());
  for (int i = 0; i < y.local_rows(); ++i) {
    for (std::size_t j = 0; j < order.size(); ++j) row[j] = y(i, order[j]);
    for (std::size_t j = 0; j < order.size(); ++j) y(i, static_cast<int>(j)) = row[j];
  }
}

/// ‖Hy − θy‖ / ((‖H‖ + |θ|)‖y‖) from residual_norms' squares, rank 0's values everywhere.
template <class R>
std::vector<double> relative_residuals(MPI_Comm comm, const std::vector<double>& sq,
                                       const std::vector<R>& theta, double norm_h,
                                       SolverTimes& times) {
  const int k = static_cast<int>(theta.size());
  std::vector<double> rel(k);
  for (int j = 0; j < k; ++j)
    rel[j] =
        std::sqrt(sq[j]) / ((norm_h + std::abs(theta[j])) * std::max(std::sqrt(sq[k + j]), 1e-300));
  agree(comm, std::span<double>(rel), times);
  return rel;
}

}  // namespace tseig::sparse::detail
