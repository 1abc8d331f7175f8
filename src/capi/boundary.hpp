#pragma once
// The C/C++ boundary: every C entry point runs its body through guarded(), which turns
// any exception into an error code and a message, so nothing escapes into C or Fortran.
#include <new>
#include <stdexcept>
#include <string>

#include "tseig/error.hpp"
#include "tseig/grid.hpp"
#include "tseig/tseig.h"

namespace tseig::capi {

/// An error with a C-level code (TSEIG_ERROR_UNKNOWN_PARAMETER, ...), thrown locally.
class CError : public std::runtime_error {
 public:
  CError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// Collective over comm: if `failed` on any rank, every rank throws the CError (code and
/// message) of the lowest failing rank. C-level codes travel through tseig::Error's int.
inline void raise_c_if_any(MPI_Comm comm, bool failed, int code, const std::string& message) {
  try {
    raise_if_any(comm, failed, static_cast<ErrorCode>(code), message);
  } catch (const Error& e) {
    throw CError(static_cast<int>(e.code()), e.what());
  }
}

/// Collective over comm: a NULL array is legal only where this rank needs none of it
/// (`needed` = 0 elements). Where some rank passes NULL for needed > 0, every rank throws
/// CError(TSEIG_ERROR_INVALID_ARGUMENT) with the message of the lowest such rank:
/// "<name> is NULL on rank <r><detail>".
inline void require_array(MPI_Comm comm, const void* data, long long needed,
                          const std::string& name, const std::string& detail) {
  const bool missing = data == nullptr && needed > 0;
  std::string message;
  if (missing) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    message = name + " is NULL on rank " + std::to_string(rank) + detail;
  }
  raise_c_if_any(comm, missing, TSEIG_ERROR_INVALID_ARGUMENT, message);
}

/// Message of the last failed drop-in call (tseig_p?syevd, ...) of this thread.
std::string& dropin_message();

struct ArgCheck;  // dropin.hpp
/// Drop-ins (dropin.cpp): argument `pos`, the local array of the leading n x n part of a
/// matrix with descriptor d, may be NULL only where this process holds none of it. Checked
/// only while no other argument is wrong (check.code = 0: d was found valid).
void check_local_array(ArgCheck& check, const Grid& g, const void* data, int pos, const char* name,
                       const int* d, int n);
/// Drop-ins: argument `pos`, the N eigenvalues W (or another output of n entries), may be
/// NULL only for n = 0; checked like check_local_array.
void check_output_array(ArgCheck& check, const void* data, int pos, const char* name, int n);

/// Runs f; returns TSEIG_OK or the code of what it threw, with the text in `message`.
template <class F>
int guarded(std::string& message, F&& f) noexcept {
  try {
    message.clear();
    f();
    return TSEIG_OK;
  } catch (const CError& e) {
    message = e.what();
    return e.code();
  } catch (const Error& e) {
    message = e.what();
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    message = "out of memory";
    return TSEIG_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    message = std::string("internal error: ") + e.what();
    return TSEIG_ERROR_INTERNAL;
  } catch (...) {
    message = "internal error: unknown exception";
    return TSEIG_ERROR_INTERNAL;
  }
}

}  // namespace tseig::capi
