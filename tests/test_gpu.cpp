// tseig::gpu: the run-time answer to "is a GPU usable?" must agree with how the
// library was built and with what the devices report. Checks that need a device
// skip with the status line as the reason; TSEIG_TEST_REQUIRE_GPU=1 (a GPU runner)
// turns that skip into a failure so a lost GPU cannot pass silently.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/blas/cuda.hpp"
#include "tseig/device.hpp"
#include "tseig/error.hpp"
#include "tseig/version.hpp"

namespace {

bool gpu_required() {
  const char* v = std::getenv("TSEIG_TEST_REQUIRE_GPU");
  return v != nullptr && std::string(v) == "1";
}

}  // namespace

TEST(Gpu, BuildFlagMatchesHeader) {
  EXPECT_EQ(tseig::gpu::built_with_cuda(), TSEIG_WITH_CUDA == 1);
}

TEST(Gpu, StatusMatchesBuildAndDevices) {
  const std::string s = tseig::gpu::status();
  const int count = tseig::gpu::device_count();
  if (!tseig::gpu::built_with_cuda()) {
    EXPECT_EQ(s, "built without CUDA");
    EXPECT_EQ(count, 0);
  } else if (count == 0) {
    EXPECT_EQ(s.rfind("built with CUDA ", 0), 0u) << s;
    EXPECT_NE(s.find(" but no usable GPU: "), std::string::npos) << s;
  } else {
    EXPECT_EQ(s.rfind("built with CUDA ", 0), 0u) << s;
    EXPECT_EQ(s.find("no usable GPU"), std::string::npos) << s;
    for (const auto& d : tseig::gpu::devices()) EXPECT_NE(s.find(d.name), std::string::npos) << s;
  }
}

TEST(Gpu, DeviceListMatchesCount) {
  const auto list = tseig::gpu::devices();
  ASSERT_EQ(static_cast<int>(list.size()), tseig::gpu::device_count());
  for (int i = 0; i < static_cast<int>(list.size()); ++i) EXPECT_EQ(list[i].id, i);
}

TEST(Gpu, DevicePropertiesArePlausible) {
  if (tseig::gpu::device_count() == 0) {
    if (gpu_required()) FAIL() << "no CUDA device: " << tseig::gpu::status();
    GTEST_SKIP() << "no CUDA device: " << tseig::gpu::status();
  }
  for (const auto& d : tseig::gpu::devices()) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.memory_bytes, 0u) << d.name;
    EXPECT_GE(d.major, 3) << d.name;
    EXPECT_GE(d.minor, 0) << d.name;
    EXPECT_GT(d.multiprocessors, 0) << d.name;
  }
}

// A context that was never opened (as in a build without CUDA, where every entry point is
// a hook): the call answers Error(unsupported) naming itself and gpu::status()'s reason,
// never a crash.
TEST(Gpu, DeviceHooksRaiseUnsupportedWithTheReason) {
  tseig::cuda::Context ctx;
  double a = 1, b = 1, c = 0;
  try {
    tseig::cuda::blas::gemm(ctx, 'N', 'N', 1, 1, 1, 1.0, &a, 1, &b, 1, 0.0, &c, 1);
    FAIL() << "cuda::blas::gemm returned";
  } catch (const tseig::Error& e) {
    EXPECT_EQ(e.code(), tseig::ErrorCode::unsupported);
    const std::string what = e.what();
    EXPECT_NE(what.find("cuda::blas::gemm"), std::string::npos) << what;
    EXPECT_NE(what.find(tseig::gpu::status()), std::string::npos) << what;
  }
  EXPECT_EQ(c, 0.0);
}
