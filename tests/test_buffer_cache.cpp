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
  void* r = cache_allocate(MiB);  // the kept block is over twice the size: a new one
  EXPECT_NE(r, p);
  cache_free(r);
  EXPECT_EQ(cached_memory_bytes(), 5 * MiB);
  release_cached_memory();
  EXPECT_EQ(cached_memory_bytes(), 0u);
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
