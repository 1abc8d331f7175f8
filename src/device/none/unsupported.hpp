#pragma once
// The one error every device hook raises: the request is valid, this build or machine
// cannot serve it, and gpu::status() says why.
#include <string>

#include "tseig/device.hpp"
#include "tseig/error.hpp"

namespace tseig::device {

[[noreturn]] inline void unsupported(const char* what) {
  throw Error(ErrorCode::unsupported,
              std::string(what) + " needs the CUDA backend (" + gpu::status() + ")");
}

}  // namespace tseig::device
