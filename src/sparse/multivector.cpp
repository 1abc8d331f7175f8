// Block-vector operations. Column dots and the Gram matrix accumulate row by row, so
// they stream the row-major block once; the reduction over ranks is one allreduce.
#include "tseig/sparse/multivector.hpp"

#include <sys/mman.h>
#include <algorithm>
#include <cmath>

#include <cstdlib>
#include <memory>
#include <new>
#include <numbers>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "sparse/random.hpp"
#include "tseig/error.hpp"

namespace tseig::sparse {

namespace {

template <class T>
T random_entry(std::uint64_t seed, std::int64_t row, int col) {
  const std::uint64_t h =
      random_bits(seed, static_cast<std::uint64_t>(row), static_cast<std::uint64_t>(col));
  if constexpr (is_complex_v<T>) {
    const double phi = 2 * std::numbers::pi * random_unit(h);
    return T(static_cast<real_t<T>>(std::cos(phi)), static_cast<real_t<T>>(std::sin(phi)));
  } else {
    return (h >> 63) ? T(1) : T(-1);
  }
}

template <class T>
void require_same_rows(const MultiVector<T>& x, const MultiVector<T>& y, const char* what) {
  // The partition key is the same on every rank, so all ranks throw together.
  if (x.layout().partition_key != y.layout().partition_key)
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": blocks have different rows");
}

/// Block storage, 64-byte aligned (a cache line, an AVX-512 register: the kernels' block
/// rows of 64 bytes or more never straddle cache lines, which would halve their load
/// rate); blocks of 2 MiB or more are 2 MiB aligned and asked to be backed by huge pages,
/// because a kernel's reads of X jump between rows far apart (the neighbour planes of a
/// 3D grid) and would otherwise miss the TLB on most of them.
void* allocate_block_storage(std::size_t bytes) {
  constexpr std::size_t huge = std::size_t(1) << 21;
  const std::size_t alignment = bytes >= huge ? huge : 64;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* p = std::aligned_alloc(alignment, rounded);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (alignment == huge) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: errors ignored
#endif
  return p;
}

}  // namespace

template <class T>
MultiVector<T>::MultiVector(const VectorLayout& layout, int cols)
    : layout_(layout), cols_(cols), ld_(cols) {
  if (cols < 0) throw Error(ErrorCode::invalid_argument, "MultiVector: negative column count");
  const std::size_t n = static_cast<std::size_t>(layout.local_rows + layout.halo_rows) * cols;
  // A block vector is made on every rank of its communicator at once: there the storage
  // is had on every rank or on none (Error(out_of_memory) everywhere), so a rank short of
  // memory never leaves the others waiting in the solver's next reduction.
  T* p = nullptr;
  auto allocate = [&] {
    p = static_cast<T*>(allocate_block_storage(std::max<std::size_t>(n, 1) * sizeof(T)));
  };
  if (layout.comm == MPI_COMM_NULL) {
    allocate();
  } else {
    try {
      allocate_collectively(layout.comm, allocate);
    } catch (const Error&) {
      std::free(p);  // had here, not on another rank
      throw;
    }
  }
  std::uninitialized_fill_n(p, n, T(0));
  storage_ = std::shared_ptr<T>(p, [](T* q) { std::free(q); });
  data_ = p;
}

template <class T>
MultiVector<T> MultiVector<T>::view(int first, int count) const {
  if (first < 0 || count < 0 || first + count > cols_)
    throw Error(ErrorCode::invalid_argument, "MultiVector::view: columns out of range");
  MultiVector v = *this;
  v.cols_ = count;
  v.data_ = data_ + first;
  return v;
}

template <class T>
MultiVector<T> MultiVector<T>::packed(int cols) const {
  if (data_ != storage_.get() || cols_ != ld_ || cols < 0 || cols > cols_)
    throw Error(ErrorCode::invalid_argument,
                "MultiVector::packed: needs a whole block at least `cols` wide");
  MultiVector v = *this;
  v.cols_ = v.ld_ = cols;
  return v;
}

template <class T>
void MultiVector<T>::fill_random(std::uint64_t seed) {
  for (int i = 0; i < local_rows(); ++i)
    for (int j = 0; j < cols_; ++j) (*this)(i, j) = random_entry<T>(seed, layout_.first_row + i, j);
}

template <class T>
void MultiVector<T>::set_zero() {
  for (int i = 0; i < local_rows(); ++i) std::fill_n(&(*this)(i, 0), cols_, T(0));
}

template <class T>
void MultiVector<T>::assign(const MultiVector& x) {
  require_same_rows(x, *this, "MultiVector::assign");
  if (x.cols() != cols_)
    throw Error(ErrorCode::invalid_argument, "MultiVector::assign: widths differ");
  for (int i = 0; i < local_rows(); ++i) std::copy_n(&x(i, 0), cols_, &(*this)(i, 0));
}

template <class T>
void axpby(T alpha, const MultiVector<T>& x, T beta, const MultiVector<T>& y) {
  require_same_rows(x, y, "axpby");
  if (x.cols() != y.cols()) throw Error(ErrorCode::invalid_argument, "axpby: widths differ");
  for (int i = 0; i < x.local_rows(); ++i) {
    const T* xr = &x(i, 0);
    T* yr = &y(i, 0);
    for (int j = 0; j < x.cols(); ++j) yr[j] = alpha * xr[j] + beta * yr[j];
  }
}

template <class T>
std::vector<T> column_dots(const MultiVector<T>& x, const MultiVector<T>& y) {
  require_same_rows(x, y, "column_dots");
  if (x.cols() != y.cols()) throw Error(ErrorCode::invalid_argument, "column_dots: widths differ");
  std::vector<T> d(x.cols(), T(0));
  for (int i = 0; i < x.local_rows(); ++i)
    for (int j = 0; j < x.cols(); ++j) d[j] += conj_if_complex(x(i, j)) * y(i, j);
  sum_over_ranks(x.comm(), std::span<T>(d));
  return d;
}

template <class T>
std::vector<real_t<T>> column_norms(const MultiVector<T>& x) {
  const std::vector<T> d = column_dots(x, x);
  std::vector<real_t<T>> n(d.size());
  for (std::size_t j = 0; j < d.size(); ++j) n[j] = std::sqrt(std::real(d[j]));
  return n;
}

template <class T>
std::vector<T> gram(const MultiVector<T>& x, const MultiVector<T>& y) {
  require_same_rows(x, y, "gram");
  const int m = x.cols(), n = y.cols();
  std::vector<T> g(static_cast<std::size_t>(m) * n, T(0));
  for (int i = 0; i < x.local_rows(); ++i)
    for (int b = 0; b < n; ++b) {
      const T yb = y(i, b);
      for (int a = 0; a < m; ++a)
        g[a + static_cast<std::size_t>(b) * m] += conj_if_complex(x(i, a)) * yb;
    }
  sum_over_ranks(x.comm(), std::span<T>(g));
  return g;
}

template <class T>
void multiply(const MultiVector<T>& x, std::span<const T> s, const MultiVector<T>& y) {
  require_same_rows(x, y, "multiply");
  const int m = x.cols(), n = y.cols();
  if (s.size() != static_cast<std::size_t>(m) * n)
    throw Error(ErrorCode::invalid_argument, "multiply: S must be x.cols() × y.cols()");
  std::vector<T> row(n);
  for (int i = 0; i < x.local_rows(); ++i) {
    std::fill(row.begin(), row.end(), T(0));
    for (int a = 0; a < m; ++a) {
      const T xa = x(i, a);
      for (int b = 0; b < n; ++b) row[b] += xa * s[a + static_cast<std::size_t>(b) * m];
    }
    std::copy(row.begin(), row.end(), &y(i, 0));
  }
}

template <class T>
void sum_over_ranks(MPI_Comm comm, std::span<T> values) {
  if (!values.empty())
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), mpi_type<T>(),
                  MPI_SUM, comm);
}

#define TSEIG_INSTANTIATE(T)                                                                   \
  template class TSEIG_API MultiVector<T>;                                                     \
  template TSEIG_API void axpby(T, const MultiVector<T>&, T, const MultiVector<T>&);           \
  template TSEIG_API std::vector<T> column_dots(const MultiVector<T>&, const MultiVector<T>&); \
  template TSEIG_API std::vector<real_t<T>> column_norms(const MultiVector<T>&);               \
  template TSEIG_API std::vector<T> gram(const MultiVector<T>&, const MultiVector<T>&);        \
  template TSEIG_API void multiply(const MultiVector<T>&, std::span<const T>,                  \
                                   const MultiVector<T>&);                                     \
  template TSEIG_API void sum_over_ranks(MPI_Comm, std::span<T>);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
