#pragma once
// Where the ranks of a communicator run (nodes and cores), for the working grid's plan.
#include <mpi.h>

#include <map>
#include <vector>

namespace tseig::dense {

/// Where the ranks of a communicator run: node and cores of each rank (the cores its
/// node's ranks may run on, the union of their affinity masks).
struct RankPlacement {
  std::vector<int> node;   ///< per rank: index of its node
  std::vector<int> cores;  ///< per node: cores its ranks may use
  /// The most ranks per core on any node when the first p ranks run.
  double oversubscription(int p) const;
  int nodes(int p) const;                          ///< nodes the first p ranks are on
  int most_ranks_per_node(int p) const;            ///< of the first p ranks
  std::map<int, int> ranks_per_node(int p) const;  ///< node → how many of the first p ranks
};

/// Collective over comm; every rank returns the same placement.
RankPlacement rank_placement(MPI_Comm comm);

}  // namespace tseig::dense
