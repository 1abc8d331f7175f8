// The sparse mode of tseig-solve. Timings are barrier to barrier around the method
// call; the orthogonality max |XᴴX − I| is measured here on the returned vectors.
#include "run_sparse.hpp"
#include "sparse_problem.hpp"
#include "write_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "options.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/autotune.hpp"
#include "tseig/sparse/chebfd.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/lobpcg.hpp"
#include "tseig/sparse/matrix_market.hpp"

namespace tseig::cli {
namespace {

using namespace tseig::sparse;

template <class T>
double orthogonality(const MultiVector<T>& x) {
  const std::vector<T> g = gram(x, x);
  const int k = x.cols();
  double worst = 0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i)
      worst = std::max(worst, static_cast<double>(std::abs(g[i + j * k] - T(i == j ? 1 : 0))));
  return worst;
}

std::string array(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += json::number(v[i]);  // 17 digits: the values read back exactly
  }
  return s + "]";
}

template <class T>
void run_kpm(const SparseOptions& o, const Matrix<T>& a, double& seconds, std::ostream& out,
             const std::string& head) {
  KpmOptions k;
  k.moments = o.moments;
  k.vectors = o.vectors;
  k.seed = o.seed;
  MPI_Barrier(a.comm());
  const double t0 = MPI_Wtime();
  const KpmMoments m = kpm_moments(a, k);
  const DensityOfStates dos = density_of_states(m, o.dos_points);
  EigenvalueCount count;
  if (o.interval_given) count = eigenvalue_count(m, o.lower, o.upper);
  MPI_Barrier(a.comm());
  seconds = MPI_Wtime() - t0;
  int rank = 0;
  MPI_Comm_rank(a.comm(), &rank);
  if (rank != 0) return;
  if (o.json) {
    out << head << ",\"method\":\"kpm\",\"seconds\":" << json::number(seconds, "%.6g")
        << ",\"moments\":" << m.moments << ",\"vectors\":" << m.vectors << ",\"bounds\":["
        << json::number(m.bounds.lower) << "," << json::number(m.bounds.upper) << "]";
    if (o.interval_given)
      out << ",\"interval\":[" << json::number(o.lower) << "," << json::number(o.upper)
          << "],\"count\":" << json::number(count.count, "%.6g")
          << ",\"count_error\":" << json::number(count.error, "%.3g");
    out << ",\"dos\":{\"energy\":" << array(dos.energy) << ",\"density\":" << array(dos.density)
        << "}}\n";
    return;
  }
  out << "KPM: " << m.moments << " moments, " << m.vectors << " random vectors, "
      << std::setprecision(4) << seconds << " s\n"
      << "spectrum within [" << m.bounds.lower << ", " << m.bounds.upper << "]\n";
  if (o.interval_given)
    out << "eigenvalues in [" << o.lower << ", " << o.upper << "]: " << std::setprecision(6)
        << count.count << " +- " << std::setprecision(2) << count.error << "\n";
  out << "DOS on " << dos.energy.size() << " points (--json to get them)\n";
}

template <class T>
EigenResult<T> run_eigensolver(const SparseOptions& o, const Matrix<T>& a,
                               const SparseTuneParameters& tuned, MPI_Comm comm) {
  if (o.method == SparseMethod::lobpcg) {
    LobpcgOptions<T> l;
    l.tune = tuned;
    l.nev = o.nev;
    l.which = o.largest ? Which::largest : Which::smallest;
    l.tol = o.tol;
    if (o.max_iterations) l.max_iterations = o.max_iterations;
    l.progress = progress_line("lobpcg", comm);
    Preconditioner<T> p;
    if (o.jacobi) p = jacobi_preconditioner(a);
    // The polynomial is centred at the unwidened Lanczos end (see chebyshev_preconditioner).
    if (o.chebyshev)
      p = chebyshev_preconditioner(LinearOperator<T>(a), spectral_bounds(a, 40, 0.0), o.chebyshev,
                                   l.which);
    if (o.b_path.empty()) return lobpcg(LinearOperator<T>(a), l, p);
    const Matrix<T> s = read_matrix_market<T>(comm, o.b_path, true);
    return lobpcg(LinearOperator<T>(a), LinearOperator<T>(s), l, p);
  }
  const ChebfdOptions c = chebfd_options(o, tuned, comm);
  return o.method == SparseMethod::chebfd ? chebfd(a, o.lower, o.upper, c)
                                          : chebfd_nearest(a, o.target, o.nev, c);
}

const char* method_name(SparseMethod m) {
  switch (m) {
    case SparseMethod::lobpcg:
      return "lobpcg";
    case SparseMethod::chebfd:
      return "chebfd";
    case SparseMethod::nearest:
      return "nearest";
    default:
      return "kpm";
  }
}

// What the tuning cache changed, for the header line ("" when nothing).
std::string tuned_note(const SparseOptions& o, const SparseTuneParameters& t) {
  if (t == SparseTuneParameters{}) return "";
  const bool chebfd = tuned_kernel(o.method) == TunedKernel::chebfd_op;
  return " (tuned: " +
         (chebfd ? "block width " + std::to_string(o.block_width ? o.block_width : t.block_width) +
                       ", "
                 : std::string()) +
         "Rayleigh-Ritz on the grid from order " + std::to_string(t.rr_distributed_min) + ")";
}

template <class T>
void run_typed(const SparseOptions& o, MPI_Comm comm, std::ostream& out) {
  std::string name;
  Matrix<T> a = make_sparse_matrix<T>(o, comm, name);
  // The tuning cache's knobs for this matrix (tseig-tune), else the defaults.
  const SparseTuneParameters tuned = tuned_parameters(a, tuned_kernel(o.method), {}, o.tune_file);
  a = a.with_format(tuned);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::ostringstream head;
  head << "{\"mode\":\"sparse\",\"matrix\":" << json::string(name) << ",\"type\":\"" << o.type
       << "\",\"n\":" << a.rows() << ",\"nonzeros\":" << a.nonzeros() << ",\"np\":" << ranks
       << ",\"format\":\"" << format_label(tuned)
       << "\",\"rr_distributed_min\":" << tuned.rr_distributed_min;
  if (tuned_kernel(o.method) == TunedKernel::chebfd_op)
    head << ",\"block_width\":" << (o.block_width ? o.block_width : tuned.block_width);
  if (o.subspace_iteration)
    head << ",\"pipeline_blocks\":"
         << (o.pipeline_blocks ? o.pipeline_blocks : tuned.pipeline_blocks);
  if (rank == 0 && !o.json)
    out << "tseig-solve (sparse): " << name << ", n = " << a.rows() << ", " << a.nonzeros()
        << " nonzeros, " << ranks << " rank(s), " << format_label(tuned) << tuned_note(o, tuned)
        << "\n";
  double seconds = 0;
  if (o.method == SparseMethod::kpm) return run_kpm(o, a, seconds, out, head.str());

  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  const EigenResult<T> r = run_eigensolver(o, a, tuned, comm);
  MPI_Barrier(comm);
  seconds = MPI_Wtime() - t0;
  const double orth = o.b_path.empty() ? orthogonality(r.eigenvectors) : -1;
  std::vector<double> values(r.eigenvalues.begin(), r.eigenvalues.end());
  const double worst =
      r.residuals.empty() ? 0 : *std::max_element(r.residuals.begin(), r.residuals.end());
  if (!o.out_vectors.empty()) write_vectors(r.eigenvectors, o.out_vectors);
  if (rank != 0) return;
  if (!o.out_values.empty()) {
    std::ofstream f(o.out_values);
    f << std::setprecision(17);
    for (double v : values) f << v << "\n";
    if (!f) throw Error(ErrorCode::io_error, "cannot write " + o.out_values);
  }
  const SolverTimes& t = r.times;
  if (o.json) {
    out << head.str() << ",\"method\":\"" << method_name(o.method)
        << "\",\"seconds\":" << json::number(seconds, "%.6g") << ",\"iterations\":" << r.iterations
        << ",\"operator_applications\":" << r.operator_applications
        << ",\"converged\":" << (r.converged ? "true" : "false")
        << ",\"eigenvalues\":" << array(values)
        << ",\"max_residual\":" << json::number(worst, "%.3g")
        << ",\"orthogonality\":" << (orth < 0 ? "null" : json::number(orth, "%.3g"))
        << ",\"times\":{\"spmmv\":" << json::number(t.spmmv, "%.4g")
        << ",\"orthogonalization\":" << json::number(t.orthogonalization, "%.4g")
        << ",\"rayleigh_ritz\":" << json::number(t.rayleigh_ritz, "%.4g")
        << ",\"communication\":" << json::number(t.communication, "%.4g")
        << ",\"total\":" << json::number(t.total, "%.4g") << "}}\n";
    return;
  }
  out << method_name(o.method) << ": " << values.size() << " eigenpairs in " << r.iterations
      << " iterations, " << r.operator_applications << " operator applications, "
      << std::setprecision(4) << seconds << " s\n";
  out << "eigenvalues:";
  for (std::size_t i = 0; i < std::min<std::size_t>(values.size(), 10); ++i)
    out << " " << std::setprecision(10) << values[i];
  out << (values.size() > 10 ? " ..." : "") << "\n"
      << "max relative residual " << std::setprecision(3) << worst;
  if (orth >= 0) out << ", orthogonality " << orth;
  out << "\ntime split: spmmv " << t.spmmv << " s, orthogonalization " << t.orthogonalization
      << " s, Rayleigh-Ritz " << t.rayleigh_ritz << " s, communication " << t.communication
      << " s\n";
}

}  // namespace

void run_sparse(const SparseOptions& o, MPI_Comm comm, std::ostream& out) {
  switch (o.type) {
    case 's':
      return run_typed<float>(o, comm, out);
    case 'c':
      return run_typed<std::complex<float>>(o, comm, out);
    case 'z':
      return run_typed<std::complex<double>>(o, comm, out);
    default:
      return run_typed<double>(o, comm, out);
  }
}

}  // namespace tseig::cli
