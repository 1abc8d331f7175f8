// The sparse matrix of a command line (see sparse_matrix.hpp).
#include "sparse_matrix.hpp"

#include <complex>

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

template Matrix<float> make_sparse_matrix(const SparseOptions&, MPI_Comm, std::string&);
template Matrix<double> make_sparse_matrix(const SparseOptions&, MPI_Comm, std::string&);
template Matrix<std::complex<float>> make_sparse_matrix(const SparseOptions&, MPI_Comm,
                                                        std::string&);
template Matrix<std::complex<double>> make_sparse_matrix(const SparseOptions&, MPI_Comm,
                                                         std::string&);

}  // namespace tseig::cli
