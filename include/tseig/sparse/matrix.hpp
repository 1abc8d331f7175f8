#pragma once
// tseig::sparse::Matrix<T>: a square sparse matrix distributed by contiguous row blocks.
// Each rank stores its rows with 32-bit local column indices: its own columns first
// (global − first_row), then the halo, the remote columns it reads, sorted by global
// index. The halo-exchange plan is built once here and reused by every kernel call.
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <span>

#include "tseig/export.hpp"
#include "tseig/sparse/partition.hpp"
#include "tseig/sparse/tune.hpp"

namespace tseig::sparse {

template <class T>
struct MatrixData;  // storage and halo plan (src/sparse/matrix_data.hpp)

template <class T>
class Matrix {
 public:
  using value_type = T;

  /// Collective over `comm`: builds the matrix from this rank's rows in CSR form with
  /// global column indices (0 <= col < n). The ranks' rows follow each other in rank
  /// order (a rank may pass none); row_ptr has local rows + 1 entries, starting at 0.
  /// Repeated columns within a row are summed. Bad input raises Error on every rank.
  Matrix(MPI_Comm comm, std::int64_t n, std::span<const std::int64_t> row_ptr,
         std::span<const std::int64_t> cols, std::span<const T> values,
         const SparseTuneParameters& tune = {});

  /// The same matrix (same rows, halo plan and results up to rounding order) stored in
  /// tune's format: how a tuned or GPU-bound format is adopted without rebuilding the
  /// matrix from the caller's arrays, and how the sweep's knobs (prefetch_x,
  /// overlap_halo) are changed; the same storage, shared, when format and knobs are
  /// already tune's. Collective (a bad C or σ raises on every rank).
  Matrix with_format(const SparseTuneParameters& tune) const;

  MPI_Comm comm() const;
  std::int64_t rows() const;      ///< global order n
  std::int64_t nonzeros() const;  ///< global number of stored entries
  const RowPartition& partition() const;
  std::int64_t first_row() const;
  int local_rows() const;
  int halo_rows() const;
  std::int64_t local_nonzeros() const;
  SparseFormat format() const;
  /// The layout block vectors need to be operands of this matrix.
  VectorLayout vector_layout() const;

  /// Internal storage, for the kernels.
  const MatrixData<T>& data() const { return *data_; }

 private:
  std::shared_ptr<const MatrixData<T>> data_;
};

}  // namespace tseig::sparse
