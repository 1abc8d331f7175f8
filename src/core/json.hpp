#pragma once
// Minimal JSON value writers shared by tseig-solve and the benchmarks.
#include <cmath>
#include <cstdio>
#include <string>

namespace tseig::json {

/// A JSON string literal with quotes, backslashes and control characters escaped.
inline std::string string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

/// A JSON number; JSON has no NaN/Inf, so a non-finite value (a failed measurement) is null.
inline std::string number(double x, const char* format = "%.17g") {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

}  // namespace tseig::json
