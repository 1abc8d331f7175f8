// C API: the process grid of tseig_setup, from a BLACS context or from mpi_comm_parent
// with each process's position (process_row/process_col or ELPA's mpi_comm_rows/cols);
// invalid communicator handles and parameters missing on some ranks are errors, never an
// abort of the job or a hang.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "capi/handle.hpp"
#include "core/blas/scalapack.hpp"

namespace tseig::capi {
namespace {

// The ELPA way of describing the grid: each process says where it sits. Collective over
// parent: the positions must tile a P x Q grid exactly once. Returns a Grid whose
// comm() ranks are row-major over those positions.
Grid grid_from_positions(MPI_Comm parent, int myrow, int mycol) {
  int size = 0;
  MPI_Comm_size(parent, &size);
  int mine[2] = {myrow, mycol}, extent[2] = {0, 0};
  MPI_Allreduce(mine, extent, 2, MPI_INT, MPI_MAX, parent);
  const int nprow = extent[0] + 1, npcol = extent[1] + 1;
  std::vector<int> keys(size);
  int key = myrow * npcol + mycol;
  MPI_Allgather(&key, 1, MPI_INT, keys.data(), 1, MPI_INT, parent);
  std::sort(keys.begin(), keys.end());
  std::vector<int> expected(size);
  std::iota(expected.begin(), expected.end(), 0);
  // Same data on every rank, so every rank reaches the same verdict.
  if (nprow * npcol != size || keys != expected)
    throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                 "process_row/process_col do not form a grid: " + std::to_string(size) +
                     " processes, rows 0.." + std::to_string(nprow - 1) + ", columns 0.." +
                     std::to_string(npcol - 1) + ", each position must be taken exactly once");
  MPI_Comm ordered = MPI_COMM_NULL;
  MPI_Comm_split(parent, 0, key, &ordered);
  Grid grid(ordered, nprow, npcol, GridOrder::row_major);  // duplicates `ordered`
  MPI_Comm_free(&ordered);
  return grid;
}

// Runs f, an MPI call on a communicator the caller gave, with MPI_ERRORS_RETURN on the
// handlers an invalid communicator's error is raised on (MPI_COMM_WORLD's, or MPI_COMM_SELF's
// under MPI 4), so that the call returns an error code instead of aborting the job.
template <class F>
int with_errors_returned(F&& f) {
  MPI_Errhandler world = MPI_ERRHANDLER_NULL, self = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world);
  MPI_Comm_get_errhandler(MPI_COMM_SELF, &self);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const int rc = f();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, world);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, self);
  MPI_Errhandler_free(&world);
  MPI_Errhandler_free(&self);
  return rc;
}

// The communicator of the int parameter `name` (a Fortran handle). MPI_COMM_NULL, an invalid
// handle or an intercommunicator is CError(TSEIG_ERROR_INVALID_ARGUMENT), thrown on this
// rank alone: without a valid communicator there is nothing to agree over.
MPI_Comm user_comm(const tseig_handle& h, const char* name) {
  const int handle = h.get(name);
  const MPI_Comm comm = MPI_Comm_f2c(handle);
  const std::string what = "tseig_setup: " + std::string(name) + " = " + std::to_string(handle);
  if (comm == MPI_COMM_NULL)
    throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                 what + " is MPI_COMM_NULL; set a valid communicator");
  // Open MPI's MPI_Comm_f2c gives a null pointer for a handle it does not know; MPICH's
  // handles are ints, which only the call below can check.
  int inter = 0;
  if (comm == MPI_Comm{} ||
      with_errors_returned([&] { return MPI_Comm_test_inter(comm, &inter); }) != MPI_SUCCESS)
    throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                 what +
                     " is not a valid communicator handle (expected MPI_Comm_c2f of a "
                     "communicator, or a Fortran MPI communicator)");
  if (inter)
    throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                 what + " is an intercommunicator; tseig needs an intracommunicator");
  return comm;
}

}  // namespace

// Collective: the process grid. `missing` ("" or which required parameter this rank lacks)
// is raised on every rank once there is a communicator to agree over: the BLACS grid's or
// mpi_comm_parent. A rank with neither (or an invalid communicator) fails on its own.
Grid build_grid(const tseig_handle& h, const std::string& missing) {
  auto has = [&](const char* name) { return h.ints.count(name) > 0; };
  auto raise_missing = [&](MPI_Comm comm) {
    std::string message;
    if (!missing.empty()) {
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      message = missing + " on rank " + std::to_string(rank);
    }
    raise_c_if_any(comm, !missing.empty(), TSEIG_ERROR_PARAMETER_NOT_SET, message);
  };
  if (has("blacs_context")) {
    // BLACS stops the program on an invalid context; gridinfo is the one safe query.
    int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
    scalapack::Cblacs_gridinfo(h.get("blacs_context"), &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1 || myrow < 0)
      throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                   "blacs_context = " + std::to_string(h.get("blacs_context")) +
                       " is not a BLACS grid this process belongs to");
    Grid grid = Grid::from_blacs(h.get("blacs_context"));
    raise_missing(grid.comm());
    return grid;
  }
  if (!has("mpi_comm_parent")) {
    if (!missing.empty()) throw CError(TSEIG_ERROR_PARAMETER_NOT_SET, missing);
    throw CError(TSEIG_ERROR_PARAMETER_NOT_SET,
                 "tseig_setup needs a process grid: set mpi_comm_parent (tseig_set_comm) with "
                 "process_row and process_col, or with mpi_comm_rows and mpi_comm_cols; or set "
                 "blacs_context");
  }
  const MPI_Comm parent = user_comm(h, "mpi_comm_parent");
  raise_missing(parent);
  int myrow = -1, mycol = -1;
  bool ok = true;
  std::string bad_comm;  // an invalid mpi_comm_rows / mpi_comm_cols on this rank
  if (has("process_row") && has("process_col")) {
    myrow = h.get("process_row");
    mycol = h.get("process_col");
  } else if (has("mpi_comm_rows") && has("mpi_comm_cols")) {
    // ELPA: my rank in mpi_comm_rows is my process row, in mpi_comm_cols my column.
    try {
      MPI_Comm_rank(user_comm(h, "mpi_comm_rows"), &myrow);
      MPI_Comm_rank(user_comm(h, "mpi_comm_cols"), &mycol);
    } catch (const CError& e) {
      bad_comm = e.what();
    }
  } else {
    ok = false;
  }
  raise_c_if_any(parent, !ok, TSEIG_ERROR_PARAMETER_NOT_SET,
                 "tseig_setup: with mpi_comm_parent, set process_row and process_col (or "
                 "mpi_comm_rows and mpi_comm_cols)");
  raise_c_if_any(parent, !bad_comm.empty(), TSEIG_ERROR_INVALID_ARGUMENT, bad_comm);
  return grid_from_positions(parent, myrow, mycol);
}

}  // namespace tseig::capi
