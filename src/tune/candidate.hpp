#pragma once
// The tuner's search space: a TuneChoice (solver, block size, knobs) normalised so that
// equal behaviour means equal values, its neighbours along each searched knob, its JSON
// form, and how it is merged with what the user set.
#include <optional>
#include <string>

#include "tseig/eigensolver.hpp"
#include "tune/json_value.hpp"

namespace tseig::tune {

/// The knobs the search moves, in the order it tries them. householder_kernel is a
/// switch between the back-transform's two paths (1 GEMMs, 2 the reflector kernel); a
/// choice with 0 there (the grid has several process rows) has no neighbour along it.
enum class Axis { block_size, bandwidth_target, wy_width, householder_kernel };

/// `c` with the knobs its solver ignores at their defaults and two_stage's bandwidth
/// rounded up to a whole number of blocks (what the solver would use): two choices that
/// run identically compare equal. `input_nb` stands in for block_size 0.
TuneChoice normalized(TuneChoice c, int input_nb);
/// Same solver, block size and searched knobs (source and seconds ignored).
bool same_point(const TuneChoice& a, const TuneChoice& b);

/// `c` with knob `axis` doubled (dir > 0) or halved (householder_kernel: switched, dir > 0
/// only), if that stays in the searched range for an N×N problem and the knob matters for
/// c's solver; nullopt otherwise.
std::optional<TuneChoice> neighbor(const TuneChoice& c, Axis axis, int dir, int n);
/// The axes that matter for a solver.
std::vector<Axis> axes(Solver s);

/// What a call runs with: the user's options where set (solver other than automatic,
/// block_size > 0, a knob different from its default), the choice elsewhere.
EigensolverOptions merged(const EigensolverOptions& user, const TuneChoice& choice);

/// JSON object of the solver, block size and every knob (tune_fields by name).
std::string choice_json(const TuneChoice& c);
/// The inverse; Error(io_error) when the solver or block size is missing or a member out
/// of range; a knob of TuneParameters that is not named keeps its default.
TuneChoice choice_from_json(const JsonValue& v);

/// A short label for tables: "two_stage nb=64 b=128 wy=256", with " bt=gemm" or
/// " bt=kernel" where householder_kernel names the back-transform's path.
std::string label(const TuneChoice& c);
/// " bt=gemm" (1), " bt=kernel" (2) or "" (0): a householder_kernel value in a label.
const char* path_label(int householder_kernel);

}  // namespace tseig::tune
