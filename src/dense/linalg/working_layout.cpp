// Helpers of the working layout (working_layout.hpp).
#include "dense/linalg/working_layout.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/blas/scalapack.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
DistMatrix<T> conjugate_transpose(const DistMatrix<T>& A) {
  DistMatrix<T> C = DistMatrix<T>::like(A);
  if (A.m() > 0 && A.n() > 0)
    scalapack::ptranc<T>(A.n(), A.m(), T(1), A.data(), 1, 1, A.desc(), T(0), C.data(), 1, 1,
                         C.desc());
  return C;
}

void require_same_arguments(MPI_Comm comm, const std::vector<int>& values, const char* what) {
  if (!ranks_agree(comm, values))
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": ranks passed different arguments");
}

template <class T>
void zero_outside(DistMatrix<T>& A, Triangle keep, int ncols) {
  if (keep == Triangle::full) return;
  const int lcols = ncols < 0 ? A.local_cols() : A.local_cols_before(ncols);
  for (int lj = 0; lj < lcols; ++lj) {
    const int gj = A.global_col(lj);
    // Local rows are sorted by global row, so each side of the diagonal is one range.
    const int split = A.local_rows_before(keep == Triangle::upper ? gj + 1 : gj);
    const int first = keep == Triangle::upper ? split : 0;
    const int last = keep == Triangle::upper ? A.local_rows() : split;
    std::fill(&A.local(0, lj) + first, &A.local(0, lj) + last, T(0));
  }
}

#define TSEIG_INSTANTIATE(T)                                        \
  template DistMatrix<T> conjugate_transpose(const DistMatrix<T>&); \
  template void zero_outside(DistMatrix<T>&, Triangle, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
