#pragma once
// Device work between collectives: a failure is kept and later device work skipped, and
// raise() throws it on every rank once the collectives are done, so a rank whose GPU
// failed never leaves its peers waiting in a transfer.
#include <mpi.h>

#include <string>
#include <utility>

#include "tseig/error.hpp"

namespace tseig::device {

class DeferredFailure {
 public:
  template <class F>
  void run(F&& f) {
    if (!message_.empty()) return;
    try {
      std::forward<F>(f)();
    } catch (const Error& e) {
      message_ = e.what(), code_ = e.code();
    }
  }
  bool failed() const { return !message_.empty(); }
  /// Collective over comm: Error(code) on every rank if any rank failed.
  void raise(MPI_Comm comm, const std::string& what) const {
    raise_if_any(comm, failed(), code_, what + ": " + message_);
  }

 private:
  std::string message_;
  ErrorCode code_ = ErrorCode::device_error;
};

}  // namespace tseig::device
