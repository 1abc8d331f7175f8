// The sparse problem of a command line (see sparse_problem.hpp).
#include "sparse_problem.hpp"

#include <complex>
#include <cstdio>
#include <memory>

#include "options.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/matrix_market.hpp"

namespace tseig::cli {

using namespace tseig::sparse;

template <class T>
sparse::Matrix<T> make_sparse_matrix(const SparseOptions& o, MPI_Comm comm, std::string& name) {
  const auto [nx, ny, nz] = o.dims;
  const std::string dims = std::to_string(nx) + "x" + std::to_string(ny);
  switch (o.generator) {
    case SparseGenerator::laplace3d:
      name = "laplace3d " + dims + "x" + std::to_string(nz);
      return laplacian_3d<T>(comm, nx, ny, nz);
    case SparseGenerator::laplace2d:
      name = "laplace2d " + dims;
      return laplacian_2d_periodic<T>(comm, nx, ny);
    case SparseGenerator::graphene:
      name = "graphene " + dims;
      return graphene<T>(comm, nx, ny);
    case SparseGenerator::ti:
      if constexpr (is_complex_v<T>) {
        TopologicalInsulator model;
        model.nx = nx, model.ny = ny, model.nz = nz;
        model.disorder = o.disorder;
        model.seed = o.seed;
        name = "ti " + dims + "x" + std::to_string(nz);
        return topological_insulator<T>(comm, model);
      }
      throw UsageError("--ti is complex Hermitian: use --type z or c");
    case SparseGenerator::none:
      break;
  }
  name = o.mtx;
  return read_matrix_market<T>(comm, o.mtx, true);
}

TunedKernel tuned_kernel(SparseMethod m) {
  switch (m) {
    case SparseMethod::kpm:
      return TunedKernel::aug_spmmv;
    case SparseMethod::lobpcg:
      return TunedKernel::spmmv;
    default:
      return TunedKernel::chebfd_op;
  }
}

ProgressCallback progress_line(const char* method, MPI_Comm comm) {
  auto last = std::make_shared<double>(-1);  // seconds of the last line
  return [method, comm, last](const Progress& p) {
    // Long runs only (reports after the first 2 s), at most a line a second (LOBPCG
    // iterates many times a second), on stderr so --json stays clean.
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank != 0 || p.seconds < 2 || (*last >= 0 && p.seconds - *last < 1)) return;
    *last = p.seconds;
    std::fprintf(stderr, "%s: iteration %d, %d converged, %d unconverged (largest residual %.2e), ",
                 method, p.iteration, p.converged, p.unconverged, p.largest_residual);
    if (p.degree > 0) std::fprintf(stderr, "degree %d, ", p.degree);
    std::fprintf(stderr, "space %d, %.1f s\n", p.space, p.seconds);
  };
}

ChebfdOptions chebfd_options(const SparseOptions& o, const SparseTuneParameters& tuned,
                             MPI_Comm comm) {
  ChebfdOptions c;
  c.tune = tuned;
  if (o.block_width) c.tune.block_width = o.block_width;
  if (o.pipeline_blocks) c.tune.pipeline_blocks = o.pipeline_blocks;
  c.tol = o.tol;
  if (o.subspace_iteration) c.method = ChebfdMethod::subspace;
  if (o.max_iterations) c.max_iterations = o.max_iterations;
  c.degree = o.degree;
  if (o.max_degree) c.max_degree = o.max_degree;
  c.progress = progress_line("chebfd", comm);
  return c;
}

template Matrix<float> make_sparse_matrix(const SparseOptions&, MPI_Comm, std::string&);
template Matrix<double> make_sparse_matrix(const SparseOptions&, MPI_Comm, std::string&);
template Matrix<std::complex<float>> make_sparse_matrix(const SparseOptions&, MPI_Comm,
                                                        std::string&);
template Matrix<std::complex<double>> make_sparse_matrix(const SparseOptions&, MPI_Comm,
                                                         std::string&);

}  // namespace tseig::cli
