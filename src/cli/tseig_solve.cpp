// tseig-solve: the command a new user runs first. Solves one dense eigenproblem and
// reports eigenvalues, stage timings and accuracy; with a sparse matrix or method
// (run_sparse.hpp) runs KPM, LOBPCG or ChebFD instead.
//
// Failure handling: argument errors are detected identically on every rank and
// library errors arrive as tseig::Error on every rank, so each rank leaves through
// MPI_Finalize with a non-zero status and rank 0 alone prints the message. Anything
// else may be local to one rank; then MPI_Abort is the only way to avoid a hang.
#include <mpi.h>

#include <complex>
#include <iostream>
#include <string>

#include "core/json.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run_problem.hpp"
#include "run_sparse.hpp"
#include "sparse_options.hpp"
#include "tseig/capabilities.hpp"
#include "tseig/error.hpp"
#include "tseig/grid.hpp"

namespace {

using namespace tseig;
using namespace tseig::cli;

constexpr int exit_library_error = 1;
constexpr int exit_usage_error = 2;

RunResult dispatch(const Options& o, const Grid& grid) {
  switch (o.type) {
    case 's':
      return run_problem<float>(o, grid);
    case 'c':
      return run_problem<std::complex<float>>(o, grid);
    case 'z':
      return run_problem<std::complex<double>>(o, grid);
    default:
      return run_problem<double>(o, grid);
  }
}

int run(int argc, char** argv, int rank, int size) {
  if (argc == 2 && std::string(argv[1]) == "--capabilities") {
    if (rank == 0) std::cout << capabilities_json() << std::endl;
    return 0;
  }
  if (is_sparse_invocation(argc, argv)) {
    run_sparse(parse_sparse_options(argc, argv), MPI_COMM_WORLD, std::cout);
    std::cout << std::flush;
    return 0;
  }
  Options o = parse_options(argc, argv, size);
  if (o.help) {
    if (rank == 0) std::cout << usage() << sparse_usage() << std::flush;
    return 0;
  }
  Grid grid(MPI_COMM_WORLD, o.nprow, o.npcol);
  RunResult r = dispatch(o, grid);
  if (rank == 0) {
    RunContext ctx{o, grid.nprow(), grid.npcol()};
    if (o.json)
      print_json(std::cout, ctx, r);
    else
      print_summary(std::cout, ctx, r);
    std::cout << std::flush;
  }
  return 0;
}

bool asks_json(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--json") return true;
  return false;
}

// The message on stderr; with --json also one object {"error": {"code", "message"}} on
// stdout, so a script that parses stdout gets JSON for a failure as well.
void print_error(const std::string& message, const std::string& code, bool json) {
  std::cerr << "tseig-solve: error: " << message << std::endl;
  if (json)
    std::cout << "{\"error\": {\"code\": " << json::string(code)
              << ", \"message\": " << json::string(message) << "}}" << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  const bool json = asks_json(argc, argv);
  try {
    status = run(argc, argv, rank, size);
  } catch (const UsageError& e) {
    if (rank == 0) print_error(std::string(e.what()) + " (see --help)", "usage", json);
    status = exit_usage_error;
  } catch (const Error& e) {
    if (rank == 0)
      print_error(std::string(e.what()) + " [" + to_string(e.code()) + "]", to_string(e.code()),
                  json);
    status = exit_library_error;
  } catch (const std::exception& e) {
    print_error(std::string(e.what()) + " (on rank " + std::to_string(rank) + ")", "internal",
                json && rank == 0);
    MPI_Abort(MPI_COMM_WORLD, exit_library_error);
  }
  MPI_Finalize();
  return status;
}
