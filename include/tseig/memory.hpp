#pragma once
// tseig keeps its large work arrays (and freed DistMatrix storage) after a solve and hands
// them out again on the next one: first touch of fresh memory makes the kernel zero every page
// (about 1 GB/s on virtual machines, 20× slower than reusing memory), which a code that
// solves thousands of times would otherwise pay on every call. Environment variable
// TSEIG_CACHE_MB caps the memory kept (default: a quarter of the physical memory;
// 0 keeps nothing).

#include <cstddef>
#include <vector>

namespace tseig {

/// Bytes currently kept for reuse on this process.
std::size_t cached_memory_bytes() noexcept;

/// Returns all kept memory to the system (for example after the last solve).
void release_cached_memory() noexcept;

/// Caps the memory kept from now on (0: keep nothing); returns what exceeds it at once.
void set_cached_memory_limit(std::size_t bytes) noexcept;

/// The allocation behind the cache, used for DistMatrix storage and tseig's work arrays:
/// blocks of 1 MiB or more are kept when freed and reused (best fit, at most twice the
/// size asked); smaller ones go straight to malloc. An allocation that finds no block
/// first frees kept ones until live plus kept memory is within the most memory ever live
/// through the cache, so keeping blocks does not raise that peak.
void* cache_allocate(std::size_t bytes);
void cache_free(void* p) noexcept;

template <class T>
struct CachedAllocator {
  using value_type = T;
  CachedAllocator() = default;
  template <class U>
  CachedAllocator(const CachedAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(cache_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) noexcept { cache_free(p); }
  friend bool operator==(const CachedAllocator&, const CachedAllocator&) { return true; }
};

template <class T>
using cached_vector = std::vector<T, CachedAllocator<T>>;

}  // namespace tseig
