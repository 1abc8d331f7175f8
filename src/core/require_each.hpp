#pragma once
// Collective argument checks that name the argument at fault: a list of requirements,
// and the message of the first one that fails, instead of one sentence listing them all.
#include <mpi.h>

#include <sstream>
#include <string>
#include <vector>

#include "tseig/error.hpp"

namespace tseig {

/// One condition on the arguments, with what it asks for ("tol >= 0, not -1").
struct Requirement {
  bool ok;
  std::string need;
};

/// A number as a message shows it: 6 significant digits, exponent where needed (1e-12).
inline std::string shown(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

/// Collective over comm: where a requirement fails on some rank, every rank throws
/// Error(code, "<call>: need <need>") for the first failing requirement of the lowest
/// such rank; with `name_rank`, " on rank r" follows (for arguments that differ by rank).
inline void require_each(MPI_Comm comm, const std::string& call,
                         const std::vector<Requirement>& requirements, bool name_rank = false,
                         ErrorCode code = ErrorCode::invalid_argument) {
  std::string message;
  for (const Requirement& r : requirements)
    if (!r.ok) {
      message = call + ": need " + r.need;
      if (name_rank) {
        int rank = 0;
        MPI_Comm_rank(comm, &rank);
        message += " on rank " + std::to_string(rank);
      }
      break;
    }
  raise_if_any(comm, !message.empty(), code, message);
}

}  // namespace tseig
