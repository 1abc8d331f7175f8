// Matrix Market I/O. Rank 0 of the grid does all file access, but no rank ever holds
// the whole matrix, so that its size is bounded by the grid's memory and not by rank
// 0's: read() parses entries into one bucket per owning rank and, whenever
// stream_entries are buffered and at the end of the file, sends them out in one
// collective round; write() gathers and prints column panels of about stream_entries
// elements. Parse and write errors are agreed on collectively, so that every rank
// throws the same io_error and none is left waiting in a round.
#include "tseig/matrix_market.hpp"

#include "core/instantiate.hpp"
#include "core/matrix_market_banner.hpp"
#include "core/matrix_market_stream.hpp"
#include "core/mpi_types.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
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

// The entries after the header, one at a time in file order (rank 0 only).
template <class T>
class EntryReader {
 public:
  // Checks the declared entry count against the file's length: each entry line holds
  // `tokens` tokens of at least one byte plus a separator. Done before the matrix is
  // allocated, so that a tiny file cannot demand a huge array (found by fuzzing).
  EntryReader(LineReader& in, const FileHeader& file)
      : in_(in),
        h_(file.header),
        nvalues_(file.pattern ? 0 : (h_.complex ? 2 : 1)),
        value_syntax_(file.pattern ? "" : (h_.complex ? " real imaginary" : " value")),
        skip_(h_.symmetry == Symmetry::skew_symmetric ? 1 : 0),
        triangle_(h_.symmetry != Symmetry::general),
        row_(triangle_ ? skip_ : 0) {
    const long rows = h_.rows;
    expected_ = h_.coordinate ? h_.entries
                : triangle_   ? (rows - skip_) * (rows - skip_ + 1) / 2
                              : rows * h_.cols;
    const long long tokens = static_cast<long long>(nvalues_) + (h_.coordinate ? 2 : 0);
    if (const long long bytes = in.size(); bytes >= 0 && expected_ > (bytes + 1) / (2 * tokens))
      in.fail("the header declares " + std::to_string(expected_) + " entries, more than the " +
              std::to_string(bytes) + "-byte file can hold");
  }

  // Parses the next entry into 0-based (i, j) and v; false once all are read and the
  // file is checked to list no more.
  bool next(long& i, long& j, T& v) {
    if (count_ == expected_) {
      if (in_.next(t_))
        in_.fail("more entries than the " + std::to_string(expected_) + " declared");
      return false;
    }
    if (h_.coordinate)
      coordinate(i, j, v);
    else
      array(i, j, v);
    ++count_;
    return true;
  }

 private:
  void coordinate(long& i, long& j, T& v) {
    if (!in_.next(t_))
      in_.fail("expected " + std::to_string(expected_) + " entries, found " +
               std::to_string(count_));
    if (t_.size() != 2 + nvalues_)
      in_.fail(std::string("expected 'row column") + value_syntax_ + "'");
    long long row = to_integer(t_[0], in_), col = to_integer(t_[1], in_);
    if (row < 1 || row > h_.rows || col < 1 || col > h_.cols)
      in_.fail("index (" + std::string(t_[0]) + ", " + std::string(t_[1]) + ") is outside the " +
               std::to_string(h_.rows) + "x" + std::to_string(h_.cols) +
               " matrix (indices are 1-based)");
    if (h_.symmetry == Symmetry::skew_symmetric && row == col)
      in_.fail("a skew-symmetric file lists no diagonal entries");
    // Its mirror image is made here; listed as well, it would be counted twice.
    if (h_.symmetry != Symmetry::general && col > row)
      in_.fail("a symmetric, hermitian or skew-symmetric file lists an entry above the diagonal");
    i = static_cast<long>(row - 1);
    j = static_cast<long>(col - 1);
    v = value(2);
  }

  // Column-major, the lower triangle of symmetric kinds.
  void array(long& i, long& j, T& v) {
    if (!in_.next(t_))
      in_.fail("expected " + std::to_string(expected_) + " values, found " +
               std::to_string(count_));
    if (t_.size() != nvalues_)
      in_.fail(std::string("expected one value per line:") + value_syntax_);
    while (row_ == h_.rows) {  // the column is done
      ++col_;
      row_ = triangle_ ? col_ + skip_ : 0;
    }
    i = row_++;
    j = col_;
    v = value(0);
  }

  T value(std::size_t first) const {
    using R = real_t<T>;
    if (nvalues_ == 0) return T(1);
    R re = to_real<R>(t_[first], in_);
    if constexpr (is_complex_v<T>)
      return nvalues_ == 2 ? T(re, to_real<R>(t_[first + 1], in_)) : T(re);
    else
      return re;
  }

  LineReader& in_;
  Header h_;
  std::size_t nvalues_;
  const char* value_syntax_;
  long skip_;
  bool triangle_;
  long expected_ = 0, count_ = 0;
  long row_, col_ = 0;  // the next array position
  Tokens t_;
};

// A matrix element on its way to its owner: local position and value.
template <class T>
struct Placed {
  int li, lj;
  T value;
};

template <class T>
using Buckets = std::vector<std::vector<Placed<T>>>;  // one per rank of the grid

// Rank 0: parses entries into the buckets of their owners in A, with the mirror image
// of each off-diagonal entry of a symmetric kind, until `limit` are buffered. True when
// the file is done.
template <class T>
bool fill(EntryReader<T>& entries, const DistMatrix<T>& A, Symmetry symmetry, long limit,
          Buckets<T>& buckets) {
  long buffered = 0;
  auto put = [&](long i, long j, T v) {
    const int gi = static_cast<int>(i), gj = static_cast<int>(j);
    buckets[A.grid().rank_of(A.row_owner(gi), A.col_owner(gj))].push_back(
        {A.local_row(gi), A.local_col(gj), v});
    ++buffered;
  };
  long i = 0, j = 0;
  T v{};
  while (buffered < limit) {
    if (!entries.next(i, j, v)) return true;
    put(i, j, v);
    if (i == j || symmetry == Symmetry::general) continue;
    put(j, i,
        symmetry == Symmetry::symmetric   ? v
        : symmetry == Symmetry::hermitian ? conj_if_complex(v)
                                          : -v);
  }
  return false;
}

// Collective: one round of read(). Rank 0 sends every rank its bucket and whether this
// is the last round (`last`, given on rank 0); each rank stores what it gets. Returns
// `last` on every rank.
template <class T>
bool deliver(DistMatrix<T>& A, Buckets<T>& buckets, bool last) {
  const Grid& g = A.grid();
  std::vector<int> status, bytes, displs;  // status: {entries, last} per rank
  std::vector<Placed<T>> packed;
  for (const std::vector<Placed<T>>& bucket : buckets) {
    status.insert(status.end(), {static_cast<int>(bucket.size()), last});
    displs.push_back(static_cast<int>(packed.size() * sizeof(Placed<T>)));
    bytes.push_back(static_cast<int>(bucket.size() * sizeof(Placed<T>)));
    packed.insert(packed.end(), bucket.begin(), bucket.end());
  }
  int mine[2];
  MPI_Scatter(status.data(), 2, MPI_INT, mine, 2, MPI_INT, 0, g.comm());
  std::vector<Placed<T>> got(mine[0]);
  MPI_Scatterv(packed.data(), bytes.data(), displs.data(), MPI_BYTE, got.data(),
               static_cast<int>(got.size() * sizeof(Placed<T>)), MPI_BYTE, 0, g.comm());
  // Repeated coordinate entries add up, as in the sparse reader (and SciPy, PETSc).
  for (const Placed<T>& e : got) A.local(e.li, e.lj) += e.value;
  for (std::vector<Placed<T>>& bucket : buckets) bucket.clear();
  return mine[1] != 0;
}

// Collective: columns [j0, j1) of A, column-major, into `panel` on rank 0 of the grid.
// Every rank sends its local rows of those columns; `piece` and `received` are scratch.
template <class T>
void gather_panel(const DistMatrix<T>& A, int j0, int j1, std::vector<T>& piece,
                  std::vector<T>& received, std::vector<T>& panel) {
  const Grid& g = A.grid();
  piece.clear();
  for (int lj = A.local_cols_before(j0); lj < A.local_cols_before(j1); ++lj)
    piece.insert(piece.end(), &A.local(0, lj), &A.local(0, lj) + A.local_rows());
  // The pieces of process (pr, pc): its rows, its first column and its column count.
  auto rows = [&](int pr) {
    return block_cyclic::local_count(A.m(), A.mb(), pr, A.rsrc(), g.nprow());
  };
  auto first = [&](int pc, int j) {
    return block_cyclic::local_count_below(j, A.nb(), pc, A.csrc(), g.npcol());
  };
  std::vector<int> counts(g.rank() == 0 ? g.size() : 0), displs(counts.size());
  for (int pr = 0; pr < g.nprow() && g.rank() == 0; ++pr)
    for (int pc = 0; pc < g.npcol(); ++pc)
      counts[g.rank_of(pr, pc)] = rows(pr) * (first(pc, j1) - first(pc, j0));
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  MPI_Gatherv(piece.data(), static_cast<int>(piece.size()), mpi_type<T>(), received.data(),
              counts.data(), displs.data(), mpi_type<T>(), 0, g.comm());
  for (int pr = 0; pr < g.nprow() && g.rank() == 0; ++pr)
    for (int pc = 0; pc < g.npcol(); ++pc) {
      const T* src = received.data() + displs[g.rank_of(pr, pc)];
      for (int lj = first(pc, j0); lj < first(pc, j1); ++lj) {
        const long col = block_cyclic::global_index(lj, A.nb(), pc, A.csrc(), g.npcol()) - j0;
        for (int li = 0; li < rows(pr); ++li, ++src)
          panel[block_cyclic::global_index(li, A.mb(), pr, A.rsrc(), g.nprow()) + col * A.m()] =
              *src;
      }
    }
}

// Prints columns [j0, j1) from `panel` (column-major, m rows) as array-format lines,
// only the lower triangle when `symmetric`.
template <class T>
void print_panel(std::FILE* f, const std::vector<T>& panel, long m, int j0, int j1,
                 bool symmetric) {
  using R = real_t<T>;
  // max_digits10 significant digits (17 double, 9 float) make the round trip exact.
  const int precision = std::numeric_limits<R>::max_digits10 - 1;
  for (long j = j0; j < j1; ++j)
    for (long i = symmetric ? j : 0; i < m; ++i) {
      T v = panel[i + (j - j0) * m];
      if constexpr (is_complex_v<T>)
        std::fprintf(f, "%.*e %.*e\n", precision, static_cast<double>(v.real()), precision,
                     static_cast<double>(v.imag()));
      else
        std::fprintf(f, "%.*e\n", precision, static_cast<double>(v));
    }
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
DistMatrix<T> read_in_rounds(const Grid& grid, const std::string& path, int nb,
                             long round_entries) {
  raise_if_any(grid.comm(), nb < 1, ErrorCode::invalid_argument,
               "matrix_market::read: block size " + std::to_string(nb) + " must be >= 1");
  const bool root = grid.rank() == 0;
  std::optional<LineReader> in;
  std::optional<EntryReader<T>> entries;
  Header h;
  collectively(grid.comm(), [&] {
    if (!root) return;
    in.emplace(path);
    FileHeader file = parse_header(*in);
    if (file.header.complex && !is_complex_v<T>)
      throw Error(ErrorCode::io_error, "Matrix Market file " + path +
                                           ":1: a complex matrix cannot be read into a real "
                                           "type; read it as std::complex");
    entries.emplace(*in, file);
    h = file.header;
  });
  broadcast(h, grid.comm());
  DistMatrix<T> A(grid, h.rows, h.cols, nb);  // zero-filled: what no entry lists is zero
  // Every rank takes part in every round, so that an error found while parsing reaches
  // all of them (collectively) instead of leaving some waiting for entries.
  Buckets<T> buckets(root ? grid.size() : 0);
  for (bool last = false; !last;) {
    collectively(grid.comm(), [&] {
      if (root) last = fill(*entries, A, h.symmetry, round_entries, buckets);
    });
    last = deliver(A, buckets, last);
  }
  return A;
}

template <class T>
DistMatrix<T> read(const Grid& grid, const std::string& path, int nb) {
  return read_in_rounds<T>(grid, path, nb, stream_entries);
}

template <class T>
void write_in_panels(const DistMatrix<T>& A, const std::string& path, bool symmetric,
                     long panel_entries) {
  const Grid& grid = A.grid();
  raise_if_any(grid.comm(), symmetric && A.m() != A.n(), ErrorCode::invalid_argument,
               "matrix_market::write: a symmetric file needs a square matrix, not " +
                   std::to_string(A.m()) + "x" + std::to_string(A.n()));
  const bool root = grid.rank() == 0;
  const long m = A.m();
  const int width = static_cast<int>(
      std::clamp(panel_entries / std::max(1L, m), 1L, std::max(1L, static_cast<long>(A.n()))));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(nullptr, std::fclose);
  std::vector<T> piece, received, panel;
  // The file is opened (and the panels allocated) before the first panel: a failure
  // here reaches every rank before any of them waits in a gather.
  collectively(grid.comm(), [&] {
    piece.reserve(static_cast<std::size_t>(A.local_rows()) * std::min(A.local_cols(), width));
    if (!root) return;
    received.resize(static_cast<std::size_t>(m) * width);
    panel.resize(received.size());
    f.reset(std::fopen(path.c_str(), "w"));
    if (!f) throw Error(ErrorCode::io_error, "cannot open '" + path + "' for writing");
    const char* field = is_complex_v<T> ? "complex" : "real";
    const char* kind = !symmetric ? "general" : (is_complex_v<T> ? "hermitian" : "symmetric");
    std::fprintf(f.get(), "%%%%MatrixMarket matrix array %s %s\n%d %d\n", field, kind, A.m(),
                 A.n());
  });
  for (int j0 = 0; j0 < A.n(); j0 += width) {
    const int j1 = std::min(A.n(), j0 + width);
    gather_panel(A, j0, j1, piece, received, panel);
    if (root) print_panel(f.get(), panel, m, j0, j1, symmetric);
  }
  collectively(grid.comm(), [&] {
    if (!root) return;
    bool failed = std::ferror(f.get()) != 0;
    failed = std::fclose(f.release()) != 0 || failed;
    if (failed) throw Error(ErrorCode::io_error, "error while writing '" + path + "'");
  });
}

template <class T>
void write(const DistMatrix<T>& A, const std::string& path, bool symmetric) {
  write_in_panels(A, path, symmetric, stream_entries);
}

#define TSEIG_INSTANTIATE(T)                                                            \
  template DistMatrix<T> read<T>(const Grid&, const std::string&, int);                 \
  template DistMatrix<T> read_in_rounds<T>(const Grid&, const std::string&, int, long); \
  template void write<T>(const DistMatrix<T>&, const std::string&, bool);               \
  template void write_in_panels<T>(const DistMatrix<T>&, const std::string&, bool, long);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::matrix_market
