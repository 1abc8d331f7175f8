#pragma once
// The pruned search behind the SCF mode and tseig-tune: coarse over the solvers (in the
// machine model's order, each at the block size the model prices best for it; those predicted
// more than 1.5× slower than the fastest left out), then a hill climb from the best along its
// knobs (block size, bandwidth, WY width, each doubled and halved; the Householder
// back-transform's path, switched) until no untried neighbour of the best is left, at most
// `max_trials` calls, the last two kept for the ties below. Each candidate runs once (one that
// fails, once more); the first (which also warms the caches) runs again when it came within
// 25 % of the best, and at the end the best and every point within 15 % of it run a second time
// (near ties are settled on two timings each, the faster of the two counting). The state is
// the list of trials, so a search saved and loaded continues exactly where it was.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tseig/eigensolver.hpp"

namespace tseig::tune {

/// The machine model's price of one solver at the blocking it prices best.
struct SolverPrediction {
  double seconds = 0;
  int block_size = 0;  ///< 0: the input's
};

class ScfSearch {
 public:
  static constexpr int max_trials = 12;

  /// A search for the problem with signature key `key` and order n. Values the user set
  /// in `user` (solver, block_size, knobs) stay fixed; `input_nb` is the matrix's block
  /// size; `predicted` the model's prices of one_stage, two_stage, scalapack (empty: no
  /// model, that order, all at the input's block size); `householder_path` the path the default
  /// takes on this grid (dense::householder_path: 1 GEMMs, 2 the kernel), 0 where only one exists
  /// (several process rows): the search starts there and tries the other.
  ScfSearch(std::string key, int n, int input_nb, const EigensolverOptions& user,
            const std::vector<SolverPrediction>& predicted, int householder_path = 0);

  const std::string& key() const { return key_; }
  bool finished() const { return !pending(); }
  /// The candidate to run now (source scf), or the best (scf_best) once finished.
  TuneChoice next() const;
  /// The seconds a call with `ran` took (+inf when it failed).
  void record(const TuneChoice& ran, double seconds);
  /// The fastest candidate so far (source scf_best; defaults when nothing succeeded).
  TuneChoice best() const;
  const std::vector<std::pair<TuneChoice, double>>& trials() const { return trials_; }

  /// The whole state as JSON, and back (Error(invalid_argument) for a text that is not one).
  std::string state() const;
  static ScfSearch from_state(const std::string& text);

 private:
  ScfSearch() = default;
  std::optional<TuneChoice> pending() const;
  int count(const TuneChoice& c) const;       // successful trials of c
  bool done(const TuneChoice& c) const;       // measured, or failed twice
  double seconds(const TuneChoice& c) const;  // best measurement of c, +inf if none

  std::string key_;
  int n_ = 0;
  TuneChoice base_;              // normalised start: user's values, defaults elsewhere
  std::vector<Solver> solvers_;  // coarse phase, in order
  std::vector<int> starts_;      // block size of each solver's coarse trial
  std::vector<int> fixed_axes_;  // Axis values the user set
  std::vector<std::pair<TuneChoice, double>> trials_;
};

}  // namespace tseig::tune
