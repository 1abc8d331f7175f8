// Error codes and the collective error agreement used by every collective call.
#include "tseig/error.hpp"

#include <climits>

namespace tseig {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_argument:
      return "invalid_argument";
    case ErrorCode::invalid_descriptor:
      return "invalid_descriptor";
    case ErrorCode::grid_mismatch:
      return "grid_mismatch";
    case ErrorCode::not_hermitian:
      return "not_hermitian";
    case ErrorCode::not_finite:
      return "not_finite";
    case ErrorCode::not_positive_definite:
      return "not_positive_definite";
    case ErrorCode::io_error:
      return "io_error";
    case ErrorCode::numerical_failure:
      return "numerical_failure";
    case ErrorCode::mpi_error:
      return "mpi_error";
    case ErrorCode::out_of_memory:
      return "out_of_memory";
    case ErrorCode::unsupported:
      return "unsupported";
    case ErrorCode::not_converged:
      return "not_converged";
    case ErrorCode::accuracy:
      return "accuracy";
    case ErrorCode::device_error:
      return "device_error";
  }
  return "unknown";
}

void raise_if_any(MPI_Comm comm, bool failed, ErrorCode code, const std::string& message) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int mine = failed ? rank : INT_MAX, first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == INT_MAX) return;
  // The lowest failing rank tells everyone what went wrong.
  int header[2] = {static_cast<int>(code), static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  std::string text = rank == first ? message : std::string(header[1], ' ');
  MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm);
  throw Error(static_cast<ErrorCode>(header[0]), text);
}

}  // namespace tseig
