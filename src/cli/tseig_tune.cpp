// tseig-tune: measures the tuner's candidates for the problems asked for and writes the
// tuning cache that Solver::automatic reads (ELPA's autotuning, run once per machine
// instead of inside the application). Each problem runs the SCF-mode search on fresh
// random matrices: the solvers (pruned by the machine model), then a hill climb over
// block size, bandwidth and WY width; the table lists every trial.
//
//   mpiexec -n 2 tseig-tune --n 2000,4000 --nev-frac 1,0.2,0.05 --type d,z --tune-file F
//
// With a sparse matrix (tseig-solve's sparse options) it tunes the sparse layer instead:
//
//   mpiexec -n 2 tseig-tune --laplace3d 64 --lobpcg --nev 16 --tune-file F
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/parse_number.hpp"
#include "cli/sparse_options.hpp"
#include "cli/tune_sparse.hpp"
#include "tseig/tseig.hpp"
#include "tune/candidate.hpp"
#include "tune/machine_model.hpp"
#include "tune/rates_cache.hpp"
#include "tune/scf_search.hpp"
#include "tune/tune_cache.hpp"

namespace {

struct TuneOptions {
  std::vector<int> n{2000};
  std::vector<double> nev_frac{1.0, 0.2, 0.05};
  std::string types = "d";
  int nb = 64;
  bool vectors = true;
  bool model_only = false;
  bool calibrate = false;
  bool help = false;
  std::string tune_file;
};

const char* usage =
    "usage: tseig-tune [--n N[,N...]] [--nev-frac F[,F...]] [--type d,s,z,c] [--nb NB]\n"
    "                  [--values-only] [--tune-file PATH] [--model] [--calibrate]\n"
    "Measures the candidates of the autotuner for each problem (random Hermitian, on all\n"
    "ranks in the most square grid) and stores the best in the tuning cache\n"
    "(--tune-file, else $TSEIG_TUNE_FILE, else ./tseig-tune.json). --model measures\n"
    "nothing: it prints this machine's rates and the model's stage times instead.\n"
    "The model's rates are measured once per machine and rank count and kept in the\n"
    "tuning cache; --calibrate measures them again first (tseig-tune --calibrate --model).\n"
    "\n"
    "tseig-tune SPARSE-MATRIX [METHOD] [--seconds S] [--rr-orders N,N,...|none]\n"
    "                  [--block-widths N,N,...|none] [--tune-file PATH]\n"
    "With tseig-solve's sparse matrix and method options (tseig-solve --help) it times\n"
    "ChebFD's block widths by whole solves (--chebfd, --nearest; default 4,8,16), the\n"
    "storage formats (CRS, SELL-C-sigma) with the method's kernel and block width\n"
    "(S seconds each, default 0.2) and the projected eigenproblems of the given orders\n"
    "(default 200,400,800,1600) on one rank and on the grid, and stores the best for\n"
    "tseig-solve runs of that method on a matrix like it.\n";

using tseig::cli::UsageError;

TuneOptions parse(int argc, char** argv) {
  TuneOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--n")
      o.n = tseig::cli::parse_list(a, value(), [](std::string_view f, std::string_view t) {
        return tseig::cli::parse_int<int>(f, t, 1);
      });
    else if (a == "--nev-frac")
      o.nev_frac = tseig::cli::parse_list(a, value(), tseig::cli::parse_double);
    else if (a == "--type")
      o.types = value();
    else if (a == "--nb")
      o.nb = tseig::cli::parse_int<int>(a, value(), 1);
    else if (a == "--model")
      o.model_only = true;
    else if (a == "--calibrate")
      o.calibrate = true;
    else if (a == "--values-only")
      o.vectors = false;
    else if (a == "--tune-file")
      o.tune_file = value();
    else if (a == "--help" || a == "-h")
      o.help = true;
    else
      throw UsageError("unknown option '" + a + "'");
  }
  for (double f : o.nev_frac)
    if (!(f > 0 && f <= 1)) throw UsageError("--nev-frac: fractions in (0, 1]");
  for (char t : o.types)
    if (t != ',' && t != 'd' && t != 's' && t != 'z' && t != 'c')
      throw UsageError("--type takes d, s, z, c");
  if (o.types.find_first_not_of(',') == std::string::npos)
    throw UsageError("--type: '" + o.types + "' names no type (d, s, z, c)");
  if (o.tune_file.empty()) o.tune_file = tseig::tune::cache_path("");
  if (o.tune_file.empty()) o.tune_file = "tseig-tune.json";
  return o;
}

// The machine model's view of one problem: its stage times per solver.
void print_model(const tseig::Grid& g, char type, int n, int nev, const TuneOptions& o) {
  const auto sig = tseig::tune::make_signature(type, n, nev, g.nprow(), g.npcol(), o.vectors);
  const auto& r = tseig::tune::machine_rates(g.comm(), o.tune_file);
  std::printf(
      "%c N=%d nev=%d grid %dx%d: model (rates kept in %s; per rank: dgemm %.1f GFlop/s, rank-64 "
      "updates %.1f "
      "(half rate at rank %.1f), "
      "triad %.1f GB/s, tile product %.1f GB/s (%.1f in cache, %.1f up to %.1f MiB), bulge chase "
      "%.1f GFlop/s, stage-4 kernel %.1f, divide & conquer %.1f, Householder back-transform "
      "%.1f (GEMMs) / %.1f (kernel), allreduce %.1f us, %.2f GB/s)\n",
      type, n, nev, g.nprow(), g.npcol(), o.tune_file.c_str(), r.gemm_gflops, r.panel_gemm_gflops,
      r.update_half_rank, r.stream_gbs, r.symv_gbs, r.symv_cache_gbs, r.symv_reach_gbs,
      r.cache_bytes / 1048576, r.bulge_chase_gflops, r.band_backtransform_gflops,
      r.tridiagonal_solve_gflops, r.householder_gflops, r.householder_kernel_gflops,
      r.latency_s * 1e6, r.network_gbs);
  for (tseig::Solver s :
       {tseig::Solver::one_stage, tseig::Solver::two_stage, tseig::Solver::scalapack}) {
    const auto [nb, p] = tseig::tune::best_blocking(s, sig, o.nb, r);
    std::printf("  %-10s nb=%-3d%s %8.3f s =", tseig::to_string(s), nb,
                tseig::tune::path_label(p.householder_kernel), p.total);
    for (const auto& [stage, seconds] : p.stages) std::printf(" %s %.3f", stage.c_str(), seconds);
    std::printf("\n");
  }
}

// Collective: runs the search for one problem and returns whether the tuning cache holds
// its best choice afterwards (the Eigensolver stores it when the search ends, and only
// warns when the file cannot be written).
template <class T>
bool tune_one(const tseig::Grid& g, int n, int nev, const TuneOptions& o, bool root) {
  tseig::EigensolverOptions eo;
  eo.nev = nev;
  eo.eigenvalues_only = !o.vectors;
  eo.tune_file = o.tune_file;
  tseig::Eigensolver<T> es(eo);
  es.start_autotune();
  for (int seed = 1; es.autotuning(); ++seed) {
    tseig::DistMatrix<T> A(g, n, n, o.nb);
    tseig::generate::random_hermitian(A, seed);
    if (o.vectors) {
      tseig::DistMatrix<T> Z(g, n, nev, o.nb);
      es.eigenvectors(A, Z);
    } else {
      es.eigenvalues(A);
    }
  }
  const auto search = tseig::tune::ScfSearch::from_state(es.autotune_state());
  const tseig::TuneChoice best = search.best();
  const auto stored =
      tseig::tune::cache_lookup(g.comm(), o.tune_file,
                                tseig::tune::make_signature(tseig::type_letter<T>(), n, nev,
                                                            g.nprow(), g.npcol(), o.vectors));
  // Rank 0 decides: every rank then reports the same.
  int ok = root && stored && tseig::tune::same_point(*stored, best);
  MPI_Bcast(&ok, 1, MPI_INT, 0, g.comm());
  if (!root) return ok != 0;
  std::printf("%c N=%d nev=%d grid %dx%d: %zu trials\n", tseig::type_letter<T>(), n, nev, g.nprow(),
              g.npcol(), search.trials().size());
  for (const auto& [c, s] : search.trials())
    std::printf("  %-36s %9.3f s %s\n", tseig::tune::label(c).c_str(), s,
                tseig::tune::same_point(c, best) ? "  <- best" : "");
  return ok != 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 0;
  try {
    if (tseig::cli::is_sparse_invocation(argc, argv)) {
      tseig::cli::tune_sparse(argc, argv, MPI_COMM_WORLD);
      MPI_Finalize();
      return 0;
    }
    const TuneOptions o = parse(argc, argv);
    if (o.help) {  // asked for: on stdout, exit status 0 (a usage error prints it on stderr)
      if (rank == 0) std::fputs(usage, stdout);
      MPI_Finalize();
      return 0;
    }
    const tseig::Grid g(MPI_COMM_WORLD, 0, 0);
    int not_stored = 0;  // problems whose best choice did not reach the tuning cache
    if (o.calibrate) {
      const auto& r = tseig::tune::recalibrate(g.comm(), o.tune_file);
      if (rank == 0)
        std::printf("machine rates measured and kept in %s: %s\n", o.tune_file.c_str(),
                    tseig::tune::rates_json(r).c_str());
    }
    for (char t : o.types)
      for (int n : o.n)
        for (double f : o.nev_frac) {
          const int nev = std::max(1, static_cast<int>(f * n + 0.5));
          if (o.model_only) {
            if (t != ',') {
              const auto& r = tseig::tune::machine_rates(g.comm(), o.tune_file);  // collective
              (void)r;
              if (rank == 0) print_model(g, t, n, nev, o);
            }
            continue;
          }
          bool stored = true;
          switch (t) {
            case 'd':
              stored = tune_one<double>(g, n, nev, o, rank == 0);
              break;
            case 's':
              stored = tune_one<float>(g, n, nev, o, rank == 0);
              break;
            case 'z':
              stored = tune_one<std::complex<double>>(g, n, nev, o, rank == 0);
              break;
            case 'c':
              stored = tune_one<std::complex<float>>(g, n, nev, o, rank == 0);
              break;
            default:
              break;
          }
          if (!stored) ++not_stored;
        }
    if (not_stored > 0)
      throw tseig::Error(tseig::ErrorCode::io_error,
                         "cannot write the tuning cache '" + o.tune_file +
                             "': " + std::to_string(not_stored) +
                             " tuned result(s) not stored (check that the directory exists "
                             "and is writable)");
    if (rank == 0 && !o.model_only) std::printf("tuning cache: %s\n", o.tune_file.c_str());
  } catch (const UsageError& e) {
    if (rank == 0) {
      std::fprintf(stderr, "tseig-tune: %s\n", e.what());
      std::fputs(usage, stderr);
    }
    rc = 2;
  } catch (const tseig::Error& e) {
    if (rank == 0)
      std::fprintf(stderr, "tseig-tune: error (%s): %s\n", tseig::to_string(e.code()), e.what());
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
