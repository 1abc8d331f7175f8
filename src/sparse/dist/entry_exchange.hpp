#pragma once
// Matrix entries with global indices, moved between the ranks by row: the Matrix Market
// reader assembles its rows this way, and the Hermitian checks send an entry's mirror
// image to the owner of its column (the reader every entry, require_hermitian those in
// halo columns).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tseig/sparse/partition.hpp"
#include "tseig/types.hpp"

namespace tseig::sparse {

/// One matrix entry with 0-based global indices.
template <class T>
struct Entry {
  std::int64_t row, col;
  T value;
};

/// Collective: sends every entry to the rank that owns its row in `p`.
template <class T>
std::vector<Entry<T>> send_to_row_owners(MPI_Comm comm, const RowPartition& p,
                                         std::vector<Entry<T>> entries) {
  const int ranks = p.ranks();
  std::sort(entries.begin(), entries.end(),
            [](const Entry<T>& a, const Entry<T>& b) { return a.row < b.row; });
  std::vector<int> send(ranks, 0), recv(ranks, 0), sdispl(ranks + 1, 0), rdispl(ranks + 1, 0);
  for (const Entry<T>& e : entries) send[p.owner(e.row)] += sizeof(Entry<T>);
  MPI_Alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm);
  for (int r = 0; r < ranks; ++r) {
    sdispl[r + 1] = sdispl[r] + send[r];
    rdispl[r + 1] = rdispl[r] + recv[r];
  }
  std::vector<Entry<T>> mine(rdispl[ranks] / sizeof(Entry<T>));
  MPI_Alltoallv(entries.data(), send.data(), sdispl.data(), MPI_BYTE, mine.data(), recv.data(),
                rdispl.data(), MPI_BYTE, comm);
  return mine;
}

inline bool by_position(std::int64_t r1, std::int64_t c1, std::int64_t r2, std::int64_t c2) {
  return r1 != r2 ? r1 < r2 : c1 < c2;
}

/// Sorted by (row, col) with repeats summed.
template <class T>
void sort_and_merge(std::vector<Entry<T>>& e) {
  std::sort(e.begin(), e.end(), [](const Entry<T>& a, const Entry<T>& b) {
    return by_position(a.row, a.col, b.row, b.col);
  });
  std::size_t out = 0;
  for (std::size_t k = 0; k < e.size(); ++k) {
    if (out > 0 && e[out - 1].row == e[k].row && e[out - 1].col == e[k].col)
      e[out - 1].value += e[k].value;
    else
      e[out++] = e[k];
  }
  e.resize(out);
}

/// Collective. Walks `mine` (sorted, merged, this rank's rows of p) against the mirror
/// images (j, i, conj v) of every rank's entries and calls differ(i, j, x, y) for each
/// position where the entry x and the mirror y (a missing one is 0) are not equal; it
/// stops at the first call that returns true. Returns whether one did.
template <class T, class Differ>
bool find_mirror_mismatch(MPI_Comm comm, const RowPartition& p, const std::vector<Entry<T>>& mine,
                          Differ&& differ) {
  std::vector<Entry<T>> mirrors;
  mirrors.reserve(mine.size());
  for (const Entry<T>& e : mine) mirrors.push_back({e.col, e.row, conj_if_complex(e.value)});
  std::vector<Entry<T>> arrived = send_to_row_owners(comm, p, std::move(mirrors));
  sort_and_merge(arrived);
  std::size_t a = 0, b = 0;
  while (a < mine.size() || b < arrived.size()) {
    const bool take_a =
        a < mine.size() && (b == arrived.size() ||
                            !by_position(arrived[b].row, arrived[b].col, mine[a].row, mine[a].col));
    const bool take_b = b < arrived.size() &&
                        (a == mine.size() ||
                         !by_position(mine[a].row, mine[a].col, arrived[b].row, arrived[b].col));
    const std::int64_t row = take_a ? mine[a].row : arrived[b].row;
    const std::int64_t col = take_a ? mine[a].col : arrived[b].col;
    const T x = take_a ? mine[a++].value : T(0), y = take_b ? arrived[b++].value : T(0);
    if (x != y && differ(row, col, x, y)) return true;
  }
  return false;
}

}  // namespace tseig::sparse
