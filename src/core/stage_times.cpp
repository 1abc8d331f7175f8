// Stage names and StageTimes (tseig/stage_times.hpp).
#include "tseig/stage_times.hpp"

#include <array>

#include "core/stage_timer.hpp"

namespace tseig {

namespace {

struct StageName {
  Stage stage;
  const char* name;
};

// The one table of stage names.
constexpr std::array stage_names{
    StageName{Stage::redistribute, "redistribute"},
    StageName{Stage::check_input, "check_input"},
    StageName{Stage::cholesky, "cholesky"},
    StageName{Stage::invert_triangular, "invert_triangular"},
    StageName{Stage::transform, "transform"},
    StageName{Stage::tridiagonalize, "tridiagonalize"},
    StageName{Stage::reduce_to_band, "reduce_to_band"},
    StageName{Stage::bulge_chase, "bulge_chase"},
    StageName{Stage::tridiagonal_solve, "tridiagonal_solve"},
    StageName{Stage::backtransform, "backtransform"},
    StageName{Stage::backtransform_band, "backtransform_band"},
    StageName{Stage::backtransform_full, "backtransform_full"},
    StageName{Stage::backtransform_generalized, "backtransform_generalized"},
    StageName{Stage::scalapack_syevd, "p?syevd"},
    StageName{Stage::scalapack_heevd, "p?heevd"},
    StageName{Stage::scalapack_syevr, "p?syevr"},
    StageName{Stage::scalapack_heevr, "p?heevr"},
    StageName{Stage::validate, "validate"},
};

}  // namespace

const char* to_string(Stage stage) {
  for (const StageName& s : stage_names)
    if (s.stage == stage) return s.name;
  return "unknown";
}

std::optional<Stage> stage_from_string(std::string_view name) {
  for (const StageName& s : stage_names)
    if (name == s.name) return s.stage;
  return std::nullopt;
}

void StageTimes::add(Stage stage, double seconds) {
  const char* name = to_string(stage);
  for (auto& [s, t] : stages)
    if (s == name) {
      t += seconds;
      return;
    }
  stages.emplace_back(name, seconds);
}

void StageTimes::add(const StageTimes& other) {
  for (const auto& [name, seconds] : other.stages) {
    bool found = false;
    for (auto& [s, t] : stages)
      if (s == name) {
        t += seconds;
        found = true;
      }
    if (!found) stages.emplace_back(name, seconds);
  }
}

double StageTimes::get(Stage stage) const {
  return get(std::string(to_string(stage)));
}

double StageTimes::get(const std::string& name) const {
  for (const auto& [stage, s] : stages)
    if (stage == name) return s;
  return 0;
}

}  // namespace tseig

namespace {
thread_local const char* current_stage = nullptr;
}

namespace tseig {
const char* set_current_stage(const char* name) {
  const char* outer = current_stage;
  current_stage = name;
  return outer;
}
}  // namespace tseig

const char* tseig_current_stage(void) {
  return current_stage;
}
