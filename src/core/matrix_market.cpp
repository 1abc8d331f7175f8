// Matrix Market I/O. Rank 0 of the grid does all file access: it parses the whole file
// into a full column-major array and DistMatrix::scatter distributes it (so rank 0
// needs memory for the full matrix); write() gathers to rank 0 the same way. Parse
// errors are agreed on collectively so that every rank throws the same io_error.
#include "tseig/matrix_market.hpp"

#include "core/instantiate.hpp"
#include "core/matrix_market_banner.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string_view>

#include "tseig/error.hpp"

namespace tseig::matrix_market {

namespace {

using Symmetry = Header::Symmetry;
using Tokens = std::vector<std::string_view>;

Tokens split(const std::string& line) {
  Tokens tokens;
  const char* blanks = " \t\r\n\v\f";
  for (std::size_t begin = line.find_first_not_of(blanks); begin != std::string::npos;) {
    std::size_t end = std::min(line.find_first_of(blanks, begin), line.size());
    tokens.emplace_back(line.data() + begin, end - begin);
    begin = line.find_first_not_of(blanks, end);
  }
  return tokens;
}

// Line-by-line reader that knows where it is, so every error names file and line.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw Error(ErrorCode::io_error, "cannot open '" + path + "' for reading");
  }

  // The first line as it is (the banner starts with '%', so next() would skip it).
  bool first(std::string& line) {
    if (!read_line()) return false;
    line = line_;
    return true;
  }

  // The next line that is neither blank nor a comment; false at end of file.
  bool next(Tokens& tokens) {
    while (read_line()) {
      tokens = split(line_);
      if (!tokens.empty() && tokens[0].front() != '%') return true;
    }
    return false;
  }

  // The file's length in bytes; -1 when it cannot be told (not a regular file).
  long long size() const {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(path_, ec);
    return ec ? -1 : static_cast<long long>(bytes);
  }

  [[noreturn]] void fail(const std::string& what) const {
    std::string where = path_ + (number_ > 0 ? ":" + std::to_string(number_) : std::string());
    throw Error(ErrorCode::io_error, "Matrix Market file " + where + ": " + what);
  }

 private:
  bool read_line() {
    if (std::getline(in_, line_)) {
      ++number_;
      return true;
    }
    if (in_.bad()) fail("read error");
    return false;
  }

  std::string path_;
  std::ifstream in_;
  std::string line_;
  long number_ = 0;
};

struct FileHeader {
  Header header;
  bool pattern = false;  // coordinate entries carry no value: they are ones
};

long long to_integer(std::string_view token, const LineReader& in) {
  long long value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    in.fail("'" + std::string(token) + "' is not an integer");
  return value;
}

// strtod/strtof rather than from_chars: they also take a leading '+', and NaN/Inf
// are accepted on purpose (rejecting them is the solver's job).
template <class R>
R to_real(std::string_view token, const LineReader& in) {
  std::string text(token);
  char* end = nullptr;
  R value;
  if constexpr (std::is_same_v<R, float>)
    value = std::strtof(text.c_str(), &end);
  else
    value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) in.fail("'" + text + "' is not a number");
  return value;
}

int to_size(std::string_view token, const char* what, const LineReader& in) {
  long long value = to_integer(token, in);
  if (value < 0 || value > INT_MAX)
    in.fail(std::string(what) + " " + std::string(token) + " is out of range [0, " +
            std::to_string(INT_MAX) + "]");
  return static_cast<int>(value);
}

FileHeader parse_header(LineReader& in) {
  FileHeader file;
  Header& h = file.header;
  std::string line;
  if (!in.first(line))
    in.fail(
        "the file is empty; expected the banner "
        "'%%MatrixMarket matrix <array|coordinate> <field> <symmetry>'");
  Banner banner;
  if (std::string wrong = parse_banner(line, banner); !wrong.empty()) in.fail(wrong);
  h.coordinate = banner.coordinate;
  h.complex = banner.field == Banner::Field::complex;
  file.pattern = banner.field == Banner::Field::pattern;
  h.symmetry = banner.symmetry;
  if (file.pattern && !h.coordinate) in.fail("the pattern field needs the coordinate format");

  Tokens t;
  if (!in.next(t)) in.fail("missing the size line");
  if (t.size() != (h.coordinate ? 3u : 2u))
    in.fail(h.coordinate ? "expected the size line 'rows columns entries'"
                         : "expected the size line 'rows columns'");
  h.rows = to_size(t[0], "row count", in);
  h.cols = to_size(t[1], "column count", in);
  if (h.coordinate) {
    h.entries = to_integer(t[2], in);
    if (h.entries < 0) in.fail("negative entry count " + std::string(t[2]));
  }
  // A DistMatrix stores at least one row of every column (lld >= 1), so 0×N would cost
  // memory for N elements that no file line pays for (found by fuzzing).
  if ((h.rows == 0) != (h.cols == 0))
    in.fail("a " + std::to_string(h.rows) + "x" + std::to_string(h.cols) +
            " matrix is empty; the only empty size read is 0x0");
  if (h.symmetry != Symmetry::general && h.rows != h.cols)
    in.fail("a symmetric, hermitian or skew-symmetric matrix must be square, not " +
            std::to_string(h.rows) + "x" + std::to_string(h.cols));
  return file;
}

// Reads the entries after the header into a full column-major rows×cols array,
// expanding symmetric, hermitian and skew-symmetric storage.
template <class T>
std::vector<T> read_entries(LineReader& in, const FileHeader& file) {
  using R = real_t<T>;
  const Header& h = file.header;
  const long rows = h.rows;
  const std::size_t nvalues = file.pattern ? 0 : (h.complex ? 2 : 1);
  const char* value_syntax = file.pattern ? "" : (h.complex ? " real imaginary" : " value");
  // Symmetric kinds list only the lower triangle (skew: strictly lower) of an array.
  const long skip = h.symmetry == Symmetry::skew_symmetric ? 1 : 0;
  const bool triangle = h.symmetry != Symmetry::general;
  const long expected = h.coordinate ? h.entries
                        : triangle   ? (rows - skip) * (rows - skip + 1) / 2
                                     : rows * h.cols;
  // Each entry line holds `tokens` tokens of at least one byte plus a separator. Checked
  // before allocating, so that a tiny file cannot demand a huge array (found by fuzzing).
  const long long tokens = static_cast<long long>(nvalues) + (h.coordinate ? 2 : 0);
  if (const long long bytes = in.size(); bytes >= 0 && expected > (bytes + 1) / (2 * tokens))
    in.fail("the header declares " + std::to_string(expected) + " entries, more than the " +
            std::to_string(bytes) + "-byte file can hold");
  std::vector<T> full(static_cast<std::size_t>(rows) * h.cols, T{});

  auto store = [&](long i, long j, T v) {
    full[i + j * rows] = v;
    if (i == j) return;
    T& mirror = full[j + i * rows];
    if (h.symmetry == Symmetry::symmetric) mirror = v;
    if (h.symmetry == Symmetry::hermitian) mirror = conj_if_complex(v);
    if (h.symmetry == Symmetry::skew_symmetric) mirror = -v;
  };
  auto value = [&](const Tokens& t, std::size_t first) -> T {
    if (nvalues == 0) return T(1);
    R re = to_real<R>(t[first], in);
    if constexpr (is_complex_v<T>)
      return nvalues == 2 ? T(re, to_real<R>(t[first + 1], in)) : T(re);
    else
      return re;
  };

  Tokens t;
  long count = 0;
  if (h.coordinate) {
    for (; count < expected; ++count) {
      if (!in.next(t))
        in.fail("expected " + std::to_string(expected) + " entries, found " +
                std::to_string(count));
      if (t.size() != 2 + nvalues)
        in.fail(std::string("expected 'row column") + value_syntax + "'");
      long long i = to_integer(t[0], in), j = to_integer(t[1], in);
      if (i < 1 || i > rows || j < 1 || j > h.cols)
        in.fail("index (" + std::string(t[0]) + ", " + std::string(t[1]) + ") is outside the " +
                std::to_string(rows) + "x" + std::to_string(h.cols) +
                " matrix (indices are 1-based)");
      if (h.symmetry == Symmetry::skew_symmetric && i == j)
        in.fail("a skew-symmetric file lists no diagonal entries");
      store(static_cast<long>(i - 1), static_cast<long>(j - 1), value(t, 2));
    }
  } else {
    // Column-major, the lower triangle of symmetric kinds.
    // count < expected: a 0×N file lists nothing and must not loop over its N columns.
    for (long j = 0; j < h.cols && count < expected; ++j)
      for (long i = triangle ? j + skip : 0; i < rows; ++i, ++count) {
        if (!in.next(t))
          in.fail("expected " + std::to_string(expected) + " values, found " +
                  std::to_string(count));
        if (t.size() != nvalues)
          in.fail(std::string("expected one value per line:") + value_syntax);
        store(i, j, value(t, 0));
      }
  }
  if (in.next(t)) in.fail("more entries than the " + std::to_string(expected) + " declared");
  return full;
}

void broadcast(Header& h, MPI_Comm comm) {
  long long v[6] = {h.coordinate, h.complex, static_cast<long long>(h.symmetry),
                    h.rows,       h.cols,    h.entries};
  MPI_Bcast(v, 6, MPI_LONG_LONG, 0, comm);
  h.coordinate = v[0] != 0;
  h.complex = v[1] != 0;
  h.symmetry = static_cast<Symmetry>(v[2]);
  h.rows = static_cast<int>(v[3]);
  h.cols = static_cast<int>(v[4]);
  h.entries = static_cast<long>(v[5]);
}

}  // namespace

Header read_header(const Grid& grid, const std::string& path) {
  Header h;
  collectively(grid.comm(), [&] {
    if (grid.rank() != 0) return;
    LineReader in(path);
    h = parse_header(in).header;
  });
  broadcast(h, grid.comm());
  return h;
}

template <class T>
DistMatrix<T> read(const Grid& grid, const std::string& path, int nb) {
  raise_if_any(grid.comm(), nb < 1, ErrorCode::invalid_argument,
               "matrix_market::read: block size " + std::to_string(nb) + " must be >= 1");
  Header h;
  std::vector<T> full;
  collectively(grid.comm(), [&] {
    if (grid.rank() != 0) return;
    LineReader in(path);
    FileHeader file = parse_header(in);
    if (file.header.complex && !is_complex_v<T>)
      throw Error(ErrorCode::io_error, "Matrix Market file " + path +
                                           ":1: a complex matrix cannot be read into a real "
                                           "type; read it as std::complex");
    full = read_entries<T>(in, file);
    h = file.header;
  });
  broadcast(h, grid.comm());
  DistMatrix<T> A(grid, h.rows, h.cols, nb);
  A.scatter(full.data(), 0);
  return A;
}

template <class T>
void write(const DistMatrix<T>& A, const std::string& path, bool symmetric) {
  using R = real_t<T>;
  const Grid& grid = A.grid();
  raise_if_any(grid.comm(), symmetric && A.m() != A.n(), ErrorCode::invalid_argument,
               "matrix_market::write: a symmetric file needs a square matrix, not " +
                   std::to_string(A.m()) + "x" + std::to_string(A.n()));
  std::vector<T> full = A.gather(0);
  collectively(grid.comm(), [&] {
    if (grid.rank() != 0) return;
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw Error(ErrorCode::io_error, "cannot open '" + path + "' for writing");
    const char* field = is_complex_v<T> ? "complex" : "real";
    const char* kind = !symmetric ? "general" : (is_complex_v<T> ? "hermitian" : "symmetric");
    std::fprintf(f, "%%%%MatrixMarket matrix array %s %s\n%d %d\n", field, kind, A.m(), A.n());
    // max_digits10 significant digits (17 double, 9 float) make the round trip exact.
    const int precision = std::numeric_limits<R>::max_digits10 - 1;
    const long m = A.m();
    for (long j = 0; j < A.n(); ++j)
      for (long i = symmetric ? j : 0; i < m; ++i) {
        T v = full[i + j * m];
        if constexpr (is_complex_v<T>)
          std::fprintf(f, "%.*e %.*e\n", precision, static_cast<double>(v.real()), precision,
                       static_cast<double>(v.imag()));
        else
          std::fprintf(f, "%.*e\n", precision, static_cast<double>(v));
      }
    bool failed = std::ferror(f) != 0;
    failed = std::fclose(f) != 0 || failed;
    if (failed) throw Error(ErrorCode::io_error, "error while writing '" + path + "'");
  });
}

#define TSEIG_INSTANTIATE(T)                                            \
  template DistMatrix<T> read<T>(const Grid&, const std::string&, int); \
  template void write<T>(const DistMatrix<T>&, const std::string&, bool);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::matrix_market
