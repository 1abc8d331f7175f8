// dense_bench: tseig against ScaLAPACK, ELPA and LAPACK on the same matrices, in one
// launch, so the rows of a table are measured on the same machine in the same state.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "bench_options.hpp"
#include "bench_record.hpp"
#include "dense/two_stage.hpp"
#include "dgemm_rate.hpp"
#include "peak_memory.hpp"
#include "runners.hpp"
#include "tseig/accuracy.hpp"
#include "tseig/error.hpp"
#include "tseig/generators.hpp"
#include "tseig/grid.hpp"

namespace {

using namespace tseig;
using namespace tseig::bench;

template <class T>
Solution<T> run_solver(const std::string& solver, DistMatrix<T>& A, int nev) {
  if (solver == "one_stage") return solve_tseig(A, nev, Solver::one_stage);
  if (solver == "two_stage") return solve_tseig(A, nev, Solver::two_stage);
  if (solver == "one_stage_gpu") return solve_tseig(A, nev, Solver::one_stage, GpuUse::on);
  if (solver == "two_stage_gpu") return solve_tseig(A, nev, Solver::two_stage, GpuUse::on);
  if (solver == "scalapack") return solve_tseig(A, nev, Solver::scalapack);
  if (solver == "lapack") return solve_lapack(A);
  if (solver == "cusolver") return solve_cusolver(A, nev);
#ifdef TSEIG_HAVE_ELPA
  return solve_elpa(A, nev, solver == "elpa1" ? 1 : 2);
#else
  throw Error(ErrorCode::unsupported, "not built (ELPA was not found at configure time)");
#endif
}

// One row: the solver gets its own copy of A, the accuracy is measured against A.
template <class T>
Record measure(const std::string& solver, const DistMatrix<T>& A, int nev, Record row) {
  row.solver = solver;
  row.nev = nev;
  try {
    DistMatrix<T> work = A.clone();
    const PeakMemory memory;
    Solution<T> s = run_solver(solver, work, nev);
    row.peak_mib = memory.max_growth_mib(A.grid().comm());
    row.seconds = s.seconds;
    row.stages = s.stages;
    if (s.blas_threads > 0) row.blas_threads = s.blas_threads;
    row.nev = static_cast<int>(s.w.size());
    row.residual = accuracy::residual(A, s.w, s.Z);
    row.orthogonality = accuracy::orthogonality(s.Z, row.nev);
  } catch (const Error& e) {
    row.note = e.code() == ErrorCode::unsupported ? e.what() : std::string("error: ") + e.what();
  }
  return row;
}

template <class T>
GeneralizedSolutions<T> run_generalized(const std::string& solver, const DistMatrix<T>& H,
                                        const DistMatrix<T>& S, int nev) {
  if (solver == "one_stage") return solve_tseig_generalized(H, S, nev, Solver::one_stage);
  if (solver == "two_stage") return solve_tseig_generalized(H, S, nev, Solver::two_stage);
  if (solver == "one_stage_gpu")
    return solve_tseig_generalized(H, S, nev, Solver::one_stage, GpuUse::on);
  if (solver == "two_stage_gpu")
    return solve_tseig_generalized(H, S, nev, Solver::two_stage, GpuUse::on);
  if (solver == "scalapack") return solve_scalapack_generalized(H, S, nev);
  if (solver == "lapack")
    throw Error(ErrorCode::unsupported, "no generalized lapack row (use scalapack)");
  if (solver == "cusolver") throw Error(ErrorCode::unsupported, "no generalized cusolver row");
#ifdef TSEIG_HAVE_ELPA
  return solve_elpa_generalized(H, S, nev, solver == "elpa1" ? 1 : 2);
#else
  throw Error(ErrorCode::unsupported, "not built (ELPA was not found at configure time)");
#endif
}

// The standard solve of H, then the first and the factor-reusing generalized solves.
template <class T>
void measure_generalized(const std::string& solver, const DistMatrix<T>& H, const DistMatrix<T>& S,
                         int nev, const Record& base, std::vector<Record>& records,
                         const std::function<void(const Record&)>& emit) {
  if (solver != "lapack") emit(records.emplace_back(measure(solver, H, nev, base)));
  Record first = base, reuse = base;
  first.solver = solver + "+S";
  reuse.solver = solver + "+F";
  first.nev = reuse.nev = nev;
  try {
    GeneralizedSolutions<T> g = run_generalized(solver, H, S, nev);
    for (auto [row, s] : {std::pair{&first, &g.first}, std::pair{&reuse, &g.reuse}}) {
      row->seconds = s->seconds;
      row->stages = s->stages;
      row->residual = accuracy::generalized_residual(H, S, s->w, s->Z);
      row->orthogonality = accuracy::s_orthogonality(S, s->Z, nev);
    }
  } catch (const Error& e) {
    first.note = reuse.note =
        e.code() == ErrorCode::unsupported ? e.what() : std::string("error: ") + e.what();
  }
  emit(records.emplace_back(first));
  emit(records.emplace_back(reuse));
}

// Seconds of the generalized calls over the standard solve of the same H.
void print_overheads(std::ostream& out, const std::vector<Record>& records) {
  char line[160];
  std::snprintf(line, sizeof line, "%-15s %-4s %6s %6s %10s %10s %10s\n", "solver", "type", "N",
                "nev", "standard", "+S - std", "+F - std");
  out << "generalized overhead (seconds):\n" << line;
  for (const Record& std_row : records) {
    if (!std_row.seconds) continue;
    const Record *first = nullptr, *reuse = nullptr;
    for (const Record& r : records)
      if (r.type == std_row.type && r.n == std_row.n && r.nev == std_row.nev && r.seconds) {
        if (r.solver == std_row.solver + "+S") first = &r;
        if (r.solver == std_row.solver + "+F") reuse = &r;
      }
    if (!first || !reuse) continue;
    std::snprintf(line, sizeof line, "%-15s %-4c %6d %6d %10.3f %10.3f %10.3f\n",
                  std_row.solver.c_str(), std_row.type, std_row.n, std_row.nev, *std_row.seconds,
                  *first->seconds - *std_row.seconds, *reuse->seconds - *std_row.seconds);
    out << line;
  }
}

template <class T>
void bench_type(const BenchOptions& o, const Grid& grid, int n, char type,
                std::vector<Record>& records, const std::function<void(const Record&)>& emit) {
  DistMatrix<T> A(grid, n, n, o.nb);
  generate::random_hermitian(A, o.seed);
  DistMatrix<T> S;
  if (o.generalized) {
    S = DistMatrix<T>::like(A);
    generate::random_positive_definite(S, o.seed);
  }
  Record base;
  base.type = type;
  base.n = n;
  base.np = grid.size();
  base.grid = std::to_string(grid.nprow()) + "x" + std::to_string(grid.npcol());
  base.nb = o.nb;
  base.bandwidth = dense::default_bandwidth(o.nb, TuneParameters{});
  base.blas_threads = blas_threads();
  for (const auto& solver : o.solvers) {
    if (o.generalized) {
      for (double f : o.nev_fractions)
        measure_generalized(solver, A, S, std::clamp(static_cast<int>(std::lround(f * n)), 1, n),
                            base, records, emit);
      continue;
    }
    // LAPACK computes all eigenpairs: one row per matrix, not per nev.
    if (solver == "lapack") {
      emit(records.emplace_back(measure(solver, A, n, base)));
      continue;
    }
    for (double f : o.nev_fractions) {
      int nev = std::clamp(static_cast<int>(std::lround(f * n)), 1, n);
      emit(records.emplace_back(measure(solver, A, nev, base)));
    }
  }
}

void run(const BenchOptions& o, int rank) {
  Grid grid(MPI_COMM_WORLD);
  std::ofstream file;
  collectively(grid.comm(), [&] {
    if (rank != 0 || o.json_out.empty()) return;
    file.open(o.json_out);
    if (!file) throw Error(ErrorCode::io_error, "cannot open '" + o.json_out + "' for writing");
  });
  std::ostream& json = o.json_out.empty() ? std::cout : file;
  auto emit_line = [&](const std::string& line) {
    if (rank == 0) json << line << std::endl;
  };

  std::optional<DgemmRate> dgemm;
  if (o.dgemm_n > 0) {
    dgemm = measure_dgemm(grid.comm(), o.dgemm_n);
    emit_line(to_json(*dgemm));
  }
  std::vector<Record> records;
  auto emit = [&](const Record& r) { emit_line(to_json(r)); };
  for (int n : o.sizes)
    for (char type : o.types) switch (type) {
        case 's':
          bench_type<float>(o, grid, n, type, records, emit);
          break;
        case 'c':
          bench_type<std::complex<float>>(o, grid, n, type, records, emit);
          break;
        case 'z':
          bench_type<std::complex<double>>(o, grid, n, type, records, emit);
          break;
        default:
          bench_type<double>(o, grid, n, type, records, emit);
          break;
      }
  if (rank == 0) print_table(std::cerr, records, dgemm);
  if (rank == 0 && o.generalized) print_overheads(std::cerr, records);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  try {
    BenchOptions o = parse_bench_options(argc, argv);
    if (o.help) {
      if (rank == 0) std::cout << bench_usage();
    } else {
      run(o, rank);
    }
  } catch (const std::invalid_argument& e) {
    // Options are parsed identically on every rank: all ranks get here together.
    if (rank == 0) std::cerr << "dense_bench: error: " << e.what() << " (see --help)\n";
    status = 2;
  } catch (const Error& e) {
    if (rank == 0) std::cerr << "dense_bench: error: " << e.what() << "\n";
    status = 1;
  } catch (const std::exception& e) {
    std::cerr << "dense_bench: error on rank " << rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
