// Matrix Market I/O: exact round trips, hand-written files of every kind, and
// io_errors that reach every rank; files read in many rounds and written in many
// panels (core/matrix_market_stream.hpp).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "core/matrix_market_stream.hpp"
#include "test_util.hpp"

namespace tseig {
namespace {

bool is_root() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

// A file name unique to this run (rank 0's pid, shared so every rank passes the same path).
std::string temp_path(const std::string& name) {
  long pid = static_cast<long>(getpid());
  MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  return "/tmp/tseig_test_mm_" + std::to_string(pid) + "_" + name + ".mtx";
}

// Rank 0 writes `text` to a new file; everyone waits until it is there.
std::string write_text(const std::string& name, const std::string& text) {
  std::string path = temp_path(name);
  if (is_root()) std::ofstream(path) << text;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

void remove_file(const std::string& path) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (is_root()) std::remove(path.c_str());
}

std::vector<std::string> file_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Reads `path` on every test grid, in one round and in rounds of 2 entries, and
// compares the gathered matrix with `expected` (column-major rows×cols) exactly.
template <class T>
void expect_reads_as(const std::string& path, int rows, int cols, const std::vector<T>& expected) {
  for (const Grid& g : test::test_grids())
    for (int nb : {1, 3}) {
      DistMatrix<T> A = matrix_market::read<T>(g, path, nb);
      ASSERT_EQ(A.m(), rows);
      ASSERT_EQ(A.n(), cols);
      EXPECT_EQ(A.nb(), nb);
      auto full = A.gather();
      if (is_root()) {
        EXPECT_EQ(full, expected) << test::shape_name(g) << " nb " << nb;
      }
      full = matrix_market::read_in_rounds<T>(g, path, nb, 2).gather();
      if (is_root()) {
        EXPECT_EQ(full, expected) << test::shape_name(g) << " nb " << nb << " in rounds of 2";
      }
    }
}

template <class F>
void expect_error(ErrorCode code, const std::string& in_message, F&& f) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning \"" << in_message << "\"";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(in_message), std::string::npos) << e.what();
  }
}

template <class T>
class MatrixMarket : public ::testing::Test {};
TYPED_TEST_SUITE(MatrixMarket, test::ScalarTypes);

TYPED_TEST(MatrixMarket, GeneralRoundTripIsExact) {
  using T = TypeParam;
  const std::string path = temp_path("general");
  for (const Grid& g : test::test_grids()) {
    DistMatrix<T> A(g, 7, 5, 2, 3);
    generate::random_general(A, 9);
    // Tiny and huge values too, so that every digit and the exponent matter.
    for (int lj = 0; lj < A.local_cols(); ++lj)
      for (int li = 0; li < A.local_rows(); ++li)
        A.local(li, lj) *= static_cast<real_t<T>>(std::pow(10.0, 6 * A.global_row(li) - 18));
    matrix_market::write(A, path);
    matrix_market::Header h = matrix_market::read_header(g, path);
    EXPECT_FALSE(h.coordinate);
    EXPECT_EQ(h.complex, is_complex_v<T>);
    EXPECT_EQ(h.symmetry, matrix_market::Header::Symmetry::general);
    EXPECT_EQ(h.rows, 7);
    EXPECT_EQ(h.cols, 5);
    auto expected = A.gather();
    expect_reads_as<T>(path, 7, 5, expected);
    if (is_root()) {
      auto lines = file_lines(path);
      ASSERT_EQ(lines.size(), 2u + 7 * 5);
      EXPECT_EQ(lines[0], std::string("%%MatrixMarket matrix array ") +
                              (is_complex_v<T> ? "complex" : "real") + " general");
      // max_digits10 significant digits: "d.ddd…e±xx".
      std::string mantissa = lines[2].substr(0, lines[2].find('e'));
      int digits = 0;
      for (char c : mantissa) digits += std::isdigit(static_cast<unsigned char>(c)) != 0;
      EXPECT_EQ(digits, std::numeric_limits<real_t<T>>::max_digits10) << lines[2];
    }
  }
  remove_file(path);
}

TYPED_TEST(MatrixMarket, SymmetricRoundTripStoresTheLowerTriangle) {
  using T = TypeParam;
  const std::string path = temp_path("symmetric");
  const int n = 6;
  for (const Grid& g : test::test_grids()) {
    DistMatrix<T> A(g, n, n, 4);
    generate::random_hermitian(A, 4);
    matrix_market::write(A, path, true);
    matrix_market::Header h = matrix_market::read_header(g, path);
    EXPECT_EQ(h.symmetry, is_complex_v<T> ? matrix_market::Header::Symmetry::hermitian
                                          : matrix_market::Header::Symmetry::symmetric);
    expect_reads_as<T>(path, n, n, A.gather());
    if (is_root()) {
      EXPECT_EQ(file_lines(path).size(), 2u + n * (n + 1) / 2);
    }
  }
  remove_file(path);
}

TYPED_TEST(MatrixMarket, SymmetricWriteNeedsASquareMatrix) {
  using T = TypeParam;
  DistMatrix<T> A(test::test_grids().front(), 3, 2, 2);
  expect_error(ErrorCode::invalid_argument, "square",
               [&] { matrix_market::write(A, temp_path("never"), true); });
}

TYPED_TEST(MatrixMarket, RealCoordinateGeneral) {
  using T = TypeParam;
  // Case-insensitive banner, comments, blank lines, a leading '+', an exponent.
  std::string path = write_text("coord_general",
                                "%%matrixmarket MATRIX Coordinate Real General\n"
                                "% a comment\n"
                                "\n"
                                "3 4 3\n"
                                "1 1 1.5\n"
                                "3 2 -2e1\n"
                                "2 4 +0.25\n");
  expect_reads_as<T>(path, 3, 4, {T(1.5), 0, 0, 0, 0, T(-20), 0, 0, 0, 0, T(0.25), 0});
  remove_file(path);
}

TYPED_TEST(MatrixMarket, RealCoordinateSymmetricAndSkewSymmetric) {
  using T = TypeParam;
  std::string sym = write_text("coord_sym",
                               "%%MatrixMarket matrix coordinate real symmetric\n"
                               "3 3 3\n1 1 4\n3 1 2\n3 2 -1\n");
  expect_reads_as<T>(sym, 3, 3, {T(4), 0, T(2), 0, 0, T(-1), T(2), T(-1), 0});
  std::string skew = write_text("coord_skew",
                                "%%MatrixMarket matrix coordinate integer skew-symmetric\n"
                                "2 2 1\n2 1 5\n");
  expect_reads_as<T>(skew, 2, 2, {0, T(5), T(-5), 0});
  remove_file(sym);
  remove_file(skew);
}

// Repeats add up, as in the sparse reader. A symmetric file lists the lower triangle
// only (an entry listed in both would be counted twice), as the sparse reader requires.
TYPED_TEST(MatrixMarket, RepeatedCoordinateEntriesAreSummed) {
  using T = TypeParam;
  std::string general = write_text("coord_repeats",
                                   "%%MatrixMarket matrix coordinate real general\n"
                                   "2 2 4\n1 1 1.5\n2 1 3\n1 1 2\n2 1 -1\n");
  expect_reads_as<T>(general, 2, 2, {T(3.5), T(2), 0, 0});
  std::string sym = write_text("coord_sym_repeats",
                               "%%MatrixMarket matrix coordinate real symmetric\n"
                               "2 2 4\n2 1 1\n2 1 0.5\n2 2 4\n2 2 1\n");
  expect_reads_as<T>(sym, 2, 2, {0, T(1.5), T(1.5), T(5)});
  std::string upper = write_text("coord_sym_upper",
                                 "%%MatrixMarket matrix coordinate real symmetric\n"
                                 "2 2 2\n2 1 1\n1 2 1\n");
  for (const Grid& g : test::test_grids())
    expect_error(ErrorCode::io_error, "above the diagonal",
                 [&] { matrix_market::read<T>(g, upper, 1); });
  remove_file(general);
  remove_file(sym);
  remove_file(upper);
}

TYPED_TEST(MatrixMarket, PatternAndIntegerArray) {
  using T = TypeParam;
  std::string pattern = write_text("pattern",
                                   "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                   "2 2 2\n1 1\n2 1\n");
  expect_reads_as<T>(pattern, 2, 2, {T(1), T(1), T(1), 0});
  std::string array = write_text("int_array",
                                 "%%MatrixMarket matrix array integer general\n"
                                 "2 2\n1\n2\n3\n4\n");
  expect_reads_as<T>(array, 2, 2, {T(1), T(2), T(3), T(4)});
  remove_file(pattern);
  remove_file(array);
}

TYPED_TEST(MatrixMarket, SymmetricArrayListsTheLowerTriangleByColumns) {
  using T = TypeParam;
  std::string path = write_text("sym_array",
                                "%%MatrixMarket matrix array real symmetric\n"
                                "3 3\n1\n2\n3\n4\n5\n6\n");
  expect_reads_as<T>(path, 3, 3, {T(1), T(2), T(3), T(2), T(4), T(5), T(3), T(5), T(6)});
  remove_file(path);
}

TYPED_TEST(MatrixMarket, ComplexFiles) {
  using T = TypeParam;
  std::string herm = write_text("herm",
                                "%%MatrixMarket matrix coordinate complex hermitian\n"
                                "2 2 2\n1 1 3 0\n2 1 1 2\n");
  std::string array = write_text("complex_array",
                                 "%%MatrixMarket matrix array complex general\n"
                                 "1 2\n1 -1\n0.5 2\n");
  if constexpr (is_complex_v<T>) {
    expect_reads_as<T>(herm, 2, 2, {T(3, 0), T(1, 2), T(1, -2), T(0)});
    expect_reads_as<T>(array, 1, 2, {T(1, -1), T(0.5, 2)});
  } else {
    for (const Grid& g : test::test_grids())
      for (const std::string& path : {herm, array})
        expect_error(ErrorCode::io_error, path + ":1: a complex matrix cannot be read",
                     [&] { matrix_market::read<T>(g, path, 2); });
  }
  remove_file(herm);
  remove_file(array);
}

TYPED_TEST(MatrixMarket, NaNIsRead) {
  using T = TypeParam;
  std::string path = write_text("nan",
                                "%%MatrixMarket matrix array real general\n"
                                "2 1\nnan\n1\n");
  DistMatrix<T> A = matrix_market::read<T>(test::test_grids().front(), path, 1);
  auto full = A.gather();
  if (is_root()) {
    EXPECT_TRUE(std::isnan(std::real(full[0])));
    EXPECT_EQ(full[1], T(1));
  }
  remove_file(path);
}

// Every malformed file gives an io_error on every rank, naming the file and the line.
TYPED_TEST(MatrixMarket, ErrorsReachEveryRank) {
  using T = TypeParam;
  struct Case {
    const char* name;
    const char* text;
    const char* message;  // expected after "<path>"
  };
  const Case cases[] = {
      {"bad_banner", "%%MatrixMarket matrix dense real general\n2 2\n", ":1: unknown format"},
      {"no_banner", "2 2\n1\n2\n3\n4\n", ":1: expected the banner"},
      {"empty", "", ": the file is empty"},
      {"bad_size", "%%MatrixMarket matrix array real general\n% c\n2 x\n", ":3: 'x' is not"},
      {"bad_value", "%%MatrixMarket matrix array real general\n1 2\n1\n1.5.3\n",
       ":4: '1.5.3' is not a number"},
      {"extra_token", "%%MatrixMarket matrix array real general\n1 1\n1 2\n",
       ":3: expected one value"},
      {"too_few", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n",
       ":4: expected 3 entries, found 2"},
      {"too_many", "%%MatrixMarket matrix array real general\n1 1\n1\n2\n",
       ":4: more entries than the 1 declared"},
      {"row_zero", "%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1\n",
       ":3: index (0, 1) is outside"},
      {"col_big", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 3 1\n",
       ":4: index (1, 3) is outside"},
      {"not_square", "%%MatrixMarket matrix array real symmetric\n2 3\n", ":2: "},
      {"array_pattern", "%%MatrixMarket matrix array pattern general\n1 1\n", ":1: "},
      // Found by fuzzing (fuzz/corpus/dense_mm/crash_*): a 0xN size looped over N
      // columns and allocated N elements; a tiny file claimed a huge array.
      {"fuzz_zero_rows", "%%matrixmarket MATRIX ArrAy Real General\r\n0 02147483647\r\n%\r\n",
       ":2: a 0x2147483647 matrix is empty"},
      {"fuzz_zero_cols", "%%MatrixMarket matrix coordinate real general\n5 0 0\n",
       ":2: a 5x0 matrix is empty"},
      {"fuzz_huge_array", "%%MatrixMarket matrix array real general\n100000 100000\n1\n",
       ":2: the header declares 10000000000 entries, more than the 57-byte file"},
  };
  for (const Case& c : cases) {
    std::string path = write_text(c.name, c.text);
    for (const Grid& g : test::test_grids())
      expect_error(ErrorCode::io_error, path + c.message,
                   [&] { matrix_market::read<T>(g, path, 2); });
    remove_file(path);
  }
  std::string missing = temp_path("does_not_exist");
  for (const Grid& g : test::test_grids()) {
    expect_error(ErrorCode::io_error, "cannot open '" + missing + "'",
                 [&] { matrix_market::read<T>(g, missing, 2); });
    expect_error(ErrorCode::io_error, missing, [&] { matrix_market::read_header(g, missing); });
    DistMatrix<T> A(g, 2, 2, 1);
    expect_error(ErrorCode::io_error, "cannot open",
                 [&] { matrix_market::write(A, "/nonexistent_dir/x.mtx"); });
  }
}

// An exactly printable value that differs at every (i, j), complex when T is.
template <class T>
T value_at(int i, int j) {
  if constexpr (is_complex_v<T>)
    return T(0.5 * (i - 2 * j), 0.25 * (i + j + 1));
  else
    return T(0.5 * (i - 2 * j) + 0.25);
}

template <class T>
std::string value_text(T v) {
  std::ostringstream out;
  if constexpr (is_complex_v<T>)
    out << v.real() << " " << v.imag();
  else
    out << v;
  return out.str();
}

// "%%MatrixMarket matrix <format> real|complex <symmetry>", the size line and the lines.
template <class T>
std::string mm_text(const std::string& format, const std::string& symmetry, const std::string& size,
                    const std::vector<std::string>& lines) {
  std::string text = "%%MatrixMarket matrix " + format +
                     (is_complex_v<T> ? " complex " : " real ") + symmetry + "\n" + size + "\n";
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// Reads `path` in rounds of 1, 7 and stream_entries entries on every test grid with
// blocks that do not divide the size, and compares with `expected` exactly.
template <class T>
void expect_rounds_read_as(const std::string& path, int n, int m, const std::vector<T>& expected) {
  for (const Grid& g : test::test_grids())
    for (int nb : {2, 5})
      for (long round : {1L, 7L, matrix_market::stream_entries}) {
        auto full = matrix_market::read_in_rounds<T>(g, path, nb, round).gather();
        if (is_root()) {
          EXPECT_EQ(full.size(), static_cast<std::size_t>(n) * m);
          EXPECT_EQ(full, expected)
              << test::shape_name(g) << " nb " << nb << " rounds of " << round;
        }
      }
}

TYPED_TEST(MatrixMarket, CoordinateEntriesInAnyOrderOverManyRounds) {
  using T = TypeParam;
  const int rows = 23, cols = 17;
  std::vector<T> expected(rows * cols, T(0));
  std::vector<std::string> lines;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      if ((7 * i + 3 * j) % 4 != 0) {  // some entries are not listed: they read as zero
        expected[i + j * rows] = value_at<T>(i, j);
        lines.push_back(std::to_string(i + 1) + " " + std::to_string(j + 1) + " " +
                        value_text(value_at<T>(i, j)));
      }
  std::shuffle(lines.begin(), lines.end(), std::mt19937(3));
  std::string path = write_text(
      "shuffled",
      mm_text<T>("coordinate", "general", "23 17 " + std::to_string(lines.size()), lines));
  expect_rounds_read_as<T>(path, rows, cols, expected);
  remove_file(path);
}

// The mirror image of each entry may belong to another rank than the entry: symmetric,
// hermitian and skew-symmetric files, coordinate (shuffled) and array, on every grid.
TYPED_TEST(MatrixMarket, SymmetricKindsExpandOverManyRounds) {
  using T = TypeParam;
  const int n = 13;
  std::vector<std::string> kinds = {"symmetric", "skew-symmetric"};
  if constexpr (is_complex_v<T>) kinds.push_back("hermitian");
  for (const std::string& kind : kinds) {
    const int skip = kind == "skew-symmetric" ? 1 : 0;
    std::vector<T> expected(n * n, T(0));
    std::vector<std::string> listed, values;
    for (int j = 0; j < n; ++j)
      for (int i = j + skip; i < n; ++i) {
        T v = value_at<T>(i, j);
        if (kind == "hermitian" && i == j) v = T(std::real(v));
        expected[i + j * n] = v;
        expected[j + i * n] = kind == "symmetric"   ? v
                              : kind == "hermitian" ? conj_if_complex(v)
                                                    : -v;
        listed.push_back(std::to_string(i + 1) + " " + std::to_string(j + 1) + " " + value_text(v));
        values.push_back(value_text(v));
      }
    std::shuffle(listed.begin(), listed.end(), std::mt19937(11));
    std::string coordinate = write_text(
        "coord_" + kind,
        mm_text<T>("coordinate", kind, "13 13 " + std::to_string(listed.size()), listed));
    std::string array = write_text("array_" + kind, mm_text<T>("array", kind, "13 13", values));
    SCOPED_TRACE(kind);
    expect_rounds_read_as<T>(coordinate, n, n, expected);
    expect_rounds_read_as<T>(array, n, n, expected);
    remove_file(coordinate);
    remove_file(array);
  }
}

// An error far into a file read in many rounds, after entries went out to every rank,
// is the same io_error on every rank.
TYPED_TEST(MatrixMarket, ErrorsLateInALongFileReachEveryRank) {
  using T = TypeParam;
  const int entries = 1000;
  auto entry = [](int k) {
    return std::to_string(k % 40 + 1) + " " + std::to_string(k / 40 + 1) + " " + value_text(T(k));
  };
  struct Case {
    const char* name;
    int declared, listed, broken_at;  // broken_at: the entry replaced by `broken`, or -1
    const char* broken;
    std::string message;
  };
  const Case cases[] = {
      {"late_bad_value", entries, entries, 600, "1 1 x", ":603: 'x' is not"},
      {"late_bad_index", entries, entries, 900, "41 1 1", ":903: index (41, 1) is outside"},
      {"late_too_few", entries + 1, entries, -1, "", ":1002: expected 1001 entries, found 1000"},
      {"late_too_many", entries - 1, entries, -1, "", ":1002: more entries than the 999"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> lines;
    for (int k = 0; k < c.listed; ++k) lines.push_back(k == c.broken_at ? c.broken : entry(k));
    if constexpr (is_complex_v<T>)
      if (c.broken_at >= 0) lines[c.broken_at] += " 0";
    std::string path = write_text(
        c.name, mm_text<T>("coordinate", "general", "40 40 " + std::to_string(c.declared), lines));
    for (const Grid& g : test::test_grids())
      for (long round : {16L, matrix_market::stream_entries})
        expect_error(ErrorCode::io_error, path + c.message,
                     [&] { matrix_market::read_in_rounds<T>(g, path, 3, round); });
    remove_file(path);
  }
}

// Panels of 1 and 2 columns give the same file as one panel, and it reads back exactly.
TYPED_TEST(MatrixMarket, WriteInPanelsRoundTrip) {
  using T = TypeParam;
  const std::string whole = temp_path("whole"), panels = temp_path("panels");
  for (const Grid& g : test::test_grids())
    for (bool symmetric : {false, true}) {
      const int m = 13, n = symmetric ? 13 : 19;
      DistMatrix<T> A(g, m, n, 2, 3);
      if (symmetric)
        generate::random_hermitian(A, 8);
      else
        generate::random_general(A, 7);
      matrix_market::write(A, whole, symmetric);
      for (long panel_entries : {1L, 2L * m + 1}) {
        matrix_market::write_in_panels(A, panels, symmetric, panel_entries);
        if (is_root()) {
          EXPECT_EQ(file_lines(panels), file_lines(whole))
              << test::shape_name(g) << " panels of " << panel_entries << " entries";
        }
        MPI_Barrier(MPI_COMM_WORLD);
      }
      expect_reads_as<T>(panels, m, n, A.gather());
    }
  remove_file(whole);
  remove_file(panels);
}

}  // namespace
}  // namespace tseig
