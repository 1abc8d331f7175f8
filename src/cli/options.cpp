// Command-line parsing of tseig-solve: strict (whole-token numbers, no silent
// defaults for malformed values) because a typo must not quietly change the problem.
#include "options.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "parse_number.hpp"
#include "tseig/error.hpp"

namespace tseig::cli {
namespace {

// NAME=VALUE of one TuneParameters knob.
void parse_tune(std::string_view text, TuneParameters& tune) {
  const auto eq = text.find('=');
  const TuneField* f = find_tune_field(text.substr(0, std::min(eq, text.size())));
  if (eq == std::string_view::npos || !f) {
    std::string names;
    for (const TuneField& k : tune_fields)
      names += (names.empty() ? "" : ", ") + std::string(k.name);
    throw UsageError("--tune: '" + std::string(text) + "' is not NAME=VALUE with NAME one of " +
                     names);
  }
  tune.*f->value = parse_int("--tune " + std::string(f->name), text.substr(eq + 1), f->min, f->max);
}

void parse_grid(std::string_view text, Options& o) {
  auto x = text.find('x');
  if (x == std::string_view::npos)
    throw UsageError("--grid: '" + std::string(text) + "' is not of the form PxQ");
  o.nprow = parse_int("--grid", text.substr(0, x), 1);
  o.npcol = parse_int("--grid", text.substr(x + 1), 1);
}

Solver parse_solver(const std::string& text) {
  try {
    return solver_from_string(text);
  } catch (const Error&) {
    throw UsageError("--solver: unknown solver '" + text +
                     "' (one_stage, two_stage, scalapack, auto)");
  }
}

}  // namespace

Options parse_options(int argc, const char* const* argv, int nprocs) {
  Options o;
  bool random_given = false, random_generalized_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(std::string(flag) + ": missing value");
      return argv[++i];
    };
    if (flag == "--help" || flag == "-h") {
      o.help = true;
    } else if (flag == "--random") {
      o.n = parse_int("--random", value(), 1);
      random_given = true;
    } else if (flag == "--random-generalized") {
      o.n = parse_int("--random-generalized", value(), 1);
      o.generalized = random_generalized_given = true;
    } else if (flag == "--B") {
      o.b_path = value();
      if (o.b_path.empty()) throw UsageError("--B: empty file name");
      o.generalized = true;
    } else if (flag == "--matrix") {
      o.matrix_path = value();
      if (o.matrix_path.empty()) throw UsageError("--matrix: empty file name");
    } else if (flag == "--type") {
      std::string t = value();
      if (t != "s" && t != "d" && t != "c" && t != "z")
        throw UsageError("--type: unknown type '" + t + "' (d, z, s, c)");
      o.type = t[0];
    } else if (flag == "--nev") {
      o.nev = parse_int("--nev", value(), 1);
    } else if (flag == "--range") {
      const auto [il, iu] = split_pair(flag, value());
      o.index_range = IndexRange{parse_int(flag, il, 1), parse_int(flag, iu, 1)};
      if (o.index_range->il > o.index_range->iu)
        throw UsageError("--range: il > iu in " + std::to_string(o.index_range->il) + ":" +
                         std::to_string(o.index_range->iu));
    } else if (flag == "--interval") {
      const auto [vl, vu] = split_pair(flag, value());
      o.value_range = ValueRange{parse_double(flag, vl), parse_double(flag, vu)};
      if (!(o.value_range->vl < o.value_range->vu))
        throw UsageError("--interval: the interval (vl, vu] is empty");
    } else if (flag == "--solver") {
      o.solver = parse_solver(value());
    } else if (flag == "--bandwidth") {
      o.bandwidth = parse_int("--bandwidth", value(), 1);
    } else if (flag == "--tune") {
      parse_tune(value(), o.tune);
    } else if (flag == "--nb") {
      o.nb = parse_int("--nb", value(), 1);
    } else if (flag == "--grid") {
      parse_grid(value(), o);
    } else if (flag == "--grid-choice") {
      const std::string g = value();
      if (g != "auto" && g != "as_given")
        throw UsageError("--grid-choice: '" + g + "' is neither auto nor as_given");
      o.grid_choice = grid_choice_from_string(g);
    } else if (flag == "--gpu") {
      const std::string g = value();
      if (g != "off" && g != "auto" && g != "on")
        throw UsageError("--gpu: '" + g + "' is not off, auto or on");
      o.gpu = gpu_use_from_string(g);
    } else if (flag == "--seed") {
      o.seed = parse_int<std::uint64_t>("--seed", value(), 0);
    } else if (flag == "--values-only") {
      o.values_only = true;
    } else if (flag == "--validate") {
      o.validate = true;
    } else if (flag == "--validation-tolerance") {
      o.validation_tolerance = parse_double(flag, value());
      if (!(o.validation_tolerance > 0 && std::isfinite(o.validation_tolerance)))
        throw UsageError("--validation-tolerance: must be a positive number");
      o.validate = true;
    } else if (flag == "--out-values") {
      o.out_values = value();
    } else if (flag == "--out-vectors") {
      o.out_vectors = value();
    } else if (flag == "--json") {
      o.json = true;
    } else {
      throw UsageError("unknown option '" + std::string(flag) + "'");
    }
  }
  if (o.help) return o;
  if (int(random_given) + int(random_generalized_given) + int(!o.matrix_path.empty()) > 1)
    throw UsageError("--random, --random-generalized and --matrix exclude each other");
  if (!o.b_path.empty() && o.matrix_path.empty())
    throw UsageError("--B needs --matrix (--random-generalized makes its own B)");
  if (o.matrix_path.empty() && o.nev > o.n)
    throw UsageError("--nev " + std::to_string(o.nev) + " exceeds the matrix order " +
                     std::to_string(o.n));
  if (int(o.nev > 0) + int(o.index_range.has_value()) + int(o.value_range.has_value()) > 1)
    throw UsageError("--nev, --range and --interval exclude each other");
  if (o.matrix_path.empty() && o.index_range && o.index_range->iu > o.n)
    throw UsageError("--range: iu = " + std::to_string(o.index_range->iu) +
                     " exceeds the matrix order " + std::to_string(o.n));
  if (o.values_only && !o.out_vectors.empty())
    throw UsageError("--out-vectors needs eigenvectors; drop --values-only");
  // In 64 bits: P·Q of two valid ints overflows int (found by fuzzing).
  const long long grid_ranks = static_cast<long long>(o.nprow) * o.npcol;
  if (o.nprow > 0 && grid_ranks != nprocs)
    throw UsageError("--grid " + std::to_string(o.nprow) + "x" + std::to_string(o.npcol) +
                     " needs " + std::to_string(grid_ranks) + " ranks, running on " +
                     std::to_string(nprocs));
  return o;
}

std::string usage() {
  return R"(Usage: mpirun -np P tseig-solve [options]

Solves a dense symmetric/Hermitian eigenproblem A z = lambda z on P MPI ranks and
reports eigenvalues, stage timings and accuracy.

Problem:
  --random N          random symmetric/Hermitian matrix of order N (default 2000)
  --matrix FILE       read A from a Matrix Market file (array or coordinate)
  --random-generalized N
                      generalized problem A z = lambda B z of order N: random A and
                      a random well-conditioned positive definite B
  --B FILE            with --matrix: solve A z = lambda B z, B Hermitian positive
                      definite read from FILE (same order as A)
  --type d|z|s|c      double, complex double, float, complex float (default d)
  --seed S            seed of the random matrix (default 1)
  --nev K             compute the K lowest eigenpairs, 1 <= K <= N (default all)
  --range IL:IU       eigenpairs IL..IU of the ascending spectrum, 1-based and
                      inclusive (ScaLAPACK p?syevr's RANGE = 'I')
  --interval VL:VU    every eigenpair with its eigenvalue in (VL, VU] (RANGE = 'V')
  --values-only       eigenvalues only; residual and orthogonality are not measured
  --validate          the library checks its own result (tseig/validation.hpp): residual,
                      orthogonality and that no eigenvalue below the returned ones was
                      missed; reported as "validation", exit status 1 when a check fails
  --validation-tolerance TOL
                      the tolerance of --validate (implies it; default 1e3*N*epsilon)

Solver and layout:
  --solver NAME       one_stage, two_stage, scalapack or auto (default auto)
  --bandwidth B       two_stage: semi-bandwidth of the intermediate band matrix,
                      a multiple of --nb (default: chosen by the solver)
  --tune NAME=VALUE   set one performance knob (repeatable); the names and defaults:
                      bandwidth_target=64 band_sweeps_per_pass=256 wy_width=256
                      householder_kernel=0 multiply_depth=256 dc_min_leaf=32
                      dc_max_panel=256 dc_chunk_cols=512 gpu_band_kernel=0
                      gpu_band_columns=4 cache_limit_mb=-1
                      (see tseig/tune.hpp)
  --gpu off|auto|on   the back-transforms on each rank's GPU (on: an error where a rank
                      has none; auto: when every rank has one; default off)
  --nb NB             block-cyclic block size (default 64: large enough for BLAS-3
                      efficiency, small enough to balance N of a few thousand)
  --grid PxQ          process grid, P*Q must equal the number of ranks
                      (default: the most square grid, P <= Q)
  --grid-choice auto|as_given
                      auto (default): the solve may run on a better grid of the
                      first ranks (P-1 ranks for a prime P, fewer ranks for a small
                      N or more ranks than cores); as_given: always the --grid

Output:
  --json              one JSON object on stdout instead of the readable summary
  --out-values FILE   write all computed eigenvalues, one per line
  --out-vectors FILE  write the eigenvectors Z (N x K) as a Matrix Market array
  --help, -h          this text
  --capabilities      (alone) what this build can do, as JSON

Accuracy: residual = max_i |A z_i - lambda_i z_i| / (N |A|_1),
          orthogonality = max |Z^H Z - I|, measured on a copy of A taken before solving.
          Generalized: residual = max_i |A z_i - lambda_i B z_i| /
          ((|A|_1 + |lambda_i| |B|_1) |z_i|), orthogonality = max |Z^H B Z - I|.
)";
}

}  // namespace tseig::cli
