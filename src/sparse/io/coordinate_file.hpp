#pragma once
// Parsing of Matrix Market coordinate files, one byte range per rank: the header (read
// by every rank, it is a few lines) and the entry lines that start inside the range.
#include <cstdint>
#include <string>
#include <vector>

#include "core/matrix_market_banner.hpp"
#include "sparse/dist/entry_exchange.hpp"

namespace tseig::sparse {

struct CoordinateHeader {
  using Field = matrix_market::Banner::Field;
  using Symmetry = matrix_market::Header::Symmetry;  // never skew_symmetric (rejected)
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  std::int64_t rows = 0, cols = 0, entries = 0;
  std::int64_t data_offset = 0;  // first byte after the size line
  std::int64_t file_size = 0;
};

/// The header of `path`; throws Error(io_error) when it is missing or malformed.
CoordinateHeader read_coordinate_header(const std::string& path);

/// The entries whose lines start in bytes [first, last) of the data section, as listed
/// (no symmetric expansion); *lines counts the entry lines. Throws Error (io_error,
/// not_finite) on the first bad line.
template <class T>
std::vector<Entry<T>> read_coordinate_entries(const std::string& path, const CoordinateHeader& h,
                                              std::int64_t first, std::int64_t last,
                                              std::int64_t* lines);

}  // namespace tseig::sparse
