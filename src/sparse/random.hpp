#pragma once
// Counter-based random numbers: a value depends only on its key (seed, global index, ...),
// never on how the rows are spread over ranks, so results are the same for any rank count.
#include <cstdint>

namespace tseig::sparse {

/// splitmix64 finalizer: a bijective 64-bit mix with good avalanche.
inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Hash of (seed, a, b).
inline std::uint64_t random_bits(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) {
  return mix64(mix64(mix64(seed) ^ a) ^ b);
}

/// Uniform in [0, 1) from 53 random bits.
inline double random_unit(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

}  // namespace tseig::sparse
