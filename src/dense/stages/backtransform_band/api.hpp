#pragma once
// Stage 4 of the two-stage path: eigenvectors of the tridiagonal matrix → eigenvectors
// of the band matrix, by applying the bulge-chasing reflectors in reverse order.
#include "core/instantiate.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "tseig/device.hpp"
#include "tseig/matrix.hpp"
#include "tseig/tune.hpp"

namespace tseig::dense {

/// X (n×ncols, column-major, leading dimension ldx) ← Q·X with Q from bulge_chase.
/// `group` sweeps at a time run down the columns together (a cache-blocking factor).
/// Runs on the calling rank alone.
template <class T>
void backtransform_band(const BandReflectors<T>& q, T* X, int ldx, int ncols, int group);

/// Collective over Z's grid: Z(:, 0:nev) ← Q·Z(:, 0:nev), with `chased` as bulge_chase
/// leaves the reflectors (each rank those of its chunk; consumed: freed once they have
/// moved). Columns are split over process columns and rows over process rows; each
/// process row receives only the reflectors of its rows and exchanges halos of
/// b + tune.band_sweeps_per_pass − 1 rows with its neighbours in the process column.
template <Device D, class T>
void backtransform_band(BandReflectors<T> chased, DistMatrix<T>& Z, int nev,
                        const TuneParameters& tune);

// Instantiations: host in host.cpp, CUDA in cuda.cpp (kernel.cu, or hooks without CUDA).
#define TSEIG_EXTERN(T)                                                                            \
  extern template void backtransform_band<Device::host, T>(BandReflectors<T>, DistMatrix<T>&, int, \
                                                           const TuneParameters&);                 \
  extern template void backtransform_band<Device::cuda, T>(BandReflectors<T>, DistMatrix<T>&, int, \
                                                           const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_EXTERN)
#undef TSEIG_EXTERN

}  // namespace tseig::dense
