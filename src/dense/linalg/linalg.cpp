// tseig/linalg.hpp: argument checks on every rank, then the kernels on the working
// layout (operands in another layout are copied into it and back).
#include <string>
#include <vector>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/linalg/cholesky/api.hpp"
#include "dense/linalg/hermitian_multiply/api.hpp"
#include "dense/linalg/invert_triangular/api.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"

namespace tseig {

namespace {

// cholesky and invert_triangular: their kernels work on the upper triangle in the
// working layout, so A is used in place when it is upper and in that layout, else a
// working copy is made (conjugate-transposed for a lower triangle: the Cholesky factor
// and the inverse of Lᴴ are those of L, transposed back).
template <class T, class Kernel>
void on_upper_working_copy(DistMatrix<T>& A, Triangle uplo, const std::string& name,
                           Kernel kernel) {
  const MPI_Comm comm = A.grid().comm();
  std::vector<int> arguments{static_cast<int>(uplo)};
  append_layout(arguments, A);
  dense::require_same_arguments(comm, arguments, name.c_str());
  raise_if_any(comm, uplo == Triangle::full, ErrorCode::invalid_argument,
               name + ": uplo must be Triangle::upper or Triangle::lower");
  raise_if_any(
      comm, A.m() != A.n(), ErrorCode::invalid_argument,
      name + ": A must be square, got " + std::to_string(A.m()) + "x" + std::to_string(A.n()));
  if (A.n() == 0) return;
  if (uplo == Triangle::upper && dense::is_working_layout(A)) {
    kernel(A);
    return;
  }
  DistMatrix<T> W = A.redistribute(A.grid(), A.nb(), A.nb());
  if (uplo == Triangle::lower) W = dense::conjugate_transpose(W);
  kernel(W);
  if (uplo == Triangle::lower) W = dense::conjugate_transpose(W);
  A.copy_from(W);
}

}  // namespace

template <class T>
void cholesky(DistMatrix<T>& A, Triangle uplo) {
  on_upper_working_copy(A, uplo, "cholesky",
                        [](DistMatrix<T>& M) { dense::cholesky_upper<Device::host>(M); });
}

template <class T>
void invert_triangular(DistMatrix<T>& A, Triangle uplo) {
  on_upper_working_copy(A, uplo, "invert_triangular",
                        [](DistMatrix<T>& M) { dense::invert_upper<Device::host>(M); });
}

template <class T>
void hermitian_multiply(Triangle uplo_a, Triangle uplo_c, const DistMatrix<T>& A,
                        const DistMatrix<T>& B, DistMatrix<T>& C, int ncb) {
  const Grid& grid = A.grid();
  const MPI_Comm comm = grid.comm();
  raise_if_any(comm, !grid.same_processes(B.grid()) || !grid.same_processes(C.grid()),
               ErrorCode::grid_mismatch,
               "hermitian_multiply: A, B and C must be distributed over the same processes");
  const int n = A.n();
  if (ncb < 0) ncb = B.n();
  std::vector<int> arguments{static_cast<int>(uplo_a), static_cast<int>(uplo_c), ncb};
  for (const DistMatrix<T>* M : {&A, &B, static_cast<const DistMatrix<T>*>(&C)})
    append_layout(arguments, *M);
  dense::require_same_arguments(comm, arguments, "hermitian_multiply");
  raise_if_any(comm, A.m() != n || B.m() != n || C.m() != n || ncb > B.n() || ncb > C.n(),
               ErrorCode::invalid_argument,
               "hermitian_multiply: need A N×N and B, C with N rows and >= ncb columns (A " +
                   std::to_string(A.m()) + "x" + std::to_string(n) + ", B " +
                   std::to_string(B.m()) + "x" + std::to_string(B.n()) + ", C " +
                   std::to_string(C.m()) + "x" + std::to_string(C.n()) +
                   ", ncb = " + std::to_string(ncb) + ")");
  if (n == 0 || ncb == 0) return;
  const int nb = A.nb();
  const bool a_ok = dense::is_working_layout(A);
  const auto rows_ok = [&](const DistMatrix<T>& M) {
    return M.grid().same_as(grid) && M.mb() == nb && M.rsrc() == 0;
  };
  if (a_ok && rows_ok(B) && rows_ok(C) && B.nb() == C.nb() && B.csrc() == C.csrc()) {
    dense::hermitian_multiply_aligned<Device::host>(uplo_a, uplo_c, A, B, C, ncb, TuneParameters{});
    return;
  }
  DistMatrix<T> Acopy;
  if (!a_ok) Acopy = A.redistribute(grid, nb, nb);
  const DistMatrix<T> Bw = B.redistribute(grid, nb, nb);
  DistMatrix<T> Cw(grid, n, ncb, nb, nb);
  dense::hermitian_multiply_aligned<Device::host>(uplo_a, uplo_c, a_ok ? A : Acopy, Bw, Cw, ncb,
                                                  TuneParameters{});
  C.copy_from(Cw, ncb);
}

#define TSEIG_INSTANTIATE(T)                                                                       \
  template void cholesky(DistMatrix<T>&, Triangle);                                                \
  template void invert_triangular(DistMatrix<T>&, Triangle);                                       \
  template void hermitian_multiply(Triangle, Triangle, const DistMatrix<T>&, const DistMatrix<T>&, \
                                   DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig
