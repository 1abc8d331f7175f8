#pragma once
// One sweep over a set of rows (CRS) or chunks (SELL-C-σ): for each row i the block row
// acc = Σ_j a_ij X_j (nb entries), handed to op.template row<NB>(i, acc) which finishes
// the fused operation. NB > 0 fixes the block width at compile time, so g++ unrolls and
// vectorizes the inner loops across the width; NB = 0 is the generic width.
#include <algorithm>
#include <array>
#include <type_traits>
#include <vector>

#include "sparse/matrix_data.hpp"

namespace tseig::sparse {

/// Calls f(std::integral_constant<int, NB>) with NB = nb for the specialised widths,
/// NB = 0 otherwise.
template <class F>
void with_block_width(int nb, F&& f) {
  switch (nb) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    case 16:
      return f(std::integral_constant<int, 16>{});
    case 32:
      return f(std::integral_constant<int, 32>{});
    case 64:
      return f(std::integral_constant<int, 64>{});
    default:
      return f(std::integral_constant<int, 0>{});
  }
}

template <int NB, class T, class Op>
void crs_sweep(const CrsStorage<T>& a, const UnitRanges& ranges, const T* __restrict x, int ldx,
               int nb, Op& op) {
  const int w = NB > 0 ? NB : nb;
  std::array<T, (NB > 0 ? NB : 1)> fixed{};
  std::vector<T> generic(NB > 0 ? 0 : nb);
  T* __restrict acc = NB > 0 ? fixed.data() : generic.data();
  const std::int64_t* __restrict ptr = a.row_ptr.data();
  const std::int32_t* __restrict col = a.col.data();
  const T* __restrict val = a.val.data();
  for (const auto& [first, last] : ranges)
    for (int i = first; i < last; ++i) {
      for (int k = 0; k < w; ++k) acc[k] = T(0);
      for (std::int64_t j = ptr[i]; j < ptr[i + 1]; ++j) {
        const T v = val[j];
        const T* __restrict xr = x + static_cast<std::size_t>(col[j]) * ldx;
        for (int k = 0; k < w; ++k) acc[k] += v * xr[k];
      }
      op.template row<NB>(i, acc, w);
    }
}

/// SELL-C-σ. One vector (NB = 1): the C rows of a chunk advance in lock step, so SIMD
/// runs across rows. A block: SIMD already runs across the width, so each row of the
/// chunk is finished in turn with its accumulator in registers, reading its entries at
/// stride C (the chunk is in cache).
template <int NB, class T, class Op>
void sell_sweep(const SellStorage<T>& a, const UnitRanges& ranges, const T* __restrict x, int ldx,
                int nb, Op& op) {
  const int w = NB > 0 ? NB : nb, c = a.chunk;
  std::array<T, (NB > 1 ? NB : 1)> fixed{};
  std::vector<T> generic(NB == 1 ? c : NB > 1 ? 0 : w);
  T* __restrict acc = NB > 1 ? fixed.data() : generic.data();
  const std::int32_t* __restrict col = a.col.data();
  const T* __restrict val = a.val.data();
  for (const auto& [first, last] : ranges)
    for (int chunk = first; chunk < last; ++chunk) {
      const std::int64_t base = a.chunk_ptr[chunk];
      const int width = a.width[chunk];
      const std::int32_t* rows = a.row.data() + static_cast<std::size_t>(chunk) * c;
      if constexpr (NB == 1) {
        for (int r = 0; r < c; ++r) acc[r] = T(0);
        for (int j = 0; j < width; ++j) {
          const std::int64_t slots = base + static_cast<std::int64_t>(j) * c;
          for (int r = 0; r < c; ++r)
            acc[r] += val[slots + r] * x[static_cast<std::size_t>(col[slots + r]) * ldx];
        }
        for (int r = 0; r < c; ++r)
          if (rows[r] >= 0) op.template row<1>(rows[r], acc + r, 1);
      } else {
        for (int r = 0; r < c && rows[r] >= 0; ++r) {
          for (int k = 0; k < w; ++k) acc[k] = T(0);
          for (int j = 0; j < width; ++j) {
            const std::int64_t slot = base + static_cast<std::int64_t>(j) * c + r;
            const T v = val[slot];
            const T* __restrict xr = x + static_cast<std::size_t>(col[slot]) * ldx;
            for (int k = 0; k < w; ++k) acc[k] += v * xr[k];
          }
          op.template row<NB>(rows[r], acc, w);
        }
      }
    }
}

/// Applies `op` to every local row of A·X: posts the halo exchange of X, sweeps the
/// units that read no halo entry while it is in flight, then the others.
template <class T, class Op>
void sweep_with_halo(const MatrixData<T>& d, T* x, int ldx, int nb, Op& op) {
  HaloExchange<T> halo(d.comm, d.halo, x, d.local_rows, ldx, nb);
  halo.begin();
  with_block_width(nb, [&](auto width) {
    constexpr int NB = decltype(width)::value;
    auto run = [&](const UnitRanges& units) {
      if (d.format == SparseFormat::crs)
        crs_sweep<NB>(d.crs, units, x, ldx, nb, op);
      else
        sell_sweep<NB>(d.sell, units, x, ldx, nb, op);
    };
    run(d.interior);
    halo.finish();
    run(d.boundary);
  });
}

}  // namespace tseig::sparse
