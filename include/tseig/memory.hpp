#pragma once
// tseig keeps the large work arrays of its divide & conquer after a solve and hands them
// out again on the next one: first touch of fresh memory makes the kernel zero every page
// (about 1 GB/s on virtual machines, 20× slower than reusing memory), which a code that
// solves thousands of times would otherwise pay on every call. Kept blocks do not raise
// the peak: an allocation they cannot serve first returns at least as many kept bytes to
// the system. Environment variable
// TSEIG_CACHE_MB caps the memory kept (default: a quarter of the physical memory;
// 0 keeps nothing).

#include <cstddef>
#include "tseig/export.hpp"

namespace tseig {

/// Bytes currently kept for reuse on this process.
TSEIG_API std::size_t cached_memory_bytes() noexcept;

/// Returns all kept memory to the system (for example after the last solve).
TSEIG_API void release_cached_memory() noexcept;

/// Caps the memory kept from now on (0: keep nothing); returns what exceeds it at once.
TSEIG_API void set_cached_memory_limit(std::size_t bytes) noexcept;

}  // namespace tseig
