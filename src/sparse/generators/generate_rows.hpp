#pragma once
// Builds a Matrix from a row function: row(i, entries) appends the (global column,
// value) pairs of global row i. The partition balances nonzeros (rows counted once on a
// slice of rows per rank), then each rank generates its own rows.
#include <mpi.h>

#include <functional>
#include <utility>
#include <vector>

#include "tseig/sparse/matrix.hpp"

namespace tseig::sparse {

template <class T>
using RowGenerator = std::function<void(std::int64_t, std::vector<std::pair<std::int64_t, T>>&)>;

template <class T>
Matrix<T> generate_rows(MPI_Comm comm, std::int64_t n, const RowGenerator<T>& row,
                        const SparseTuneParameters& tune, std::span<const double> weights) {
  std::vector<std::pair<std::int64_t, T>> entries;
  const RowPartition p = partition_by_nonzeros(
      comm, n,
      [&](std::int64_t i) {
        entries.clear();
        row(i, entries);
        return static_cast<int>(entries.size());
      },
      weights);
  int me = 0;
  MPI_Comm_rank(comm, &me);
  std::vector<std::int64_t> ptr{0}, cols;
  std::vector<T> vals;
  for (std::int64_t i = p.first(me); i < p.first(me + 1); ++i) {
    entries.clear();
    row(i, entries);
    for (const auto& [c, v] : entries) {
      cols.push_back(c);
      vals.push_back(v);
    }
    ptr.push_back(static_cast<std::int64_t>(cols.size()));
  }
  return Matrix<T>(comm, n, ptr, cols, vals, tune);
}

}  // namespace tseig::sparse
