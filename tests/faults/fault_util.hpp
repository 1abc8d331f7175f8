#pragma once
// Helpers of the fault tests: run a collective call that must fail, and check that every
// rank got the same tseig::Error code (a hang is caught by the ctest TIMEOUT instead).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "tseig/tseig.h"
#include "tseig/tseig.hpp"

namespace tseig::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// Runs f on every rank of `comm`; returns the tseig::Error code it threw (0: none, -1:
/// another exception). Expects the same code on every rank, and (unless `may_pass`) an
/// error. Rank 0 prints one "[fault] case: code" line for the report.
inline int expect_same_error(const std::string& what, const std::function<void()>& f,
                             bool may_pass = false, MPI_Comm comm = MPI_COMM_WORLD) {
  int code = 0;
  std::string message;
  try {
    f();
  } catch (const Error& e) {
    code = static_cast<int>(e.code());
    message = e.what();
  } catch (const std::exception& e) {
    code = -1;
    message = e.what();
  }
  int lo = code, hi = code;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, comm);
  EXPECT_EQ(lo, hi) << what << ": ranks got different outcomes (this rank: " << code << " "
                    << message << ")";
  if (!may_pass) {
    EXPECT_GT(lo, 0) << what << ": expected a tseig::Error on every rank";
  }
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    std::printf("[fault] %s: %s%s\n", what.c_str(),
                code > 0 ? to_string(static_cast<ErrorCode>(code))
                : code   ? "other"
                         : "no error",
                message.empty() ? "" : (" (" + message.substr(0, 100) + ")").c_str());
  return lo == hi ? code : -2;
}

/// True if every rank of MPI_COMM_WORLD passed the same code.
inline bool same_on_every_rank(int code) {
  int lo = code, hi = code;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/// An ELPA-style C API handle for A's layout on MPI_COMM_WORLD (all eigenpairs), with
/// `solver` on A's own grid. Call as ASSERT_NO_FATAL_FAILURE(make_capi_handle(...)).
inline void make_capi_handle(const DistMatrix<double>& A, const char* solver, tseig_handle_t** h) {
  ASSERT_EQ(tseig_create(h), TSEIG_OK);
  for (auto [name, value] : {std::pair{"na", A.m()},
                             {"nev", A.m()},
                             {"nblk", A.nb()},
                             {"local_nrows", A.lld()},
                             {"local_ncols", A.local_cols()},
                             {"process_row", A.grid().myrow()},
                             {"process_col", A.grid().mycol()}})
    ASSERT_EQ(tseig_set_int(*h, name, value), TSEIG_OK) << name;
  ASSERT_EQ(tseig_set_comm(*h, MPI_COMM_WORLD), TSEIG_OK);
  ASSERT_EQ(tseig_setup(*h), TSEIG_OK) << tseig_last_error_message(*h);
  ASSERT_EQ(tseig_set_string(*h, "solver", solver), TSEIG_OK);
  ASSERT_EQ(tseig_set_string(*h, "grid_choice", "as_given"), TSEIG_OK);
}

/// True if every value is finite.
template <class R>
bool all_finite(const std::vector<R>& v) {
  for (R x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace tseig::test
