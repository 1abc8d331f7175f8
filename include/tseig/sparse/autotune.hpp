#pragma once
// The sparse layer's tuner: measures, on the caller's own matrix and ranks, the local
// storage format (CRS or SELL-C-σ with its C and σ) by the kernel a solver will run, and
// the order from which Rayleigh–Ritz is faster on the distributed dense solver than on
// one rank, for ChebFD whether its filter's blocks should take turns (pipeline_blocks),
// with CRS whether its sweep should prefetch the X rows (prefetch_x), and stores them in the tuning
// cache (the dense tuner's file, under a key of the matrix's shape, the rank count and the kernel).
// tseig-tune's sparse mode adds ChebFD's block width, timed by whole ChebFD solves.
// tuned_parameters reads them back for a later run: the cache, else the defaults of
// SparseTuneParameters; a knob the user set is never replaced.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tseig/export.hpp"
#include "tseig/sparse/matrix.hpp"
#include "tseig/sparse/tune.hpp"

namespace tseig::sparse {

/// The kernel the formats are timed with (the one the intended solver spends its time in).
enum class TunedKernel {
  spmmv,      ///< LOBPCG, the Lanczos bounds
  aug_spmmv,  ///< KPM
  chebfd_op,  ///< ChebFD's filter
};

struct SparseAutotuneOptions {
  TunedKernel kernel = TunedKernel::spmmv;
  /// Columns of the block the kernel is timed on: the solver's (ChebFD's block width,
  /// LOBPCG's nev plus guard vectors, KPM's random vectors). For chebfd_op it is also
  /// the block width stored.
  int block_width = 8;
  /// Least time per measurement; each is the best of repetitions filling it.
  double seconds = 0.2;
  /// SELL-C-σ candidates (C, σ), each timed against CRS.
  std::vector<std::pair<int, int>> sell_candidates{{4, 4}, {8, 8}, {8, 128}, {32, 32}, {32, 256}};
  /// Orders of projected problems timed on one rank and on the grid (ascending; those
  /// above the matrix's order are skipped); none timed: rr_distributed_min keeps its
  /// default.
  std::vector<int> rr_orders{200, 400, 800, 1600};
  /// Cache file the result is stored in; empty: $TSEIG_TUNE_FILE; neither: not stored.
  std::string tune_file{};
};

/// One measurement of the search: what ran ("crs", "sell-8-128", "filter, 2 blocks in
/// turn" (per block and degree step), "rr 400 one rank", "rr 400 grid") and its best time
/// in seconds (the slowest rank's).
struct SparseTuneTrial {
  std::string what;
  double seconds = 0;
};

struct SparseAutotuneResult {
  SparseTuneParameters best;  ///< the measured knobs (and, for chebfd_op, block_width
                              ///< and pipeline_blocks);
                              ///< the others at their defaults
  std::vector<SparseTuneTrial> trials;
  std::string stored_in;  ///< the cache file written, "" when none
};

/// "spmmv", "aug_spmmv", "chebfd_op".
TSEIG_API const char* to_string(TunedKernel k);

/// "crs" or "sell-C-σ" with the numbers (e.g. "sell-32-256"): for reports.
TSEIG_API std::string format_label(const SparseTuneParameters& t);

/// format_label with CRS's X-row prefetch where it is forced ("crs, no prefetch",
/// "crs, X rows prefetched", "crs, X rows and row streams prefetched"): the storage candidates'
/// names in the tuner's reports.
TSEIG_API std::string storage_label(const SparseTuneParameters& t);

/// Collective over a.comm(): measures the candidates and stores the best (see the top of
/// this file). The same result on every rank. Errors (bad options) on every rank.
template <class T>
TSEIG_API SparseAutotuneResult autotune(const Matrix<T>& a, const SparseAutotuneOptions& o = {});

/// Collective: the cached measurement for `kernel` on a matrix like `a` on this many
/// ranks (tune_file, else $TSEIG_TUNE_FILE), the unmeasured knobs at their defaults;
/// nullopt when there is none (a corrupt or foreign cache: one warning, nullopt).
template <class T>
TSEIG_API std::optional<SparseTuneParameters> cached_tuning(const Matrix<T>& a, TunedKernel kernel,
                                                            const std::string& tune_file = "");

/// Collective: `user` with the knobs it leaves at their defaults replaced by the cached
/// measurement for a matrix like `a` on this many ranks (tune_file, else
/// $TSEIG_TUNE_FILE); `user` itself when there is none. A corrupt or foreign cache gives
/// one warning and `user`. Adopt a tuned format with a.with_format(result).
template <class T>
TSEIG_API SparseTuneParameters tuned_parameters(const Matrix<T>& a, TunedKernel kernel,
                                                const SparseTuneParameters& user = {},
                                                const std::string& tune_file = "");

}  // namespace tseig::sparse
