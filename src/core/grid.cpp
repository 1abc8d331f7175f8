// Grid: process grid over an MPI communicator, with its BLACS context.
#include "tseig/grid.hpp"

#include <cmath>
#include <string>

#include "core/blas/scalapack.hpp"
#include "core/collectives.hpp"
#include "tseig/error.hpp"

namespace tseig {

struct Grid::State {
  MPI_Comm comm = MPI_COMM_NULL, row = MPI_COMM_NULL, col = MPI_COMM_NULL;
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0, rank = 0;
  GridOrder order = GridOrder::row_major;
  int blacs = -1;
  bool owns_blacs = false;

  ~State() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;  // too late to free anything; the process is ending
    if (owns_blacs && blacs >= 0) scalapack::Cblacs_gridexit(blacs);
    for (MPI_Comm* c : {&row, &col, &comm})
      if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
  }

  void split_rows_and_columns() {
    MPI_Comm_split(comm, myrow, mycol, &row);
    MPI_Comm_split(comm, mycol, myrow, &col);
  }
};

void square_grid_shape(int nprocs, int& nprow, int& npcol) {
  nprow = static_cast<int>(std::sqrt(static_cast<double>(nprocs)));
  while (nprow > 1 && nprocs % nprow != 0) --nprow;
  if (nprow < 1) nprow = 1;
  npcol = nprocs / nprow;
}

Grid::Grid(MPI_Comm comm, int nprow, int npcol, GridOrder order) {
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  if (nprow == 0 && npcol == 0) square_grid_shape(size, nprow, npcol);
  // Every rank must ask for the same shape, and the shape must cover the communicator.
  raise_if_any(comm, !ranks_agree(comm, {nprow, npcol}), ErrorCode::grid_mismatch,
               "ranks asked for different grid shapes");
  raise_if_any(comm, nprow < 1 || npcol < 1 || nprow * npcol != size, ErrorCode::invalid_argument,
               "grid " + std::to_string(nprow) + "x" + std::to_string(npcol) +
                   " does not match the " + std::to_string(size) + " ranks of the communicator");

  auto s = std::make_shared<State>();
  MPI_Comm_dup(comm, &s->comm);
  s->nprow = nprow;
  s->npcol = npcol;
  s->rank = rank;
  s->order = order;
  if (order == GridOrder::row_major) {
    s->myrow = rank / npcol;
    s->mycol = rank % npcol;
  } else {
    s->myrow = rank % nprow;
    s->mycol = rank / nprow;
  }
  s->split_rows_and_columns();

  int me = 0, nprocs = 0;
  scalapack::Cblacs_pinfo(&me, &nprocs);  // initialises BLACS if the user did not
  const int system = scalapack::Csys2blacs_handle(s->comm);
  s->blacs = system;  // Cblacs_gridinit turns it into the grid's context
  scalapack::Cblacs_gridinit(&s->blacs, order == GridOrder::row_major ? "R" : "C", nprow, npcol);
  s->owns_blacs = true;
  // The grid has its own communicators now. A system handle kept for the grid's life
  // broke BLACS: once about 20 slots of its table are free it compacts the table and
  // renumbers the handles in use, so later frees hit other slots (the application's
  // own handles among them: "No system context", MPI_Abort).
  scalapack::Cfree_blacs_system_handle(system);
  state_ = std::move(s);
}

Grid Grid::from_blacs(int blacs_context) {
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1, system = 0;
  scalapack::Cblacs_gridinfo(blacs_context, &nprow, &npcol, &myrow, &mycol);
  scalapack::Cblacs_get(blacs_context, 10, &system);  // the system handle it was built on
  MPI_Comm parent = scalapack::Cblacs2sys_handle(system);
  bool member = myrow >= 0 && myrow < nprow && mycol >= 0 && mycol < npcol;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(parent, member ? 0 : MPI_UNDEFINED, member ? myrow * npcol + mycol : 0, &comm);
  if (!member)
    throw Error(ErrorCode::invalid_argument, "this process is not part of the BLACS grid");

  Grid g;
  auto s = std::make_shared<State>();
  s->comm = comm;
  s->nprow = nprow;
  s->npcol = npcol;
  s->myrow = myrow;
  s->mycol = mycol;
  MPI_Comm_rank(comm, &s->rank);
  s->order = GridOrder::row_major;  // ranks of comm() are numbered row by row
  s->split_rows_and_columns();
  s->blacs = blacs_context;
  s->owns_blacs = false;
  g.state_ = std::move(s);
  return g;
}

#define TSEIG_GRID_GETTER(type, name, field)                                              \
  type Grid::name() const {                                                               \
    if (!state_) throw Error(ErrorCode::invalid_argument, "use of an empty tseig::Grid"); \
    return state_->field;                                                                 \
  }
TSEIG_GRID_GETTER(int, nprow, nprow)
TSEIG_GRID_GETTER(int, npcol, npcol)
TSEIG_GRID_GETTER(int, myrow, myrow)
TSEIG_GRID_GETTER(int, mycol, mycol)
TSEIG_GRID_GETTER(int, rank, rank)
TSEIG_GRID_GETTER(GridOrder, order, order)
TSEIG_GRID_GETTER(MPI_Comm, comm, comm)
TSEIG_GRID_GETTER(MPI_Comm, row_comm, row)
TSEIG_GRID_GETTER(MPI_Comm, col_comm, col)
TSEIG_GRID_GETTER(int, blacs_context, blacs)
#undef TSEIG_GRID_GETTER

int Grid::size() const {
  return nprow() * npcol();
}

int Grid::rank_of(int prow, int pcol) const {
  if (order() == GridOrder::row_major) return prow * npcol() + pcol;
  return pcol * nprow() + prow;
}

bool Grid::same_as(const Grid& other) const {
  if (state_ == other.state_) return true;
  if (!state_ || !other.state_) return false;
  // One BLACS grid: what every rank sees alike, and what ScaLAPACK needs of two
  // descriptors in one call (twin grids over one communicator failed there with
  // "parameter 1202"). A rank's own coordinates are no test: between a row- and a
  // column-major 2×2 grid ranks 0 and 3 keep theirs, and callers deciding on a
  // collective by that answer went separate ways (a hang).
  return state_->blacs == other.state_->blacs;
}

bool Grid::same_processes(const Grid& other) const {
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(comm(), other.comm(), &result);
  return result == MPI_IDENT || result == MPI_CONGRUENT;
}

}  // namespace tseig
