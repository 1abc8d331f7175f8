// Grid: shapes, rank order, row/column communicators, BLACS interoperability.
#include <gtest/gtest.h>

#include <climits>
#include <vector>

#include "core/blas/scalapack.hpp"
#include "core/collectives.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

TEST(Grid, SquareShapes) {
  int p = 0, q = 0;
  square_grid_shape(1, p, q);
  EXPECT_EQ(p * 10 + q, 11);
  square_grid_shape(4, p, q);
  EXPECT_EQ(p * 10 + q, 22);
  square_grid_shape(6, p, q);
  EXPECT_EQ(p * 10 + q, 23);
  square_grid_shape(7, p, q);  // a prime: 1×7 is the only exact cover
  EXPECT_EQ(p * 10 + q, 17);
  square_grid_shape(12, p, q);
  EXPECT_EQ(p * 100 + q, 304);
}

TEST(Grid, DefaultIsMostSquare) {
  Grid g(MPI_COMM_WORLD);
  int p = 0, q = 0;
  square_grid_shape(world_size(), p, q);
  EXPECT_EQ(g.nprow(), p);
  EXPECT_EQ(g.npcol(), q);
  EXPECT_EQ(g.size(), world_size());
}

TEST(Grid, CoordinatesAndSubCommunicators) {
  for (auto [p, q] : grid_shapes())
    for (GridOrder order : {GridOrder::row_major, GridOrder::column_major}) {
      Grid g(MPI_COMM_WORLD, p, q, order);
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      EXPECT_EQ(g.rank(), rank);
      EXPECT_EQ(g.rank_of(g.myrow(), g.mycol()), rank);
      if (order == GridOrder::row_major) {
        EXPECT_EQ(g.myrow(), rank / q);
      } else {
        EXPECT_EQ(g.myrow(), rank % p);
      }
      int size = 0, r = 0;
      MPI_Comm_size(g.row_comm(), &size);
      MPI_Comm_rank(g.row_comm(), &r);
      EXPECT_EQ(size, q);
      EXPECT_EQ(r, g.mycol());
      MPI_Comm_size(g.col_comm(), &size);
      MPI_Comm_rank(g.col_comm(), &r);
      EXPECT_EQ(size, p);
      EXPECT_EQ(r, g.myrow());
      // The BLACS grid agrees with ours.
      int bp = 0, bq = 0, br = -1, bc = -1;
      scalapack::Cblacs_gridinfo(g.blacs_context(), &bp, &bq, &br, &bc);
      EXPECT_EQ(bp, p);
      EXPECT_EQ(bq, q);
      EXPECT_EQ(br, g.myrow());
      EXPECT_EQ(bc, g.mycol());
    }
}

TEST(Grid, FromBlacsKeepsTheUsersGrid) {
  for (auto [p, q] : grid_shapes()) {
    int ctxt = 0;
    scalapack::Cblacs_get(-1, 0, &ctxt);
    scalapack::Cblacs_gridinit(&ctxt, "C", p, q);
    int bp, bq, br, bc;
    scalapack::Cblacs_gridinfo(ctxt, &bp, &bq, &br, &bc);
    {
      Grid g = Grid::from_blacs(ctxt);
      EXPECT_EQ(g.nprow(), p);
      EXPECT_EQ(g.npcol(), q);
      EXPECT_EQ(g.myrow(), br);
      EXPECT_EQ(g.mycol(), bc);
      EXPECT_EQ(g.blacs_context(), ctxt);
      DistMatrix<double> A(g, 9, 9, 2);
      EXPECT_EQ(A.desc()[1], ctxt);
      // A collective on the adopted grid works (and uses its row communicator).
      int one = 1, sum = 0;
      MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, g.row_comm());
      EXPECT_EQ(sum, q);
    }
    scalapack::Cblacs_gridexit(ctxt);  // still the user's to free
  }
}

// Many grids alive at once leave the application's BLACS system handles alone. A grid
// kept its system handle until destroyed: with about 20 slots free again, BLACS compacted
// its table and renumbered the handles in use, so the grids freed other slots and the
// application's own handle was gone ("No system context", MPI_Abort).
TEST(Grid, ManyGridsLeaveTheApplicationsBlacsHandles) {
  MPI_Comm mine = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  {
    std::vector<Grid> grids;
    for (int k = 0; k < 25; ++k) grids.emplace_back(MPI_COMM_WORLD);
    const int handle = scalapack::Csys2blacs_handle(mine);
    grids.clear();
    int same = MPI_UNEQUAL;
    MPI_Comm_compare(scalapack::Cblacs2sys_handle(handle), mine, &same);
    EXPECT_EQ(same, MPI_IDENT);
    scalapack::Cfree_blacs_system_handle(handle);
  }
  MPI_Comm_free(&mine);
}

TEST(Grid, BadShapeRaisesOnEveryRank) {
  const int n = world_size();
  try {
    Grid g(MPI_COMM_WORLD, n + 1, 1);
    ADD_FAILURE() << "no error for a grid larger than the communicator";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("does not match"), std::string::npos);
  }
  if (n > 1) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    try {
      Grid g(MPI_COMM_WORLD, rank == 0 ? 1 : n, rank == 0 ? n : 1);
      ADD_FAILURE() << "no error when ranks disagree on the shape";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::grid_mismatch);
    }
  }
}

TEST(Grid, EmptyGridThrows) {
  Grid g;
  EXPECT_THROW(g.nprow(), Error);
}

// One BLACS grid, the same answer on every rank: a copy and a Grid::from_blacs of the
// context are the same grid; a twin over the same communicator and a column-major grid
// of the same shape (where ranks 0 and 3 of a 2×2 keep their coordinates) are others.
TEST(Grid, SameAs) {
  Grid a(MPI_COMM_WORLD);
  Grid b = a;
  EXPECT_TRUE(a.same_as(b));
  EXPECT_TRUE(a.same_as(Grid::from_blacs(a.blacs_context())));
  Grid twin(MPI_COMM_WORLD, a.nprow(), a.npcol());
  EXPECT_FALSE(a.same_as(twin));
  Grid column_major(MPI_COMM_WORLD, a.nprow(), a.npcol(), GridOrder::column_major);
  EXPECT_FALSE(a.same_as(column_major));
}

// ranks_agree over the whole int range (the bits of −0.0f are INT_MIN): equal values
// agree, a value differing on one rank does not, on every rank.
TEST(Grid, RanksAgreeOverTheWholeIntRange) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EXPECT_TRUE(ranks_agree(MPI_COMM_WORLD, {INT_MIN, INT_MAX, 0, -1}));
  const bool differ = world_size() > 1;
  EXPECT_EQ(ranks_agree(MPI_COMM_WORLD, {rank == 1 ? INT_MAX : INT_MIN, 7}), !differ);
  EXPECT_EQ(ranks_agree(MPI_COMM_WORLD, {3, rank == 1 ? INT_MIN : 0}), !differ);
}

}  // namespace
}  // namespace tseig::test
