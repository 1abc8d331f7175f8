// DistMatrix: index maps against ScaLAPACK's own, descriptors, views over user memory,
// gather/scatter, redistribution.
#include <gtest/gtest.h>

#include "core/blas/scalapack.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

TEST(IndexMaps, MatchScaLAPACK) {
  for (int nprocs : {1, 2, 3, 4, 5})
    for (int nb : {1, 2, 3, 7, 32})
      for (int src = 0; src < nprocs; ++src)
        for (int n : {0, 1, 5, 31, 64, 100}) {
          for (int p = 0; p < nprocs; ++p)
            EXPECT_EQ(block_cyclic::local_count(n, nb, p, src, nprocs),
                      scalapack::numroc_(&n, &nb, &p, &src, &nprocs));
          for (int g = 0; g < n; ++g) {
            int g1 = g + 1, dummy = 0;
            int owner = scalapack::indxg2p_(&g1, &nb, &dummy, &src, &nprocs);
            EXPECT_EQ(block_cyclic::owner(g, nb, src, nprocs), owner);
            int l = scalapack::indxg2l_(&g1, &nb, &dummy, &src, &nprocs) - 1;
            EXPECT_EQ(block_cyclic::local_index(g, nb, nprocs), l);
            int l1 = l + 1;
            EXPECT_EQ(block_cyclic::global_index(l, nb, owner, src, nprocs),
                      scalapack::indxl2g_(&l1, &nb, &owner, &src, &nprocs) - 1);
            // local_count_below(g) on the owner is exactly the local index of g.
            EXPECT_EQ(block_cyclic::local_count_below(g, nb, owner, src, nprocs), l);
          }
        }
}

// A value that identifies a global position, for every scalar type.
template <class T>
T tag(int i, int j) {
  if constexpr (is_complex_v<T>)
    return T(i + 1, -(j + 1));
  else
    return T(1000 * i + j);
}

template <class T>
class DistMatrixTest : public ::testing::Test {};
TYPED_TEST_SUITE(DistMatrixTest, ScalarTypes);

TYPED_TEST(DistMatrixTest, LayoutGatherScatter) {
  using T = TypeParam;
  for (const Grid& g : test_grids())
    for (auto [m, n] : {std::pair{1, 1}, {7, 5}, {33, 40}, {2, 9}})
      for (auto [mb, nb] : {std::pair{1, 1}, {4, 4}, {3, 5}, {32, 32}})
        for (int src : {0, 1}) {
          const int rsrc = src % g.nprow(), csrc = src % g.npcol();
          DistMatrix<T> A(g, m, n, mb, nb, rsrc, csrc);
          A.fill([](int i, int j) { return tag<T>(i, j); });
          // Local index maps are consistent with ownership.
          for (int li = 0; li < A.local_rows(); ++li) {
            EXPECT_EQ(A.row_owner(A.global_row(li)), g.myrow());
            EXPECT_EQ(A.local_row(A.global_row(li)), li);
          }
          int total = 0, mine = A.local_rows() * A.local_cols();
          MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, g.comm());
          EXPECT_EQ(total, m * n);
          std::vector<T> full = A.gather(0);
          if (g.rank() == 0) {
            ASSERT_EQ(static_cast<int>(full.size()), m * n);
            for (int j = 0; j < n; ++j)
              for (int i = 0; i < m; ++i) EXPECT_EQ(full[i + j * m], tag<T>(i, j));
          } else {
            EXPECT_TRUE(full.empty());
          }
          // Scatter from the last rank into a zeroed copy reproduces the matrix.
          const int root = g.size() - 1;
          std::vector<T> from_root = A.gather(root);
          DistMatrix<T> B = DistMatrix<T>::like(A);
          B.scatter(from_root.data(), root);
          for (int lj = 0; lj < B.local_cols(); ++lj)
            for (int li = 0; li < B.local_rows(); ++li) EXPECT_EQ(B.local(li, lj), A.local(li, lj));
        }
}

TYPED_TEST(DistMatrixTest, ViewOverUserMemoryHasNoCopy) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    const int m = 11, n = 6, nb = 2;
    const int rows = block_cyclic::local_count(m, nb, g.myrow(), 0, g.nprow());
    const int cols = block_cyclic::local_count(n, nb, g.mycol(), 0, g.npcol());
    const int lld = rows + 3;  // a padded leading dimension, as a Fortran code may have
    std::vector<T> user(static_cast<std::size_t>(lld) * std::max(cols, 1), T(-7));
    Descriptor d{1, g.blacs_context(), m, n, nb, nb, 0, 0, lld};
    DistMatrix<T> V = DistMatrix<T>::view(g, d, user.data());
    EXPECT_FALSE(V.owns_data());
    EXPECT_EQ(V.data(), user.data());
    V.fill([](int i, int j) { return tag<T>(i, j); });
    for (int lj = 0; lj < cols; ++lj)
      for (int li = 0; li < rows; ++li)
        EXPECT_EQ(user[li + lj * lld], tag<T>(V.global_row(li), V.global_col(lj)));
    if (cols > 0) {
      EXPECT_EQ(user[rows], T(-7));  // padding untouched
    }
    // Descriptor round trip.
    auto arr = V.descriptor().to_array();
    Descriptor back = Descriptor::from_array(arr.data());
    EXPECT_EQ(back.lld, lld);
    EXPECT_EQ(back.ctxt, g.blacs_context());
    EXPECT_EQ(V.desc()[8], lld);
  }
}

TEST(Descriptor, EachBadFieldIsNamed) {
  Grid g(MPI_COMM_WORLD);
  std::vector<double> buf(1000);
  const Descriptor good{1, g.blacs_context(), 10, 10, 2, 2, 0, 0, 10};
  auto expect_field = [&](Descriptor d, const std::string& field) {
    try {
      DistMatrix<double>::view(g, d, buf.data());
      ADD_FAILURE() << "no error for bad " << field;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_descriptor);
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  Descriptor d = good;
  d.dtype = 2;
  expect_field(d, "DTYPE");
  d = good;
  d.ctxt = g.blacs_context() + 1000;
  expect_field(d, "CTXT");
  d = good;
  d.m = -1;
  expect_field(d, "M (desc[2])");
  d = good;
  d.n = -3;
  expect_field(d, "N (desc[3])");
  d = good;
  d.mb = 0;
  expect_field(d, "MB");
  d = good;
  d.nb = 0;
  expect_field(d, "NB");
  d = good;
  d.rsrc = g.nprow();
  expect_field(d, "RSRC");
  d = good;
  d.csrc = -1;
  expect_field(d, "CSRC");
  d = good;
  d.lld = 0;
  expect_field(d, "LLD");
  // Wrong on one rank only: every rank still gets the error.
  d = good;
  if (g.rank() == g.size() - 1) d.lld = 0;
  expect_field(d, "LLD");
}

TYPED_TEST(DistMatrixTest, RedistributeToOtherBlocksAndGrids) {
  using T = TypeParam;
  const auto grids = test_grids();
  for (const Grid& from : grids)
    for (const Grid& to : grids)
      for (auto [mb, nb] : {std::pair{1, 1}, {3, 5}, {8, 8}}) {
        DistMatrix<T> A(from, 23, 17, 4, 4);
        A.fill([](int i, int j) { return tag<T>(i, j); });
        DistMatrix<T> B = A.redistribute(to, mb, nb, to.nprow() - 1, 0);
        EXPECT_EQ(B.mb(), mb);
        for (int lj = 0; lj < B.local_cols(); ++lj)
          for (int li = 0; li < B.local_rows(); ++li)
            EXPECT_EQ(B.local(li, lj), tag<T>(B.global_row(li), B.global_col(lj)));
      }
}

TYPED_TEST(DistMatrixTest, CloneIsIndependentAndCopyChecksSizes) {
  using T = TypeParam;
  Grid g(MPI_COMM_WORLD);
  DistMatrix<T> A(g, 5, 5, 2);
  A.fill([](int i, int j) { return tag<T>(i, j); });
  DistMatrix<T> C = A.clone();
  A.fill([](int, int) { return T(0); });
  for (int lj = 0; lj < C.local_cols(); ++lj)
    for (int li = 0; li < C.local_rows(); ++li)
      EXPECT_EQ(C.local(li, lj), tag<T>(C.global_row(li), C.global_col(lj)));
  DistMatrix<T> D(g, 6, 5, 2);
  EXPECT_THROW(D.copy_from(A), Error);
}

TEST(DistMatrix, MoreRanksThanBlocks) {
  // N = 1 on every grid: most ranks own nothing and must still take part.
  for (const Grid& g : test_grids()) {
    DistMatrix<double> A(g, 1, 1, 4);
    A.fill([](int, int) { return 42.0; });
    auto full = A.gather(0);
    if (g.rank() == 0) {
      EXPECT_EQ(full.at(0), 42.0);
    }
  }
}

}  // namespace
}  // namespace tseig::test
