#pragma once
// Small collectives: the all-ranks-agree check and sums and broadcasts built from the
// grid's row and column communicators.
#include <mpi.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

#include "core/mpi_types.hpp"
#include "core/sanitizer.hpp"
#include "tseig/error.hpp"
#include "tseig/grid.hpp"

namespace tseig {

/// Collective over comm: true on every rank if all ranks passed the same values (one
/// allreduce of max(x) and max(~x) = ~min(x); ~ rather than − because −INT_MIN overflows,
/// and the bits of a float, −0.0 among them, are passed here), so that a mismatch can fail
/// on every rank instead of hanging in a later collective.
inline bool ranks_agree(MPI_Comm comm, const std::vector<int>& values) {
  // The lengths first: lists of different lengths in one allreduce abort the job.
  int length[2] = {static_cast<int>(values.size()), ~static_cast<int>(values.size())};
  MPI_Allreduce(MPI_IN_PLACE, length, 2, MPI_INT, MPI_MAX, comm);
  if (length[0] != ~length[1]) return false;
  std::vector<int> v;
  v.reserve(2 * values.size());
  for (int x : values) {
    v.push_back(x);
    v.push_back(~x);
  }
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_INT, MPI_MAX, comm);
  for (std::size_t k = 0; k < v.size(); k += 2)
    if (v[k] != ~v[k + 1]) return false;
  return true;
}

/// Appends the global layout of the distributed matrix `a` (sizes, blocking, source
/// process, grid shape) to a ranks_agree list: ranks that pass differently laid out
/// matrices would otherwise exchange mismatched blocks, and hang or abort.
template <class M>
void append_layout(std::vector<int>& values, const M& a) {
  values.insert(values.end(), {a.m(), a.n(), a.mb(), a.nb(), a.rsrc(), a.csrc(), a.grid().nprow(),
                               a.grid().npcol()});
}

/// Appends the bits of x (a tolerance, a bound) to a ranks_agree list: the check is exact.
inline void append_bits(std::vector<int>& values, double x) {
  std::int32_t half[2];
  static_assert(sizeof half == sizeof x);
  std::memcpy(half, &x, sizeof half);
  values.insert(values.end(), {half[0], half[1]});
}

/// Whether 4 MiB more can still be had: room for the MPI library's own scratch in the
/// messages that follow (Open MPI aborts the job when that allocation fails).
inline bool mpi_headroom_left() {
  constexpr std::size_t bytes = std::size_t(4) << 20;
#if defined(TSEIG_ASAN)
  // The same room asked of the kernel: through AddressSanitizer's allocator each probe
  // cost 3.6 ms (a fresh mapping, its shadow poisoned twice), most of the sanitizer job.
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  munmap(p, bytes);
  return true;
#else
  void* p = std::malloc(bytes);
  std::free(p);
  return p != nullptr;
#endif
}

/// Collective: runs `allocate` (a stage's work arrays) on every rank and checks
/// mpi_headroom_left(); a failure on any rank becomes Error(out_of_memory) on every rank.
template <class F>
void allocate_collectively(MPI_Comm comm, F&& allocate) {
  collectively(comm, [&] {
    try {
      allocate();
    } catch (const std::length_error&) {  // a size beyond std::vector's max_size()
      throw std::bad_alloc();
    }
    if (!mpi_headroom_left()) throw std::bad_alloc();
  });
}

/// In-place sum of buf (count entries, any size) over comm, in pieces of 128 Ki entries:
/// Open MPI allocates scratch as large as the message, and when that fails it aborts
/// the job (MPI_ERR_INTERN) where tseig could not report out_of_memory.
template <class T>
void sum_in_pieces(MPI_Comm comm, T* buf, std::size_t count) {
  constexpr std::size_t piece = std::size_t(1) << 17;
  for (std::size_t at = 0; at < count; at += piece)
    MPI_Allreduce(MPI_IN_PLACE, buf + at, static_cast<int>(std::min(count - at, piece)),
                  mpi_type<T>(), MPI_SUM, comm);
}

/// In-place sum of buf over every rank of the grid: along process rows, then columns.
template <class T>
void sum_over_grid(const Grid& g, T* buf, int count) {
  if (count <= 0) return;
  if (g.npcol() > 1) sum_in_pieces(g.row_comm(), buf, static_cast<std::size_t>(count));
  if (g.nprow() > 1) sum_in_pieces(g.col_comm(), buf, static_cast<std::size_t>(count));
}

/// In-place sum of buf over my process column (the ranks sharing my grid column).
template <class T>
void sum_over_column(const Grid& g, T* buf, int count) {
  if (count > 0 && g.nprow() > 1) sum_in_pieces(g.col_comm(), buf, static_cast<std::size_t>(count));
}

/// In-place sum of buf over my process row (the ranks sharing my grid row).
template <class T>
void sum_over_row(const Grid& g, T* buf, int count) {
  if (count > 0 && g.npcol() > 1) sum_in_pieces(g.row_comm(), buf, static_cast<std::size_t>(count));
}

/// Broadcast along my process row from process column `root_col`.
template <class T>
void broadcast_along_row(const Grid& g, T* buf, int count, int root_col) {
  if (count > 0 && g.npcol() > 1) MPI_Bcast(buf, count, mpi_type<T>(), root_col, g.row_comm());
}

}  // namespace tseig
