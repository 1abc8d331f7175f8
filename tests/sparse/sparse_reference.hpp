#pragma once
// Shared pieces of the sparse tests: a random test matrix that every rank can rebuild
// in full (its rows depend only on the seed), a dense reference, and gathering of
// distributed blocks onto every rank.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/mpi_types.hpp"
#include "sparse/random.hpp"
#include "test_util.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/matrix.hpp"
#include "tseig/sparse/multivector.hpp"

namespace tseig::sparse::test {

template <class T>
T random_value(std::uint64_t bits) {
  const double re = 2 * random_unit(bits) - 1;
  if constexpr (is_complex_v<T>)
    return T(static_cast<real_t<T>>(re), static_cast<real_t<T>>(2 * random_unit(mix64(bits)) - 1));
  else
    return T(re);
}

/// Row i of the random test matrix: by kind, empty, one entry, entries only far away
/// (remote on every rank count > 1), or up to 8 entries anywhere (repeats included).
template <class T>
std::vector<std::pair<std::int64_t, T>> random_row(std::int64_t n, std::uint64_t seed,
                                                   std::int64_t i) {
  std::vector<std::pair<std::int64_t, T>> e;
  const std::uint64_t h = random_bits(seed, static_cast<std::uint64_t>(i));
  const int kind = static_cast<int>(h % 5), count = 1 + static_cast<int>((h >> 8) % 8);
  for (int k = 0; k < (kind == 0 ? 0 : kind == 1 ? 1 : count); ++k) {
    const std::uint64_t b = random_bits(seed, static_cast<std::uint64_t>(i), k + 1);
    const std::int64_t c = kind == 2 ? (i + n / 2 + k) % n : static_cast<std::int64_t>(b % n);
    e.emplace_back(c, random_value<T>(b));
  }
  return e;
}

/// This rank's `local` rows starting at global row `first` of the random matrix.
template <class T>
Matrix<T> random_matrix(MPI_Comm comm, std::int64_t n, std::uint64_t seed, std::int64_t first,
                        std::int64_t local, const SparseTuneParameters& tune = {}) {
  std::vector<std::int64_t> ptr{0}, cols;
  std::vector<T> vals;
  for (std::int64_t i = first; i < first + local; ++i) {
    for (const auto& [c, v] : random_row<T>(n, seed, i)) {
      cols.push_back(c);
      vals.push_back(v);
    }
    ptr.push_back(static_cast<std::int64_t>(cols.size()));
  }
  return Matrix<T>(comm, n, ptr, cols, vals, tune);
}

/// The tridiagonal matrix with diagonal(i) and `off` beside it, its rows dealt out
/// evenly over the ranks (some get none when n is below the rank count).
template <class T, class Diagonal>
Matrix<T> tridiagonal_matrix(MPI_Comm comm, std::int64_t n, Diagonal diagonal, T off) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const std::int64_t first = n * rank / ranks, last = n * (rank + 1) / ranks;
  std::vector<std::int64_t> ptr{0}, cols;
  std::vector<T> vals;
  for (std::int64_t i = first; i < last; ++i) {
    for (std::int64_t j = std::max<std::int64_t>(0, i - 1); j <= std::min(n - 1, i + 1); ++j) {
      cols.push_back(j);
      vals.push_back(j == i ? T(diagonal(i)) : off);
    }
    ptr.push_back(static_cast<std::int64_t>(cols.size()));
  }
  return Matrix<T>(comm, n, ptr, cols, vals);
}

/// Diagonal 1, 2, …, n and 0.5 beside it (distinct, well separated eigenvalues).
template <class T>
Matrix<T> tridiagonal_matrix(MPI_Comm comm, std::int64_t n) {
  return tridiagonal_matrix<T>(
      comm, n, [](std::int64_t i) { return static_cast<real_t<T>>(i + 1); }, T(0.5));
}

/// The random matrix as a dense row-major n × n array.
template <class T>
std::vector<T> random_dense(std::int64_t n, std::uint64_t seed) {
  std::vector<T> a(n * n, T(0));
  for (std::int64_t i = 0; i < n; ++i)
    for (const auto& [c, v] : random_row<T>(n, seed, i)) a[i * n + c] += v;
  return a;
}

/// The local rows of `x` from every rank, row-major global rows × cols, on every rank.
template <class T>
std::vector<T> gather_rows(const MultiVector<T>& x) {
  int ranks = 0;
  MPI_Comm_size(x.comm(), &ranks);
  std::vector<T> mine;
  for (int i = 0; i < x.local_rows(); ++i)
    for (int j = 0; j < x.cols(); ++j) mine.push_back(x(i, j));
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(ranks), displs(ranks + 1, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, x.comm());
  for (int r = 0; r < ranks; ++r) displs[r + 1] = displs[r] + counts[r];
  std::vector<T> all(displs[ranks]);
  MPI_Allgatherv(mine.data(), count, mpi_type<T>(), all.data(), counts.data(), displs.data(),
                 mpi_type<T>(), x.comm());
  return all;
}

/// The whole matrix as dense row-major n × n on every rank (A times the identity).
template <class T>
std::vector<T> dense_of(const Matrix<T>& a) {
  MultiVector<T> id(a.vector_layout(), static_cast<int>(a.rows())), y(a.vector_layout(), id.cols());
  for (int i = 0; i < a.local_rows(); ++i) id(i, static_cast<int>(a.first_row() + i)) = T(1);
  spmmv(a, id, y);
  return gather_rows(y);
}

/// Eigenvalues of `a` by LAPACK on the gathered dense matrix (the row-major gather is
/// the transpose, which has the same spectrum).
template <class T>
std::vector<double> dense_spectrum(const Matrix<T>& a) {
  const auto w = tseig::test::lapack_eigenvalues(dense_of(a), static_cast<int>(a.rows()));
  return std::vector<double>(w.begin(), w.end());
}

/// Largest |a_k − b_k|.
template <class T>
double max_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double d = a.size() == b.size() ? 0.0 : 1e300;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    const double e = std::abs(a[k] - b[k]);
    if (std::isnan(e)) return INFINITY;  // std::max would drop a NaN
    d = std::max(d, e);
  }
  return d;
}

}  // namespace tseig::sparse::test
