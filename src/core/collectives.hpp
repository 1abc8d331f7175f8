#pragma once
// Small collectives built from the grid's row and column communicators.
#include <mpi.h>

#include "core/mpi_types.hpp"
#include "tseig/grid.hpp"

namespace tseig {

/// In-place sum of buf over every rank of the grid: along process rows, then columns.
template <class T>
void sum_over_grid(const Grid& g, T* buf, int count) {
  if (count <= 0) return;
  if (g.npcol() > 1) MPI_Allreduce(MPI_IN_PLACE, buf, count, mpi_type<T>(), MPI_SUM, g.row_comm());
  if (g.nprow() > 1) MPI_Allreduce(MPI_IN_PLACE, buf, count, mpi_type<T>(), MPI_SUM, g.col_comm());
}

/// In-place sum of buf over my process column (the ranks sharing my grid column).
template <class T>
void sum_over_column(const Grid& g, T* buf, int count) {
  if (count > 0 && g.nprow() > 1)
    MPI_Allreduce(MPI_IN_PLACE, buf, count, mpi_type<T>(), MPI_SUM, g.col_comm());
}

/// Broadcast along my process row from process column `root_col`.
template <class T>
void broadcast_along_row(const Grid& g, T* buf, int count, int root_col) {
  if (count > 0 && g.npcol() > 1) MPI_Bcast(buf, count, mpi_type<T>(), root_col, g.row_comm());
}

}  // namespace tseig
