// CholeskyFactor: S = UᴴU, U⁻¹ and Uᴴ, computed once per S.
#include <algorithm>
#include <string>
#include <vector>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/stage_timer.hpp"
#include "dense/check_input.hpp"
#include "dense/linalg/cholesky/api.hpp"
#include "dense/linalg/invert_triangular/api.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"
#include "tseig/generalized.hpp"

namespace tseig {

template <class T>
CholeskyFactor<T>::CholeskyFactor(const DistMatrix<T>& S, Triangle triangle, bool check_input) {
  const Grid& grid = S.grid();
  const MPI_Comm comm = grid.comm();
  std::vector<int> arguments{static_cast<int>(triangle), check_input};
  append_layout(arguments, S);
  dense::require_same_arguments(comm, arguments, "CholeskyFactor");
  raise_if_any(comm, S.m() != S.n(), ErrorCode::invalid_argument,
               "CholeskyFactor: S must be square, got " + std::to_string(S.m()) + "x" +
                   std::to_string(S.n()));
  {
    StageTimer timer(times_, Stage::cholesky);
    // Always a copy in the working layout: S stays untouched.
    upper_ = dense::is_working_layout(S) ? S.clone() : S.redistribute(grid, S.nb(), S.nb());
    if (check_input) dense::check_input(upper_, triangle, "S (B in the C API and the drop-ins)");
    // The kernel reads the upper triangle; a lower one is brought there first.
    if (triangle == Triangle::lower) upper_ = dense::conjugate_transpose(upper_);
    dense::cholesky_upper<Device::host>(upper_);
  }
  {
    StageTimer timer(times_, Stage::invert_triangular);
    // inverse_ = U⁻¹ + U⁻ᴴ − diag(U⁻¹): both triangles of one matrix (see inverse()).
    DistMatrix<T> X = upper_.clone();
    dense::invert_upper<Device::host>(X);
    inverse_ = dense::conjugate_transpose(X);
    for (int lj = 0; lj < X.local_cols(); ++lj) {
      const int gj = X.global_col(lj);
      std::copy_n(&X.local(0, lj), X.local_rows_before(gj + 1), &inverse_.local(0, lj));
    }
  }
  agree_on_times(comm, times_);
  times_.total = times_.get(Stage::cholesky) + times_.get(Stage::invert_triangular);
  factored_ = true;
}

#define TSEIG_INSTANTIATE(T) template class CholeskyFactor<T>;
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig
