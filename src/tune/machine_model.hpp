#pragma once
// The machine model behind Solver::automatic when nothing was measured: each stage's
// flop and byte counts divided by this machine's rates. The rates are calibrated once
// per machine and rank count (tune/rates_cache.hpp keeps them; a dgemm, rank-16 and rank-64
// updates, a STREAM triad, the one-stage tridiagonalization's tile product in and out of cache, a
// small bulge chase and its back-transform, a divide & conquer and a Householder back-transform of
// order 1024, an allreduce ping: ≈ 1.5 s, the same on every rank); the per-stage efficiencies
// (fractions of those rates the stages reach) are measured constants of tseig's kernels, documented
// in machine_model.cpp.
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "tseig/eigensolver.hpp"
#include "tune/signature.hpp"

namespace tseig::tune {

struct MachineRates {
  double gemm_gflops = 0;  ///< double-precision dgemm per rank, all ranks running
  /// dgemm of rank-64 updates (the reductions' trailing updates) per rank, all running.
  double panel_gemm_gflops = 0;
  /// The update rank at which a rank-k update runs at half its large-k rate, fitted as
  /// rate(k) ∝ k / (k + update_half_rank) to rank-16 and rank-64 updates.
  double update_half_rank = 4;
  double stream_gbs = 0;   ///< triad bandwidth per rank, all ranks running
  double latency_s = 0;    ///< one small allreduce over the communicator (0 on one rank)
  double network_gbs = 0;  ///< allreduce bandwidth per rank (0 on one rank)
  /// tseig's bulge chase (real double, bandwidth 64) per rank, all ranks running: its
  /// short in-cache loops follow neither the dgemm nor the STREAM rate.
  double bulge_chase_gflops = 0;
  /// All ranks on one node: the chase shares the band and deals out whole sweeps, no
  /// zone of the band is copied between ranks.
  bool chase_shares_node = false;
  /// tseig's stage-4 kernel (the chase's reflectors applied to a block of columns) per
  /// rank, all ranks running.
  double band_backtransform_gflops = 0;
  /// tseig's divide & conquer (order 1024, all vectors, one rank alone) in GFlop/s of
  /// 4/3·n³, per rank, all ranks running.
  double tridiagonal_solve_gflops = 0;
  /// tseig's compact-WY Householder back-transform (order 1024, 1024 columns, one rank
  /// alone) in GFlop/s of 2·n³, per rank, all ranks running: through GEMMs, and through
  /// the reflector kernel (householder_kernel 2, a grid of one process row only).
  double householder_gflops = 0;
  double householder_kernel_gflops = 0;
  /// The one-stage tridiagonalization's memory-bound kernel (both products of a tile of
  /// the lower triangle in one pass) in GB/s of the tile read per rank, all ranks
  /// running: on a tile beyond every cache, on one of at most 2 MiB (the panel's column
  /// updates), and the slowest rate of the tiles up to cache_bytes, the largest that
  /// still ran 1.2× faster than memory (measured within the share of the last-level
  /// cache that sysfs reports; 0: unknown, everything at symv_gbs).
  double symv_gbs = 0;
  double symv_cache_gbs = 0;
  double symv_reach_gbs = 0;
  double cache_bytes = 0;
};

/// Collective: the number of ranks of `comm` on this rank's node.
int ranks_on_node(MPI_Comm comm);

/// Collective: measures the rates on `comm`; every rank returns the same numbers.
MachineRates calibrate(MPI_Comm comm);

struct Prediction {
  std::vector<std::pair<std::string, double>> stages;  ///< seconds per stage
  double total = 0;
  /// The Householder back-transform's path priced: the faster of the two where the grid
  /// has one process row (1 GEMMs, 2 the kernel), else 0 (GEMMs, the only one).
  int householder_kernel = 0;
};

/// Predicted seconds of `solver` (default knobs but the back-transform's path, block size `nb`) on
/// the problem `sig`, with the copy into that blocking when the input's block size `input_nb`
/// differs (0: no copy counted).
Prediction predict(Solver solver, const Signature& sig, int nb, const MachineRates& rates,
                   int input_nb = 0);

/// The block size (the input's, or 16, 32, 64 where the model puts the copy into it
/// ahead) with the smallest prediction of `solver`, and that prediction.
std::pair<int, Prediction> best_blocking(Solver solver, const Signature& sig, int input_nb,
                                         const MachineRates& rates);

/// Of one_stage and two_stage at their best blocking, the one with the smallest
/// prediction (source model, seconds its prediction, block_size 0 for the input's, the
/// back-transform's path priced).
TuneChoice model_choice(const Signature& sig, int input_nb, const MachineRates& rates);

}  // namespace tseig::tune
