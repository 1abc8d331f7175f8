// Input checks before a solve: mirror_blocks pairs every lower block with its mirror
// (any grid, N not a multiple of the block size, rounds of any size), the symmetry check
// catches one wrong entry anywhere and lets rounding-level asymmetry through, and an
// upper triangle fills the lower one.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "dense/check_input.hpp"
#include "dense/mirror_blocks.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

template <class T>
class CheckInputTest : public ::testing::Test {};
TYPED_TEST_SUITE(CheckInputTest, ScalarTypes);

// A distinct value per position; complex ones carry the column in the imaginary part.
template <class T>
T tag(int i, int j) {
  if constexpr (is_complex_v<T>)
    return T(static_cast<real_t<T>>(i), static_cast<real_t<T>>(j));
  else
    return static_cast<T>(i * 1000 + j);
}

// from = upper: every lower block (and diagonal block) visited with its mirror; from =
// lower: every upper one.
TYPED_TEST(CheckInputTest, MirrorBlocksPairsEveryBlockWithItsMirror) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (int n : {1, 5, 37, 64})
      for (long round : {1L, 40L, dense::mirror_round_entries})
        for (auto from : {dense::MirrorFrom::upper, dense::MirrorFrom::lower}) {
          const bool up = from == dense::MirrorFrom::upper;
          constexpr int nb = 4;
          DistMatrix<T> A(grid, n, n, nb);
          A.fill([](int i, int j) { return tag<T>(i, j); });
          long seen = 0, wrong = 0;
          int last_block_row = -1;
          dense::mirror_blocks(
              A,
              [&](int li, int lj, int rows, int cols, const T* U, int ldu) {
                const int gi = A.global_row(li), gj = A.global_col(lj);
                wrong += (up ? gi < gj : gi > gj) || gi % nb != 0 || gj % nb != 0 ||
                         std::max(gi, gj) / nb < last_block_row;
                last_block_row = std::max(gi, gj) / nb;
                for (int j = 0; j < cols; ++j)
                  for (int i = 0; i < rows; ++i) {
                    wrong += A.local(li + i, lj + j) != tag<T>(gi + i, gj + j);
                    wrong += U[j + long(i) * ldu] != tag<T>(gj + j, gi + i);
                    ++seen;
                  }
              },
              from, round);
          MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_LONG, MPI_SUM, grid.comm());
          MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG, MPI_SUM, grid.comm());
          // One block triangle with its diagonal blocks, counted entry by entry.
          long expected = 0;
          for (int I = 0; I * nb < n; ++I)
            expected += long(std::min(nb, n - I * nb)) * std::min(n, (I + 1) * nb);
          EXPECT_EQ(seen, expected) << "n " << n << " round " << round << " up " << up;
          EXPECT_EQ(wrong, 0) << "n " << n << " round " << round << " up " << up;
        }
}

TYPED_TEST(CheckInputTest, OneWrongEntryAnywhereIsFound) {
  using T = TypeParam;
  using R = real_t<T>;
  const R root_eps = std::sqrt(std::numeric_limits<R>::epsilon());
  constexpr int n = 37;
  for (const Grid& grid : test_grids()) {
    DistMatrix<T> H(grid, n, n, 4);
    generate::random_hermitian(H, 5);
    R biggest = 0;
    for (int lj = 0; lj < H.local_cols(); ++lj)
      for (int li = 0; li < H.local_rows(); ++li)
        biggest = std::max(biggest, std::abs(H.local(li, lj)));
    MPI_Allreduce(MPI_IN_PLACE, &biggest, 1, mpi_type<R>(), MPI_MAX, grid.comm());
    EXPECT_NO_THROW(dense::check_input(H, Triangle::full, "A"));
    // (i, j) moved by `rel`·max|A|; for complex also the imaginary part of a diagonal entry.
    std::vector<std::pair<int, int>> spots{{36, 0}, {0, 36}, {20, 19}, {5, 33}};
    if (is_complex_v<T>) spots.push_back({17, 17});
    for (auto [i, j] : spots)
      for (R rel : {R(30) * root_eps, R(0.03) * root_eps}) {
        DistMatrix<T> A = H.clone();
        T step = T(1);
        if constexpr (is_complex_v<T>)
          if (i == j) step = T(0, 1);
        if (A.is_local(i, j)) A.local(A.local_row(i), A.local_col(j)) += rel * biggest * step;
        const bool caught = rel > root_eps;
        if (caught)
          EXPECT_EQ(error_of([&] { dense::check_input(A, Triangle::full, "A"); }).code(),
                    ErrorCode::not_hermitian)
              << i << "," << j;
        else
          EXPECT_NO_THROW(dense::check_input(A, Triangle::full, "A")) << i << "," << j;
      }
  }
}

TYPED_TEST(CheckInputTest, UpperTriangleFillsTheLowerOne) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (int n : {1, 6, 37}) {
      DistMatrix<T> H(grid, n, n, 4);
      generate::random_hermitian(H, 9);
      DistMatrix<T> A = H.clone();
      A.fill([&](int i, int j) { return i > j ? T(std::nan("")) : T(0); });
      for (int lj = 0; lj < A.local_cols(); ++lj)
        for (int li = 0; li < A.local_rows(); ++li)
          if (A.global_row(li) <= A.global_col(lj)) A.local(li, lj) = H.local(li, lj);
      dense::make_lower_valid(A, Triangle::upper);
      int wrong = 0;
      for (int lj = 0; lj < A.local_cols(); ++lj)
        for (int li = 0; li < A.local_rows(); ++li) wrong += A.local(li, lj) != H.local(li, lj);
      EXPECT_EQ(wrong, 0) << "n " << n;
    }
}

}  // namespace
}  // namespace tseig::test
