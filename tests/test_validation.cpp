// EigensolverOptions::validate: correct solves pass (every type, nev = 1..N, standard and
// generalized, eigenvalues only, clusters split at nev), a tolerance no result can meet
// raises Error(accuracy) on every rank with the figures kept, bad tolerances are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "tseig/validation.hpp"

namespace tseig::test {
namespace {

template <class T>
class ValidationTest : public ::testing::Test {};
TYPED_TEST_SUITE(ValidationTest, ScalarTypes);

constexpr int kN = 57;  // not a multiple of the block size: ragged last blocks
constexpr int kNb = 8;

template <class T>
EigensolverOptions validating(Solver solver, int nev, bool values_only = false) {
  EigensolverOptions o;
  o.solver = solver;
  o.nev = nev;
  o.eigenvalues_only = values_only;
  o.validate = true;
  return o;
}

// Figures of a validation that must pass.
void expect_passed(const std::optional<ValidationReport>& r, bool vectors,
                   const std::string& what) {
  ASSERT_TRUE(r.has_value()) << what;
  EXPECT_TRUE(r->passed()) << what << ": " << r->summary();
  EXPECT_EQ(r->eigenvectors, vectors) << what;
  EXPECT_TRUE(r->count_ok) << what;
  EXPECT_LE(r->residual, r->tolerance) << what;
  EXPECT_LE(r->orthogonality, r->tolerance) << what;
  EXPECT_GT(r->seconds, 0) << what;
}

TYPED_TEST(ValidationTest, CorrectSolvesPass) {
  using T = TypeParam;
  for (const Grid& g : test_grids())
    for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
      for (int nev : {1, 11, kN})
        for (bool values_only : {false, true}) {
          const std::string what = std::string(to_string(solver)) + " nev " + std::to_string(nev) +
                                   (values_only ? " values" : " vectors") + " on " + shape_name(g);
          DistMatrix<T> A(g, kN, kN, kNb);
          generate::random_hermitian(A, 7);
          DistMatrix<T> Z(g, kN, kN, kNb);
          Eigensolver<T> es(validating<T>(solver, nev, values_only));
          const auto w = values_only ? es.eigenvalues(A) : es.eigenvectors(A, Z);
          expect_passed(es.validation(), !values_only, what);
          EXPECT_EQ(es.validation()->tolerance, default_validation_tolerance<T>(kN));
          EXPECT_GT(es.timings().get(Stage::validate), 0) << what;
          if (nev < kN && !values_only) {
            EXPECT_LT(es.validation()->count_bound, w.back()) << what;
          }
          if (nev == kN) {
            EXPECT_LE(es.validation()->trace_error, es.validation()->tolerance);
          }
        }
}

// Entries of 1e±300 (float 1e±36): the trace check's sum of squared eigenvalues
// overflowed or underflowed, and correct solves failed as "an eigenvalue is missing".
TYPED_TEST(ValidationTest, ExtremeScalesPass) {
  using T = TypeParam;
  using R = real_t<T>;
  const R huge = sizeof(R) == 8 ? R(1e300) : R(1e36);
  const Grid g(MPI_COMM_WORLD);
  for (R factor : {huge, 1 / huge})
    for (bool values_only : {false, true}) {
      const std::string what = std::string("scale ") + std::to_string(double(factor)) +
                               (values_only ? " values" : " vectors");
      DistMatrix<T> A(g, kN, kN, kNb), Z(g, kN, kN, kNb);
      generate::random_hermitian(A, 7);
      for (int lj = 0; lj < A.local_cols(); ++lj)
        for (int li = 0; li < A.local_rows(); ++li) A.local(li, lj) *= factor;
      Eigensolver<T> es(validating<T>(Solver::two_stage, kN, values_only));
      if (values_only)
        es.eigenvalues(A);
      else
        es.eigenvectors(A, Z);
      expect_passed(es.validation(), !values_only, what);
      EXPECT_LE(es.validation()->trace_error, es.validation()->tolerance) << what;
    }
}

TYPED_TEST(ValidationTest, OneTriangleAndOtherLayoutsPass) {
  using T = TypeParam;
  for (const Grid& g : test_grids())
    for (Triangle t : {Triangle::lower, Triangle::upper}) {
      // A in 5×3 blocks, Z in 4×6: both are brought to the working layout internally.
      DistMatrix<T> A(g, kN, kN, 5, 3);
      generate::random_hermitian(A, 3);
      // Garbage in the unread triangle: validation must read the same triangle.
      A.fill([&, B = A.clone()](int i, int j) {
        const bool read = t == Triangle::lower ? i >= j : i <= j;
        return read ? B.local(B.local_row(i), B.local_col(j)) : T(1e3);
      });
      DistMatrix<T> Z(g, kN, 20, 4, 6);
      EigensolverOptions o = validating<T>(Solver::two_stage, 20);
      o.triangle = t;
      Eigensolver<T> es(o);
      es.eigenvectors(A, Z);
      expect_passed(es.validation(), true, shape_name(g));
    }
}

// Eigenvalues of [-1, 1] with a tight cluster of 6 around the nev-th: an exact double
// eigenvalue at nev/nev+1, then near-degenerate ones; validation must not cry wolf.
template <class R>
std::vector<R> cluster_at(int nev, R gap) {
  std::vector<R> d(kN);
  for (int i = 0; i < kN; ++i) d[i] = R(-1) + R(2) * i / (kN - 1);
  for (int k = -3; k <= 2; ++k) d[nev + k] = d[nev] + gap * (k < 0 ? k + 1 : k);
  return d;
}

TYPED_TEST(ValidationTest, ClusterSplitAtNevPasses) {
  using T = TypeParam;
  using R = real_t<T>;
  const int nev = 20;
  for (const Grid& g : test_grids())
    for (R gap : {R(0), R(1e-14), R(1e-9)}) {
      DistMatrix<T> A(g, kN, kN, kNb);
      generate::prescribed_spectrum(A, cluster_at<R>(nev, gap), 5);
      DistMatrix<T> Z(g, kN, nev, kNb);
      for (Solver solver : {Solver::one_stage, Solver::two_stage}) {
        DistMatrix<T> work = A.clone();
        Eigensolver<T> es(validating<T>(solver, nev));
        es.eigenvectors(work, Z);
        expect_passed(es.validation(), true, "gap " + std::to_string(gap));
      }
    }
}

TYPED_TEST(ValidationTest, GeneralizedPasses) {
  using T = TypeParam;
  for (const Grid& g : test_grids())
    for (int nev : {1, 13, kN})
      for (bool values_only : {false, true}) {
        DistMatrix<T> H(g, kN, kN, kNb), S(g, kN, kN, kNb), Z(g, kN, kN, kNb);
        generate::random_hermitian(H, 11);
        generate::random_positive_definite(S, 12);
        const std::string what =
            "nev " + std::to_string(nev) + (values_only ? " values" : " vectors");
        {  // S given
          DistMatrix<T> work = H.clone();
          Eigensolver<T> es(validating<T>(Solver::one_stage, nev, values_only));
          if (values_only)
            es.generalized_eigenvalues(work, S);
          else
            es.generalized_eigenvectors(work, S, Z);
          expect_passed(es.validation(), !values_only, what + ", S given");
          EXPECT_TRUE(es.validation()->generalized);
        }
        {  // only the factor given: S is rebuilt from it
          const CholeskyFactor<T> factor(S);
          DistMatrix<T> work = H.clone();
          Eigensolver<T> es(validating<T>(Solver::two_stage, nev, values_only));
          if (values_only)
            es.generalized_eigenvalues(work, factor);
          else
            es.generalized_eigenvectors(work, factor, Z);
          expect_passed(es.validation(), !values_only, what + ", factor given");
        }
      }
}

TYPED_TEST(ValidationTest, UnreachableToleranceRaisesAccuracyEverywhere) {
  using T = TypeParam;
  for (const Grid& g : test_grids())
    for (bool values_only : {false, true}) {
      DistMatrix<T> A(g, kN, kN, kNb), Z(g, kN, kN, kNb);
      generate::random_hermitian(A, 2);
      EigensolverOptions o = validating<T>(Solver::one_stage, -1, values_only);
      // Below any rounding error: the residual (vectors) or the trace check (values only,
      // nev = N) exceeds it.
      o.validation_tolerance = 1e-300;
      Eigensolver<T> es(o);
      const Error e = error_of([&] { values_only ? es.eigenvalues(A) : es.eigenvectors(A, Z); });
      EXPECT_EQ(e.code(), ErrorCode::accuracy);
      EXPECT_NE(std::string(e.what()).find("self-validation failed"), std::string::npos)
          << e.what();
      ASSERT_TRUE(es.validation().has_value());
      EXPECT_FALSE(es.validation()->passed());
      EXPECT_EQ(es.validation()->tolerance, 1e-300);
    }
}

TYPED_TEST(ValidationTest, NegativeToleranceIsRefused) {
  using T = TypeParam;
  const Grid g(MPI_COMM_WORLD);
  DistMatrix<T> A(g, kN, kN, kNb);
  generate::random_hermitian(A, 2);
  EigensolverOptions o = validating<T>(Solver::one_stage, 5, true);
  o.validation_tolerance = -1;
  Eigensolver<T> es(o);
  EXPECT_EQ(error_of([&] { es.eigenvalues(A); }).code(), ErrorCode::invalid_argument);
  EXPECT_FALSE(es.validation().has_value());
}

TEST(Validation, OffMeansNoReport) {
  const Grid g(MPI_COMM_WORLD);
  DistMatrix<double> A(g, kN, kN, kNb);
  generate::random_hermitian(A, 2);
  Eigensolver<double> es;
  es.eigenvalues(A);
  EXPECT_FALSE(es.validation().has_value());
  EXPECT_EQ(es.timings().get(Stage::validate), 0);
}

}  // namespace
}  // namespace tseig::test
