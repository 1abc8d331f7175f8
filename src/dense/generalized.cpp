// Stages 0 and 6 of the generalized eigenproblem H z = λ S z = λ UᴴU z: Ã = U⁻ᴴ H U⁻¹ by
// two triangular products (hermitian_multiply, as ELPA does) before the standard solve of
// Ã, and z = U⁻¹ z̃ for the nev vectors only after it.
#include "dense/generalized.hpp"

#include <string>

#include "core/blas/scalapack.hpp"
#include "core/instantiate.hpp"
#include "core/stage_timer.hpp"
#include "dense/check_input.hpp"
#include "dense/linalg/hermitian_multiply/api.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

namespace {

// The factor's matrix M in A's working layout: M itself when the blocking matches (the
// common case: S and H blocked alike), else a copy in `holder`.
template <class T>
const DistMatrix<T>& in_layout(const DistMatrix<T>& M, const Grid& grid, int bs,
                               DistMatrix<T>& holder) {
  if (M.nb() == bs && M.grid().same_as(grid)) return M;
  holder = M.redistribute(grid, bs, bs);
  return holder;
}

// Makes both triangles of A valid from the `triangle` part.
template <class T>
void make_full(DistMatrix<T>& A, Triangle triangle) {
  if (triangle == Triangle::upper) make_lower_valid(A, Triangle::upper);
  if (triangle != Triangle::lower) return;
  const DistMatrix<T> C = conjugate_transpose(A);
  for (int lj = 0; lj < A.local_cols(); ++lj) {
    const int gj = A.global_col(lj);
    for (int li = 0; li < A.local_rows_before(gj); ++li) A.local(li, lj) = C.local(li, lj);
  }
}

}  // namespace

template <class T>
void reduce_generalized(DistMatrix<T>& A, Triangle triangle, const CholeskyFactor<T>& factor,
                        Solver solver, const TuneParameters& tune, StageTimes& times) {
  StageTimer timer(times, Stage::transform);
  const Grid& grid = A.grid();
  const int n = A.n(), bs = A.nb();
  DistMatrix<T> holder;
  if (solver == Solver::scalapack) {
    // p?sygst with U works on the upper triangle; the solver reads the lower one.
    const DistMatrix<T>& U = in_layout(factor.factor(), grid, bs, holder);
    if (triangle == Triangle::lower) make_full(A, triangle);
    real_t<T> scale = 1;
    const int info =
        scalapack::psygst<T>('U', n, A.data(), 1, 1, A.desc(), U.data(), 1, 1, U.desc(), scale);
    raise_if_any(grid.comm(), info != 0, ErrorCode::numerical_failure,
                 std::string("ScaLAPACK ") + (is_complex_v<T> ? "p?hegst" : "p?sygst") +
                     " failed with info = " + std::to_string(info));
    make_lower_valid(A, Triangle::upper);
  } else {
    // X = U⁻¹ in the upper triangle of `inverse`, Xᴴ in its lower one.
    const DistMatrix<T>& X = in_layout(factor.inverse(), grid, bs, holder);
    make_full(A, triangle);
    DistMatrix<T> P = DistMatrix<T>::like(A);
    hermitian_multiply_aligned<Device::host>(Triangle::upper, Triangle::full, X, A, P, n,
                                             tune);  // P = Xᴴ H
    scalapack::ptranc<T>(n, n, T(1), P.data(), 1, 1, P.desc(), T(0), A.data(), 1, 1,
                         A.desc());  // A = H X
    // The upper triangle of Xᴴ (H X) costs N³/3 flops, the lower one twice that; the
    // solvers read the lower one, so it is taken from the upper by a transpose.
    hermitian_multiply_aligned<Device::host>(Triangle::upper, Triangle::upper, X, A, P, n, tune);
    scalapack::ptranc<T>(n, n, T(1), P.data(), 1, 1, P.desc(), T(0), A.data(), 1, 1, A.desc());
    // Rounding leaves an imaginary part of order ε on the diagonal; Ã is Hermitian.
    if constexpr (is_complex_v<T>)
      for (int lj = 0; lj < A.local_cols(); ++lj) {
        const int gj = A.global_col(lj);
        if (A.row_owner(gj) == grid.myrow()) {
          T& a = A.local(A.local_row(gj), lj);
          a = T(std::real(a));
        }
      }
  }
}

template <class T>
void backtransform_generalized(const CholeskyFactor<T>& factor, int block_size, DistMatrix<T>& Z,
                               int nev, Solver solver, const TuneParameters& tune,
                               StageTimes& times) {
  StageTimer timer(times, Stage::backtransform_generalized);
  const int n = Z.m();
  DistMatrix<T> holder;
  if (solver == Solver::scalapack) {
    // U z = z̃ solved in place.
    const DistMatrix<T>& U = in_layout(factor.factor(), Z.grid(), block_size, holder);
    scalapack::ptrsm<T>('L', 'U', 'N', 'N', n, nev, T(1), U.data(), 1, 1, U.desc(), Z.data(), 1, 1,
                        Z.desc());
  } else {
    // Z = (Xᴴ)ᴴ Z̃ with Xᴴ the lower triangle of `inverse`.
    const DistMatrix<T>& X = in_layout(factor.inverse(), Z.grid(), block_size, holder);
    const DistMatrix<T> Ztilde = Z.clone();
    hermitian_multiply_aligned<Device::host>(Triangle::lower, Triangle::full, X, Ztilde, Z, nev,
                                             tune);
  }
}

#define TSEIG_INSTANTIATE(T)                                                                   \
  template void reduce_generalized(DistMatrix<T>&, Triangle, const CholeskyFactor<T>&, Solver, \
                                   const TuneParameters&, StageTimes&);                        \
  template void backtransform_generalized(const CholeskyFactor<T>&, int, DistMatrix<T>&, int,  \
                                          Solver, const TuneParameters&, StageTimes&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
