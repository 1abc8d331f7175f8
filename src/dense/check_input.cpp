// Input checks in two passes over the local data: finiteness and the largest component
// in one streaming scan, then |A − Aᴴ| and max|A| over block pairs brought together by
// mirror_blocks (only the strictly upper blocks travel; no transposed copy is formed).
#include "dense/check_input.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/mirror_blocks.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

namespace {

// The local rows of column lj that lie in `triangle` (local rows ascend with global ones).
template <class T>
std::pair<int, int> rows_in(const DistMatrix<T>& A, Triangle triangle, int lj) {
  const int gj = A.global_col(lj);
  if (triangle == Triangle::lower) return {A.local_rows_before(gj), A.local_rows()};
  if (triangle == Triangle::upper) return {0, A.local_rows_before(gj + 1)};
  return {0, A.local_rows()};
}

// Over the part of A in `triangle`: whether every entry is finite, and the largest
// |real part| or |imaginary part| (a plain max/and reduction the compiler vectorizes).
template <class T>
std::pair<bool, real_t<T>> scan_components(const DistMatrix<T>& A, Triangle triangle) {
  using R = real_t<T>;
  constexpr int parts = is_complex_v<T> ? 2 : 1;
  bool finite = true;
  R biggest = 0;
  for (int lj = 0; lj < A.local_cols(); ++lj) {
    const auto [first, last] = rows_in(A, triangle, lj);
    const R* x = reinterpret_cast<const R*>(&A.local(0, lj));
    for (long k = long(first) * parts; k < long(last) * parts; ++k) {
      const R a = std::abs(x[k]);
      finite &= a <= std::numeric_limits<R>::max();
      biggest = std::max(biggest, a);
    }
  }
  return {finite, biggest};
}

// |x|² with x scaled by s (s = 1/max component keeps it from overflowing).
template <class T>
real_t<T> scaled_norm2(T x, real_t<T> s) {
  const real_t<T> re = std::real(x) * s, im = std::imag(x) * s;
  return re * re + im * im;
}

// The 0-based position of a non-finite entry of `triangle` held here, "" if none.
template <class T>
std::string first_non_finite(const DistMatrix<T>& A, Triangle triangle) {
  for (int lj = 0; lj < A.local_cols(); ++lj) {
    const auto [first, last] = rows_in(A, triangle, lj);
    for (int li = first; li < last; ++li) {
      const T a = A.local(li, lj);
      if (!(std::isfinite(std::real(a)) && std::isfinite(std::imag(a)))) {
        char text[64];
        std::snprintf(text, sizeof text, "(%d, %d)", A.global_row(li), A.global_col(lj));
        return text;
      }
    }
  }
  return "";
}

// Scans `triangle`; throws Error(not_finite) on every rank if an entry is NaN or Inf.
// Returns the largest component over all ranks.
template <class T>
real_t<T> scan_finite(const DistMatrix<T>& A, Triangle triangle, const std::string& what) {
  using R = real_t<T>;
  auto [finite, biggest] = scan_components(A, triangle);
  const std::string where = finite ? "" : first_non_finite(A, triangle);
  raise_if_any(A.grid().comm(), !finite, ErrorCode::not_finite,
               what + " has a NaN or Inf entry at 0-based position " + where);
  MPI_Allreduce(MPI_IN_PLACE, &biggest, 1, mpi_type<R>(), MPI_MAX, A.grid().comm());
  return biggest;
}

}  // namespace

template <class T>
void require_finite(const DistMatrix<T>& A, Triangle triangle, const std::string& what) {
  scan_finite(A, triangle, what);
}

template <class T>
void check_input(const DistMatrix<T>& A, Triangle triangle, const std::string& what) {
  using R = real_t<T>;
  const R biggest = scan_finite(A, triangle, "input matrix " + what);
  if (triangle != Triangle::full) return;

  // max|A(i,j) − conj(A(j,i))|² and max|A|², scaled by 1/biggest: every entry of A is in
  // a visited block or in the mirror sent to it, so one pass gives both.
  const R s = biggest > 0 ? 1 / biggest : 1;
  R m[2] = {0, 0};
  mirror_blocks(A, [&](int li, int lj, int rows, int cols, const T* U, int ldu) {
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) {
        const T a = A.local(li + i, lj + j), u = U[j + long(i) * ldu];
        m[0] = std::max(m[0], scaled_norm2(a - conj_if_complex(u), s));
        m[1] = std::max({m[1], scaled_norm2(a, s), scaled_norm2(u, s)});
      }
  });
  MPI_Allreduce(MPI_IN_PLACE, m, 2, mpi_type<R>(), MPI_MAX, A.grid().comm());
  const R asymmetry = std::sqrt(m[0]) * biggest;
  const R tol = std::sqrt(std::numeric_limits<R>::epsilon()) * std::sqrt(m[1]) * biggest;
  if (asymmetry > tol) {
    char text[160];
    std::snprintf(text, sizeof text, " is not %s: max|X - X^H| = %.3e > sqrt(eps)*max|X| = %.3e",
                  is_complex_v<T> ? "Hermitian" : "symmetric", static_cast<double>(asymmetry),
                  static_cast<double>(tol));
    throw Error(ErrorCode::not_hermitian,
                "input matrix " + what + text +
                    " (to read one triangle only: Triangle::lower or Triangle::upper in C++, "
                    "UPLO in the drop-ins, \"triangle\" in the C API and Fortran)");
  }
}

namespace {

// Overwrites the triangle opposite to `from` with the conjugate of its mirror.
template <class T>
void mirror_triangle(DistMatrix<T>& A, MirrorFrom from) {
  const bool up = from == MirrorFrom::upper;
  mirror_blocks(
      A,
      [&](int li, int lj, int rows, int cols, const T* U, int ldu) {
        const bool diagonal = A.global_row(li) == A.global_col(lj);
        for (int j = 0; j < cols; ++j)
          for (int i = 0; i < rows; ++i)
            if (!diagonal || (up ? i > j : i < j))
              A.local(li + i, lj + j) = conj_if_complex(U[j + long(i) * ldu]);
      },
      from);
}

}  // namespace

template <class T>
void make_lower_valid(DistMatrix<T>& A, Triangle triangle) {
  if (triangle == Triangle::upper) mirror_triangle(A, MirrorFrom::upper);
}

template <class T>
void fill_upper_from_lower(DistMatrix<T>& A) {
  mirror_triangle(A, MirrorFrom::lower);
}

#define TSEIG_INSTANTIATE(T)                                                        \
  template void fill_upper_from_lower(DistMatrix<T>&);                              \
  template void check_input(const DistMatrix<T>&, Triangle, const std::string&);    \
  template void require_finite(const DistMatrix<T>&, Triangle, const std::string&); \
  template void make_lower_valid(DistMatrix<T>&, Triangle);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
