// tseig-tune's sparse mode (see tune_sparse.hpp).
#include "tune_sparse.hpp"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "parse_number.hpp"
#include "sparse_options.hpp"
#include "sparse_problem.hpp"
#include "tseig/sparse/autotune.hpp"
#include "tune/tune_cache.hpp"

namespace tseig::cli {
namespace {

using namespace tseig::sparse;

/// The kernel and block width the method spends its time in.
SparseAutotuneOptions kernel_of(const SparseOptions& o) {
  SparseAutotuneOptions a;
  a.kernel = tuned_kernel(o.method);
  // KPM: its random vectors; LOBPCG: m = nev + guard (guard max(4, nev / 4)); ChebFD.
  a.block_width = o.method == SparseMethod::kpm      ? o.vectors
                  : o.method == SparseMethod::lobpcg ? o.nev + std::max(4, o.nev / 4)
                  : o.block_width                    ? o.block_width
                                                     : SparseTuneParameters{}.block_width;
  // As the dense mode: --tune-file, else $TSEIG_TUNE_FILE (where tseig-solve reads), else
  // ./tseig-tune.json.
  a.tune_file = tune::cache_path(o.tune_file);
  if (a.tune_file.empty()) a.tune_file = "tseig-tune.json";
  return a;
}

/// ChebFD's block width by whole solves (the kernel's speed per column is not the
/// solver's: wider blocks grow the Krylov–Schur space in bigger steps); the fastest.
template <class T>
int best_block_width(const SparseOptions& o, const Matrix<T>& m, const std::vector<int>& widths,
                     std::vector<SparseTuneTrial>& trials) {
  int best = 0;
  double best_seconds = 0;
  for (int w : widths) {
    SparseTuneParameters t;
    t.block_width = w;
    const ChebfdOptions c = chebfd_options(o, t, m.comm());
    MPI_Barrier(m.comm());
    const double t0 = MPI_Wtime();
    if (o.method == SparseMethod::chebfd)
      (void)chebfd(m, o.lower, o.upper, c);
    else
      (void)chebfd_nearest(m, o.target, o.nev, c);
    double seconds = MPI_Wtime() - t0;
    MPI_Bcast(&seconds, 1, MPI_DOUBLE, 0, m.comm());  // rank 0's clock decides everywhere
    trials.push_back({"chebfd nb=" + std::to_string(w), seconds});
    if (best == 0 || seconds < best_seconds) best = w, best_seconds = seconds;
  }
  return best;
}

template <class T>
void run(const SparseOptions& o, SparseAutotuneOptions a, const std::vector<int>& widths,
         MPI_Comm comm) {
  std::string name;
  const Matrix<T> m = make_sparse_matrix<T>(o, comm, name);
  std::vector<SparseTuneTrial> trials;
  if (a.kernel == TunedKernel::chebfd_op && !widths.empty())
    a.block_width = best_block_width(o, m, widths, trials);
  const SparseAutotuneResult r = autotune(m, a);
  trials.insert(trials.end(), r.trials.begin(), r.trials.end());
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  std::printf("sparse %s (%c), n = %lld, %lld nonzeros: %s at block width %d\n", name.c_str(),
              type_letter<T>(), static_cast<long long>(m.rows()),
              static_cast<long long>(m.nonzeros()), to_string(a.kernel), a.block_width);
  for (const SparseTuneTrial& t : trials)
    std::printf("  %-38s %10.5f s\n", t.what.c_str(), t.seconds);
  std::printf("best: %s, Rayleigh-Ritz on the grid from order %d", storage_label(r.best).c_str(),
              r.best.rr_distributed_min);
  if (a.kernel == TunedKernel::chebfd_op)
    std::printf(", block width %d, %d block%s in turn", r.best.block_width, r.best.pipeline_blocks,
                r.best.pipeline_blocks == 1 ? "" : "s");
  std::printf("\ntuning cache: %s\n", r.stored_in.empty() ? "(not written)" : r.stored_in.c_str());
}

/// "a,b,c" of positive integers (ascending when `sorted`) or "none" (empty).
std::vector<int> int_list(const std::string& flag, const std::string& v, bool sorted) {
  if (v == "none") return {};
  const std::vector<int> out = parse_list(
      flag, v, [](std::string_view f, std::string_view t) { return parse_int(f, t, 1); });
  if (sorted && !std::is_sorted(out.begin(), out.end()))
    throw UsageError(flag + ": ascending values");
  return out;
}

}  // namespace

void tune_sparse(int argc, const char* const* argv, MPI_Comm comm) {
  // tseig-tune's own flags out, the rest is tseig-solve's sparse mode.
  std::vector<const char*> rest{argv[0]};
  double seconds = -1;
  std::vector<int> orders, widths{4, 8, 16};
  bool orders_given = false, widths_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag != "--seconds" && flag != "--rr-orders" && flag != "--block-widths") {
      rest.push_back(argv[i]);
      continue;
    }
    if (i + 1 >= argc) throw UsageError(flag + ": missing value");
    const std::string v = argv[++i];
    if (flag == "--seconds") {
      seconds = parse_double(flag, v);
      if (!(seconds >= 0)) throw UsageError("--seconds: must be >= 0");
    } else if (flag == "--rr-orders") {
      orders = int_list(flag, v, true);
      orders_given = true;
    } else {
      widths = int_list(flag, v, false);
      widths_given = true;
    }
  }
  const SparseOptions o = parse_sparse_options(static_cast<int>(rest.size()), rest.data());
  SparseAutotuneOptions a = kernel_of(o);
  if (seconds >= 0) a.seconds = seconds;
  if (orders_given) a.rr_orders = orders;
  if (a.kernel != TunedKernel::chebfd_op && widths_given)
    throw UsageError("--block-widths tunes ChebFD (--chebfd, --nearest)");
  if (o.block_width) widths.clear();  // set by the user: kept
  switch (o.type) {
    case 's':
      return run<float>(o, a, widths, comm);
    case 'c':
      return run<std::complex<float>>(o, a, widths, comm);
    case 'z':
      return run<std::complex<double>>(o, a, widths, comm);
    default:
      return run<double>(o, a, widths, comm);
  }
}

}  // namespace tseig::cli
