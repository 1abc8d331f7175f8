// Eigenvalue subsets (EigensolverOptions::index_range / value_range, ScaLAPACK p?syevr's
// RANGE = 'I' / 'V'): every solver and type, eigenvalues against LAPACK's, residual and
// orthogonality of the returned vectors, windows at both ends and inside, intervals with
// ends between eigenvalues (so the count is exact) and one holding none, odd N, N = 1,
// the generalized problem, and bad ranges refused on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/mpi_types.hpp"
#include "test_util.hpp"
#include "tseig/accuracy.hpp"

namespace tseig::test {
namespace {

template <class T>
class SubsetTest : public ::testing::Test {};
TYPED_TEST_SUITE(SubsetTest, ScalarTypes);

constexpr int kNb = 8;

// All eigenvalues of A (LAPACK on rank 0), on every rank.
template <class T>
std::vector<real_t<T>> reference(const DistMatrix<T>& A) {
  const int n = A.n();
  std::vector<T> full = A.gather(0);
  std::vector<real_t<T>> ref(n);
  if (A.grid().rank() == 0) ref = lapack_eigenvalues<T>(full, n);
  MPI_Bcast(ref.data(), n, mpi_type<real_t<T>>(), 0, A.grid().comm());
  return ref;
}

// Solves a copy of A with `opt` and checks the result against ref[first, first + count):
// the eigenvalues (relative to ‖A‖), residual and orthogonality, and the validation.
template <class T>
void check_subset(const DistMatrix<T>& A, EigensolverOptions opt, const std::vector<real_t<T>>& ref,
                  int first, int count, const std::string& what) {
  SCOPED_TRACE(what);
  const int n = A.n();
  opt.grid_choice = GridChoice::as_given;
  opt.validate = true;
  DistMatrix<T> work = A.clone();
  // An interval's count is not known beforehand: Z with N columns, as p?syevr asks.
  DistMatrix<T> Z(A.grid(), n, opt.value_range ? n : std::max(count, 1), kNb, kNb);
  Eigensolver<T> es(opt);
  const std::vector<real_t<T>> w =
      opt.eigenvalues_only ? es.eigenvalues(work) : es.eigenvectors(work, Z);
  ASSERT_EQ(static_cast<int>(w.size()), count);
  const double scale =
      std::max({double(std::abs(ref.front())), double(std::abs(ref.back())), 1e-300});
  const double tol = accuracy_tolerance<T>(n);
  double err = 0;
  for (int k = 0; k < count; ++k) err = std::max(err, std::abs(w[k] - ref[first + k]) / scale);
  EXPECT_LE(err, tol) << "eigenvalues differ from LAPACK's";
  ASSERT_TRUE(es.validation().has_value());
  EXPECT_TRUE(es.validation()->passed()) << es.validation()->summary();
  EXPECT_EQ(es.validation()->count_checked, first == 0 && count > 0);
  if (opt.eigenvalues_only || count == 0) return;
  EXPECT_LE(accuracy::residual(A, w, Z), tol);
  EXPECT_LE(accuracy::orthogonality(Z, count), tol);
}

TYPED_TEST(SubsetTest, IndexRanges) {
  using T = TypeParam;
  for (const Grid& g : test_grids())
    for (int n : {1, 37, 130}) {
      DistMatrix<T> A(g, n, n, kNb);
      generate::random_hermitian(A, 11 + n);
      const std::vector<real_t<T>> ref = reference(A);
      for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
        for (auto [il, iu] : {std::pair{1, 1}, std::pair{n, n}, std::pair{n / 3 + 1, n / 2 + 1},
                              std::pair{2, n}, std::pair{1, n}})
          for (bool values_only : {false, true}) {
            if (il > iu || iu > n) continue;
            EigensolverOptions opt;
            opt.solver = solver;
            opt.index_range = IndexRange{il, iu};
            opt.eigenvalues_only = values_only;
            check_subset(A, opt, ref, il - 1, iu - il + 1,
                         std::string(to_string(solver)) + " N=" + std::to_string(n) +
                             " il=" + std::to_string(il) + " iu=" + std::to_string(iu) +
                             (values_only ? " values" : " vectors") + " on " + shape_name(g));
            if (::testing::Test::HasFailure()) return;
          }
    }
}

TYPED_TEST(SubsetTest, ValueRanges) {
  using T = TypeParam;
  const int n = 61;
  for (const Grid& g : test_grids()) {
    DistMatrix<T> A(g, n, n, kNb);
    generate::random_hermitian(A, 5);
    const std::vector<real_t<T>> ref = reference(A);
    // Midway below eigenvalue k; below all for 0, above all for n.
    auto below = [&](int k) {
      if (k == 0) return ref.front() - 1.0;
      if (k == n) return ref.back() + 1.0;
      return (double(ref[k - 1]) + ref[k]) / 2;
    };
    for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
      for (auto [a, b] : {std::pair{0, n}, std::pair{0, 9}, std::pair{20, 41}, std::pair{n - 1, n},
                          std::pair{30, 30}})
        for (bool values_only : {false, true}) {
          EigensolverOptions opt;
          opt.solver = solver;
          // a == b: an interval inside the gap below eigenvalue a, holding none.
          const double vu = a == b ? (below(a) + double(ref[a])) / 2 : below(b);
          opt.value_range = ValueRange{below(a), vu};
          opt.eigenvalues_only = values_only;
          check_subset(A, opt, ref, a, b - a,
                       std::string(to_string(solver)) + " eigenvalues " + std::to_string(a) + ".." +
                           std::to_string(b) + (values_only ? " values" : " vectors") + " on " +
                           shape_name(g));
          if (::testing::Test::HasFailure()) return;
        }
  }
}

TYPED_TEST(SubsetTest, GeneralizedIndexRange) {
  using T = TypeParam;
  const int n = 45;
  for (const Grid& g : test_grids()) {
    DistMatrix<T> H(g, n, n, kNb), S(g, n, n, kNb);
    generate::random_hermitian(H, 3);
    generate::random_positive_definite(S, 4);
    Eigensolver<T> all_pairs({.solver = Solver::one_stage, .grid_choice = GridChoice::as_given});
    DistMatrix<T> H1 = H.clone();
    const std::vector<real_t<T>> ref = all_pairs.generalized_eigenvalues(H1, S);
    for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
      SCOPED_TRACE(std::string(to_string(solver)) + " on " + shape_name(g));
      EigensolverOptions opt;
      opt.solver = solver;
      opt.index_range = IndexRange{10, 20};
      opt.grid_choice = GridChoice::as_given;
      Eigensolver<T> es(opt);
      DistMatrix<T> work = H.clone(), Z(g, n, 11, kNb, kNb);
      const std::vector<real_t<T>> w = es.generalized_eigenvectors(work, S, Z);
      ASSERT_EQ(w.size(), 11u);
      const double scale = std::max(std::abs(ref.front()), std::abs(ref.back()));
      for (int k = 0; k < 11; ++k)
        EXPECT_LE(std::abs(w[k] - ref[9 + k]) / scale, accuracy_tolerance<T>(n));
      const double tol = accuracy_tolerance<T>(n);
      EXPECT_LE(accuracy::generalized_residual(H, S, w, Z), tol);
      EXPECT_LE(accuracy::s_orthogonality(S, Z, 11), tol);
    }
  }
}

TEST(Subsets, BadRangesRaiseOnEveryRank) {
  const int n = 40;
  for (const Grid& g : test_grids()) {
    DistMatrix<double> A(g, n, n, kNb), Z(g, n, n, kNb);
    auto code = [&](EigensolverOptions opt, DistMatrix<double>& Zc) {
      generate::random_hermitian(A, 9);
      return error_of([&] { Eigensolver<double>(opt).eigenvectors(A, Zc); }).code();
    };
    auto with = [](auto set) {
      EigensolverOptions o;
      o.solver = Solver::one_stage;
      set(o);
      return o;
    };
    for (auto [il, iu] : {std::pair{0, 3}, std::pair{5, 4}, std::pair{1, n + 1}})
      EXPECT_EQ(code(with([&](auto& o) {
                       o.index_range = IndexRange{il, iu};
                     }),
                     Z),
                ErrorCode::invalid_argument)
          << il << ".." << iu;
    EXPECT_EQ(code(with([](auto& o) {
                     o.value_range = ValueRange{1, 1};
                   }),
                   Z),
              ErrorCode::invalid_argument);
    EXPECT_EQ(code(with([](auto& o) {
                     o.value_range = ValueRange{0, std::nan("")};
                   }),
                   Z),
              ErrorCode::invalid_argument);
    EXPECT_EQ(code(with([](auto& o) {
                     o.nev = 3;
                     o.index_range = IndexRange{1, 3};
                   }),
                   Z),
              ErrorCode::invalid_argument);
    EXPECT_EQ(code(with([](auto& o) {
                     o.index_range = IndexRange{1, 3};
                     o.value_range = ValueRange{0, 1};
                   }),
                   Z),
              ErrorCode::invalid_argument);
    // An index range wider than Z, and an interval holding more eigenvalues than Z has
    // columns (all of them: a random Hermitian matrix's lie inside ±N).
    DistMatrix<double> narrow(g, n, 5, kNb);
    EXPECT_EQ(code(with([](auto& o) {
                     o.index_range = IndexRange{1, 6};
                   }),
                   narrow),
              ErrorCode::invalid_argument);
    for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
      if (solver == Solver::scalapack) continue;  // ScaLAPACK's Z is N × N by its rules
      EXPECT_EQ(code(with([&](auto& o) {
                       o.solver = solver;
                       o.value_range = ValueRange{-2.0 * n, 2.0 * n};
                     }),
                     narrow),
                ErrorCode::invalid_argument)
          << to_string(solver);
    }
  }
}

}  // namespace
}  // namespace tseig::test
