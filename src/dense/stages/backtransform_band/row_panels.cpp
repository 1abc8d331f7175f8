#include "dense/stages/backtransform_band/row_panels.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/buffer_cache.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"

namespace tseig::dense {

RowPanels stage4_layout(int n, int nev, int halo, int nprow, int npcol) {
  RowPanels layout{std::vector<int>(static_cast<std::size_t>(nprow) + 1, n),
                   std::vector<int>(static_cast<std::size_t>(npcol) + 1)};
  for (int c = 0; c <= npcol; ++c)
    layout.col_cut[c] = static_cast<int>(static_cast<long>(nev) * c / npcol);
  layout.row_cut[0] = 0;
  for (int p = nprow; p > 1; --p) {
    std::vector<int> cut(static_cast<std::size_t>(nprow) + 1, n);
    for (int r = 0; r <= p; ++r)
      cut[r] = static_cast<int>(std::lround(n * std::sqrt(static_cast<double>(r) / p)));
    bool wide = true;
    for (int r = 0; r + 1 < p; ++r) wide = wide && cut[r + 1] - cut[r] >= halo;
    if (wide) {
      layout.row_cut = cut;
      break;
    }
  }
  return layout;
}

PipelineRows::PipelineRows(const Grid& g, int n, int nev, int b, int k_)
    : k(k_),
      halo(std::min(n, b + k_ - 1)),
      layout(stage4_layout(n, nev, halo, g.nprow(), g.npcol())),
      me(g.myrow()),
      lo(layout.row_cut[me]),
      hi(layout.row_cut[me + 1]),
      ext(std::min(n, hi + halo)),
      cols(layout.cols(g.mycol())),
      top(std::min(halo, hi - lo)),
      below(ext - hi),
      mine(hi > lo),
      up(mine && me > 0),
      down(mine && hi < n) {}

template <class T>
void exchange_panels(DistMatrix<T>& Z, const RowPanels& layout, T* panel, PanelStorage storage,
                     bool to_panel) {
  const Grid& g = Z.grid();
  const int pr = g.nprow(), pc = g.npcol(), size = g.size();
  const int my_r = g.myrow(), my_c = g.mycol(), ncols = layout.col_cut.back();
  // Z's local rows that fall in process row r's range, and the panel rows of mine that
  // process row r of Z owns, in order.
  std::vector<std::vector<int>> z_rows(pr), p_rows(pr);
  for (int li = 0; li < Z.local_rows(); ++li) {
    const int gi = Z.global_row(li);
    for (int r = 0; r < pr; ++r)
      if (gi >= layout.row_cut[r] && gi < layout.row_cut[r + 1]) z_rows[r].push_back(li);
  }
  for (int gi = layout.row_cut[my_r]; gi < layout.row_cut[my_r + 1]; ++gi)
    p_rows[Z.row_owner(gi)].push_back(gi - layout.row_cut[my_r]);
  // Global columns per all-to-all: about 2²⁰ entries per rank, the same on every rank.
  const long per_rank = 1L << 20;
  const int chunk = static_cast<int>(
      std::clamp(per_rank * size / std::max(Z.m(), 1), 64L, static_cast<long>(std::max(ncols, 1))));
  std::vector<int> zcount(size), pcount(size), zdispl(size), pdispl(size);
  cached_vector<T> zbuf, pbuf;  // reuse blocks the divide & conquer kept
  const MPI_Datatype type = mpi_type<T>();
  for (int c0 = 0; c0 < ncols; c0 += chunk) {
    const int c1 = std::min(ncols, c0 + chunk);
    // Z's local columns in [c0, c1) that fall in process column c's range, and the panel
    // columns of mine in [c0, c1) that process column c of Z owns.
    std::vector<std::vector<int>> z_cols(pc), p_cols(pc);
    for (int lj = 0; lj < Z.local_cols(); ++lj) {
      const int gj = Z.global_col(lj);
      if (gj < c0 || gj >= c1) continue;
      for (int c = 0; c < pc; ++c)
        if (gj >= layout.col_cut[c] && gj < layout.col_cut[c + 1]) z_cols[c].push_back(lj);
    }
    for (int gj = std::max(c0, layout.col_cut[my_c]); gj < std::min(c1, layout.col_cut[my_c + 1]);
         ++gj)
      p_cols[Z.col_owner(gj)].push_back(gj - layout.col_cut[my_c]);
    // Counts per rank of the grid's communicator, in Z's order (column by column).
    for (int r = 0; r < pr; ++r)
      for (int c = 0; c < pc; ++c) {
        const int q = g.rank_of(r, c);
        zcount[q] = static_cast<int>(z_rows[r].size() * z_cols[c].size());
        pcount[q] = static_cast<int>(p_rows[r].size() * p_cols[c].size());
      }
    for (int q = 0, zat = 0, pat = 0; q < size; ++q) {
      zdispl[q] = zat;
      pdispl[q] = pat;
      zat += zcount[q];
      pat += pcount[q];
    }
    allocate_collectively(g.comm(), [&] {
      zbuf.resize(static_cast<std::size_t>(zdispl.back() + zcount.back()));
      pbuf.resize(static_cast<std::size_t>(pdispl.back() + pcount.back()));
    });
    // Walks the Z side and the panel side for every rank in the same order.
    auto z_side = [&](auto&& visit) {
      for (int r = 0; r < pr; ++r)
        for (int c = 0; c < pc; ++c) {
          T* at = zbuf.data() + zdispl[g.rank_of(r, c)];
          for (int lj : z_cols[c])
            for (int li : z_rows[r]) visit(*at++, Z.local(li, lj));
        }
    };
    auto p_side = [&](auto&& visit) {
      for (int r = 0; r < pr; ++r)
        for (int c = 0; c < pc; ++c) {
          T* at = pbuf.data() + pdispl[g.rank_of(r, c)];
          for (int j : p_cols[c])
            for (int i : p_rows[r]) visit(*at++, panel[storage.at(i, j)]);
        }
    };
    if (to_panel) {
      z_side([](T& buf, T& z) { buf = z; });
      MPI_Alltoallv(zbuf.data(), zcount.data(), zdispl.data(), type, pbuf.data(), pcount.data(),
                    pdispl.data(), type, g.comm());
      p_side([](T& buf, T& p) { p = buf; });
    } else {
      p_side([](T& buf, T& p) { buf = p; });
      MPI_Alltoallv(pbuf.data(), pcount.data(), pdispl.data(), type, zbuf.data(), zcount.data(),
                    zdispl.data(), type, g.comm());
      z_side([](T& buf, T& z) { z = buf; });
    }
  }
}

#define TSEIG_INSTANTIATE(T) \
  template void exchange_panels(DistMatrix<T>&, const RowPanels&, T*, PanelStorage, bool);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
