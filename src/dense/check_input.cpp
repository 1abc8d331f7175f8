#include "dense/check_input.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

namespace {
bool in_triangle(Triangle t, int gi, int gj) {
  return t == Triangle::full || (t == Triangle::lower ? gi >= gj : gi <= gj);
}

}  // namespace

template <class T>
void require_finite(const DistMatrix<T>& A, Triangle triangle, const std::string& what) {
  std::string where;
  for (int lj = 0; lj < A.local_cols() && where.empty(); ++lj)
    for (int li = 0; li < A.local_rows(); ++li) {
      const int gi = A.global_row(li), gj = A.global_col(lj);
      const T a = A.local(li, lj);
      if (in_triangle(triangle, gi, gj) &&
          !(std::isfinite(std::real(a)) && std::isfinite(std::imag(a)))) {
        char text[64];
        std::snprintf(text, sizeof text, "(%d, %d)", gi, gj);
        where = text;
        break;
      }
    }
  raise_if_any(A.grid().comm(), !where.empty(), ErrorCode::not_finite,
               what + " has a NaN or Inf entry at 0-based position " + where);
}

template <class T>
void check_input(const DistMatrix<T>& A, Triangle triangle) {
  using R = real_t<T>;
  require_finite(A, triangle, "input matrix");
  if (triangle != Triangle::full) return;

  const DistMatrix<T> C = conjugate_transpose(A);
  R m[2] = {0, 0};  // max|A − Aᴴ|, max|A|
  for (int lj = 0; lj < A.local_cols(); ++lj)
    for (int li = 0; li < A.local_rows(); ++li) {
      m[0] = std::max(m[0], std::abs(A.local(li, lj) - C.local(li, lj)));
      m[1] = std::max(m[1], std::abs(A.local(li, lj)));
    }
  MPI_Allreduce(MPI_IN_PLACE, m, 2, mpi_type<R>(), MPI_MAX, A.grid().comm());
  const R tol = std::sqrt(std::numeric_limits<R>::epsilon()) * m[1];
  if (m[0] > tol) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "input matrix is not %s: max|A - A^H| = %.3e > sqrt(eps)*max|A| = %.3e "
                  "(pass Triangle::lower or Triangle::upper to use one triangle only)",
                  is_complex_v<T> ? "Hermitian" : "symmetric", static_cast<double>(m[0]),
                  static_cast<double>(tol));
    throw Error(ErrorCode::not_hermitian, text);
  }
}

template <class T>
void make_lower_valid(DistMatrix<T>& A, Triangle triangle) {
  if (triangle != Triangle::upper) return;
  const DistMatrix<T> C = conjugate_transpose(A);
  for (int lj = 0; lj < A.local_cols(); ++lj)
    for (int li = 0; li < A.local_rows(); ++li)
      if (A.global_row(li) > A.global_col(lj)) A.local(li, lj) = C.local(li, lj);
}

#define TSEIG_INSTANTIATE(T)                                                        \
  template void check_input(const DistMatrix<T>&, Triangle);                        \
  template void require_finite(const DistMatrix<T>&, Triangle, const std::string&); \
  template void make_lower_valid(DistMatrix<T>&, Triangle);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
