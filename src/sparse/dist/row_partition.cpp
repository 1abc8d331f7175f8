// Row partitions. Balancing by nonzeros: each rank counts the entries of an equal slice
// of rows, a prefix sum over ranks gives every rank its slice's place in the total, and
// each rank records the cuts that fall into its slice; one reduction shares the cuts.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/collectives.hpp"
#include "sparse/random.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/partition.hpp"

namespace tseig::sparse {

int RowPartition::owner(std::int64_t row) const {
  const auto it = std::upper_bound(offsets.begin(), offsets.end(), row);
  return static_cast<int>(it - offsets.begin()) - 1;
}

std::uint64_t RowPartition::key() const {
  std::uint64_t h = 0;
  for (std::int64_t o : offsets) h = mix64(h ^ static_cast<std::uint64_t>(o));
  return h;
}

RowPartition partition_from_counts(MPI_Comm comm, std::int64_t local_rows) {
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  std::vector<std::int64_t> counts(ranks);
  MPI_Allgather(&local_rows, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm);
  RowPartition p;
  p.offsets.assign(ranks + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), p.offsets.begin() + 1);
  return p;
}

RowPartition partition_by_nonzeros(MPI_Comm comm, std::int64_t rows,
                                   const std::function<int(std::int64_t)>& row_nonzeros,
                                   std::span<const double> weights) {
  int ranks = 0, me = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &me);
  const double weight_sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  const bool bad_weights = !weights.empty() && (static_cast<int>(weights.size()) != ranks ||
                                                std::any_of(weights.begin(), weights.end(),
                                                            [](double w) { return !(w >= 0); }) ||
                                                !(weight_sum > 0) || !std::isfinite(weight_sum));
  raise_if_any(comm, bad_weights || rows < 0, ErrorCode::invalid_argument,
               "sparse partition: need rows >= 0 and one finite weight >= 0 per rank, not all "
               "zero, with a finite sum");
  // Each rank cuts by its own weights: ranks that passed different ones got rows none of
  // them asked for. The count first, so the second check's lengths agree.
  std::vector<int> same{static_cast<int>(weights.size()), static_cast<int>(rows >> 32),
                        static_cast<int>(rows & 0xffffffff)};
  bool agree = ranks_agree(comm, same);
  if (agree && !weights.empty()) {
    same.clear();
    for (double w : weights) append_bits(same, w);
    agree = ranks_agree(comm, same);
  }
  raise_if_any(comm, !agree, ErrorCode::invalid_argument,
               "sparse partition: ranks passed different row counts or weights");

  const std::int64_t b = rows * me / ranks, e = rows * (me + 1) / ranks;
  std::vector<std::int64_t> prefix;
  collectively(comm, [&] {  // a rank short of memory: out_of_memory on every rank
    prefix.assign(e - b + 1, 0);
    for (std::int64_t i = b; i < e; ++i) prefix[i - b + 1] = prefix[i - b] + row_nonzeros(i);
  });
  std::int64_t mine = prefix.back(), before = 0, total = 0;
  MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, comm);
  if (me == 0) before = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, comm);

  std::vector<double> share(ranks, 1.0);
  if (!weights.empty()) share.assign(weights.begin(), weights.end());
  const double sum = weights.empty() ? ranks : weight_sum;
  // Cut k (1 <= k < ranks) is the first row whose entries start at or after the target.
  std::vector<std::int64_t> cuts(ranks + 1, 0);
  double acc = 0;
  for (int k = 1; k < ranks; ++k) {
    acc += share[k - 1];
    const auto target = static_cast<std::int64_t>(acc / sum * static_cast<double>(total) + 0.5);
    const auto it = std::lower_bound(prefix.begin(), prefix.end(), target - before);
    const std::int64_t row = b + (it - prefix.begin());
    // The slice holding the target records it; the last rank also takes targets beyond.
    if ((target >= before && target < before + mine) || (me == ranks - 1 && target >= before))
      cuts[k] = std::min(row, e);
  }
  MPI_Allreduce(MPI_IN_PLACE, cuts.data(), ranks + 1, MPI_INT64_T, MPI_MAX, comm);
  cuts[ranks] = rows;
  // Zero-weight ranks and empty slices can leave cuts unset (0) or out of order.
  for (int k = 1; k <= ranks; ++k) cuts[k] = std::max(cuts[k], cuts[k - 1]);
  return RowPartition{cuts};
}

}  // namespace tseig::sparse
