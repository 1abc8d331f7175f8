// Coordinate-file parsing. A rank owns the lines that start in its byte range: it seeks
// to the range, skips the line in progress (it belongs to the rank before), and reads
// until a line would start at or beyond the range's end.
#include "sparse/io/coordinate_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/instantiate.hpp"
#include "tseig/error.hpp"
#include "tseig/types.hpp"

namespace tseig::sparse {

namespace {

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> t;
  for (std::string s; in >> s;) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    t.push_back(s);
  }
  return t;
}

[[noreturn]] void fail(ErrorCode code, const std::string& path, const std::string& what) {
  throw Error(code, "Matrix Market " + path + ": " + what);
}

template <class N>
bool parse(const std::string& s, N& value) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size();
}

/// "inf"/"nan" parse as numbers; everything else that from_chars rejects is malformed.
/// A value beyond double's range is ±inf (refused later as not finite), one below it ±0:
/// from_chars leaves `value` as it was there (an entry 1e400 was read as 1).
bool parse_real(const std::string& s, double& value) {
  const char* b = s.data() + (s[0] == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(b, s.data() + s.size(), value);
  if (end != s.data() + s.size()) return false;
  if (ec == std::errc::result_out_of_range)
    value = std::strtod(std::string(b, end).c_str(), nullptr);
  return ec == std::errc() || ec == std::errc::result_out_of_range;
}

}  // namespace

CoordinateHeader read_coordinate_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorCode::io_error, path, "cannot open the file");
  CoordinateHeader h;
  std::string line;
  std::getline(in, line);
  matrix_market::Banner banner;
  if (std::string wrong = matrix_market::parse_banner(line, banner); !wrong.empty())
    fail(ErrorCode::io_error, path, wrong);
  if (!banner.coordinate)
    fail(ErrorCode::io_error, path, "the sparse reader needs the coordinate format, not array");
  if (banner.symmetry == CoordinateHeader::Symmetry::skew_symmetric)
    fail(ErrorCode::io_error, path, "unsupported symmetry 'skew-symmetric'");
  h.field = banner.field;
  h.symmetry = banner.symmetry;
  while (std::getline(in, line)) {
    const auto t = tokens_of(line);
    if (t.empty() || t[0][0] == '%') continue;
    if (t.size() != 3 || !parse(t[0], h.rows) || !parse(t[1], h.cols) || !parse(t[2], h.entries) ||
        h.rows < 0 || h.cols < 0 || h.entries < 0)
      fail(ErrorCode::io_error, path, "size line must be 'rows cols entries'");
    const std::int64_t after_size_line = static_cast<std::int64_t>(in.tellg());
    in.clear();
    in.seekg(0, std::ios::end);
    h.file_size = static_cast<std::int64_t>(in.tellg());
    // tellg fails when the size line ends the file without a newline: no entries follow.
    h.data_offset = after_size_line < 0 ? h.file_size : std::min(after_size_line, h.file_size);
    return h;
  }
  fail(ErrorCode::io_error, path, "no size line");
}

template <class T>
std::vector<Entry<T>> read_coordinate_entries(const std::string& path, const CoordinateHeader& h,
                                              std::int64_t first, std::int64_t last,
                                              std::int64_t* lines) {
  using F = CoordinateHeader::Field;
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorCode::io_error, path, "cannot open the file");
  std::vector<Entry<T>> entries;
  *lines = 0;
  if (first >= last) return entries;
  std::string line;
  in.seekg(first - 1);
  if (first > h.data_offset && in.get() != '\n') std::getline(in, line);  // not my line
  if (first == h.data_offset) in.seekg(first);
  const std::size_t want = h.field == F::pattern ? 2 : h.field == F::complex ? 4 : 3;
  for (std::int64_t at = in.tellg(); at >= 0 && at < last && std::getline(in, line);
       at = in.good() ? static_cast<std::int64_t>(in.tellg()) : -1) {
    const auto t = tokens_of(line);
    if (t.empty() || t[0][0] == '%') continue;
    const std::string where = " (entry line at byte " + std::to_string(at) + ")";
    Entry<T> e{};
    double re = 1, im = 0;
    if (t.size() != want || !parse(t[0], e.row) || !parse(t[1], e.col) ||
        (want >= 3 && !parse_real(t[2], re)) || (want == 4 && !parse_real(t[3], im)))
      fail(ErrorCode::io_error, path, "malformed entry line '" + line + "'" + where);
    if (e.row < 1 || e.row > h.rows || e.col < 1 || e.col > h.cols)
      fail(ErrorCode::io_error, path, "index (" + t[0] + ", " + t[1] + ") out of range" + where);
    if (!std::isfinite(re) || !std::isfinite(im))
      fail(ErrorCode::not_finite, path, "NaN or Inf value" + where);
    --e.row;
    --e.col;
    if constexpr (is_complex_v<T>)
      e.value = T(static_cast<real_t<T>>(re), static_cast<real_t<T>>(im));
    else
      e.value = static_cast<T>(re);
    entries.push_back(e);
    ++*lines;
  }
  return entries;
}

#define TSEIG_INSTANTIATE(T)                              \
  template std::vector<Entry<T>> read_coordinate_entries( \
      const std::string&, const CoordinateHeader&, std::int64_t, std::int64_t, std::int64_t*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
