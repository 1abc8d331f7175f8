// The tuner's search space (see candidate.hpp).
#include "tune/candidate.hpp"

#include <algorithm>

#include "core/json.hpp"
#include "tseig/error.hpp"

namespace tseig::tune {

namespace {

// Searched ranges: outside them no machine we know is faster, and the search stays short.
constexpr int min_block = 16, max_block = 256;
constexpr int min_band = 16, max_band = 512;
constexpr int min_wy = 64, max_wy = 1024;

int& knob(TuneChoice& c, Axis a) {
  switch (a) {
    case Axis::block_size:
      return c.block_size;
    case Axis::bandwidth_target:
      return c.tune.bandwidth_target;
    default:
      return c.tune.wy_width;
  }
}

}  // namespace

TuneChoice normalized(TuneChoice c, int input_nb) {
  const TuneParameters defaults;
  if (c.block_size <= 0) c.block_size = input_nb;
  // No block size yet (a search started before its first call knows the matrix): the
  // bandwidth is rounded when there is one.
  if (c.solver == Solver::two_stage && c.block_size > 0) {
    const int b = std::max(c.tune.bandwidth_target, c.block_size);
    c.tune.bandwidth_target = (b + c.block_size - 1) / c.block_size * c.block_size;
  } else if (c.solver != Solver::two_stage) {
    c.tune.bandwidth_target = defaults.bandwidth_target;
    c.tune.band_sweeps_per_pass = defaults.band_sweeps_per_pass;
  }
  if (c.solver == Solver::scalapack) c.tune = defaults;
  return c;
}

bool same_point(const TuneChoice& a, const TuneChoice& b) {
  return a.solver == b.solver && a.block_size == b.block_size && a.tune == b.tune;
}

std::vector<Axis> axes(Solver s) {
  switch (s) {
    case Solver::two_stage:
      return {Axis::block_size, Axis::bandwidth_target, Axis::wy_width, Axis::householder_kernel};
    case Solver::one_stage:
      return {Axis::block_size, Axis::wy_width, Axis::householder_kernel};
    default:
      return {Axis::block_size};
  }
}

std::optional<TuneChoice> neighbor(const TuneChoice& c, Axis axis, int dir, int n) {
  const std::vector<Axis> mine = axes(c.solver);
  if (std::find(mine.begin(), mine.end(), axis) == mine.end()) return std::nullopt;
  TuneChoice next = c;
  if (axis == Axis::householder_kernel) {
    const int path = c.tune.householder_kernel;
    if (dir < 0 || (path != 1 && path != 2)) return std::nullopt;
    next.tune.householder_kernel = 3 - path;
    return next;
  }
  int& v = knob(next, axis);
  v = dir > 0 ? 2 * v : v / 2;
  const int lo = axis == Axis::block_size         ? min_block
                 : axis == Axis::bandwidth_target ? std::max(min_band, c.block_size)
                                                  : min_wy;
  const int hi = axis == Axis::block_size         ? max_block
                 : axis == Axis::bandwidth_target ? max_band
                                                  : max_wy;
  // Blocks or bands beyond N/2 only idle ranks.
  if (v < lo || v > hi || (axis != Axis::wy_width && v > std::max(lo, n / 2))) return std::nullopt;
  return normalized(next, next.block_size);
}

EigensolverOptions merged(const EigensolverOptions& user, const TuneChoice& choice) {
  EigensolverOptions o = user;
  if (user.solver == Solver::automatic) o.solver = choice.solver;
  // A bandwidth the user set must stay a multiple of two_stage's block size.
  const bool keeps_bandwidth = o.solver != Solver::two_stage || user.bandwidth <= 0 ||
                               (choice.block_size > 0 && user.bandwidth % choice.block_size == 0);
  if (user.block_size <= 0 && choice.block_size > 0 && keeps_bandwidth)
    o.block_size = choice.block_size;
  const TuneParameters defaults;
  for (const TuneField& f : tune_fields)
    if (user.tune.*f.value == defaults.*f.value) o.tune.*f.value = choice.tune.*f.value;
  return o;
}

std::string choice_json(const TuneChoice& c) {
  std::string s = std::string("{\"solver\":\"") + to_string(c.solver) +
                  "\",\"block_size\":" + std::to_string(c.block_size);
  for (const TuneField& f : tune_fields)
    s += ",\"" + std::string(f.name) + "\":" + std::to_string(c.tune.*f.value);
  return s + "}";
}

TuneChoice choice_from_json(const JsonValue& v) {
  auto number = [&](const std::string& key, int min, int max = 1 << 24) {
    const JsonValue* x = v.find(key);
    if (!x || !x->is(JsonValue::Kind::number) || x->number() < min || x->number() > max ||
        x->number() != static_cast<int>(x->number()))
      throw Error(ErrorCode::io_error, "tuning choice: '" + key + "' missing or out of range");
    return static_cast<int>(x->number());
  };
  TuneChoice c;
  try {
    c.solver = solver_from_string(v.string_or("solver", ""));
  } catch (const Error&) {
    throw Error(ErrorCode::io_error, "tuning choice: 'solver' missing or unknown");
  }
  if (c.solver == Solver::automatic)
    throw Error(ErrorCode::io_error, "tuning choice: 'solver' must be a concrete solver");
  c.block_size = number("block_size", 0);
  // A knob the entry does not name keeps its default (entries measured before the knob
  // existed stay valid); one it names must be in range.
  for (const TuneField& f : tune_fields)
    if (v.find(std::string(f.name)))
      c.tune.*f.value = number(std::string(f.name), f.min, std::min(f.max, 1 << 24));
  return c;
}

std::string label(const TuneChoice& c) {
  std::string s = std::string(to_string(c.solver)) + " nb=" + std::to_string(c.block_size);
  if (c.solver == Solver::two_stage) s += " b=" + std::to_string(c.tune.bandwidth_target);
  if (c.solver != Solver::scalapack) s += " wy=" + std::to_string(c.tune.wy_width);
  if (c.solver != Solver::scalapack) s += path_label(c.tune.householder_kernel);
  return s;
}

const char* path_label(int householder_kernel) {
  return householder_kernel == 1 ? " bt=gemm" : householder_kernel == 2 ? " bt=kernel" : "";
}

}  // namespace tseig::tune
