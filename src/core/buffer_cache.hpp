#pragma once
// Allocator for large work arrays backed by the process-wide cache of tseig/memory.hpp:
// blocks of 1 MiB or more are kept when freed and reused (best fit, at most twice the
// size asked) by later allocations; smaller ones go straight to malloc.
#include <cstddef>
#include <vector>

#include "tseig/memory.hpp"

namespace tseig {

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
