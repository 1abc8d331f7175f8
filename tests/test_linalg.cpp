// cholesky, invert_triangular and hermitian_multiply, each on its own, checked on the
// gathered matrices against products computed here; unused triangles hold NaN so that
// reading them shows up.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "test_util.hpp"

namespace tseig::test {
namespace {

template <class T>
class LinalgTest : public ::testing::Test {};
TYPED_TEST_SUITE(LinalgTest, ScalarTypes);

bool in_triangle(Triangle t, int i, int j) {
  return t == Triangle::full || (t == Triangle::upper ? i <= j : i >= j);
}

template <class T>
void poison_outside(DistMatrix<T>& A, Triangle keep) {
  A.fill([&](int i, int j) {
    return in_triangle(keep, i, j) ? A.local(A.local_row(i), A.local_col(j)) : T(std::nan(""));
  });
}

// Column-major n×n helpers on rank 0.
template <class T>
T at(const std::vector<T>& a, int n, int i, int j) {
  return a[i + static_cast<std::size_t>(j) * n];
}

template <class T>
double max_abs(const std::vector<T>& a) {
  double m = 0;
  for (const T& x : a) m = std::max(m, static_cast<double>(std::abs(x)));
  return m;
}

// The layouts exercised: the working one (square blocks, source (0, 0)) and one that
// forces a copy (mb ≠ nb, source on the last process).
template <class T>
std::vector<DistMatrix<T>> layouts(const Grid& grid, int n, int nb) {
  std::vector<DistMatrix<T>> v;
  v.emplace_back(grid, n, n, nb);
  v.emplace_back(grid, n, n, nb + 1, nb, grid.nprow() - 1, grid.npcol() - 1);
  return v;
}

TYPED_TEST(LinalgTest, CholeskyReproducesS) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (int n : {1, 7, 50, 97})
      for (Triangle uplo : {Triangle::upper, Triangle::lower})
        for (DistMatrix<T>& A : layouts<T>(grid, n, n == 97 ? 16 : 4)) {
          SCOPED_TRACE(shape_name(grid) + " N=" + std::to_string(n) +
                       (uplo == Triangle::upper ? " upper" : " lower") +
                       " mb=" + std::to_string(A.mb()));
          generate::random_positive_definite(A, 3 + n);
          const std::vector<T> s = A.gather(0);
          poison_outside(A, uplo);
          cholesky(A, uplo);
          const std::vector<T> f = A.gather(0);
          if (grid.rank() != 0) continue;
          double err = 0, other = 0;
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
              if (!in_triangle(uplo, i, j))
                other = std::max(other, double(std::abs(at(f, n, i, j))));
              // upper: (UᴴU)(i,j) = Σ_k conj(U(k,i)) U(k,j); lower: (LLᴴ)(i,j) = Σ_k L(i,k)
              // conj(L(j,k)).
              T sum{};
              for (int k = 0; k < n; ++k)
                sum += uplo == Triangle::upper ? conj_if_complex(at(f, n, k, i)) * at(f, n, k, j)
                                               : at(f, n, i, k) * conj_if_complex(at(f, n, j, k));
              err = std::max(err, static_cast<double>(std::abs(sum - at(s, n, i, j))));
            }
          EXPECT_EQ(other, 0.0) << "the other triangle must be zero";
          EXPECT_LE(err / max_abs(s), accuracy_tolerance<T>(n));
        }
}

TYPED_TEST(LinalgTest, InverseTimesFactorIsIdentity) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (int n : {1, 7, 50, 97})
      for (Triangle uplo : {Triangle::upper, Triangle::lower})
        for (DistMatrix<T>& A : layouts<T>(grid, n, n == 97 ? 16 : 4)) {
          SCOPED_TRACE(shape_name(grid) + " N=" + std::to_string(n) +
                       (uplo == Triangle::upper ? " upper" : " lower") +
                       " mb=" + std::to_string(A.mb()));
          generate::random_positive_definite(A, 5 + n);
          cholesky(A, uplo);
          const std::vector<T> u = A.gather(0);
          poison_outside(A, uplo);
          invert_triangular(A, uplo);
          const std::vector<T> x = A.gather(0);
          if (grid.rank() != 0) continue;
          double err = 0, other = 0;
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
              if (!in_triangle(uplo, i, j))
                other = std::max(other, double(std::abs(at(x, n, i, j))));
              T sum{};
              for (int k = 0; k < n; ++k) sum += at(x, n, i, k) * at(u, n, k, j);
              err = std::max(err, static_cast<double>(std::abs(sum - T(i == j ? 1 : 0))));
            }
          EXPECT_EQ(other, 0.0) << "the other triangle must be zero";
          EXPECT_LE(err, accuracy_tolerance<T>(n));
        }
}

TYPED_TEST(LinalgTest, HermitianMultiplyMatchesGemm) {
  using T = TypeParam;
  const T sentinel(7);
  for (const Grid& grid : test_grids())
    for (int n : {1, 9, 61})
      for (bool aligned : {true, false})
        for (Triangle ua : {Triangle::upper, Triangle::lower, Triangle::full})
          for (Triangle uc : {Triangle::upper, Triangle::lower, Triangle::full}) {
            const int nb = 4, cols = n + 3, ncb = std::max(1, (2 * n) / 3);
            SCOPED_TRACE(shape_name(grid) + " N=" + std::to_string(n) +
                         (aligned ? " aligned" : " copied") + " uplo_a " +
                         std::to_string(static_cast<int>(ua)) + " uplo_c " +
                         std::to_string(static_cast<int>(uc)));
            DistMatrix<T> A(grid, n, n, nb);
            // B and C in another column blocking (aligned), or B and C blocked unlike A.
            DistMatrix<T> B = aligned ? DistMatrix<T>(grid, n, cols, nb, 3)
                                      : DistMatrix<T>(grid, n, cols, 5, 2, grid.nprow() - 1, 0);
            DistMatrix<T> C =
                aligned ? DistMatrix<T>(grid, n, cols, nb, 3) : DistMatrix<T>(grid, n, cols, 3, 3);
            generate::random_general(A, 1);
            generate::random_general(B, 2);
            C.fill([&](int, int) { return sentinel; });
            const std::vector<T> a = A.gather(0), b = B.gather(0);
            poison_outside(A, ua);
            hermitian_multiply(ua, uc, A, B, C, ncb);
            const std::vector<T> c = C.gather(0);
            if (grid.rank() != 0) continue;
            double err = 0;
            for (int j = 0; j < cols; ++j)
              for (int i = 0; i < n; ++i) {
                T ref{};
                if (j >= ncb) {
                  ref = sentinel;  // untouched
                } else if (in_triangle(uc, i, j)) {
                  for (int k = 0; k < n; ++k)
                    if (in_triangle(ua, k, i))
                      ref += conj_if_complex(at(a, n, k, i)) * at(b, n, k, j);
                }  // else: zero
                err = std::max(err, static_cast<double>(std::abs(at(c, n, i, j) - ref)));
              }
            EXPECT_LE(err, accuracy_tolerance<T>(n) * std::max(n, 1));
          }
}

TYPED_TEST(LinalgTest, IndefiniteNamesTheMinorOnEveryRank) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (int k : {0, 13, 38}) {
      // Leading minors 1..k are those of a positive definite matrix; minor k+1 is not.
      DistMatrix<T> A(grid, 40, 40, 4);
      generate::random_positive_definite(A, 8);
      if (A.is_local(k, k)) A.local(A.local_row(k), A.local_col(k)) = T(-1);
      for (Triangle uplo : {Triangle::upper, Triangle::lower}) {
        DistMatrix<T> W = A.clone();
        const Error e = error_of([&] { cholesky(W, uplo); });
        EXPECT_EQ(e.code(), ErrorCode::not_positive_definite);
        EXPECT_NE(std::string(e.what()).find("leading minor of order " + std::to_string(k + 1) +
                                             " is not positive definite"),
                  std::string::npos)
            << e.what();
      }
    }
}

TYPED_TEST(LinalgTest, BadArgumentsRaiseOnEveryRank) {
  using T = TypeParam;
  const Grid grid = test_grids().front();
  DistMatrix<T> A(grid, 12, 12, 4), B(grid, 12, 5, 4), C(grid, 12, 4, 4), R(grid, 12, 13, 4);
  EXPECT_EQ(error_of([&] { cholesky(A, Triangle::full); }).code(), ErrorCode::invalid_argument);
  EXPECT_EQ(error_of([&] { cholesky(R); }).code(), ErrorCode::invalid_argument);
  EXPECT_EQ(error_of([&] { invert_triangular(R); }).code(), ErrorCode::invalid_argument);
  // A zero on the diagonal (A is all zero): singular.
  EXPECT_EQ(error_of([&] { invert_triangular(A); }).code(), ErrorCode::numerical_failure);
  EXPECT_EQ(error_of([&] { hermitian_multiply(Triangle::upper, Triangle::full, A, B, C); }).code(),
            ErrorCode::invalid_argument);  // ncb = 5 > C's 4 columns
  if (grid.size() > 1) {
    const Error e =
        error_of([&] { cholesky(A, grid.rank() == 0 ? Triangle::upper : Triangle::lower); });
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  }
}

}  // namespace
}  // namespace tseig::test
