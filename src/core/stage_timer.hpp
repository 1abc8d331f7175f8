#pragma once
// StageTimer: adds the wall-clock time of its scope to one stage of a StageTimes.
#include <mpi.h>

#include <vector>

#include "tseig/stage_times.hpp"

namespace tseig {

/// Sets the stage tseig_current_stage() reports; returns the one it replaces.
const char* set_current_stage(const char* name);

class StageTimer {
 public:
  StageTimer(StageTimes& times, Stage stage)
      : times_(times), stage_(stage), outer_(set_current_stage(to_string(stage))) {}
  ~StageTimer() {
    times_.add(stage_, MPI_Wtime() - start_);
    set_current_stage(outer_);
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  StageTimes& times_;
  Stage stage_;
  const char* outer_;  // the enclosing stage, current again when this one ends
  double start_ = MPI_Wtime();
};

/// Runs f with its wall-clock time added to `stage`; returns what f returns.
template <class F>
decltype(auto) timed(StageTimes& times, Stage stage, F&& f) {
  StageTimer timer(times, stage);
  return f();
}

/// Collective: every stage's time (and the total) as the slowest rank saw it, so every
/// rank reports the same numbers.
inline void agree_on_times(MPI_Comm comm, StageTimes& times) {
  std::vector<double> s;
  for (const auto& [name, seconds] : times.stages) s.push_back(seconds);
  s.push_back(times.total);
  MPI_Allreduce(MPI_IN_PLACE, s.data(), static_cast<int>(s.size()), MPI_DOUBLE, MPI_MAX, comm);
  for (std::size_t k = 0; k < times.stages.size(); ++k) times.stages[k].second = s[k];
  times.total = s.back();
}

}  // namespace tseig
