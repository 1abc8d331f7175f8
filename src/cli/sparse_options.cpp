// Parsing of tseig-solve's sparse mode (see sparse_usage()).
#include "sparse_options.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "options.hpp"
#include "parse_number.hpp"

namespace tseig::cli {
namespace {

constexpr std::string_view sparse_flags[] = {"--mtx",      "--laplace3d", "--laplace2d",
                                             "--graphene", "--ti",        "--kpm",
                                             "--lobpcg",   "--chebfd",    "--nearest"};

/// "a:b" → (a, b) with a < b.
void parse_interval(std::string_view flag, std::string_view text, SparseOptions& o) {
  const auto [lower, upper] = split_pair(flag, text);
  o.lower = parse_double(flag, lower);
  o.upper = parse_double(flag, upper);
  if (!(o.lower < o.upper))
    throw UsageError(std::string(flag) + ": the interval " + std::string(text) + " is empty");
  o.interval_given = true;
}

/// "n" (every side n) or count comma-separated sizes, each ≥ 1.
void parse_dims(std::string_view flag, std::string_view text, int count, SparseOptions& o) {
  const std::vector<std::int64_t> sizes = parse_list(
      flag, text,
      [](std::string_view f, std::string_view t) { return parse_int<std::int64_t>(f, t, 1); });
  if (sizes.size() != 1 && static_cast<int>(sizes.size()) != count)
    throw UsageError(std::string(flag) + ": expected 1 or " + std::to_string(count) + " sizes");
  for (int d = 0; d < count; ++d) o.dims[d] = sizes[sizes.size() == 1 ? 0 : d];
}

}  // namespace

bool is_sparse_invocation(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i)
    for (std::string_view f : sparse_flags)
      if (f == argv[i]) return true;
  return false;
}

SparseOptions parse_sparse_options(int argc, const char* const* argv) {
  SparseOptions o;
  int problems = 0, methods = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) throw UsageError(std::string(flag) + ": missing value");
      return argv[++i];
    };
    auto generator = [&](SparseGenerator g, int count) {
      o.generator = g;
      parse_dims(flag, value(), count, o);
      ++problems;
    };
    if (flag == "--mtx") {
      o.mtx = value();
      ++problems;
    } else if (flag == "--laplace3d") {
      generator(SparseGenerator::laplace3d, 3);
    } else if (flag == "--laplace2d") {
      generator(SparseGenerator::laplace2d, 2);
    } else if (flag == "--graphene") {
      generator(SparseGenerator::graphene, 2);
    } else if (flag == "--ti") {
      generator(SparseGenerator::ti, 3);
    } else if (flag == "--disorder") {
      o.disorder = parse_double(flag, value());
    } else if (flag == "--seed") {
      o.seed = parse_int<std::uint64_t>(flag, value(), 0);
    } else if (flag == "--B") {
      o.b_path = value();
    } else if (flag == "--type") {
      const std::string_view t = value();
      if (t != "s" && t != "d" && t != "c" && t != "z")
        throw UsageError("--type: unknown type '" + std::string(t) + "' (d, z, s, c)");
      o.type = t[0];
    } else if (flag == "--kpm") {
      o.method = SparseMethod::kpm;
      ++methods;
    } else if (flag == "--lobpcg") {
      o.method = SparseMethod::lobpcg;
      ++methods;
    } else if (flag == "--chebfd") {
      o.method = SparseMethod::chebfd;
      ++methods;
    } else if (flag == "--nearest") {
      o.method = SparseMethod::nearest;
      o.target = parse_double(flag, value());
      ++methods;
    } else if (flag == "--interval") {
      parse_interval(flag, value(), o);
    } else if (flag == "--nev") {
      o.nev = parse_int(flag, value(), 1);
    } else if (flag == "--tol") {
      o.tol = parse_double(flag, value());
      if (!(o.tol > 0 && o.tol < 1)) throw UsageError("--tol: must lie in (0, 1)");
    } else if (flag == "--largest") {
      o.largest = true;
    } else if (flag == "--jacobi") {
      o.jacobi = true;
    } else if (flag == "--chebyshev") {
      o.chebyshev = parse_int(flag, value(), 1);
    } else if (flag == "--subspace-iteration") {
      o.subspace_iteration = true;
    } else if (flag == "--degree") {
      o.degree = parse_int(flag, value(), 1);
    } else if (flag == "--max-degree") {
      o.max_degree = parse_int(flag, value(), 1);
    } else if (flag == "--block-width") {
      o.block_width = parse_int(flag, value(), 1);
    } else if (flag == "--pipeline-blocks") {
      o.pipeline_blocks = parse_int(flag, value(), 1);
    } else if (flag == "--max-iterations") {
      o.max_iterations = parse_int(flag, value(), 1);
    } else if (flag == "--moments") {
      o.moments = parse_int(flag, value(), 2);
    } else if (flag == "--vectors") {
      o.vectors = parse_int(flag, value(), 1);
    } else if (flag == "--dos-points") {
      o.dos_points = parse_int(flag, value(), 2);
    } else if (flag == "--tune-file") {
      o.tune_file = value();
    } else if (flag == "--json") {
      o.json = true;
    } else if (flag == "--out-values") {
      o.out_values = value();
    } else if (flag == "--out-vectors") {
      o.out_vectors = value();
    } else {
      throw UsageError("unknown option '" + std::string(flag) + "' in sparse mode");
    }
  }
  if (problems != 1)
    throw UsageError(
        "sparse mode needs exactly one of --mtx, --laplace3d, --laplace2d, --graphene, --ti");
  if (methods > 1) throw UsageError("--kpm, --lobpcg, --chebfd and --nearest exclude each other");
  if (o.method == SparseMethod::chebfd && !o.interval_given)
    throw UsageError("--chebfd needs --interval a:b");
  if ((!o.out_vectors.empty() || !o.out_values.empty()) && o.method == SparseMethod::kpm)
    throw UsageError(
        "--out-values and --out-vectors need an eigensolver (--lobpcg, --chebfd, "
        "--nearest)");
  if (o.jacobi && o.chebyshev) throw UsageError("--jacobi and --chebyshev exclude each other");
  if (o.subspace_iteration && o.method != SparseMethod::chebfd && o.method != SparseMethod::nearest)
    throw UsageError("--subspace-iteration works with --chebfd and --nearest only");
  if (o.pipeline_blocks && !o.subspace_iteration)
    throw UsageError("--pipeline-blocks works with --subspace-iteration only");
  if ((o.degree || o.max_degree) && o.method != SparseMethod::chebfd &&
      o.method != SparseMethod::nearest)
    throw UsageError("--degree and --max-degree work with --chebfd and --nearest only");
  if (o.block_width && o.method != SparseMethod::chebfd && o.method != SparseMethod::nearest)
    throw UsageError(
        "--block-width works with --chebfd and --nearest only (LOBPCG's block is its nev plus "
        "guard vectors)");
  if (!o.b_path.empty() && o.method != SparseMethod::lobpcg)
    throw UsageError("--B (generalized problem) works with --lobpcg only");
  if (o.type == 0) o.type = o.generator == SparseGenerator::ti ? 'z' : 'd';
  if (o.generator == SparseGenerator::ti && (o.type == 'd' || o.type == 's'))
    throw UsageError("--ti is complex Hermitian: use --type z or c");
  return o;
}

std::string sparse_usage() {
  return R"(
Sparse mode (any of the options below selects it):
  --mtx FILE          sparse Matrix Market coordinate file (symmetric/Hermitian)
  --laplace3d N|NX,NY,NZ   7-point Laplacian, Dirichlet
  --laplace2d N|NX,NY      5-point Laplacian, periodic
  --graphene N|NX,NY       honeycomb lattice (2 sites per cell), periodic
  --ti N|NX,NY,NZ          topological insulator, 4 orbitals per site (complex)
  --disorder W        TI on-site disorder in [-W/2, W/2]; --seed S its seed
  --type d|z|s|c      scalar type (default d; z for --ti)
Methods (default --kpm):
  --kpm               KPM density of states (--moments M, --vectors R,
                      --dos-points P) and, with --interval a:b, the eigenvalue
                      count in [a, b] with its stochastic error
  --lobpcg            the --nev K smallest (--largest: largest) eigenpairs;
                      --jacobi preconditions, --chebyshev D with a degree-D
                      polynomial (cheap operators: fewer iterations),
                      --B FILE solves H x = lambda S x
  --chebfd            every eigenpair in --interval a:b (Chebyshev filter)
  --nearest T         the --nev K eigenpairs nearest to T (Chebyshev filter)
  --subspace-iteration  --chebfd/--nearest: iterate the filter on a subspace
                      (Pieper et al.) instead of a Krylov-Schur space of p(H)
  --degree D          --chebfd/--nearest: filter degree (default: planned from
                      the window's width); --max-degree M caps a planned degree
                      (default 10000: a window ~1e-6 of the spectrum would need
                      millions; not converged then says so)
  --block-width NB    --chebfd/--nearest: vectors filtered together (default 8, or
                      the tuning cache's)
  --pipeline-blocks P  --subspace-iteration: blocks filtered taking turns, each
                      one's halo exchange in flight during the sweep of the one
                      before (default 1: one block at a time, or the
                      tuning cache's)
  --tol T             relative residual |Hx - lambda Sx| / ((|H| + |lambda||S|)|x|)
                      (default sqrt(eps)); --max-iterations N
  --tune-file FILE    tuning cache with this matrix's measured storage format and
                      Rayleigh-Ritz threshold (tseig-tune with the same matrix
                      options writes it); default $TSEIG_TUNE_FILE
  --json              one JSON object on stdout (KPM: with the DOS grid; plot it
                      with scripts/plot_dos.py FILE.json FILE.png)
  --out-values FILE   the eigenvalues, one per line
  --out-vectors FILE  the eigenvectors, a Matrix Market array (n x k, column k
                      belongs to eigenvalue k)
)";
}

}  // namespace tseig::cli
