// The pruned search (see scf_search.hpp).
#include "tune/scf_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/json.hpp"
#include "tseig/error.hpp"
#include "tune/candidate.hpp"
#include "tune/json_value.hpp"

namespace tseig::tune {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
// A solver the model predicts this much slower than the fastest is not tried (at 2 the
// search tried ScaLAPACK where the model put it 1.36–1.86× behind and it ran 2.2–2.65×
// behind: d, N = 1000 and 2000, the znver1-class VM).
constexpr double prune_factor = 1.5;
// The first trial also pays for cold caches; it runs again when it came this close.
constexpr double remeasure_within = 1.25;
// Points within this of the best are timed twice before the search ends: one timing each
// kept a solver 14 % behind (z, N = 4000, nev = N, one rank, the Intel VM, where a 25 s
// solve varies by ±10 % from call to call).
constexpr double confirm_within = 1.15;
// The last calls are kept for that second timing: with all 12 open to the climb, a best
// found on the last calls was kept on one timing, 1.11× behind the exhaustive best
// (d, N = 6000, nev = N/5, one rank, the Zen 5 VM: the GEMM path over the kernel's).
constexpr int tie_reserve = 2;

}  // namespace

ScfSearch::ScfSearch(std::string key, int n, int input_nb, const EigensolverOptions& user,
                     const std::vector<SolverPrediction>& predicted, int householder_path)
    : key_(std::move(key)), n_(n) {
  base_.block_size = user.block_size > 0 ? user.block_size : input_nb;
  base_.tune = user.tune;
  const TuneParameters defaults;
  // A bandwidth the user set fixes two_stage's (and so the block sizes that divide it):
  // the search keeps the input's block size then, for every solver (one list of fixed knobs).
  const bool bandwidth_set = user.bandwidth > 0;
  if (user.block_size > 0 || bandwidth_set)
    fixed_axes_.push_back(static_cast<int>(Axis::block_size));
  if (user.tune.bandwidth_target != defaults.bandwidth_target || bandwidth_set)
    fixed_axes_.push_back(static_cast<int>(Axis::bandwidth_target));
  if (user.tune.wy_width != defaults.wy_width)
    fixed_axes_.push_back(static_cast<int>(Axis::wy_width));
  // The default path made explicit, so that its neighbour is the other one.
  if (user.tune.householder_kernel != defaults.householder_kernel || householder_path == 0)
    fixed_axes_.push_back(static_cast<int>(Axis::householder_kernel));
  else
    base_.tune.householder_kernel = householder_path;
  const std::vector<Solver> all{Solver::one_stage, Solver::two_stage, Solver::scalapack};
  // Each solver's coarse trial at the model's blocking for it, unless the user set one.
  auto start = [&](int k) {
    const bool priced = predicted.size() == all.size() && predicted[k].block_size > 0;
    return user.block_size <= 0 && !bandwidth_set && priced ? predicted[k].block_size
                                                            : base_.block_size;
  };
  if (user.solver != Solver::automatic) {
    solvers_ = {user.solver};
    starts_ = {
        start(static_cast<int>(std::find(all.begin(), all.end(), user.solver) - all.begin()))};
  } else {
    std::vector<int> order{0, 1, 2};
    if (predicted.size() == all.size()) {
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return predicted[a].seconds < predicted[b].seconds; });
      const double fastest = predicted[order[0]].seconds;
      std::erase_if(order, [&](int k) { return predicted[k].seconds > prune_factor * fastest; });
    }
    for (int k : order) {
      solvers_.push_back(all[k]);
      starts_.push_back(start(k));
    }
  }
  base_.solver = solvers_.front();
  base_ = normalized(base_, base_.block_size);
}

int ScfSearch::count(const TuneChoice& c) const {
  return static_cast<int>(std::count_if(trials_.begin(), trials_.end(), [&](const auto& t) {
    return same_point(t.first, c) && std::isfinite(t.second);
  }));
}

bool ScfSearch::done(const TuneChoice& c) const {
  // A failure may be the input's fault (not Hermitian, say): it is tried once more.
  const auto failures = std::count_if(trials_.begin(), trials_.end(), [&](const auto& t) {
    return same_point(t.first, c) && !std::isfinite(t.second);
  });
  return count(c) > 0 || failures >= 2;
}

double ScfSearch::seconds(const TuneChoice& c) const {
  double s = inf;
  for (const auto& [choice, t] : trials_)
    if (same_point(choice, c)) s = std::min(s, t);
  return s;
}

TuneChoice ScfSearch::best() const {
  TuneChoice b = base_;
  double t = inf;
  for (const auto& [choice, s] : trials_)
    if (s < t) {
      b = choice;
      t = s;
    }
  b.source = ChoiceSource::scf_best;
  b.seconds = std::isfinite(t) ? t : 0;
  return b;
}

std::optional<TuneChoice> ScfSearch::pending() const {
  if (static_cast<int>(trials_.size()) >= max_trials) return std::nullopt;
  for (std::size_t k = 0; k < solvers_.size(); ++k) {
    TuneChoice c = base_;
    c.solver = solvers_[k];
    c.block_size = starts_[k];
    c = normalized(c, c.block_size);
    if (!done(c)) return c;
  }
  const TuneChoice b = best();
  const TuneChoice& first = trials_.front().first;
  if (count(first) == 1 && !same_point(first, b) && seconds(first) <= remeasure_within * seconds(b))
    return first;
  if (static_cast<int>(trials_.size()) < max_trials - tie_reserve)
    for (Axis axis : axes(b.solver)) {
      if (std::find(fixed_axes_.begin(), fixed_axes_.end(), static_cast<int>(axis)) !=
          fixed_axes_.end())
        continue;
      for (int dir : {+1, -1})
        if (auto c = neighbor(b, axis, dir, n_); c && !done(*c)) return c;
    }
  auto contender = [&](const auto& t) {
    return std::isfinite(t.second) && t.second <= confirm_within * seconds(b);
  };
  const bool tie = std::any_of(trials_.begin(), trials_.end(), [&](const auto& t) {
    return contender(t) && !same_point(t.first, b);
  });
  if (!tie) return std::nullopt;
  if (count(b) == 1) return b;  // the best first: it may owe its place to one quick call
  for (const auto& t : trials_)
    if (contender(t) && count(t.first) == 1) return t.first;
  return std::nullopt;
}

TuneChoice ScfSearch::next() const {
  if (auto c = pending()) {
    c->source = ChoiceSource::scf;
    c->seconds = 0;
    return *c;
  }
  return best();
}

void ScfSearch::record(const TuneChoice& ran, double s) {
  TuneChoice c = ran;
  c.seconds = s;
  trials_.emplace_back(c, std::isfinite(s) ? s : inf);
}

std::string ScfSearch::state() const {
  std::string s = "{\"tseig_autotune_state\":1,\"key\":" + json::string(key_) +
                  ",\"n\":" + std::to_string(n_) + ",\"base\":" + choice_json(base_) +
                  ",\"solvers\":[";
  for (std::size_t k = 0; k < solvers_.size(); ++k)
    s += std::string(k ? "," : "") + "\"" + to_string(solvers_[k]) + "\"";
  s += "],\"starts\":[";
  for (std::size_t k = 0; k < starts_.size(); ++k)
    s += std::string(k ? "," : "") + std::to_string(starts_[k]);
  s += "],\"fixed_axes\":[";
  for (std::size_t k = 0; k < fixed_axes_.size(); ++k)
    s += std::string(k ? "," : "") + std::to_string(fixed_axes_[k]);
  s += "],\"trials\":[";
  for (std::size_t k = 0; k < trials_.size(); ++k)
    s += std::string(k ? "," : "") + "{\"choice\":" + choice_json(trials_[k].first) +
         ",\"seconds\":" + json::number(trials_[k].second) + "}";
  return s + "]}";
}

ScfSearch ScfSearch::from_state(const std::string& text) {
  try {
    const JsonValue v = JsonValue::parse(text);
    if (v.number_or("tseig_autotune_state", 0) != 1)
      throw Error(ErrorCode::io_error, "no tseig_autotune_state 1");
    const JsonValue* base = v.find("base");
    const JsonValue* solvers = v.find("solvers");
    const JsonValue* fixed = v.find("fixed_axes");
    const JsonValue* trials = v.find("trials");
    if (!base || !solvers || !solvers->is(JsonValue::Kind::array) || solvers->array().empty() ||
        !fixed || !fixed->is(JsonValue::Kind::array) || !trials ||
        !trials->is(JsonValue::Kind::array))
      throw Error(ErrorCode::io_error, "base, solvers, fixed_axes or trials missing");
    ScfSearch s;
    s.key_ = v.string_or("key", "");
    s.n_ = static_cast<int>(v.number_or("n", 0));
    s.base_ = choice_from_json(*base);
    for (const JsonValue& x : solvers->array()) {
      const Solver sv = solver_from_string(x.is(JsonValue::Kind::string) ? x.string() : "");
      if (sv == Solver::automatic) throw Error(ErrorCode::io_error, "solver auto in the list");
      s.solvers_.push_back(sv);
    }
    // A state saved before the model chose the starts began every solver at base's size.
    const JsonValue* starts = v.find("starts");
    if (starts && starts->is(JsonValue::Kind::array)) {
      for (const JsonValue& x : starts->array()) s.starts_.push_back(static_cast<int>(x.number()));
      // 0 (the input's) only in a search saved before its first call knew the matrix.
      const int least = s.key_.empty() ? 0 : 1;
      if (s.starts_.size() != s.solvers_.size() ||
          std::any_of(s.starts_.begin(), s.starts_.end(), [&](int nb) { return nb < least; }))
        throw Error(ErrorCode::io_error, "starts do not match the solvers");
    } else {
      s.starts_.assign(s.solvers_.size(), s.base_.block_size);
    }
    for (const JsonValue& x : fixed->array()) s.fixed_axes_.push_back(static_cast<int>(x.number()));
    for (const JsonValue& trial : trials->array()) {
      const JsonValue* c = trial.find("choice");
      if (!c) throw Error(ErrorCode::io_error, "a trial without its choice");
      const JsonValue* sec = trial.find("seconds");
      // null: a failed trial (JSON has no infinity). A trial ran at a block size.
      const TuneChoice ran = choice_from_json(*c);
      if (ran.block_size < 1) throw Error(ErrorCode::io_error, "a trial with block_size 0");
      const double t = sec && sec->is(JsonValue::Kind::number) ? sec->number() : inf;
      if (!(t >= 0)) throw Error(ErrorCode::io_error, "a trial with negative seconds");
      s.trials_.emplace_back(ran, t);
    }
    return s;
  } catch (const Error& e) {
    throw Error(ErrorCode::invalid_argument, std::string("not an autotune state: ") + e.what());
  }
}

}  // namespace tseig::tune
