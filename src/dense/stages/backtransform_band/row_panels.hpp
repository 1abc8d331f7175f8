#pragma once
// The layout stage 4 works in: contiguous rows per process row (cut where the reflectors'
// work is balanced), each rank's own block-cyclic columns, one panel per rank, and the
// copies (all-to-alls within process columns) that move the eigenvector matrix between it
// and the block-cyclic layout.
#include <cstddef>
#include <vector>

#include "tseig/matrix.hpp"

namespace tseig::dense {

/// Stage 4's rows: process row r holds rows [cut[r], cut[r + 1]) of Z, cut where the
/// reflectors' work is balanced (row i meets the reflectors of the i sweeps above it, so
/// the work above row x grows like x² and cuts at n·√(r/P) balance it). Every range but
/// the last holds at least `halo` rows, so a step crosses at most one boundary; fewer
/// process rows take part when the matrix is too small (the others hold no rows).
/// Columns do not move: every rank keeps its block-cyclic columns of Z (each column
/// takes the reflectors on its own), so the panels are exchanged within process columns
/// only, and not at all on one process row.
std::vector<int> stage4_row_cuts(int n, int halo, int nprow);

/// This rank's part in stage 4's pipeline (host.cpp, cuda.cpp): blocks of k sweeps, the
/// halo of b + k − 1 rows, process row `me` holding rows [lo, hi) (none when lo == hi)
/// and the halo below them up to ext, `cols` columns (its local columns of Z's first
/// nev); up/down: whether it exchanges halos with the process row above / below (top and
/// below rows).
struct PipelineRows {
  int k, halo;
  std::vector<int> row_cut;
  int me, lo, hi, ext, cols, top, below;
  bool mine, up, down;
  PipelineRows(const Grid& g, int n, int cols, int b, int k);
};

/// The first sweep of the last block of k sweeps (blocks are applied from the last).
inline int last_block_start(int sweeps, int k) {
  return ((sweeps - 1) / k) * k;
}

/// Where this rank's panel keeps element (i, j): in stripes of `width` columns stored row
/// by row, `ld` rows per stripe (width 1: column-major with leading dimension ld).
struct PanelStorage {
  int ld, width;
  std::size_t at(int i, int j) const {
    return (static_cast<std::size_t>(j / width) * ld + i) * width + j % width;
  }
};

/// Collective over Z's grid. to_panel: panel (rows [row_cut[myrow], row_cut[myrow + 1]) ×
/// this rank's first `cols` local columns) ← Z's; else Z ← panel. Moves a bounded number of
/// columns per all-to-all, so the buffers stay small next to Z. Every rank gets its
/// buffers or every rank throws Error(out_of_memory).
template <class T>
void exchange_panels(DistMatrix<T>& Z, const std::vector<int>& row_cut, int cols, T* panel,
                     PanelStorage storage, bool to_panel);

}  // namespace tseig::dense
