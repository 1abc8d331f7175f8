#pragma once
// Stages 0 and 6 of the dense pipeline: the generalized problem H z = λ S z reduced to
// a standard one with a CholeskyFactor of S, and its eigenvectors transformed back.
#include "tseig/eigensolver.hpp"
#include "tseig/generalized.hpp"

namespace tseig::dense {

/// Collective. A (working layout, the `triangle` part valid and checked) ← U⁻ᴴ A U⁻¹;
/// on return the lower triangle is valid, as the solvers expect. Solver::scalapack uses
/// p?sygst/p?hegst with U; the others tseig's hermitian_multiply with U⁻¹. The time
/// goes to `times` as "transform".
template <class T>
void reduce_generalized(DistMatrix<T>& A, Triangle triangle, const CholeskyFactor<T>& factor,
                        Solver solver, const TuneParameters& tune, StageTimes& times);

/// Collective. Z(:, 0:nev) ← U⁻¹ Z(:, 0:nev) ("backtransform_generalized"). Z is on A's
/// grid with rows blocked like A's (mb = the working block size, rsrc = 0).
template <class T>
void backtransform_generalized(const CholeskyFactor<T>& factor, int block_size, DistMatrix<T>& Z,
                               int nev, Solver solver, const TuneParameters& tune,
                               StageTimes& times);

}  // namespace tseig::dense
