// Where the ranks of a communicator run (see rank_placement.hpp).
#include "dense/rank_placement.hpp"

#include <sched.h>

#include <algorithm>

namespace tseig::dense {

int RankPlacement::nodes(int p) const {
  return static_cast<int>(ranks_per_node(p).size());
}

std::map<int, int> RankPlacement::ranks_per_node(int p) const {
  std::map<int, int> ranks;
  for (int r = 0; r < p && r < static_cast<int>(node.size()); ++r) ++ranks[node[r]];
  return ranks;
}

int RankPlacement::most_ranks_per_node(int p) const {
  int most = 0;
  for (const auto& [where, count] : ranks_per_node(p)) most = std::max(most, count);
  return most;
}

double RankPlacement::oversubscription(int p) const {
  double most = 0;
  for (const auto& [where, count] : ranks_per_node(p))
    most = std::max(most, static_cast<double>(count) / std::max(1, cores[where]));
  return most;
}

RankPlacement rank_placement(MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm node_comm;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_comm);
  int leader = rank;
  MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node_comm);
  // The cores this node's ranks may run on: the union of their affinity masks.
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) CPU_SET(0, &mask);
  auto* bytes = reinterpret_cast<unsigned char*>(&mask);
  MPI_Allreduce(MPI_IN_PLACE, bytes, static_cast<int>(sizeof mask), MPI_UNSIGNED_CHAR, MPI_BOR,
                node_comm);
  MPI_Comm_free(&node_comm);
  const int mine[2] = {leader, CPU_COUNT(&mask)};
  std::vector<int> all(2 * static_cast<std::size_t>(size));
  MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, comm);
  RankPlacement out;
  std::map<int, int> index_of_leader;
  for (int r = 0; r < size; ++r) {
    auto [it, added] = index_of_leader.emplace(all[2 * r], static_cast<int>(out.cores.size()));
    if (added) out.cores.push_back(all[2 * r + 1]);
    out.node.push_back(it->second);
  }
  return out;
}

}  // namespace tseig::dense
