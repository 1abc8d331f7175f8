#pragma once
// The first line of a Matrix Market file, parsed once for the dense reader
// (core/matrix_market.cpp) and the sparse coordinate reader (sparse/io).
#include <string>
#include <string_view>

#include "tseig/matrix_market.hpp"

namespace tseig::matrix_market {

/// What the banner "%%MatrixMarket matrix <format> <field> <symmetry>" declares.
struct Banner {
  bool coordinate = false;  ///< coordinate (sparse listing) vs array (dense)
  enum class Field { real, integer, complex, pattern } field = Field::real;
  Header::Symmetry symmetry = Header::Symmetry::general;
};

/// Parses `line` (case-insensitive) into `banner`; returns what is wrong with it, or an
/// empty string when it is a valid banner.
std::string parse_banner(std::string_view line, Banner& banner);

}  // namespace tseig::matrix_market
