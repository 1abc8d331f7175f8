// slepc_eigen_bench: tseig's sparse eigensolvers against SLEPc in one run, on the same
// matrices with the same row distribution; every solver's output is checked by one test
// (ours): ‖Hx − λx‖ / ((‖H‖ + |λ|)‖x‖), ‖H‖ from tseig's Lanczos bounds.
//
// Real build: the 3D Laplacian n³ (Dirichlet), the k smallest by LOBPCG, each library
// twice: without preconditioner (tseig_lobpcg; slepc_lobpcg with KSPPREONLY + PCNONE) and
// with a polynomial one (tseig_lobpcg_chebyshev: chebyshev_preconditioner of --degree,
// default 16, the best of 10/16/24/32 on 64³ with 16 pairs;
// slepc_lobpcg_default: SLEPc's default for EPSLOBPCG, STPRECOND with 5 GMRES steps per
// residual, here with PCNONE — what "no preconditioner" gets unless the KSP is set; its
// inner GMRES iterations are reported). Complex build: the disordered topological
// insulator, the k eigenvalues nearest 0: tseig::sparse::chebfd_nearest, then on the
// window it settled on tseig::sparse::chebfd (Krylov–Schur iteration, then the subspace
// iteration: tseig_chebfd_subspace, and tseig_chebfd_subspace_two_in_turn with two
// blocks taking turns) and SLEPc's polynomial filter (Krylov–Schur,
// STFILTER, EPS_ALL), then SLEPc's shift-invert (Krylov–Schur, target 0, MUMPS LU;
// its factorization is part of its time).
//
// One JSON line per solver on stdout (rank 0): seconds, iterations, pairs found, the
// largest residual by our test, the largest eigenvalue difference to the first solver
// run (real build) or to tseig (complex build), the peak memory growth per rank, and
// tseig's operator applications (H times one vector) and time split.
//
// Usage: slepc_eigen_bench_real [--lap N] [--nev K] [--tol T] [--degree D] [--skip NAME,...]
//        slepc_eigen_bench_complex [--ti X,Y,Z] [--disorder W] [--nev K] [--tol T]
//                                  [--damping jackson|lanczos] [--skip ...]
#include <mpi.h>
#include <slepceps.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "peak_memory.hpp"
#include "petsc_matrix.hpp"
#include "tseig/sparse/chebfd.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/lobpcg.hpp"

namespace {

using namespace tseig::sparse;
using tseig::bench::PeakMemory;
#if defined(PETSC_USE_COMPLEX)
using T = std::complex<double>;
#else
using T = double;
#endif

void check(PetscErrorCode code, const char* what) {
  tseig::bench::petsc_check(code, what);
}

struct Options {
  std::int64_t lap = 64;
  std::int64_t ti[3] = {64, 64, 16};
  double disorder = 1.0;
  int nev = 16;
  int degree = 16;
  double tol = 1e-8;
  std::string skip;
  bool lanczos_sigma = false;  // ChebFD's window damping (default Jackson)
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--lap")
      o.lap = std::stoll(value);
    else if (flag == "--nev")
      o.nev = std::stoi(value);
    else if (flag == "--tol")
      o.tol = std::stod(value);
    else if (flag == "--degree")
      o.degree = std::stoi(value);
    else if (flag == "--disorder")
      o.disorder = std::stod(value);
    else if (flag == "--skip")
      o.skip = value;
    else if (flag == "--damping")
      o.lanczos_sigma = value == "lanczos";
    else if (flag == "--ti") {
      char comma;
      std::istringstream in(value);
      if (!(in >> o.ti[0] >> comma >> o.ti[1] >> comma >> o.ti[2]))
        throw std::invalid_argument("--ti needs X,Y,Z");
    } else {
      throw std::invalid_argument("unknown option " + flag);
    }
  }
  return o;
}

/// What one solver returned, in tseig's vectors.
struct Found {
  std::vector<double> values;
  MultiVector<T> vectors;
  int iterations = 0;
  double seconds = 0;
  double memory_mib = -1;
  SolverTimes times;
  bool ours = false;
  int inner_iterations = -1;  ///< SLEPc's KSP iterations inside its preconditioner
  /// H times one vector, tseig's rows only (SLEPc's filter multiplies blocks through
  /// MatProduct, whose columns PETSc's event log does not count).
  long long operator_applications = -1;
};

/// The converged pairs of a solved EPS, copied into a MultiVector of a's layout.
Found from_eps(EPS eps, const Matrix<T>& a) {
  PetscInt converged = 0, iterations = 0;
  check(EPSGetConverged(eps, &converged), "EPSGetConverged");
  check(EPSGetIterationNumber(eps, &iterations), "EPSGetIterationNumber");
  Found f;
  f.iterations = static_cast<int>(iterations);
  f.vectors = MultiVector<T>(a.vector_layout(), static_cast<int>(converged));
  Mat m;
  check(EPSGetOperators(eps, &m, nullptr), "EPSGetOperators");
  Vec x;
  check(MatCreateVecs(m, &x, nullptr), "MatCreateVecs");
  for (PetscInt j = 0; j < converged; ++j) {
    PetscScalar value;
    check(EPSGetEigenpair(eps, j, &value, nullptr, x, nullptr), "EPSGetEigenpair");
    f.values.push_back(PetscRealPart(value));
    const PetscScalar* local;
    check(VecGetArrayRead(x, &local), "VecGetArrayRead");
    for (int i = 0; i < a.local_rows(); ++i) f.vectors(i, static_cast<int>(j)) = T(local[i]);
    check(VecRestoreArrayRead(x, &local), "VecRestoreArrayRead");
  }
  VecDestroy(&x);
  return f;
}

/// Largest relative residual of the pairs by our test.
double max_residual(const Matrix<T>& a, const Found& f, double norm_h) {
  if (f.values.empty()) return 0;
  MultiVector<T> hx(a.vector_layout(), f.vectors.cols());
  spmmv(a, f.vectors, hx);
  const std::vector<T> xx = column_dots(f.vectors, f.vectors);
  for (int i = 0; i < hx.local_rows(); ++i)
    for (int j = 0; j < hx.cols(); ++j) hx(i, j) -= T(f.values[j]) * f.vectors(i, j);
  const std::vector<T> rr = column_dots(hx, hx);
  double worst = 0;
  for (std::size_t j = 0; j < f.values.size(); ++j)
    worst = std::max(worst, std::sqrt(std::abs(rr[j])) /
                                ((norm_h + std::abs(f.values[j])) * std::sqrt(std::abs(xx[j]))));
  return worst;
}

/// Largest difference of the sorted values over the first min(|a|, |b|) of each (a level
/// returned whole by one solver and cut by the other makes the counts differ).
double max_difference(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  double worst = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

void report(const char* problem, const char* solver, const Matrix<T>& a, const Found& f,
            double norm_h, const std::vector<double>& reference) {
  const double residual = max_residual(a, f, norm_h);
  int rank, size;
  MPI_Comm_rank(a.comm(), &rank);
  MPI_Comm_size(a.comm(), &size);
  if (rank != 0) return;
  std::printf(
      "{\"problem\": \"%s\", \"solver\": \"%s\", \"n\": %lld, \"np\": %d, \"seconds\": %.3f, "
      "\"iterations\": %d, \"found\": %zu, \"max_residual\": %.3e, \"max_eigenvalue_diff\": %.3e, "
      "\"memory_mib\": %.1f",
      problem, solver, static_cast<long long>(a.rows()), size, f.seconds, f.iterations,
      f.values.size(), residual, reference.empty() ? 0.0 : max_difference(f.values, reference),
      f.memory_mib);
  if (f.inner_iterations >= 0) std::printf(", \"inner_iterations\": %d", f.inner_iterations);
  if (f.operator_applications >= 0)
    std::printf(", \"operator_applications\": %lld", f.operator_applications);
  if (f.ours)
    std::printf(
        ", \"spmmv_s\": %.3f, \"orthogonalization_s\": %.3f, \"rayleigh_ritz_s\": %.3f, "
        "\"communication_s\": %.3f",
        f.times.spmmv, f.times.orthogonalization, f.times.rayleigh_ritz, f.times.communication);
  std::printf("}\n");
  std::fflush(stdout);
}

bool skipped(const Options& o, const std::string& name) {
  return ("," + o.skip + ",").find("," + name + ",") != std::string::npos;
}

/// Runs `solve` (which returns the Found without timing) and records time and memory.
template <class F>
Found timed(MPI_Comm comm, F&& solve) {
  const PeakMemory memory;
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  Found f = solve();
  f.seconds = MPI_Wtime() - t0;
  f.memory_mib = memory.max_growth_mib(comm).value_or(-1);
  return f;
}

Found ours(const EigenResult<T>& r) {
  Found f;
  f.values.assign(r.eigenvalues.begin(), r.eigenvalues.end());
  f.vectors = r.eigenvectors;
  f.iterations = r.iterations;
  f.operator_applications = r.operator_applications;
  f.times = r.times;
  f.ours = true;
  return f;
}

EPS make_eps(MPI_Comm comm, Mat m, double tol, EPSType type) {
  EPS eps;
  check(EPSCreate(comm, &eps), "EPSCreate");
  check(EPSSetOperators(eps, m, nullptr), "EPSSetOperators");
  check(EPSSetProblemType(eps, EPS_HEP), "EPSSetProblemType");
  check(EPSSetType(eps, type), "EPSSetType");
  check(EPSSetConvergenceTest(eps, EPS_CONV_NORM), "EPSSetConvergenceTest");
  check(EPSSetTolerances(eps, tol, 100000), "EPSSetTolerances");
  check(EPSSetFromOptions(eps), "EPSSetFromOptions");  // PETSC_OPTIONS="-eps_view ..."
  return eps;
}

#if !defined(PETSC_USE_COMPLEX)
/// SLEPc's EPSLOBPCG, the k smallest; `preonly`: no preconditioner at all, else SLEPc's
/// default inner GMRES (PCNONE inside it).
Found slepc_lobpcg(const Options& o, const Matrix<T>& a, Mat m, bool preonly) {
  EPS eps = make_eps(a.comm(), m, o.tol, EPSLOBPCG);
  check(EPSSetDimensions(eps, o.nev, PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
  check(EPSSetWhichEigenpairs(eps, EPS_SMALLEST_REAL), "EPSSetWhichEigenpairs");
  ST st;
  KSP ksp;
  PC pc;
  check(EPSGetST(eps, &st), "EPSGetST");
  check(STGetKSP(st, &ksp), "STGetKSP");
  if (preonly) check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCNONE), "PCSetType");
  check(EPSSolve(eps), "EPSSolve");
  Found f = from_eps(eps, a);
  PetscInt inner = 0;
  check(KSPGetTotalIterations(ksp, &inner), "KSPGetTotalIterations");
  f.inner_iterations = static_cast<int>(inner);
  EPSDestroy(&eps);
  return f;
}

void laplacian_smallest(const Options& o) {
  const Matrix<T> a = laplacian_3d<T>(MPI_COMM_WORLD, o.lap, o.lap, o.lap);
  const SpectralBounds bounds = spectral_bounds(a);
  const double norm_h = std::max(std::abs(bounds.lower), std::abs(bounds.upper));
  Mat m = tseig::bench::to_petsc(a);
  const std::string problem =
      "laplacian_3d_" + std::to_string(o.lap) + "_smallest_" + std::to_string(o.nev);
  LobpcgOptions<T> lo;
  lo.nev = o.nev;
  lo.tol = o.tol;
  lo.norm_h = norm_h;
  lo.max_iterations = 100000;     // SLEPc's limit below (the default 500 stops the 100³ run short)
  std::vector<double> reference;  // the first solver's eigenvalues
  auto record = [&](const char* solver, const Found& f) {
    report(problem.c_str(), solver, a, f, norm_h, reference);
    if (reference.empty()) reference = f.values;
  };
  if (!skipped(o, "tseig_lobpcg"))
    record("tseig_lobpcg", timed(a.comm(), [&] { return ours(lobpcg(LinearOperator<T>(a), lo)); }));
  if (!skipped(o, "tseig_lobpcg_chebyshev"))
    record("tseig_lobpcg_chebyshev", timed(a.comm(), [&] {
             // Unwidened Lanczos ends: p is centred at the lowest end, and the upper one
             // needs no margin (p stays positive far beyond it).
             const SpectralBounds ends = spectral_bounds(a, 40, 0.0);
             const LinearOperator<T> h(a);
             return ours(lobpcg(h, lo, chebyshev_preconditioner(h, ends, o.degree)));
           }));
  if (!skipped(o, "slepc_lobpcg"))
    record("slepc_lobpcg", timed(a.comm(), [&] { return slepc_lobpcg(o, a, m, true); }));
  if (!skipped(o, "slepc_lobpcg_default"))
    record("slepc_lobpcg_default", timed(a.comm(), [&] { return slepc_lobpcg(o, a, m, false); }));
  MatDestroy(&m);
}
#else
void insulator_interior(const Options& o) {
  TopologicalInsulator model;
  model.nx = o.ti[0];
  model.ny = o.ti[1];
  model.nz = o.ti[2];
  model.disorder = o.disorder;
  const Matrix<T> a = topological_insulator<T>(MPI_COMM_WORLD, model);
  const SpectralBounds bounds = spectral_bounds(a);
  const double norm_h = std::max(std::abs(bounds.lower), std::abs(bounds.upper));
  Mat m = tseig::bench::to_petsc(a);
  const std::string problem = "ti_" + std::to_string(o.ti[0]) + "x" + std::to_string(o.ti[1]) +
                              "x" + std::to_string(o.ti[2]) + "_nearest0_" + std::to_string(o.nev);
  ChebfdOptions co;
  co.tol = o.tol;
  if (o.lanczos_sigma) co.damping = Damping::lanczos_sigma;
  const Found nearest = timed(a.comm(), [&] { return ours(chebfd_nearest(a, 0.0, o.nev, co)); });
  report(problem.c_str(), "tseig_chebfd_nearest", a, nearest, norm_h, {});
  // The interval solvers get the window the nearest search ended with: [−δ, δ] just
  // holding the pairs found.
  double delta = 0;
  for (double v : nearest.values) delta = std::max(delta, std::abs(v));
  delta *= 1.0 + 1e-6;
  const std::string window = problem + "_window";
  const Found interval = timed(a.comm(), [&] { return ours(chebfd(a, -delta, delta, co)); });
  report(window.c_str(), "tseig_chebfd", a, interval, norm_h, nearest.values);
  // The subspace iteration one block at a time (the default here) and with two blocks
  // taking turns (pipeline_blocks = 2).
  for (const int in_turn : {1, 2}) {
    const std::string name =
        in_turn == 1 ? "tseig_chebfd_subspace" : "tseig_chebfd_subspace_two_in_turn";
    if (skipped(o, name)) continue;
    ChebfdOptions so = co;
    so.method = ChebfdMethod::subspace;
    so.tune.pipeline_blocks = in_turn;
    const Found subspace = timed(a.comm(), [&] { return ours(chebfd(a, -delta, delta, so)); });
    report(window.c_str(), name.c_str(), a, subspace, norm_h, nearest.values);
  }
  if (!skipped(o, "slepc_filter")) {
    const Found theirs = timed(a.comm(), [&] {
      EPS eps = make_eps(a.comm(), m, o.tol, EPSKRYLOVSCHUR);
      check(EPSSetWhichEigenpairs(eps, EPS_ALL), "EPSSetWhichEigenpairs");
      check(EPSSetInterval(eps, -delta, delta), "EPSSetInterval");
      ST st;
      check(EPSGetST(eps, &st), "EPSGetST");
      check(STSetType(st, STFILTER), "STSetType");
      check(STFilterSetRange(st, bounds.lower, bounds.upper), "STFilterSetRange");
      check(EPSSolve(eps), "EPSSolve");
      Found f = from_eps(eps, a);
      EPSDestroy(&eps);
      return f;
    });
    report(window.c_str(), "slepc_filter", a, theirs, norm_h, nearest.values);
  }
  if (!skipped(o, "slepc_shift_invert")) {
    const Found theirs = timed(a.comm(), [&] {
      EPS eps = make_eps(a.comm(), m, o.tol, EPSKRYLOVSCHUR);
      check(EPSSetDimensions(eps, o.nev, PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
      check(EPSSetTarget(eps, 0.0), "EPSSetTarget");
      check(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE), "EPSSetWhichEigenpairs");
      ST st;
      KSP ksp;
      PC pc;
      check(EPSGetST(eps, &st), "EPSGetST");
      check(STSetType(st, STSINVERT), "STSetType");
      check(STGetKSP(st, &ksp), "STGetKSP");
      check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
      check(KSPGetPC(ksp, &pc), "KSPGetPC");
      check(PCSetType(pc, PCLU), "PCSetType");
      check(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS), "PCFactorSetMatSolverType");
      check(EPSSolve(eps), "EPSSolve");
      Found f = from_eps(eps, a);
      EPSDestroy(&eps);
      return f;
    });
    report(problem.c_str(), "slepc_shift_invert", a, theirs, norm_h, nearest.values);
  }
  MatDestroy(&m);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    const Options o = parse(argc, argv);
    int slepc_argc = 1;
    check(SlepcInitialize(&slepc_argc, &argv, nullptr, nullptr), "SlepcInitialize");
#if defined(PETSC_USE_COMPLEX)
    insulator_interior(o);
#else
    laplacian_smallest(o);
#endif
    SlepcFinalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "slepc_eigen_bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
