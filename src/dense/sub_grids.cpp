// Sub-grids kept per process set (see sub_grids.hpp).
#include "dense/sub_grids.hpp"

#include <algorithm>

namespace tseig::dense {

SubGrids& SubGrids::process_wide() {
  // Never destroyed: its grids would be freed after MPI_Finalize (or during exit handlers
  // of a program that never finalizes).
  static SubGrids* const cache = new SubGrids;
  return *cache;
}

std::shared_ptr<SubGrids::ProcessSet> SubGrids::set_of(const Grid& parent) {
  std::shared_ptr<ProcessSet> set;
  {
    const std::lock_guard lock(mutex_);
    // MPI_Comm_compare is local: congruent communicators hold the same ranks in order.
    const auto it = std::find_if(sets_.begin(), sets_.end(),
                                 [&](const auto& s) { return s->parent.same_processes(parent); });
    if (it != sets_.end()) {
      set = *it;
      sets_.erase(it);
      sets_.push_back(set);
    }
  }
  // A set one rank dropped (its own use decides what it drops) is made anew everywhere,
  // so that no rank skips a collective the others run.
  int everywhere = set ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, parent.comm());
  if (everywhere) return set;
  auto fresh = std::make_shared<ProcessSet>();
  fresh->parent = parent;
  fresh->placement = rank_placement(parent.comm());
  const std::lock_guard lock(mutex_);
  std::erase(sets_, set);
  sets_.push_back(fresh);
  while (sets_.size() > std::max<std::size_t>(capacity_, 1)) sets_.pop_front();
  return fresh;
}

RankPlacement SubGrids::placement(const Grid& parent) {
  return set_of(parent)->placement;
}

std::shared_ptr<const Grid> SubGrids::get(const Grid& parent, GridShape shape) {
  const std::shared_ptr<ProcessSet> set = set_of(parent);
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [kept, sub] : set->subs)
      if (kept.nprow == shape.nprow && kept.npcol == shape.npcol) return sub;
  }
  // Every rank of the set has the same shapes in it: they were added collectively.
  const int p = shape.nprow * shape.npcol;
  const bool member = parent.rank() < p;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(parent.comm(), member ? 0 : MPI_UNDEFINED, parent.rank(), &comm);
  std::shared_ptr<const Grid> sub;
  if (member) {
    sub = std::make_shared<const Grid>(comm, shape.nprow, shape.npcol);
    MPI_Comm_free(&comm);
  }
  const std::lock_guard lock(mutex_);
  set->subs.emplace_back(shape, sub);
  return sub;
}

}  // namespace tseig::dense
