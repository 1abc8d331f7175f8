// tseig-tune's sparse mode (see tune_sparse.hpp).
#include "tune_sparse.hpp"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "parse_number.hpp"
#include "sparse_matrix.hpp"
#include "sparse_options.hpp"
#include "tseig/sparse/autotune.hpp"

namespace tseig::cli {
namespace {

using namespace tseig::sparse;

/// The kernel and block width the method spends its time in.
SparseAutotuneOptions kernel_of(const SparseOptions& o) {
  SparseAutotuneOptions a;
  switch (o.method) {
    case SparseMethod::kpm:
      a.kernel = TunedKernel::aug_spmmv;
      a.block_width = o.vectors;
      break;
    case SparseMethod::lobpcg:
      // LOBPCG applies H to its block of m = nev + guard columns (guard max(4, nev/4)).
      a.kernel = TunedKernel::spmmv;
      a.block_width = o.nev + std::max(4, o.nev / 4);
      break;
    default:
      a.kernel = TunedKernel::chebfd_op;
      a.block_width = o.block_width ? o.block_width : 8;
      break;
  }
  a.tune_file = o.tune_file.empty() ? "tseig-tune.json" : o.tune_file;
  return a;
}

template <class T>
void run(const SparseOptions& o, SparseAutotuneOptions a, MPI_Comm comm) {
  std::string name;
  const Matrix<T> m = make_sparse_matrix<T>(o, comm, name);
  const SparseAutotuneResult r = autotune(m, a);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  std::printf("sparse %s (%c), n = %lld, %lld nonzeros: %s at block width %d\n", name.c_str(),
              type_letter<T>(), static_cast<long long>(m.rows()),
              static_cast<long long>(m.nonzeros()), to_string(a.kernel), a.block_width);
  for (const SparseTuneTrial& t : r.trials) std::printf("  %-22s %10.5f s\n", t.what.c_str(), t.seconds);
  std::printf("best: %s, Rayleigh-Ritz on the grid from order %d\n",
              format_label(r.best).c_str(), r.best.rr_distributed_min);
  std::printf("tuning cache: %s\n", r.stored_in.empty() ? "(not written)" : r.stored_in.c_str());
}

}  // namespace

void tune_sparse(int argc, const char* const* argv, MPI_Comm comm) {
  // tseig-tune's own flags out, the rest is tseig-solve's sparse mode.
  std::vector<const char*> rest{argv[0]};
  double seconds = -1;
  std::vector<int> orders;
  bool orders_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag != "--seconds" && flag != "--rr-orders") {
      rest.push_back(argv[i]);
      continue;
    }
    if (i + 1 >= argc) throw UsageError(flag + ": missing value");
    const std::string v = argv[++i];
    if (flag == "--seconds") {
      seconds = parse_double(flag, v);
      if (!(seconds >= 0)) throw UsageError("--seconds: must be >= 0");
      continue;
    }
    orders_given = true;
    if (v == "none") continue;
    for (std::size_t p = 0;;) {
      const std::size_t q = std::min(v.find(',', p), v.size());
      orders.push_back(parse_int(flag, std::string_view(v).substr(p, q - p), 1));
      if (q == v.size()) break;
      p = q + 1;
    }
    if (!std::is_sorted(orders.begin(), orders.end()))
      throw UsageError("--rr-orders: ascending orders");
  }
  const SparseOptions o = parse_sparse_options(static_cast<int>(rest.size()), rest.data());
  SparseAutotuneOptions a = kernel_of(o);
  if (seconds >= 0) a.seconds = seconds;
  if (orders_given) a.rr_orders = orders;
  switch (o.type) {
    case 's':
      return run<float>(o, a, comm);
    case 'c':
      return run<std::complex<float>>(o, a, comm);
    case 'z':
      return run<std::complex<double>>(o, a, comm);
    default:
      return run<double>(o, a, comm);
  }
}

}  // namespace tseig::cli
