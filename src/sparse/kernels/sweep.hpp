#pragma once
// One sweep over a set of rows (CRS) or chunks (SELL-C-σ): for each row i the block row
// acc = Σ_j a_ij X_j, held in SIMD lanes (kernels/lanes.hpp), handed part by part to
// op.row(i, part, acc, state) which finishes the fused operation on that part's columns
// and adds to its dot products in `state` (SweepState below). The
// block width is a compile-time power of two ≤ 64; other widths are cut into column
// panels of such widths, each swept in turn. A row wider than the registers hold
// (row_part_width) is summed one part at a time, re-reading its entries from L1: the
// matrix and the blocks still stream from memory once (column panels of a row-major
// block would not: each would pull whole rows through the cache).
#include <algorithm>
#include <array>
#include <bit>
#include <type_traits>

#include "sparse/kernels/lanes.hpp"
#include "sparse/matrix_data.hpp"

namespace tseig::sparse {

/// Calls f(std::integral_constant<int, NB>{}, first) for the panels [first, first + NB)
/// of a width-nb block: 64-wide panels, then the binary digits of what is left.
template <class F>
void for_each_panel(int nb, F&& f) {
  for (int first = 0; first < nb;) {
    const int w = static_cast<int>(std::bit_floor(static_cast<unsigned>(std::min(nb - first, 64))));
    auto call = [&](auto width) { f(width, first); };
    switch (w) {
      case 1:
        call(std::integral_constant<int, 1>{});
        break;
      case 2:
        call(std::integral_constant<int, 2>{});
        break;
      case 4:
        call(std::integral_constant<int, 4>{});
        break;
      case 8:
        call(std::integral_constant<int, 8>{});
        break;
      case 16:
        call(std::integral_constant<int, 16>{});
        break;
      case 32:
        call(std::integral_constant<int, 32>{});
        break;
      default:
        call(std::integral_constant<int, 64>{});
        break;
    }
    first += w;
  }
}

/// Σ_j a_j·x_j over the entries of one row, (re, im) split for complex a (see
/// Lanes::combine): the inner loop is then pure multiply-adds across the width.
template <int NB, class T>
struct RowSum {
  using L = Lanes<T, NB>;
  /// The registers the sum takes (re and im apart for complex).
  static constexpr int registers = L::count * (L::complex ? 2 : 1);
  typename L::Row re{}, im{};
  void add(T a, const T* x) {
    const typename L::Row xr = L::load(x);
    if constexpr (L::complex) {
      L::add_scaled(re, a.real(), xr);
      L::add_scaled(im, a.imag(), xr);
    } else {
      L::add_scaled(re, a, xr);
    }
  }
  typename L::Row result() const {
    if constexpr (L::complex)
      return L::combine(re, im);
    else
      return re;
  }
};

// Wide block rows: the X rows that row i + prefetch_rows_ahead reads are fetched into
// L2 ahead of time. A row's far neighbours come from the last-level cache or memory, and
// with a row taking hundreds of cycles of multiply-adds the core may not run ahead far
// enough to overlap them (SparseTuneParameters::prefetch_x gives the measurements).
// Narrow rows lose by it (nb ≤ 4 complex: −15 %): their prefetches cost as much as the
// loads they cover, so the default keeps them to rows of 256 bytes and more. With
// prefetch_x = 2 the sweep also fetches, stream_rows_ahead rows ahead, what it reads in
// row order: the row's entries, column indices and its own X row, and the finisher's rows
// (Op::prefetch). By default that is done where a row's entries take 128 bytes or more
// and a block row 128–512 bytes: there the hardware's prefetchers fell behind (TI 64³,
// 208 bytes of entries per row, nb = 8–32: 6–21 % faster; the real 3D Laplacian, 56
// bytes, 15–19 % slower; Zen 5).
inline constexpr int prefetch_rows_ahead = 4;
inline constexpr int stream_rows_ahead = 8;

enum class Prefetch { none, x_rows, x_rows_and_streams };

template <class T, int NB>
Prefetch prefetches(const MatrixData<T>& d) {
  if (d.prefetch_x >= 0) return static_cast<Prefetch>(d.prefetch_x);
  constexpr std::size_t row_bytes = NB * sizeof(T);
  const bool long_rows =
      d.local_nonzeros * sizeof(T) >= 128 * static_cast<std::size_t>(d.local_rows);
  if (long_rows && d.local_rows > 0 && row_bytes >= 128 && row_bytes <= 512)
    return Prefetch::x_rows_and_streams;
  return row_bytes >= 256 ? Prefetch::x_rows : Prefetch::none;
}

// The prefetch helpers are always inlined: a call to one is a call to a function with
// no effect g++ can see (it reads memory and returns nothing), and g++ 12 deleted such
// calls as dead before inlining them (prefetch_row_streams lost every prefetch).
[[gnu::always_inline]] inline void prefetch_bytes(const void* first, std::size_t bytes) {
  const char* p = static_cast<const char*>(first);
  for (std::size_t b = 0; b < bytes; b += 64) __builtin_prefetch(p + b, 0, 2);
}

template <class T>
[[gnu::always_inline]] inline void prefetch_x_rows(const std::int64_t* ptr, const std::int32_t* col,
                                                   const T* x, int ldx, int row,
                                                   std::size_t row_bytes) {
  for (std::int64_t j = ptr[row]; j < ptr[row + 1]; ++j)
    prefetch_bytes(x + static_cast<std::size_t>(col[j]) * ldx, row_bytes);
}

// The row's entries and column indices (their last line too: the first need not be
// aligned) and its own X row, which the finishers' dot products read.
template <class T>
[[gnu::always_inline]] inline void prefetch_row_streams(const std::int64_t* ptr,
                                                        const std::int32_t* col, const T* val,
                                                        const T* x, int ldx, int row,
                                                        std::size_t row_bytes) {
  const std::size_t entries = static_cast<std::size_t>(ptr[row + 1] - ptr[row]);
  prefetch_bytes(val + ptr[row], entries * sizeof(T) + 63);
  prefetch_bytes(col + ptr[row], entries * sizeof(std::int32_t) + 63);
  prefetch_bytes(x + static_cast<std::size_t>(row) * ldx, row_bytes);
}

/// The finisher's per-sweep sums (Op::State: its dot accumulators) as the sweep holds
/// them. A local copy, which g++ keeps in registers, when they and the row's partial sums
/// (`row_sums` registers) fit in half the SIMD registers; else the finisher's own, which
/// g++ loads and stores on every row, a dependence through memory from row to row. With
/// more in registers g++ spills the block row's loads instead (a local copy of every
/// state: chebfd_op on the TI in L2 at nb = 8 up to 70 % slower). Kept in registers,
/// aug_spmmv on a 3D Laplacian in L2 ran 11–17 % faster at nb = 8, 16 and 32, and the TI
/// 7 % at nb = 8 (Zen 5; from memory, unchanged within the noise).
template <class Op, int row_sums>
using SweepState = std::conditional_t<Op::State::registers + row_sums <= simd_registers / 2,
                                      typename Op::State, typename Op::State&>;

template <int NB, class T, class Op>
void crs_sweep(const CrsStorage<T>& a, const UnitRanges& ranges, const T* __restrict x, int ldx,
               Prefetch prefetch, Op& op) {
  const std::int64_t* __restrict ptr = a.row_ptr.data();
  const std::int32_t* __restrict col = a.col.data();
  const T* __restrict val = a.val.data();
  // Narrow blocks: a row's multiply-adds form one dependence chain per register, so
  // several partial sums run side by side to cover the latency (≈ 8 registers in flight:
  // two FMA units × 4 cycles; with 4, the TI at nb = 8 reached 54–55 % of its roofline
  // and the Laplacian at nb = 16 64–77 %, with 8 56–72 % and 66–95 %, Zen 5, interleaved).
  constexpr int W = row_part_width<T, NB>();
  using L = Lanes<T, W>;
  constexpr int chains = std::max(1, 8 / RowSum<W, T>::registers);
  SweepState<Op, chains * RowSum<W, T>::registers> state = op.state;
  for (const auto& [first, last] : ranges)
    for (int i = first; i < last; ++i) {
      if (prefetch != Prefetch::none && i + prefetch_rows_ahead < last)
        prefetch_x_rows(ptr, col, x, ldx, i + prefetch_rows_ahead, NB * sizeof(T));
      if (prefetch == Prefetch::x_rows_and_streams && i + stream_rows_ahead < last) {
        prefetch_row_streams(ptr, col, val, x, ldx, i + stream_rows_ahead, NB * sizeof(T));
        op.prefetch(i + stream_rows_ahead);
      }
      for (int part = 0; part < NB / W; ++part) {
        const T* xp = x + part * W;
        std::array<RowSum<W, T>, chains> sums;
        std::int64_t j = ptr[i];
        for (; j + chains <= ptr[i + 1]; j += chains)
          for (int c = 0; c < chains; ++c)
            sums[c].add(val[j + c], xp + static_cast<std::size_t>(col[j + c]) * ldx);
        for (; j < ptr[i + 1]; ++j)
          sums[0].add(val[j], xp + static_cast<std::size_t>(col[j]) * ldx);
        typename L::Row acc = sums[0].result();
        for (int c = 1; c < chains; ++c) acc = L::plus(acc, sums[c].result());
        op.row(i, part, acc, state);
      }
    }
  if constexpr (!std::is_reference_v<decltype(state)>) op.state = state;
}

/// SELL-C-σ. One vector (NB = 1): the C rows of a chunk advance in lock step, so SIMD
/// runs across rows. A block: SIMD runs across the width, so each row of the chunk is
/// finished in turn, reading its entries at stride C (the chunk is in cache).
template <int NB, class T, class Op>
void sell_sweep(const SellStorage<T>& a, const UnitRanges& ranges, const T* __restrict x, int ldx,
                Op& op) {
  SweepState<Op, RowSum<row_part_width<T, NB>(), T>::registers> state = op.state;
  const int c = a.chunk;
  std::vector<T> across(NB == 1 ? c : 0);
  T* __restrict acc = across.data();
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
          if (rows[r] >= 0) op.row(rows[r], 0, Lanes<T, 1>::load(acc + r), state);
      } else {
        constexpr int W = row_part_width<T, NB>();
        for (int r = 0; r < c && rows[r] >= 0; ++r)
          for (int part = 0; part < NB / W; ++part) {
            RowSum<W, T> sum;
            for (int j = 0; j < width; ++j) {
              const std::int64_t slot = base + static_cast<std::int64_t>(j) * c + r;
              sum.add(val[slot], x + part * W + static_cast<std::size_t>(col[slot]) * ldx);
            }
            op.row(rows[r], part, sum.result(), state);
          }
      }
    }
  if constexpr (!std::is_reference_v<decltype(state)>) op.state = state;
}

/// Applies the row finishers make_op(width, first) of every column panel to the local
/// rows of A·X, whose halo exchange `halo` the caller has begun: sweeps the units that
/// read no halo entry while it is in flight, then the others; op.finish() ends each
/// panel.
template <class T, class MakeOp>
void sweep_posted(const MatrixData<T>& d, HaloExchange<T>& halo, T* x, int ldx, int nb,
                  MakeOp&& make_op) {
  bool arrived = false;
  for_each_panel(nb, [&](auto width, int first) {
    constexpr int NB = decltype(width)::value;
    auto op = make_op(width, first);
    auto run = [&](const UnitRanges& units) {
      if (d.format == SparseFormat::crs)
        crs_sweep<NB>(d.crs, units, x + first, ldx, prefetches<T, NB>(d), op);
      else
        sell_sweep<NB>(d.sell, units, x + first, ldx, op);
    };
    run(d.interior);
    if (!arrived) halo.finish();
    arrived = true;
    run(d.boundary);
    op.finish();
  });
  if (!arrived) halo.finish();
}

/// sweep_posted with the exchange of X posted here.
template <class T, class MakeOp>
void sweep_with_halo(const MatrixData<T>& d, T* x, int ldx, int nb, MakeOp&& make_op) {
  HaloExchange<T> halo(d.comm, d.halo, x, d.local_rows, ldx, nb);
  halo.begin();
  sweep_posted(d, halo, x, ldx, nb, make_op);
}

}  // namespace tseig::sparse
