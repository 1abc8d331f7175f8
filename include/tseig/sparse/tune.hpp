#pragma once
// SparseTuneParameters: the performance knobs of the sparse layer, the `sparse` member of
// the library-wide TuneParameters (tseig/tune.hpp). Defaults are reasoned, not yet
// measured; the tuner will replace them per machine.

namespace tseig::sparse {

/// Local storage of a distributed sparse matrix.
enum class SparseFormat {
  crs,           ///< compressed row storage
  sell_c_sigma,  ///< SELL-C-σ: chunks of C rows stored column-wise, rows sorted by length
                 ///< within windows of σ rows
};

struct SparseTuneParameters {
  /// Local storage format. CRS: with block vectors the kernels vectorize across the block
  /// width, so CRS loses nothing on CPUs; SELL-C-σ is the layout GPUs want.
  SparseFormat format = SparseFormat::crs;
  /// SELL-C-σ chunk height C: rows processed together (32 = one GPU warp; also a
  /// multiple of every CPU SIMD width).
  int sell_chunk = 32;
  /// SELL-C-σ sorting window σ (a multiple of C): rows are sorted by length inside
  /// windows of σ rows, so chunks need little zero padding while the row order (and with
  /// it the access pattern to the vectors) stays local.
  int sell_sigma = 256;
  /// Block width nb in which solvers process their block vectors (the kernels take any
  /// width; 1, 2, 4, 8, 16, 32, 64 have specialised code).
  int block_width = 16;
  /// Rayleigh–Ritz in the block solvers: projected problems of at least this order go to
  /// the distributed dense solver (tseig::Eigensolver on a grid over the matrix's ranks),
  /// smaller ones to LAPACK on one rank and a broadcast. Reasoned default, not yet
  /// measured: below ~1000 one LAPACK call beats the distributed solver's set-up and
  /// communication on every machine we know.
  int rr_distributed_min = 1000;

  bool operator==(const SparseTuneParameters&) const = default;
};

}  // namespace tseig::sparse
