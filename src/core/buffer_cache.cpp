// The process-wide cache behind buffer_cache.hpp and tseig/memory.hpp.
#include "core/buffer_cache.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

#include "core/sanitizer.hpp"

namespace tseig {

namespace {

constexpr std::size_t min_cached = std::size_t(1) << 20;

// Large blocks are mapped and unmapped directly, not through malloc: once glibc has
// freed a mapped block it raises its mapping threshold to that size and serves later
// blocks up to it from its heap, which it keeps after free. A block "returned to the
// system" would then stay resident and raise the next stage's peak (the divide &
// conquer's lower merges left ≈ 1× the local eigenvector block behind at the top one).
// Under AddressSanitizer they stay with malloc, which it checks for overruns.
#if defined(TSEIG_ASAN)
void* map_block(std::size_t bytes) {
  return std::malloc(bytes);
}
void unmap_block(void* p, std::size_t) noexcept {
  std::free(p);
}
#else
// Blocks of 2 MiB or more are mapped 2 MiB aligned, in whole 2 MiB units, and asked to
// be backed by huge pages: a first touch then faults once per 2 MiB instead of once per
// 4 KiB. On virtual machines a fault costs tens of microseconds: stage 4's 64 MiB of
// stripes (N = 4000, np = 2) spent a third of that stage's time in faults.
constexpr std::size_t huge_page = std::size_t(2) << 20;
std::size_t mapped_bytes(std::size_t bytes) {
  return bytes < huge_page ? bytes : (bytes + huge_page - 1) / huge_page * huge_page;
}
void* map_block(std::size_t bytes) {
  const std::size_t size = mapped_bytes(bytes);
  const std::size_t slack = bytes < huge_page ? 0 : huge_page;
  void* p = mmap(nullptr, size + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  if (slack == 0) return p;
  // Keep the 2 MiB-aligned part; give back what lies before and after it.
  char* const start = static_cast<char*>(p);
  const std::size_t head =
      (huge_page - reinterpret_cast<std::uintptr_t>(start) % huge_page) % huge_page;
  if (head > 0) munmap(start, head);
  munmap(start + head + size, slack - head);   // head < slack: never empty
#ifdef MADV_HUGEPAGE
  madvise(start + head, size, MADV_HUGEPAGE);  // advice only: errors ignored
#endif
  return start + head;
}
void unmap_block(void* p, std::size_t bytes) noexcept {
  munmap(p, mapped_bytes(bytes));
}
#endif

std::size_t default_limit() {
  if (const char* mb = std::getenv("TSEIG_CACHE_MB")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(mb, &end, 10);
    if (end != mb && *end == '\0') return static_cast<std::size_t>(v) << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * page / 4 : 0;
}

struct Cache {
  std::mutex lock;
  std::unordered_map<void*, std::size_t> size_of;  // every large block, live or kept
  std::multimap<std::size_t, void*> kept;          // kept blocks by size
  std::size_t kept_bytes = 0, limit = default_limit();
};

// Never destroyed: vectors with static storage may free into it during exit.
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

}  // namespace

void* cache_allocate(std::size_t bytes) {
  if (bytes < min_cached) {
    void* p = std::malloc(bytes ? bytes : 1);
    if (!p) throw std::bad_alloc();
    return p;
  }
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> guard(c.lock);
    auto it = c.kept.lower_bound(bytes);
    if (it != c.kept.end() && it->first <= 2 * bytes) {
      void* p = it->second;
      c.kept_bytes -= it->first;
      c.kept.erase(it);
      return p;
    }
  }
  {
    // A miss returns at least as many kept bytes to the system first, smallest blocks
    // first: kept blocks then never raise the peak footprint, only lower first-touch cost.
    std::lock_guard<std::mutex> guard(c.lock);
    for (std::size_t freed = 0; freed < bytes && !c.kept.empty();) {
      auto first = c.kept.begin();
      freed += first->first;
      c.kept_bytes -= first->first;
      c.size_of.erase(first->second);
      unmap_block(first->second, first->first);
      c.kept.erase(first);
    }
  }
  void* p = map_block(bytes);
  if (!p) {
    release_cached_memory();  // kept blocks of the wrong size may be what is missing
    p = map_block(bytes);
    if (!p) throw std::bad_alloc();
  }
  std::lock_guard<std::mutex> guard(c.lock);
  c.size_of[p] = bytes;
  return p;
}

void cache_free(void* p) noexcept {
  if (!p) return;
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> guard(c.lock);
    auto it = c.size_of.find(p);
    if (it != c.size_of.end()) {
      const std::size_t bytes = it->second;
      if (c.kept_bytes + bytes <= c.limit) {
        c.kept.emplace(bytes, p);
        c.kept_bytes += bytes;
      } else {
        c.size_of.erase(it);
        unmap_block(p, bytes);
      }
      return;
    }
  }
  std::free(p);
}

std::size_t cached_memory_bytes() noexcept {
  Cache& c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  return c.kept_bytes;
}

namespace {
// Frees kept blocks, largest first, until at most `keep` bytes remain (lock held).
void trim(Cache& c, std::size_t keep) {
  while (c.kept_bytes > keep) {
    auto last = std::prev(c.kept.end());
    c.kept_bytes -= last->first;
    c.size_of.erase(last->second);
    unmap_block(last->second, last->first);
    c.kept.erase(last);
  }
}
}  // namespace

void release_cached_memory() noexcept {
  Cache& c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  trim(c, 0);
}

void set_cached_memory_limit(std::size_t bytes) noexcept {
  Cache& c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  c.limit = bytes;
  trim(c, bytes);
}

}  // namespace tseig
