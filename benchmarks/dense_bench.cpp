// dense_bench: tseig against ScaLAPACK, ELPA and LAPACK on the same matrices, in one
// launch, so the rows of a table are measured on the same machine in the same state.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "bench_options.hpp"
#include "bench_record.hpp"
#include "dgemm_rate.hpp"
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
  if (solver == "scalapack") return solve_tseig(A, nev, Solver::scalapack);
  if (solver == "lapack") return solve_lapack(A);
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
    Solution<T> s = run_solver(solver, work, nev);
    row.seconds = s.seconds;
    row.stages = s.stages;
    row.nev = static_cast<int>(s.w.size());
    row.residual = accuracy::residual(A, s.w, s.Z);
    row.orthogonality = accuracy::orthogonality(s.Z, row.nev);
  } catch (const Error& e) {
    row.note = e.code() == ErrorCode::unsupported ? e.what() : std::string("error: ") + e.what();
  }
  return row;
}

template <class T>
void bench_type(const BenchOptions& o, const Grid& grid, int n, char type,
                std::vector<Record>& records, const std::function<void(const Record&)>& emit) {
  DistMatrix<T> A(grid, n, n, o.nb);
  generate::random_hermitian(A, o.seed);
  Record base;
  base.type = type;
  base.n = n;
  base.np = grid.size();
  base.grid = std::to_string(grid.nprow()) + "x" + std::to_string(grid.npcol());
  base.nb = o.nb;
  base.blas_threads = blas_threads();
  for (const auto& solver : o.solvers) {
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
