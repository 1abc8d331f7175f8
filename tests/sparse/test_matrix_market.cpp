// The distributed Matrix Market reader: round trips of general, symmetric and hermitian
// files at any rank count, and every error raised on every rank.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "sparse_reference.hpp"
#include "test_util.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/matrix_market.hpp"

namespace tseig::sparse::test {
namespace {

/// Rank 0 writes `text` to a file unique to this run; every rank gets its path.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    long id = static_cast<long>(getpid());
    MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    path_ =
        "/tmp/tseig_sparse_mm_" + std::to_string(id) + "_" + std::to_string(counter_++) + ".mtx";
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::ofstream(path_) << text;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  ~TempFile() {
    MPI_Barrier(MPI_COMM_WORLD);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::remove(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  static inline int counter_ = 0;
};

/// The 2D periodic Laplacian (5 × 4) as a coordinate file: every entry, or the lower
/// triangle with the given symmetry.
std::string laplacian_file(const std::string& symmetry) {
  const std::vector<double> a = dense_of(laplacian_2d_periodic<double>(MPI_COMM_SELF, 5, 4));
  const int n = 20;
  std::ostringstream body;
  int count = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (a[i * n + j] != 0 && (symmetry == "general" || j <= i)) {
        body << i + 1 << ' ' << j + 1 << ' ' << a[i * n + j] << '\n';
        ++count;
      }
  return "%%MatrixMarket matrix coordinate real " + symmetry + "\n% comment\n" + std::to_string(n) +
         " " + std::to_string(n) + " " + std::to_string(count) + "\n" + body.str();
}

TEST(SparseMatrixMarket, ReadsGeneralAndSymmetricFiles) {
  const std::vector<double> want = dense_of(laplacian_2d_periodic<double>(MPI_COMM_WORLD, 5, 4));
  for (const char* symmetry : {"general", "symmetric"}) {
    TempFile file(laplacian_file(symmetry));
    const auto a = read_matrix_market<double>(MPI_COMM_WORLD, file.path(), true);
    EXPECT_EQ(dense_of(a), want) << symmetry;
    const auto c = read_matrix_market<std::complex<float>>(MPI_COMM_WORLD, file.path());
    EXPECT_EQ(c.nonzeros(), 100);
  }
}

TEST(SparseMatrixMarket, ExpandsHermitianFiles) {
  TempFile file(
      "%%MatrixMarket matrix coordinate complex hermitian\n3 3 4\n1 1 2 0\n2 1 1 -1\n3 2 0 3\n"
      "3 3 -1 0\n");
  const auto a = read_matrix_market<std::complex<double>>(MPI_COMM_WORLD, file.path(), true);
  using C = std::complex<double>;
  const std::vector<C> want{2, C(1, 1), 0, C(1, -1), 0, C(0, -3), 0, C(0, 3), -1};
  EXPECT_EQ(dense_of(a), want);
}

void expect_error(const std::string& text, ErrorCode code, bool hermitian = false) {
  TempFile file(text);
  const Error e = tseig::test::error_of(
      [&] { read_matrix_market<double>(MPI_COMM_WORLD, file.path(), hermitian); });
  EXPECT_EQ(e.code(), code) << e.what();
}

TEST(SparseMatrixMarket, BadFilesRaiseOnEveryRank) {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n";
  std::string many;  // enough lines that every rank reads some
  for (int i = 1; i <= 40; ++i) many += std::to_string(i) + " " + std::to_string(i) + " 1\n";
  expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", ErrorCode::io_error);
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n",
               ErrorCode::io_error);
  expect_error(head + "40 40\n" + many, ErrorCode::io_error);                  // bad size line
  expect_error(head + "40 39 40\n" + many, ErrorCode::io_error);               // not square
  expect_error(head + "40 40 41\n" + many, ErrorCode::io_error);               // missing entry
  expect_error(head + "40 40 39\n" + many, ErrorCode::io_error);               // extra entry
  expect_error(head + "40 40 41\n" + many + "41 1 1\n", ErrorCode::io_error);  // out of range
  expect_error(head + "40 40 41\n" + many + "3 1 nan\n", ErrorCode::not_finite);
  // Beyond double's range: infinite, not the 1 the parser had left there.
  expect_error(head + "40 40 41\n" + many + "3 1 1e400\n", ErrorCode::not_finite);
  expect_error(head + "40 40 41\n" + many + "3 1 -1e400\n", ErrorCode::not_finite);
  expect_error(head + "40 40 41\n" + many + "3 1 x\n", ErrorCode::io_error);
  expect_error(head + "40 40 41\n" + many + "3 1 2\n", ErrorCode::not_hermitian, true);
  expect_error("%%MatrixMarket matrix coordinate real symmetric\n40 40 41\n" + many + "1 3 2\n",
               ErrorCode::io_error);  // upper triangle in a symmetric file
  expect_error("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
               ErrorCode::io_error);  // complex file, real type
  expect_error("", ErrorCode::io_error);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::int64_t too_many = (std::int64_t{INT32_MAX} + 1) * ranks;  // 2^31 rows a rank
  expect_error(head + std::to_string(too_many) + " " + std::to_string(too_many) + " 1\n1 1 1\n",
               ErrorCode::invalid_argument);  // before any array of one entry per row
  const Error missing = tseig::test::error_of(
      [] { read_matrix_market<double>(MPI_COMM_WORLD, "/nonexistent/file.mtx"); });
  EXPECT_EQ(missing.code(), ErrorCode::io_error);
}

TEST(SparseMatrixMarket, ValuesBelowDoublesRangeAreZero) {
  TempFile file("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1e-400\n2 2 -1e-400\n");
  const auto a = read_matrix_market<double>(MPI_COMM_WORLD, file.path());
  EXPECT_EQ(dense_of(a), (std::vector<double>{0, 0, 0, 0}));  // were read as 1
}

TEST(SparseMatrixMarket, ReadsEmptyMatrixWithoutFinalNewline) {
  TempFile file("%%MatrixMarket matrix coordinate real general\n3 3 0");
  const auto a = read_matrix_market<double>(MPI_COMM_WORLD, file.path());
  EXPECT_EQ(a.rows(), 3);
  EXPECT_EQ(a.nonzeros(), 0);
}

TEST(SparseMatrixMarket, AcceptsHermitianGeneralFile) {
  TempFile file(
      "%%MatrixMarket matrix coordinate complex general\n2 2 3\n1 2 1 2\n2 1 1 -2\n2 2 5 0\n");
  const auto a = read_matrix_market<std::complex<double>>(MPI_COMM_WORLD, file.path(), true);
  EXPECT_EQ(a.nonzeros(), 3);
}

}  // namespace
}  // namespace tseig::sparse::test
