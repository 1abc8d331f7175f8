#pragma once
// Strict number parsing for the command line: the whole token must be the number, so
// a typo is an error instead of a silently different problem.
#include <algorithm>
#include <charconv>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "options.hpp"

namespace tseig::cli {

template <class Int>
Int parse_int(std::string_view flag, std::string_view text, Int min_value,
              Int max_value = std::numeric_limits<Int>::max()) {
  Int value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not a valid integer");
  if (value < min_value)
    throw UsageError(std::string(flag) + ": " + std::string(text) + " is below the minimum " +
                     std::to_string(min_value));
  if (value > max_value)
    throw UsageError(std::string(flag) + ": " + std::string(text) + " is above the maximum " +
                     std::to_string(max_value));
  return value;
}

inline double parse_double(std::string_view flag, std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not a valid number");
  return value;
}

/// "a,b,c" → {parse(flag, "a"), parse(flag, "b"), ...}; an empty entry is parsed too
/// (and refused by parse).
template <class F>
auto parse_list(std::string_view flag, std::string_view text, F parse) {
  std::vector<decltype(parse(flag, text))> out;
  for (std::size_t p = 0;;) {
    const std::size_t q = std::min(text.find(',', p), text.size());
    out.push_back(parse(flag, text.substr(p, q - p)));
    if (q == text.size()) return out;
    p = q + 1;
  }
}

/// "a:b" → ("a", "b"); the parts are parsed by the caller.
inline std::pair<std::string_view, std::string_view> split_pair(std::string_view flag,
                                                                std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not of the form a:b");
  return {text.substr(0, colon), text.substr(colon + 1)};
}

}  // namespace tseig::cli
