#pragma once
// Stage 4 of the two-stage path: eigenvectors of the tridiagonal matrix → eigenvectors
// of the band matrix, by applying the bulge-chasing reflectors in reverse order.
#include "dense/bulge_chase.hpp"
#include "tseig/matrix.hpp"

namespace tseig::dense {

/// X (n×ncols, column-major, leading dimension ldx) ← Q·X with Q from bulge_chase.
/// `group` sweeps at a time run down the columns together (a cache-blocking factor).
/// Runs on the calling rank alone.
template <class T>
void backtransform_band(const BandReflectors<T>& q, T* X, int ldx, int ncols, int group);

/// Collective over Z's grid: Z(:, 0:nev) ← Q·Z(:, 0:nev). The columns are spread over
/// all ranks (every rank holds the reflectors), so no rank waits for another.
template <class T>
void backtransform_band(const BandReflectors<T>& q, DistMatrix<T>& Z, int nev);

}  // namespace tseig::dense
