// Sub-grids kept per process set (see sub_grids.hpp).
#include "dense/sub_grids.hpp"

#include <algorithm>

namespace tseig::dense {

namespace {

/// Collective: true where `here` holds on every rank of comm. What each rank keeps
/// depends on its own calls (other communicators, other threads), so a rank that finds
/// a kept grid must not skip a collective that another rank, which lacks it, runs.
bool on_every_rank(MPI_Comm comm, bool here) {
  int all = here ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm);
  return all != 0;
}

}  // namespace

std::shared_ptr<SubGrids> SubGrids::this_thread() {
  thread_local std::weak_ptr<SubGrids> current;
  std::shared_ptr<SubGrids> cache = current.lock();
  if (!cache) {
    cache = std::make_shared<SubGrids>();
    current = cache;
  }
  return cache;
}

std::shared_ptr<SubGrids::ProcessSet> SubGrids::set_of(const Grid& parent) {
  // MPI_Comm_compare is local: congruent communicators hold the same ranks in order.
  const auto it = std::find_if(sets_.begin(), sets_.end(),
                               [&](const auto& s) { return s->parent.same_processes(parent); });
  std::shared_ptr<ProcessSet> set;
  if (it != sets_.end()) {
    set = *it;
    sets_.erase(it);
  }
  if (!on_every_rank(parent.comm(), set != nullptr)) {
    set = std::make_shared<ProcessSet>();
    set->parent = parent;
    set->placement = rank_placement(parent.comm());
  }
  sets_.push_back(set);
  while (sets_.size() > std::max<std::size_t>(capacity_, 1)) sets_.pop_front();
  return set;
}

RankPlacement SubGrids::placement(const Grid& parent) {
  return set_of(parent)->placement;
}

std::shared_ptr<const Grid> SubGrids::get(const Grid& parent, GridShape shape) {
  const std::shared_ptr<ProcessSet> set = set_of(parent);
  auto kept = std::find_if(set->subs.begin(), set->subs.end(), [&](const auto& s) {
    return s.first.nprow == shape.nprow && s.first.npcol == shape.npcol;
  });
  if (on_every_rank(parent.comm(), kept != set->subs.end())) return kept->second;
  const int p = shape.nprow * shape.npcol;
  const bool member = parent.rank() < p;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(parent.comm(), member ? 0 : MPI_UNDEFINED, parent.rank(), &comm);
  std::shared_ptr<const Grid> sub;
  if (member) {
    sub = std::make_shared<const Grid>(comm, shape.nprow, shape.npcol);
    MPI_Comm_free(&comm);
  }
  if (kept != set->subs.end())
    kept->second = sub;
  else
    set->subs.emplace_back(shape, sub);
  return sub;
}

}  // namespace tseig::dense
