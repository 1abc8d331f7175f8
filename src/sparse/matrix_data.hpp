#pragma once
// What a Matrix<T> holds on each rank: the local rows in CRS or SELL-C-σ, the halo plan,
// and the units (rows or chunks) that read no halo entry — the kernels compute those
// while the halo is in flight, the boundary units afterwards.
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "sparse/dist/halo_plan.hpp"
#include "sparse/formats/crs.hpp"
#include "sparse/formats/sell.hpp"
#include "tseig/sparse/matrix.hpp"

namespace tseig::sparse {

/// Half-open ranges [first, second) of rows (CRS) or chunks (SELL-C-σ).
using UnitRanges = std::vector<std::pair<int, int>>;

template <class T>
struct MatrixData {
  MPI_Comm comm = MPI_COMM_NULL;
  RowPartition partition;
  std::int64_t first_row = 0;
  int local_rows = 0;
  std::int64_t local_nonzeros = 0;
  std::int64_t nonzeros = 0;
  int max_halo_rows = 0;  // over all ranks: the halo room of every operand block
  SparseFormat format = SparseFormat::crs;
  int prefetch_x = -1;    // SparseTuneParameters::prefetch_x
  int overlap_halo = -1;  // SparseTuneParameters::overlap_halo, as interior/boundary split it
  CrsStorage<T> crs;      // empty when format is SELL-C-σ
  SellStorage<T> sell;    // empty when format is CRS
  HaloPlan halo;
  std::vector<std::int64_t> halo_columns;  // global index of each halo row, ascending
  UnitRanges interior, boundary;
  // require_hermitian's verdict, the same on every rank: -1 not checked yet, 0 no, 1 yes.
  mutable int hermitian = -1;
  mutable std::string not_hermitian_at;  // the message's account of where, for later calls
};

}  // namespace tseig::sparse
