#pragma once
// The layout stage 4 works in: contiguous rows per process row (cut where the reflectors'
// work is balanced) and contiguous columns per process column, one panel per rank, and the
// all-to-alls that move the eigenvector matrix between it and the block-cyclic layout.
#include <cstddef>
#include <vector>

#include "tseig/matrix.hpp"

namespace tseig::dense {

/// Process row r holds rows [row_cut[r], row_cut[r + 1]), process column c columns
/// [col_cut[c], col_cut[c + 1]) of the first col_cut.back() columns.
struct RowPanels {
  std::vector<int> row_cut, col_cut;
  int rows(int r) const { return row_cut[r + 1] - row_cut[r]; }
  int cols(int c) const { return col_cut[c + 1] - col_cut[c]; }
};

/// Stage 4's layout of Z's first nev columns: columns split evenly over process columns;
/// rows cut where the reflectors' work is balanced (row i meets the reflectors of the i
/// sweeps above it, so the work above row x grows like x² and cuts at n·√(r/P) balance
/// it). Every range but the last holds at least `halo` rows, so a step crosses at most
/// one boundary; fewer process rows take part when the matrix is too small (the others
/// hold no rows).
RowPanels stage4_layout(int n, int nev, int halo, int nprow, int npcol);

/// This rank's part in stage 4's pipeline (host.cpp, cuda.cpp): blocks of k sweeps, the
/// halo of b + k − 1 rows, process row `me` holding rows [lo, hi) (none when lo == hi)
/// and the halo below them up to ext, `cols` columns; up/down: whether it exchanges
/// halos with the process row above / below (top and below rows).
struct PipelineRows {
  int k, halo;
  RowPanels layout;
  int me, lo, hi, ext, cols, top, below;
  bool mine, up, down;
  PipelineRows(const Grid& g, int n, int nev, int b, int k);
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

/// Collective over Z's grid. to_panel: panel (this rank's rows × columns) ← Z's; else Z ←
/// panel. Moves a bounded number of columns per all-to-all, so the buffers stay small next
/// to Z. Every rank gets its buffers or every rank throws Error(out_of_memory).
template <class T>
void exchange_panels(DistMatrix<T>& Z, const RowPanels& layout, T* panel, PanelStorage storage,
                     bool to_panel);

}  // namespace tseig::dense
