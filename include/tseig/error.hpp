#pragma once
// tseig::Error: the one exception type of the library. Errors detected by a
// collective call are raised on every rank of the communicator (see raise_if_any).
#include <mpi.h>

#include <stdexcept>
#include <string>
#include "tseig/export.hpp"

namespace tseig {

enum class ErrorCode {
  invalid_argument = 1,   ///< a parameter is out of range or inconsistent
  invalid_descriptor,     ///< a ScaLAPACK descriptor field is wrong
  grid_mismatch,          ///< objects live on different process grids
  not_hermitian,          ///< input matrix is not symmetric/Hermitian
  not_finite,             ///< input contains NaN or Inf
  not_positive_definite,  ///< B is not positive definite
  io_error,               ///< a file cannot be read or written or is malformed
  numerical_failure,      ///< an internal LAPACK/ScaLAPACK call reported failure
  mpi_error,              ///< an MPI call failed
  out_of_memory,          ///< an allocation failed
  unsupported,            ///< a valid request this build cannot serve
  not_converged,          ///< an iterative solver stopped at its limits; the message lists the
                          ///< residuals reached
  accuracy,               ///< self-validation (EigensolverOptions::validate) found the result
                          ///< outside its tolerance; the message gives the figures
  device_error,           ///< a CUDA call or kernel failed; the message has CUDA's reason
};

/// Short name of an error code ("invalid_descriptor", ...).
TSEIG_API const char* to_string(ErrorCode code);

class TSEIG_API Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

/// Collective: if `failed` is true on any rank of `comm`, every rank throws the
/// Error of the lowest failing rank (code and message are broadcast from it).
TSEIG_API void raise_if_any(MPI_Comm comm, bool failed,
                            ErrorCode code = ErrorCode::invalid_argument,
                            const std::string& message = {});

/// Collective: runs `f` and turns an exception on any rank into the same Error on
/// every rank of `comm`, so no rank is left waiting in a later collective.
template <class F>
void collectively(MPI_Comm comm, F&& f) {
  bool failed = false;
  ErrorCode code = ErrorCode::invalid_argument;
  std::string message;
  try {
    f();
  } catch (const Error& e) {
    failed = true;
    code = e.code();
    message = e.what();
  } catch (const std::bad_alloc&) {
    failed = true;
    code = ErrorCode::out_of_memory;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    message = "out of memory: a work array could not be allocated on rank " + std::to_string(rank);
  } catch (const std::exception& e) {
    failed = true;
    message = e.what();
  }
  raise_if_any(comm, failed, code, message);
}

}  // namespace tseig
