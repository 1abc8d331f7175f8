#pragma once
// SparseTuneParameters: the performance knobs of the sparse layer, the `sparse` member of
// the library-wide TuneParameters (tseig/tune.hpp). Each default says its reason or the
// measurement behind it; the sparse tuner (tseig/sparse/autotune.hpp) measures format,
// block width, pipeline_blocks and rr_distributed_min per matrix, rank count and machine.

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
  /// ChebFD's block width nb: the columns filtered together (the kernels take any width;
  /// 1, 2, 4, 8, 16, 32, 64 have specialised code). LOBPCG's block is its nev + guard
  /// columns. 8: the Krylov–Schur space grows by fewer filtered vectors per expansion
  /// (TI 64×64×16, 20 nearest 0, np = 2: 54 s at 8, 70 s at 16, 58 s at 4).
  int block_width = 8;
  /// ChebFD's subspace iteration: blocks of block_width columns filtered together, a
  /// degree step each in turn, so each block's halo exchange travels during the whole
  /// sweep of the block before it (the pipelining of Pieper et al. 2016) instead of only
  /// its own interior rows; each further block costs three blocks of scratch. 1: one
  /// block at a time. (The Krylov–Schur variant filters one block per expansion.) 1 by
  /// measurement where ranks share a node's memory: the exchange is a copy the rank's own
  /// core makes (see overlap_halo), and two blocks' working set leaves the cache (filter step, np =
  /// 2, Zen 5, GFlop/s one block / two in turn: TI 64×64×16 at 8 columns 57.1 / 55.3,
  /// Laplacian 64³ 42.4 / 33.8). The tuner times both for ChebFD (sparse::autotune),
  /// where the exchange crosses a network it can pay.
  int pipeline_blocks = 1;
  /// Rayleigh–Ritz in the block solvers: projected problems of at least this order go to
  /// the distributed dense solver (tseig::Eigensolver on a grid over the matrix's ranks),
  /// smaller ones to LAPACK on one rank and a broadcast. The crossover depends on the
  /// type (np = 2, Zen 5, tseig-tune --rr-orders, one rank / grid: real 800 0.11 /
  /// 0.20 s, 1200 0.44 / 0.46 s; complex 200 0.007 / 0.010 s, 400 0.045 / 0.043 s,
  /// 800 0.32 / 0.20 s, 1600 5.2 / 1.5 s); 1000 lies between the two, at most ≈ 0.1 s
  /// from the better choice per Rayleigh–Ritz step below 1200. The tuner measures it
  /// per matrix and rank count.
  int rr_distributed_min = 1000;
  /// How LOBPCG gets H·X after each Rayleigh–Ritz: 0 follows it through the small
  /// transformation that makes the new X (the H-products of [X P W] rotated: one operator
  /// application per iteration, the right choice when H is expensive); 1 applies H to the
  /// new X (for a sparse matrix with few nonzeros per row far cheaper than rotating a
  /// 3m-column block); −1 (default): 1 for a Matrix with fewer than 1.5·m nonzeros per
  /// row (m = nev + guard), else 0 (a flop model, so every run takes the same path).
  int lobpcg_recompute_hx = -1;
  /// Whether the kernels sweep the rows that read no halo entry while the halo is in
  /// flight (1), or wait for it and sweep the rows in order (0). −1 (default): 1 where
  /// some of a rank's halo comes from another node, 0 where all of it comes from ranks on
  /// its own node. That exchange is a copy this rank's core makes when it waits (shared-
  /// memory transports progress only inside MPI calls), so nothing is hidden, while rows
  /// in order find their neighbours' X rows still in cache (TI 64³, np = 2, whose
  /// boundary rows lie scattered through the tiles: aug_spmmv and chebfd_op 2–7 % faster
  /// at nb = 8–64; the Laplacian unchanged).
  int overlap_halo = -1;
  /// Whether the CRS sweep prefetches into L2, four rows ahead, the X rows each row will
  /// read (1) or leaves them to the hardware (0), or (2) also prefetches, eight rows
  /// ahead, what the sweep reads in row order (the row's entries and column indices, its
  /// own X row, the kernel's Y, W or X rows). −1 (default): 2 where a row's entries take
  /// 128 bytes or more on average and a block row 128–512 bytes (the TI 64³, complex
  /// double, nb = 8–32, Zen 5 VM: aug_spmmv and chebfd_op 6–21 % faster than the other
  /// settings; the real 3D Laplacian lost 15–19 % with it); else 1 for block rows of at
  /// least 256 bytes (complex double nb ≥ 16, double nb ≥ 32), where the AVX-512 Xeon VM
  /// ran aug_spmmv on the TI 64³ at nb = 16 / 32 / 64 at 25 / 18 / 16 → 28 / 27 / 23
  /// GFlop/s with it; else 0. Machines and matrices differ (the Laplacian at nb = 32 ran
  /// 12–20 % faster without the X-row prefetch on the Zen 5 VM), so the tuner times all
  /// three settings beside the default (CRS only).
  int prefetch_x = -1;

  bool operator==(const SparseTuneParameters&) const = default;
};

}  // namespace tseig::sparse
