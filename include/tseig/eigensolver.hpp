#pragma once
// Eigensolver<T>: the dense symmetric/Hermitian eigensolver front door.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tseig/export.hpp"
#include "tseig/matrix.hpp"
#include "tseig/stage_times.hpp"
#include "tseig/tune.hpp"
#include "tseig/validation_report.hpp"

namespace tseig {

enum class Solver {
  automatic,  ///< tuned: the tuning cache, else the machine model, else one_stage
              ///< (tseig/autotune in README; see Eigensolver::last_choice())
  scalapack,  ///< ScaLAPACK p?syevd/p?heevd (p?syevr/p?heevr for nev < N): the reference
  one_stage,  ///< tseig's ELPA1-style solver: Householder tridiagonalization + WY back-transform
  two_stage,  ///< tseig's ELPA2-style solver: full → band → tridiagonal, two back-transforms
};
TSEIG_API const char* to_string(Solver s);
/// Parses "auto", "scalapack", "one_stage", "two_stage"; throws Error(invalid_argument) otherwise.
TSEIG_API Solver solver_from_string(const std::string& name);

/// Which part of A holds valid data on input.
enum class Triangle {
  full,   ///< the whole matrix; checked to be symmetric/Hermitian
  lower,  ///< only the lower triangle is read
  upper,  ///< only the upper triangle is read
};

/// Which processes solve (graceful degradation; README "Working grid").
enum class GridChoice {
  /// A cost model picks among the grids of P ranks, of P − 1 ranks and of fewer ranks
  /// (a problem too small for P ranks): A moves there and Z back, the other ranks wait.
  /// The model is deterministic (N, nev, P, grid shape, type, solver), so the choice,
  /// and the result, is the same run to run.
  automatic,
  as_given,  ///< always the grid of A
};
TSEIG_API const char* to_string(GridChoice g);
/// Parses "auto" and "as_given"; throws Error(invalid_argument) otherwise.
TSEIG_API GridChoice grid_choice_from_string(const std::string& name);

/// Whether the solve uses a GPU (README "GPU"). The stages with a CUDA variant run on
/// the device of each rank (several ranks may share one); the others stay on the host:
/// today the two back-transforms (two_stage: tridiagonal → band and band → full;
/// one_stage: its Householder back-transform).
enum class GpuUse {
  off,        ///< host only
  automatic,  ///< the GPU when every rank has one, else the host
  on,         ///< the GPU; Error(unsupported) with the reason on every rank without one
};
TSEIG_API const char* to_string(GpuUse g);
/// Parses "off", "auto" and "on"; throws Error(invalid_argument) otherwise.
TSEIG_API GpuUse gpu_use_from_string(const std::string& name);

/// A process grid's shape.
struct GridShape {
  int nprow = 0;
  int npcol = 0;
};

/// Where the solver and knobs of a call came from.
enum class ChoiceSource {
  user,      ///< options().solver was set: nothing was chosen
  cache,     ///< a measured entry of the tuning cache (tune_file / TSEIG_TUNE_FILE)
  model,     ///< the machine model: flop and byte counts × this machine's rates
  defaults,  ///< one_stage with the documented defaults (small N, or no model)
  scf,       ///< a trial of the SCF-mode search (Eigensolver::start_autotune)
  scf_best,  ///< the best of a finished SCF-mode search
};
TSEIG_API const char* to_string(ChoiceSource s);

/// One point of the tuner's search space: what a call ran with.
struct TuneChoice {
  Solver solver = Solver::one_stage;
  int block_size = 0;  ///< 0: the input matrix's nb
  TuneParameters tune{};
  ChoiceSource source = ChoiceSource::defaults;
  /// Measured seconds (cache, SCF) or predicted ones (model); 0 otherwise.
  double seconds = 0;
};

/// Eigenpairs il..iu of the ascending spectrum: 1-based and inclusive, as ScaLAPACK
/// p?syevr's RANGE = 'I'.
struct IndexRange {
  int il = 1;
  int iu = 1;
};

/// Every eigenpair whose eigenvalue lies in (vl, vu], as p?syevr's RANGE = 'V'. The
/// boundaries are resolved on the tridiagonal matrix (Sturm counts) by tseig's solvers,
/// so an eigenvalue within rounding of vl or vu may fall on either side.
struct ValueRange {
  double vl = 0;
  double vu = 0;
};

struct EigensolverOptions {
  Solver solver = Solver::automatic;
  int nev = -1;  ///< number of lowest eigenpairs; -1 = all
  /// A subset instead of the nev lowest (at most one of nev, index_range, value_range):
  /// the solve returns the selected eigenvalues in ascending order and their vectors in
  /// Z's first columns; the tridiagonal solve and the back-transforms cost in proportion
  /// to the number selected. With value_range that number is known only during the solve:
  /// Z needs at least as many columns (N always suffices), else Error(invalid_argument).
  std::optional<IndexRange> index_range{};
  std::optional<ValueRange> value_range{};
  int block_size = 0;  ///< internal block size; 0 = the input matrix's nb
  int bandwidth = 0;   ///< two_stage: semi-bandwidth b (a multiple of block_size); 0 = default
  bool eigenvalues_only = false;
  Triangle triangle = Triangle::full;
  bool check_input = true;  ///< reject NaN/Inf and (Triangle::full) non-Hermitian input
  TuneParameters tune{};    ///< performance knobs (tseig/tune.hpp)
  /// Check the result after the solve (tseig/validation.hpp): residual, orthogonality and
  /// that no eigenvalue below the returned ones was missed. Keeps a copy of A (and of S
  /// when only its CholeskyFactor is given, rebuilt as UᴴU) and needs one more N×N matrix
  /// for the count check. A result outside validation_tolerance throws Error(accuracy) on
  /// every rank; validation() has the figures either way.
  bool validate = false;
  /// 0: default_validation_tolerance<T>(N) = 1e3·N·ε of T's real type.
  double validation_tolerance = 0;
  /// Tuning cache (JSON) read by Solver::automatic and written by the SCF mode and
  /// tseig-tune; empty: the environment variable TSEIG_TUNE_FILE, if set. Read on rank 0.
  std::string tune_file{};
  /// Which processes solve; the SCF mode (start_autotune) always uses the grid of A.
  GridChoice grid_choice = GridChoice::as_given;
  /// Which device the stages run on (GpuUse); ScaLAPACK always runs on the host.
  GpuUse gpu = GpuUse::off;
};

namespace tune {
class ScfSearch;  // src/tune/scf_search.hpp
}
namespace dense {
class SubGrids;  // src/dense/sub_grids.hpp
}

template <class T>
class TSEIG_API CholeskyFactor;  // tseig/generalized.hpp

template <class T>
class TSEIG_API Eigensolver {
 public:
  using real = real_t<T>;
  explicit Eigensolver(EigensolverOptions options = {}) : options_(options) {}

  EigensolverOptions& options() { return options_; }
  const EigensolverOptions& options() const { return options_; }

  /// Collective. The nev lowest eigenvalues of A in ascending order, on every rank.
  /// A is overwritten (destroyed), as in ELPA and ScaLAPACK.
  std::vector<real> eigenvalues(DistMatrix<T>& A);

  /// Collective. Eigenvalues (returned, ascending) and eigenvectors: column k of Z is
  /// the eigenvector of eigenvalue k. Z must be N×≥nev on the same grid (any
  /// blocking); columns beyond nev are left untouched. A is overwritten.
  std::vector<real> eigenvectors(DistMatrix<T>& A, DistMatrix<T>& Z);

  /// Collective. H z = λ S z; H is overwritten, S is not. Eigenvectors are S-orthonormal.
  /// S is Hermitian positive definite on H's grid; options().triangle applies to both.
  /// Factors S on every call; pass a CholeskyFactor instead to factor it once.
  std::vector<real> generalized_eigenvectors(DistMatrix<T>& H, const DistMatrix<T>& S,
                                             DistMatrix<T>& Z);
  /// Collective. As above with S given by its factor (ELPA's is_already_decomposed):
  /// the factor must be of an N×N matrix on H's grid.
  std::vector<real> generalized_eigenvectors(DistMatrix<T>& H, const CholeskyFactor<T>& factor,
                                             DistMatrix<T>& Z);
  std::vector<real> generalized_eigenvalues(DistMatrix<T>& H, const DistMatrix<T>& S);
  std::vector<real> generalized_eigenvalues(DistMatrix<T>& H, const CholeskyFactor<T>& factor);

  const StageTimes& timings() const { return times_; }
  /// What the last call ran with and why (ChoiceSource): Solver::automatic's pick.
  const TuneChoice& last_choice() const { return choice_; }
  /// The grid the last call solved on (options().grid_choice); its ranks are the first
  /// nprow·npcol of A's communicator.
  GridShape last_grid() const { return grid_used_; }

  /// SCF mode (ELPA's autotune_setup/autotune_step): from now on each call runs the next
  /// candidate of a pruned search (solver, block size, bandwidth, WY width) on the
  /// problem of that call, times it, and once the search ends keeps the best — stored in
  /// the tuning cache when there is one. Every call stays a correct solve. Each signature
  /// (type, N, nev, grid) has its own search: a call of another signature starts or
  /// resumes that one, and a finished one keeps its best. Options the user set
  /// (solver other than automatic, block_size, knobs other than their defaults) are kept.
  void start_autotune();
  /// True while the SCF search still has candidates to try.
  bool autotuning() const;
  /// The searches so far as JSON (signature, candidates tried, seconds; the current one,
  /// the others in its "other_searches"), to continue them in a later run with
  /// load_autotune_state; "" when start_autotune was not called.
  std::string autotune_state() const;
  /// Collective. Continues a saved search; Error(invalid_argument) on every rank when
  /// `state` is not one autotune_state() wrote (or the ranks pass different texts).
  void load_autotune_state(const std::string& state, MPI_Comm comm);
  /// The figures of the last call's validation (also when it threw Error(accuracy));
  /// empty when options().validate was off.
  const std::optional<ValidationReport>& validation() const { return validation_; }

 private:
  // factor: a generalized problem, reduced with it before and transformed back after.
  // S: the generalized problem's S when the caller gave it (validation compares with it).
  std::vector<real> solve(DistMatrix<T>& A, DistMatrix<T>* Z,
                          const CholeskyFactor<T>* factor = nullptr,
                          const DistMatrix<T>* S = nullptr);
  // w, or Error(accuracy) on every rank when the validation of the solve failed.
  std::vector<real> passed(const DistMatrix<T>& A, std::vector<real> w) const;
  // The solver and knobs of this call (the chain of Solver::automatic, or the SCF search).
  TuneChoice choose(const DistMatrix<T>& A, int nev);
  // Collective: the grid to solve on (options().grid_choice).
  GridShape working_grid(const Grid& grid, Solver solver, int n, int nev, bool vectors, int nb);
  // Records a successful SCF trial; stores the search's best once it is finished.
  void record_trial(const Grid& grid, int n, int nev, double seconds);
  EigensolverOptions options_;
  StageTimes times_;
  TuneChoice choice_;
  GridShape grid_used_;
  std::shared_ptr<tune::ScfSearch> scf_;  // the search of the current signature
  // The searches of the other signatures seen, by key: an SCF loop alternating two kinds
  // of call resumes each (a new search at every change never finished).
  std::map<std::string, std::shared_ptr<tune::ScfSearch>> other_searches_;
  // The calling thread's sub-grids (GridChoice::automatic), kept alive while this solver is.
  std::shared_ptr<dense::SubGrids> subgrids_;
  std::optional<ValidationReport> validation_;
};

}  // namespace tseig
