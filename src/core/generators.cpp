// Test and benchmark matrices. Random entries come from a counter-based hash of
// (seed, stream, global row, global column), so the global matrix never depends on
// the grid, the blocking or the order in which ranks fill their blocks.
#include "tseig/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/blas/scalapack.hpp"
#include "core/instantiate.hpp"
#include "tseig/error.hpp"

namespace tseig::generate {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1): a pure function of its arguments. `stream` separates
// independent quantities (real part, imaginary part, general vs Hermitian, ...).
double uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t i, std::uint64_t j) {
  std::uint64_t h = splitmix64(seed);
  h = splitmix64(h ^ stream);
  h = splitmix64(h ^ ((i << 32) | (j & 0xffffffffULL)));
  return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
}

enum Stream : std::uint64_t {
  hermitian_re = 1,
  hermitian_im,
  general_re,
  general_im,
  cluster,
  definite_re,
  definite_im
};

template <class T>
T random_scalar(std::uint64_t seed, Stream re, Stream im, int i, int j) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>)
    return T(static_cast<R>(uniform(seed, re, i, j)), static_cast<R>(uniform(seed, im, i, j)));
  else
    return static_cast<T>(uniform(seed, re, i, j));
}

template <class T>
void require_square(const DistMatrix<T>& A, const char* what) {
  // m and n are global, so every rank takes the same branch.
  if (A.m() != A.n())
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": the matrix must be square (" +
                                                 std::to_string(A.m()) + "x" +
                                                 std::to_string(A.n()) + ")");
}

}  // namespace

template <class T>
void random_hermitian(DistMatrix<T>& A, std::uint64_t seed) {
  require_square(A, "random_hermitian");
  A.fill([seed](int i, int j) {
    // Both triangles hash the lower-triangle index, so A(j,i) = conj(A(i,j)) exactly.
    T a = random_scalar<T>(seed, hermitian_re, hermitian_im, std::max(i, j), std::min(i, j));
    if (i == j) return T(std::real(a));
    return i > j ? a : conj_if_complex(a);
  });
}

template <class T>
void random_positive_definite(DistMatrix<T>& A, std::uint64_t seed) {
  require_square(A, "random_positive_definite");
  using R = real_t<T>;
  const double scale = 0.5 / std::max(A.n(), 1);
  A.fill([seed, scale](int i, int j) {
    T a = random_scalar<T>(seed, definite_re, definite_im, std::max(i, j), std::min(i, j));
    if (i == j) return T(static_cast<R>(1.5 + 0.5 * std::real(a)));
    a *= static_cast<R>(scale);
    return i > j ? a : conj_if_complex(a);
  });
}

template <class T>
void random_general(DistMatrix<T>& A, std::uint64_t seed) {
  A.fill([seed](int i, int j) { return random_scalar<T>(seed, general_re, general_im, i, j); });
}

template <class T>
void prescribed_spectrum(DistMatrix<T>& A, const std::vector<real_t<T>>& eigenvalues,
                         std::uint64_t seed) {
  require_square(A, "prescribed_spectrum");
  const int n = A.n();
  if (static_cast<long>(eigenvalues.size()) != n)
    throw Error(ErrorCode::invalid_argument,
                "prescribed_spectrum: " + std::to_string(eigenvalues.size()) +
                    " eigenvalues for a matrix of order " + std::to_string(n));
  if (n == 0) return;
  // Square blocks keep every PBLAS operand aligned; the result is copied into A's layout.
  const Grid& grid = A.grid();
  const int nb = A.nb();
  DistMatrix<T> Q(grid, n, n, nb);
  random_general(Q, seed);
  {
    std::vector<T> tau(static_cast<std::size_t>(std::max(1, Q.local_cols())));
    int info = scalapack::pgeqrf<T>(n, n, Q.data(), 1, 1, Q.desc(), tau.data());
    if (info == 0) info = scalapack::pungqr<T>(n, n, n, Q.data(), 1, 1, Q.desc(), tau.data());
    raise_if_any(
        grid.comm(), info != 0, ErrorCode::numerical_failure,
        "prescribed_spectrum: QR of the random matrix failed (info " + std::to_string(info) + ")");
  }
  DistMatrix<T> P = DistMatrix<T>::like(Q);
  {
    DistMatrix<T> QL = Q.clone();
    for (int lj = 0; lj < QL.local_cols(); ++lj) {
      T lambda = eigenvalues[QL.global_col(lj)];
      for (int li = 0; li < QL.local_rows(); ++li) QL.local(li, lj) *= lambda;
    }
    scalapack::pgemm<T>('N', 'C', n, n, n, T(1), QL.data(), 1, 1, QL.desc(), Q.data(), 1, 1,
                        Q.desc(), T(0), P.data(), 1, 1, P.desc());
  }
  // Rounding leaves Q·Λ·Qᴴ slightly non-Hermitian; (P + Pᴴ)/2 is Hermitian to the bit
  // because scaling by 1/2 is exact and addition commutes. Q's storage takes the sum.
  std::copy_n(P.data(), static_cast<std::size_t>(P.lld()) * std::max(1, P.local_cols()), Q.data());
  scalapack::ptranc<T>(n, n, T(0.5), P.data(), 1, 1, P.desc(), T(0.5), Q.data(), 1, 1, Q.desc());
  A.copy_from(Q);
}

template <class T>
void laplacian_1d(DistMatrix<T>& A) {
  require_square(A, "laplacian_1d");
  A.fill([](int i, int j) { return i == j ? T(2) : (std::abs(i - j) == 1 ? T(-1) : T(0)); });
}

template <class T>
void frank(DistMatrix<T>& A) {
  require_square(A, "frank");
  const int n = A.n();
  A.fill([n](int i, int j) { return T(static_cast<real_t<T>>(n - std::max(i, j))); });
}

template <class T>
std::vector<real_t<T>> clustered(DistMatrix<T>& A, int nclusters, real_t<T> spread,
                                 std::uint64_t seed) {
  using R = real_t<T>;
  require_square(A, "clustered");
  if (nclusters < 1 || !(spread >= 0))
    throw Error(ErrorCode::invalid_argument,
                "clustered: need nclusters >= 1 and spread >= 0 (got " + std::to_string(nclusters) +
                    ", " + std::to_string(spread) + ")");
  const int n = A.n();
  // Eigenvalue k belongs to cluster k·nclusters/n; centres are evenly spaced over
  // [-1, 1] and members sit at random offsets within ±spread of their centre.
  std::vector<R> w(n);
  for (int k = 0; k < n; ++k) {
    int c = static_cast<int>(static_cast<long>(k) * nclusters / n);
    double centre = nclusters == 1 ? 0.0 : -1.0 + 2.0 * c / (nclusters - 1);
    w[k] = static_cast<R>(centre + spread * uniform(seed, cluster, k, 0));
  }
  std::sort(w.begin(), w.end());
  prescribed_spectrum(A, w, seed);
  return w;
}

std::vector<double> laplacian_1d_eigenvalues(int n) {
  std::vector<double> w(std::max(n, 0));
  for (int k = 1; k <= n; ++k) w[k - 1] = 2.0 - 2.0 * std::cos(k * std::numbers::pi / (n + 1));
  return w;
}

std::vector<double> frank_eigenvalues(int n) {
  std::vector<double> w(std::max(n, 0));
  // The formula decreases with k; store it reversed to get ascending order.
  for (int k = 1; k <= n; ++k)
    w[n - k] = 1.0 / (2.0 * (1.0 - std::cos((2 * k - 1) * std::numbers::pi / (2 * n + 1))));
  return w;
}

#define TSEIG_INSTANTIATE(T)                                                                       \
  template void random_hermitian(DistMatrix<T>&, std::uint64_t);                                   \
  template void random_positive_definite(DistMatrix<T>&, std::uint64_t);                           \
  template void random_general(DistMatrix<T>&, std::uint64_t);                                     \
  template void prescribed_spectrum(DistMatrix<T>&, const std::vector<real_t<T>>&, std::uint64_t); \
  template void laplacian_1d(DistMatrix<T>&);                                                      \
  template void frank(DistMatrix<T>&);                                                             \
  template std::vector<real_t<T>> clustered(DistMatrix<T>&, int, real_t<T>, std::uint64_t);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::generate
