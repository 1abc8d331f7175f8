#pragma once
// tseig::sparse::MultiVector<T>: a row-distributed block of vectors stored row-major
// (interleaved): the nb entries of one row lie side by side, so a sparse kernel reads a
// whole row of the block per matrix entry and vectorizes across the block width. Below
// the local rows lies room for the halo rows a matrix reads. A view of a column block
// shares the storage (row stride ld stays the parent's).
#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tseig/export.hpp"
#include "tseig/sparse/partition.hpp"
#include "tseig/types.hpp"

namespace tseig::sparse {

template <class T>
class MultiVector {
 public:
  MultiVector() = default;
  /// Zero block of `cols` columns with the row layout of a matrix's operands.
  MultiVector(const VectorLayout& layout, int cols);

  const VectorLayout& layout() const { return layout_; }
  MPI_Comm comm() const { return layout_.comm; }
  int local_rows() const { return layout_.local_rows; }
  int cols() const { return cols_; }
  int ld() const { return ld_; }
  T* data() const { return data_; }
  T& operator()(int row, int col) const { return data_[static_cast<std::size_t>(row) * ld_ + col]; }

  /// Columns [first, first + count) as a view sharing this block's storage.
  MultiVector view(int first, int count) const;
  /// This whole block's storage seen as a contiguous block of `cols` ≤ cols() columns
  /// (row stride `cols`, halo room included), with unspecified entries: one allocation
  /// reused as workspace of several widths. Not for views.
  MultiVector packed(int cols) const;
  /// Deterministic random entries: the entry of global row i and column j depends only on
  /// (seed, i, j), so the block is the same for any rank count. Real types: ±1;
  /// complex types: random phases e^{iφ}.
  void fill_random(std::uint64_t seed);
  void set_zero();
  /// Copies the local rows of `x` (same shape).
  void assign(const MultiVector& x);

 private:
  VectorLayout layout_;
  int cols_ = 0, ld_ = 0;
  std::shared_ptr<T> storage_;  // 64-byte aligned
  T* data_ = nullptr;
};

/// Y ← αX + βY (local, same shape).
template <class T>
TSEIG_API void axpby(T alpha, const MultiVector<T>& x, T beta, const MultiVector<T>& y);

/// Collective: per column j, Σ_i conj(X_ij)·Y_ij.
template <class T>
TSEIG_API std::vector<T> column_dots(const MultiVector<T>& x, const MultiVector<T>& y);

/// Collective: per column, the 2-norm.
template <class T>
TSEIG_API std::vector<real_t<T>> column_norms(const MultiVector<T>& x);

/// Collective: the Gram matrix XᴴY (x.cols() × y.cols(), column-major), one allreduce.
template <class T>
TSEIG_API std::vector<T> gram(const MultiVector<T>& x, const MultiVector<T>& y);

/// Y ← X·S with S column-major x.cols() × y.cols(), the same on every rank (local).
template <class T>
TSEIG_API void multiply(const MultiVector<T>& x, std::span<const T> s, const MultiVector<T>& y);

/// Collective: in-place sum over the ranks of `comm` (the one reduction of the partial
/// dot products the kernels return).
template <class T>
TSEIG_API void sum_over_ranks(MPI_Comm comm, std::span<T> values);

}  // namespace tseig::sparse
