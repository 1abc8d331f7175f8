#include "core/matrix_market_banner.hpp"

#include <cctype>
#include <vector>

namespace tseig::matrix_market {

namespace {

std::vector<std::string> lower_tokens(std::string_view line) {
  std::vector<std::string> tokens;
  std::string t;
  for (char c : line) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!t.empty()) tokens.push_back(std::move(t));
      t.clear();
    } else {
      t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  if (!t.empty()) tokens.push_back(std::move(t));
  return tokens;
}

}  // namespace

std::string parse_banner(std::string_view line, Banner& banner) {
  const auto t = lower_tokens(line);
  if (t.size() != 5 || t[0] != "%%matrixmarket" || t[1] != "matrix")
    return "expected the banner '%%MatrixMarket matrix <array|coordinate> <field> <symmetry>'";
  if (t[2] == "coordinate")
    banner.coordinate = true;
  else if (t[2] == "array")
    banner.coordinate = false;
  else
    return "unknown format '" + t[2] + "' (array or coordinate)";
  using F = Banner::Field;
  if (t[3] == "real")
    banner.field = F::real;
  else if (t[3] == "integer")
    banner.field = F::integer;
  else if (t[3] == "complex")
    banner.field = F::complex;
  else if (t[3] == "pattern")
    banner.field = F::pattern;
  else
    return "unknown field '" + t[3] + "' (real, complex, integer or pattern)";
  using S = Header::Symmetry;
  if (t[4] == "general")
    banner.symmetry = S::general;
  else if (t[4] == "symmetric")
    banner.symmetry = S::symmetric;
  else if (t[4] == "hermitian")
    banner.symmetry = S::hermitian;
  else if (t[4] == "skew-symmetric")
    banner.symmetry = S::skew_symmetric;
  else
    return "unknown symmetry '" + t[4] + "' (general, symmetric, hermitian or skew-symmetric)";
  return {};
}

}  // namespace tseig::matrix_market
