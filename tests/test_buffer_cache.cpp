// The work-array cache (tseig/memory.hpp): large blocks are kept and reused, small ones
// are not, the limit holds, release returns everything.
#include <gtest/gtest.h>

#include "core/buffer_cache.hpp"

namespace tseig::test {
namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;

class BufferCache : public ::testing::Test {
 protected:
  void SetUp() override {
    release_cached_memory();
    set_cached_memory_limit(64 * MiB);
  }
  void TearDown() override { set_cached_memory_limit(std::size_t(1) << 40); }
};

TEST_F(BufferCache, LargeBlocksAreKeptAndReused) {
  void* p = cache_allocate(4 * MiB);
  cache_free(p);
  EXPECT_EQ(cached_memory_bytes(), 4 * MiB);
  void* q = cache_allocate(3 * MiB);  // fits, and not more than twice the size
  EXPECT_EQ(q, p);
  EXPECT_EQ(cached_memory_bytes(), 0u);
  cache_free(q);
  release_cached_memory();
  EXPECT_EQ(cached_memory_bytes(), 0u);
}

TEST_F(BufferCache, AMissReturnsKeptBlocksFirst) {
  void* a = cache_allocate(2 * MiB);
  void* b = cache_allocate(3 * MiB);
  void* c = cache_allocate(8 * MiB);
  cache_free(a);
  cache_free(b);
  cache_free(c);
  EXPECT_EQ(cached_memory_bytes(), 13 * MiB);
  // 20 MiB: no kept block fits, so kept blocks (smallest first) of at least as many bytes
  // go back to the system before it is allocated: the footprint does not grow.
  void* d = cache_allocate(20 * MiB);
  EXPECT_EQ(cached_memory_bytes(), 0u);
  cache_free(d);
  void* e = cache_allocate(MiB);  // 20 MiB kept, over twice the size: it is returned
  EXPECT_EQ(cached_memory_bytes(), 0u);
  cache_free(e);
  void* f = cache_allocate(4 * MiB);  // 1 MiB kept, too small: returned, then allocated
  EXPECT_EQ(cached_memory_bytes(), 0u);
  void* g = cache_allocate(3 * MiB);  // nothing kept: a plain allocation
  EXPECT_NE(g, f);
  cache_free(f);
  cache_free(g);
  EXPECT_EQ(cached_memory_bytes(), 7 * MiB);
}

TEST_F(BufferCache, SmallBlocksAreNotKept) {
  cached_vector<double> v(1000, 1.0);
  v = cached_vector<double>();
  EXPECT_EQ(cached_memory_bytes(), 0u);
}

TEST_F(BufferCache, LimitHolds) {
  void* a = cache_allocate(40 * MiB);
  void* b = cache_allocate(40 * MiB);
  cache_free(a);
  cache_free(b);  // would exceed 64 MiB: freed
  EXPECT_EQ(cached_memory_bytes(), 40 * MiB);
  set_cached_memory_limit(10 * MiB);
  EXPECT_EQ(cached_memory_bytes(), 0u);
  set_cached_memory_limit(0);
  cache_free(cache_allocate(2 * MiB));
  EXPECT_EQ(cached_memory_bytes(), 0u);
}

TEST_F(BufferCache, VectorsStartZeroedOnReusedMemory) {
  { cached_vector<double> v(MiB, 7.0); }
  EXPECT_EQ(cached_memory_bytes(), 8 * MiB);
  cached_vector<double> w(MiB);
  EXPECT_EQ(cached_memory_bytes(), 0u);
  for (double x : w) ASSERT_EQ(x, 0.0);
}

}  // namespace
}  // namespace tseig::test
