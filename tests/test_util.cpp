#include "test_util.hpp"

#include "core/blas/host.hpp"

namespace tseig::test {

std::vector<std::pair<int, int>> grid_shapes() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) return {{1, 1}};
  if (size == 2) return {{1, 2}, {2, 1}};
  if (size == 4) return {{2, 2}, {1, 4}};
  int p = 0, q = 0;
  square_grid_shape(size, p, q);
  if (p == 1) return {{1, size}};
  return {{p, q}, {1, size}};
}

std::vector<Grid> test_grids() {
  std::vector<Grid> grids;
  for (auto [p, q] : grid_shapes()) grids.emplace_back(MPI_COMM_WORLD, p, q);
  return grids;
}

template <class T>
std::vector<real_t<T>> lapack_eigenvalues(std::vector<T> full, int n) {
  std::vector<real_t<T>> w(n);
  int info = lapack::heevd<T, real_t<T>>('N', 'L', n, full.data(), std::max(1, n), w.data());
  if (info != 0) throw Error(ErrorCode::numerical_failure, "reference heevd failed");
  return w;
}
template std::vector<float> lapack_eigenvalues(std::vector<float>, int);
template std::vector<double> lapack_eigenvalues(std::vector<double>, int);
template std::vector<float> lapack_eigenvalues(std::vector<std::complex<float>>, int);
template std::vector<double> lapack_eigenvalues(std::vector<std::complex<double>>, int);

std::vector<int> nev_values(int n, int fraction) {
  std::vector<int> v{1};
  if (n / fraction > 1) v.push_back(n / fraction);
  if (n > 1) v.push_back(n);
  return v;
}

Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no tseig::Error thrown";
  return Error(ErrorCode::unsupported, "");
}

std::string shape_name(const Grid& g) {
  return std::to_string(g.nprow()) + "x" + std::to_string(g.npcol());
}

}  // namespace tseig::test
