#pragma once
// Row distribution of sparse matrices and block vectors: every rank owns one contiguous
// block of rows, in rank order; global indices are 64-bit, local ones 32-bit.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tseig/export.hpp"

namespace tseig::sparse {

/// Rows [offsets[r], offsets[r+1]) belong to rank r; offsets has (ranks + 1) entries.
struct TSEIG_API RowPartition {
  std::vector<std::int64_t> offsets;

  int ranks() const { return static_cast<int>(offsets.size()) - 1; }
  std::int64_t rows() const { return offsets.back(); }
  std::int64_t first(int rank) const { return offsets[static_cast<std::size_t>(rank)]; }
  std::int64_t count(int rank) const {
    const auto r = static_cast<std::size_t>(rank);
    return offsets[r + 1] - offsets[r];
  }
  /// The rank owning global row `row` (0 <= row < rows()).
  int owner(std::int64_t row) const;
  /// A hash of the offsets: equal on every rank, and equal for equal partitions.
  std::uint64_t key() const;
};

/// Collective: the partition in which every rank owns the `local_rows` it passes.
TSEIG_API RowPartition partition_from_counts(MPI_Comm comm, std::int64_t local_rows);

/// Collective: contiguous blocks of `rows` rows whose nonzero counts are proportional to
/// `weights` (one per rank, all ranks pass the same; empty: equal weights). Each rank
/// evaluates `row_nonzeros` only for about rows/P rows, so any size works.
TSEIG_API RowPartition partition_by_nonzeros(MPI_Comm comm, std::int64_t rows,
                                             const std::function<int(std::int64_t)>& row_nonzeros,
                                             std::span<const double> weights = {});

/// How a block vector's rows are laid out on this rank: its own rows, then room for
/// the halo (the remote rows a matrix reads), which the kernels fill. partition_key and
/// halo_rows (the most any rank needs) are the same on every rank, so a kernel that
/// rejects an operand does so on every rank.
struct VectorLayout {
  MPI_Comm comm = MPI_COMM_NULL;
  std::int64_t global_rows = 0;
  std::uint64_t partition_key = 0;
  std::int64_t first_row = 0;
  int local_rows = 0;
  int halo_rows = 0;
};

}  // namespace tseig::sparse
