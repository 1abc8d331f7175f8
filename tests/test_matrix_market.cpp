// Matrix Market I/O: exact round trips, hand-written files of every kind, and
// io_errors that reach every rank.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

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

// Reads `path` on every test grid and compares the gathered matrix with `expected`
// (column-major rows×cols) exactly.
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

}  // namespace
}  // namespace tseig
