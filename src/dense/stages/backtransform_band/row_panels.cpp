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

std::vector<int> stage4_row_cuts(int n, int halo, int nprow) {
  for (int p = nprow; p > 1; --p) {
    std::vector<int> cut(static_cast<std::size_t>(nprow) + 1, n);
    for (int r = 0; r <= p; ++r)
      cut[r] = static_cast<int>(std::lround(n * std::sqrt(static_cast<double>(r) / p)));
    bool wide = true;
    for (int r = 0; r + 1 < p; ++r) wide = wide && cut[r + 1] - cut[r] >= halo;
    if (wide) return cut;
  }
  std::vector<int> cut(static_cast<std::size_t>(nprow) + 1, n);  // all rows on process row 0
  cut[0] = 0;
  return cut;
}

PipelineRows::PipelineRows(const Grid& g, int n, int cols_, int b, int k_)
    : k(k_),
      halo(std::min(n, b + k_ - 1)),
      row_cut(stage4_row_cuts(n, halo, g.nprow())),
      me(g.myrow()),
      lo(row_cut[me]),
      hi(row_cut[me + 1]),
      ext(std::min(n, hi + halo)),
      cols(cols_),
      top(std::min(halo, hi - lo)),
      below(ext - hi),
      mine(hi > lo),
      up(mine && me > 0),
      down(mine && hi < n) {}

namespace {

// Calls visit(panel element, i, j) for rows i in [0, rows) of panel columns j in [j0, j1),
// a stripe's row (or, width 1, a column) at a time: the order the panel is stored in.
template <class T, class F>
void walk_panel(T* panel, PanelStorage storage, int rows, int j0, int j1, F&& visit) {
  for (int s0 = j0; s0 < j1;) {
    const int s1 = std::min(j1, (s0 / storage.width + 1) * storage.width);
    for (int i = 0; i < rows; ++i) {
      T* at = panel + storage.at(i, s0);
      for (int j = s0; j < s1; ++j) visit(at[j - s0], i, j);
    }
    s0 = s1;
  }
}

}  // namespace

template <class T>
void exchange_panels(DistMatrix<T>& Z, const std::vector<int>& row_cut, int cols, T* panel,
                     PanelStorage storage, bool to_panel) {
  const Grid& g = Z.grid();
  const int pr = g.nprow(), my_r = g.myrow();
  const int lo = row_cut[my_r], rows = row_cut[my_r + 1] - lo;
  if (pr == 1) {
    // Every row is here (row_cut = {0, n}): a copy.
    walk_panel(panel, storage, rows, 0, cols, [&](T& p, int i, int j) {
      T& z = Z.local(i, j);
      if (to_panel)
        p = z;
      else
        z = p;
    });
    return;
  }
  // Z's local rows that fall in process row r's range, and the panel rows of mine that
  // process row r of Z owns, in order.
  std::vector<std::vector<int>> z_rows(pr), p_rows(pr);
  for (int li = 0; li < Z.local_rows(); ++li) {
    const int gi = Z.global_row(li);
    for (int r = 0; r < pr; ++r)
      if (gi >= row_cut[r] && gi < row_cut[r + 1]) z_rows[r].push_back(li);
  }
  for (int i = 0; i < rows; ++i) p_rows[Z.row_owner(lo + i)].push_back(i);
  // Columns per all-to-all: about 2²⁰ entries per rank. The buffers are sized once, on
  // every rank together; the all-to-alls run within each process column, whose ranks
  // share the column count.
  const int chunk = static_cast<int>(
      std::clamp((1L << 20) * pr / std::max(Z.m(), 1), 64L, static_cast<long>(std::max(cols, 1))));
  cached_vector<T> zbuf, pbuf;  // reuse blocks the divide & conquer kept
  allocate_collectively(g.comm(), [&] {
    zbuf.resize(static_cast<std::size_t>(chunk) * Z.local_rows());
    pbuf.resize(static_cast<std::size_t>(chunk) * rows);
  });
  std::vector<int> zcount(pr), pcount(pr), zdispl(pr), pdispl(pr);
  const MPI_Datatype type = mpi_type<T>();
  for (int c0 = 0; c0 < cols; c0 += chunk) {
    const int c1 = std::min(cols, c0 + chunk);
    for (int r = 0, zat = 0, pat = 0; r < pr; ++r) {
      zcount[r] = static_cast<int>(z_rows[r].size()) * (c1 - c0);
      pcount[r] = static_cast<int>(p_rows[r].size()) * (c1 - c0);
      zdispl[r] = zat;
      pdispl[r] = pat;
      zat += zcount[r];
      pat += pcount[r];
    }
    // Both sides column by column, each process row's rows in order.
    auto z_side = [&](auto&& visit) {
      for (int r = 0; r < pr; ++r) {
        T* at = zbuf.data() + zdispl[r];
        for (int lj = c0; lj < c1; ++lj)
          for (int li : z_rows[r]) visit(*at++, Z.local(li, lj));
      }
    };
    auto p_side = [&](auto&& visit) {
      for (int r = 0; r < pr; ++r) {
        T* at = pbuf.data() + pdispl[r];
        for (int j = c0; j < c1; ++j)
          for (int i : p_rows[r]) visit(*at++, panel[storage.at(i, j)]);
      }
    };
    if (to_panel) {
      z_side([](T& buf, T& z) { buf = z; });
      MPI_Alltoallv(zbuf.data(), zcount.data(), zdispl.data(), type, pbuf.data(), pcount.data(),
                    pdispl.data(), type, g.col_comm());
      p_side([](T& buf, T& p) { p = buf; });
    } else {
      p_side([](T& buf, T& p) { buf = p; });
      MPI_Alltoallv(pbuf.data(), pcount.data(), pdispl.data(), type, zbuf.data(), zcount.data(),
                    zdispl.data(), type, g.col_comm());
      z_side([](T& buf, T& z) { z = buf; });
    }
  }
}

#define TSEIG_INSTANTIATE(T)                                                                    \
  template void exchange_panels(DistMatrix<T>&, const std::vector<int>&, int, T*, PanelStorage, \
                                bool);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
