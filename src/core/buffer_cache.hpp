#pragma once
// Allocator for large work arrays backed by the process-wide cache of tseig/memory.hpp:
// blocks of 1 MiB or more are kept when freed and reused (best fit, at most twice the
// size asked) by later allocations; smaller ones go straight to malloc.
#include <cstddef>
#include <type_traits>
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

/// Room for values of a trivially copyable T from the same cache, left uninitialised
/// (vector's resize would zero it first: see HaloExchange). The owner writes every entry
/// before reading it.
template <class T>
class CachedBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  CachedBuffer() = default;
  CachedBuffer(const CachedBuffer&) = delete;
  CachedBuffer& operator=(const CachedBuffer&) = delete;
  ~CachedBuffer() { release(); }
  /// Room for at least n values; what was there before is not kept.
  T* reserve(std::size_t n) {
    if (n > size_) {
      release();
      p_ = static_cast<T*>(cache_allocate(n * sizeof(T)));
      size_ = n;
    }
    return p_;
  }
  T* data() const { return p_; }

 private:
  void release() noexcept {
    if (p_) cache_free(p_);
    p_ = nullptr;
    size_ = 0;
  }
  T* p_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace tseig
