// capabilities_json(): well-formed (balanced outside strings), and what it states agrees
// with the build and with the device query.
#include <gtest/gtest.h>

#include <string>

#include "tseig/capabilities.hpp"
#include "tseig/device.hpp"
#include "tseig/version.hpp"

namespace {

/// Brackets and braces balance outside string literals, and nothing follows the object.
bool balanced(const std::string& s) {
  std::string stack;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      stack += c;
    } else if (c == '}' || c == ']') {
      if (stack.empty() || stack.back() != (c == '}' ? '{' : '[')) return false;
      stack.pop_back();
      if (stack.empty() && i + 1 != s.size()) return false;
    }
  }
  return stack.empty() && !in_string;
}

TEST(Capabilities, WellFormedAndTrue) {
  const std::string c = tseig::capabilities_json();
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front(), '{');
  EXPECT_TRUE(balanced(c)) << c;
  EXPECT_NE(c.find("\"version\":\"" TSEIG_VERSION_STRING "\""), std::string::npos) << c;
  EXPECT_NE(c.find("\"two_stage\""), std::string::npos);
  // The stage-4 kernel's constraints: four real reflectors per pass; complex two with
  // 32-byte vectors (AVX2), four with 64-byte ones (AVX-512).
  const bool wide =
      c.find("\"backtransform_band\":{\"backend\":\"host\",\"simd_bytes\":64") != std::string::npos;
  EXPECT_TRUE(wide || c.find("\"backtransform_band\":{\"backend\":\"host\",\"simd_bytes\":32") !=
                          std::string::npos)
      << c;
  EXPECT_NE(c.find(wide ? "\"reflectors_per_pass\":{\"real\":4,\"complex\":4}"
                        : "\"reflectors_per_pass\":{\"real\":4,\"complex\":2}"),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("\"blas\":\""), std::string::npos) << c;
  EXPECT_NE(c.find(tseig::gpu::built_with_cuda() ? "\"built\":true" : "\"built\":false"),
            std::string::npos)
      << c;
  // One "multiprocessors" entry per visible device.
  int listed = 0;
  for (std::size_t p = c.find("\"multiprocessors\""); p != std::string::npos;
       p = c.find("\"multiprocessors\"", p + 1))
    ++listed;
  EXPECT_EQ(listed, tseig::gpu::device_count());
}

TEST(Capabilities, BalanceCheckCanFail) {
  EXPECT_FALSE(balanced("{\"a\":[1,2}"));
  EXPECT_FALSE(balanced("{\"a\":\"}\""));
  EXPECT_TRUE(balanced("{\"a\":\"}\"}"));
}

}  // namespace
