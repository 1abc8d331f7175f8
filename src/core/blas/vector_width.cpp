#include "core/blas/vector_width.hpp"

#include <cctype>
#include <string>

// OpenBLAS's own query; weak, so that any other BLAS links too (the address is then null).
extern "C" char* openblas_get_corename(void) __attribute__((weak));

namespace tseig::blas {

int vector_bytes() {
  if (openblas_get_corename == nullptr) return 64;
  const char* name = openblas_get_corename();
  if (name == nullptr) return 64;
  std::string core(name);
  for (char& c : core) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* wide : {"skylakex", "cooperlake", "sapphire"})
    if (core.find(wide) != std::string::npos) return 64;
  for (const char* avx :
       {"haswell", "zen", "sandybridge", "excavator", "steamroller", "piledriver", "bulldozer"})
    if (core.find(avx) != std::string::npos) return 32;
  return 64;
}

}  // namespace tseig::blas
