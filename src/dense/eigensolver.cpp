// Eigensolver<T>: argument checks, working layout, input checks, solver dispatch, and the
// generalized calls (S factored here or given as a CholeskyFactor) on the same solve.
#include "tseig/eigensolver.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/stage_timer.hpp"
#include "dense/check_input.hpp"
#include "dense/generalized.hpp"
#include "dense/one_stage.hpp"
#include "dense/scalapack_solver.hpp"
#include "dense/scale_up_tiny.hpp"
#include "dense/solve_device.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/sub_grids.hpp"
#include "dense/two_stage.hpp"
#include "dense/validation.hpp"
#include "dense/working_grid.hpp"
#include "tseig/error.hpp"
#include "tseig/linalg.hpp"
#include "tseig/memory.hpp"
#include "tune/automatic_choice.hpp"
#include "tune/candidate.hpp"
#include "tune/json_value.hpp"
#include "tune/machine_model.hpp"
#include "tune/rates_cache.hpp"
#include "tune/scf_search.hpp"
#include "tune/tune_cache.hpp"

namespace tseig {

const char* to_string(Solver s) {
  switch (s) {
    case Solver::automatic:
      return "auto";
    case Solver::scalapack:
      return "scalapack";
    case Solver::one_stage:
      return "one_stage";
    case Solver::two_stage:
      return "two_stage";
  }
  return "unknown";
}

const char* to_string(ChoiceSource s) {
  switch (s) {
    case ChoiceSource::user:
      return "user";
    case ChoiceSource::cache:
      return "cache";
    case ChoiceSource::model:
      return "model";
    case ChoiceSource::defaults:
      return "defaults";
    case ChoiceSource::scf:
      return "scf";
    case ChoiceSource::scf_best:
      return "scf_best";
  }
  return "unknown";
}

Solver solver_from_string(const std::string& name) {
  for (Solver s : {Solver::automatic, Solver::scalapack, Solver::one_stage, Solver::two_stage})
    if (name == to_string(s)) return s;
  throw Error(ErrorCode::invalid_argument,
              "unknown solver '" + name + "' (expected auto, scalapack, one_stage or two_stage)");
}

const char* to_string(GpuUse g) {
  return g == GpuUse::off ? "off" : g == GpuUse::on ? "on" : "auto";
}

GpuUse gpu_use_from_string(const std::string& name) {
  for (GpuUse g : {GpuUse::off, GpuUse::automatic, GpuUse::on})
    if (name == to_string(g)) return g;
  throw Error(ErrorCode::invalid_argument,
              "unknown gpu use '" + name + "' (expected off, auto or on)");
}

const char* to_string(GridChoice g) {
  return g == GridChoice::automatic ? "auto" : "as_given";
}

GridChoice grid_choice_from_string(const std::string& name) {
  for (GridChoice g : {GridChoice::automatic, GridChoice::as_given})
    if (name == to_string(g)) return g;
  throw Error(ErrorCode::invalid_argument,
              "unknown grid choice '" + name + "' (expected auto or as_given)");
}

template <class T>
std::vector<real_t<T>> Eigensolver<T>::eigenvalues(DistMatrix<T>& A) {
  return passed(A, solve(A, nullptr));
}

template <class T>
std::vector<real_t<T>> Eigensolver<T>::eigenvectors(DistMatrix<T>& A, DistMatrix<T>& Z) {
  return passed(A, solve(A, &Z));
}

template <class T>
std::vector<real_t<T>> Eigensolver<T>::passed(const DistMatrix<T>& A, std::vector<real> w) const {
  if (validation_) require_passed(A.grid().comm(), *validation_);
  return w;
}

namespace {

// The S that validation compares with: the caller's, or UᴴU rebuilt from the factor.
template <class T>
DistMatrix<T> validation_s(const DistMatrix<T>* S, const CholeskyFactor<T>& factor,
                           Triangle triangle, int bs) {
  if (S) return dense::full_working_copy(*S, triangle, bs);
  const DistMatrix<T>& U = factor.factor();
  DistMatrix<T> rebuilt(U.grid(), U.n(), U.n(), bs, bs);
  hermitian_multiply(Triangle::upper, Triangle::full, U, U, rebuilt);
  return rebuilt;
}

// Collective, the first step of every entry point (the generalized ones check S or the
// factor before solve()): all ranks must pass the same options, matrix layouts and call,
// so that no later check or collective runs on some ranks only.
template <class T>
void require_same_call(const EigensolverOptions& o, const DistMatrix<T>& A, const DistMatrix<T>* Z,
                       bool factor, const DistMatrix<T>* S) {
  const int n = A.n();
  std::vector<int> arguments{n,
                             o.nev < 0 ? n : o.nev,
                             o.block_size > 0 ? o.block_size : A.nb(),
                             static_cast<int>(o.solver),
                             static_cast<int>(o.triangle),
                             o.check_input ? 1 : 0,
                             o.eigenvalues_only ? 1 : 0,
                             Z ? 1 : 0,
                             o.bandwidth,
                             factor ? 1 : 0,
                             S ? 1 : 0,
                             o.validate ? 1 : 0,
                             static_cast<int>(o.grid_choice),
                             static_cast<int>(o.gpu),
                             o.index_range ? o.index_range->il : 0,
                             o.index_range ? o.index_range->iu : -1,
                             o.value_range ? 1 : 0};
  for (const TuneField& f : tune_fields) arguments.push_back(o.tune.*f.value);
  // Zeros without a value range: the list must have one length on every rank.
  append_bits(arguments, o.value_range ? o.value_range->vl : 0.0);
  append_bits(arguments, o.value_range ? o.value_range->vu : 0.0);
  // The tolerance decides whether Error(accuracy) is raised: compared bit for bit.
  append_bits(arguments, o.validation_tolerance);
  // Z's layout decides whether the solvers write into it or into a copy. Absent matrices
  // count as -1s: the list has the same length in every call, as the allreduce needs.
  for (const DistMatrix<T>* M : {&A, Z, S})
    if (M)
      append_layout(arguments, *M);
    else
      arguments.insert(arguments.end(), 8, -1);
  const MPI_Comm comm = A.grid().comm();
  raise_if_any(
      comm, !ranks_agree(comm, arguments), ErrorCode::invalid_argument,
      "ranks called the eigensolver with different arguments (N, nev, index_range, "
      "value_range, block size, solver, triangle, check_input, eigenvalues_only, bandwidth, tune, "
      "validate, "
      "grid_choice, validation_tolerance, the layouts of A, Z or S) or mixed eigenvalues(), "
      "eigenvectors() and the generalized calls");
}

}  // namespace

template <class T>
void Eigensolver<T>::start_autotune() {
  // The search itself starts at the next call, when the problem's signature is known.
  scf_ =
      std::make_shared<tune::ScfSearch>("", 0, 0, options_, std::vector<tune::SolverPrediction>{});
  other_searches_.clear();
}

template <class T>
bool Eigensolver<T>::autotuning() const {
  return scf_ && (scf_->key().empty() || !scf_->finished());
}

template <class T>
std::string Eigensolver<T>::autotune_state() const {
  if (!scf_) return {};
  std::string state = scf_->state();
  if (other_searches_.empty()) return state;
  // One more member of the current search's object: readers of one search ignore it.
  state.pop_back();
  state += ",\"other_searches\":[";
  for (const auto& [key, search] : other_searches_) {
    if (state.back() != '[') state += ',';
    state += search->state();
  }
  return state + "]}";
}

template <class T>
void Eigensolver<T>::load_autotune_state(const std::string& state, MPI_Comm comm) {
  // Length and a 64-bit hash: states of equal length differ too (another solver order).
  const std::uint64_t hash = std::hash<std::string>{}(state);
  raise_if_any(comm,
               !ranks_agree(comm, {static_cast<int>(state.size()), static_cast<int>(hash),
                                   static_cast<int>(hash >> 32)}),
               ErrorCode::invalid_argument,
               "load_autotune_state: the ranks passed different states");
  std::optional<tune::ScfSearch> loaded;
  std::map<std::string, std::shared_ptr<tune::ScfSearch>> others;
  std::string why;
  try {
    loaded.emplace(tune::ScfSearch::from_state(state));
    const tune::JsonValue doc = tune::JsonValue::parse(state);  // named: find() points into it
    if (const tune::JsonValue* list = doc.find("other_searches")) {
      if (!list->is(tune::JsonValue::Kind::array))
        throw Error(ErrorCode::io_error, "other_searches is not an array");
      for (const tune::JsonValue& s : list->array()) {
        auto search = std::make_shared<tune::ScfSearch>(tune::ScfSearch::from_state(s.dump()));
        others[search->key()] = std::move(search);
      }
    }
  } catch (const Error& e) {
    loaded.reset();
    why = e.what();
  }
  raise_if_any(comm, !loaded, ErrorCode::invalid_argument, why);
  scf_ = std::make_shared<tune::ScfSearch>(std::move(*loaded));
  other_searches_ = std::move(others);
}

template <class T>
TuneChoice Eigensolver<T>::choose(const DistMatrix<T>& A, int nev) {
  const Grid& grid = A.grid();
  if (options_.solver != Solver::automatic && !scf_)
    return TuneChoice{options_.solver, options_.block_size, options_.tune, ChoiceSource::user, 0};
  const tune::Signature sig = tune::make_signature(type_letter<T>(), A.n(), nev, grid.nprow(),
                                                   grid.npcol(), !options_.eigenvalues_only);
  const std::string cache = tune::cache_path(options_.tune_file);
  if (!scf_) return tune::automatic_choice(grid.comm(), sig, A.nb(), cache);
  if (scf_->key() != sig.key()) {
    if (!scf_->key().empty()) other_searches_[scf_->key()] = scf_;
    const auto seen = other_searches_.find(sig.key());
    if (seen != other_searches_.end()) {  // resumed, or its best kept
      scf_ = seen->second;
      other_searches_.erase(seen);
      return scf_->next();
    }
    // A new signature (or the first call after start_autotune): a new search, which
    // starts from the cache's choice when the cache has one for this problem.
    std::vector<tune::SolverPrediction> predicted;
    if (sig.n >= tune::model_min_n)
      for (Solver s : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
        const auto [nb, p] =
            tune::best_blocking(s, sig, A.nb(), tune::machine_rates(grid.comm(), cache));
        predicted.push_back({p.total, nb});
      }
    scf_ = std::make_shared<tune::ScfSearch>(sig.key(), A.n(), A.nb(), options_, predicted,
                                             dense::default_householder_path_of_two(grid));
  }
  return scf_->next();
}

template <class T>
std::vector<real_t<T>> Eigensolver<T>::solve(DistMatrix<T>& A, DistMatrix<T>* Z,
                                             const CholeskyFactor<T>* factor,
                                             const DistMatrix<T>* S) {
  const double start = MPI_Wtime();
  times_ = StageTimes{};
  validation_.reset();
  const Grid& grid = A.grid();
  const MPI_Comm comm = grid.comm();
  const int n = A.n();
  require_same_call(options_, A, Z, factor != nullptr, S);
  raise_if_any(comm, A.m() != n, ErrorCode::invalid_argument,
               "A must be square, got " + std::to_string(A.m()) + "x" + std::to_string(n));
  const std::string bad_selection = dense::check_selection(options_, n);
  raise_if_any(comm, !bad_selection.empty(), ErrorCode::invalid_argument, bad_selection);
  dense::Wanted wanted = dense::wanted_of(options_, n);
  // The most eigenvectors the solve may return: an interval's count is known only on the
  // tridiagonal matrix, so Z's width bounds it.
  const int nev = !wanted.interval ? wanted.count : Z ? std::min(Z->n(), n) : n;
  raise_if_any(comm, options_.block_size < 0 || (options_.block_size == 0 && A.nb() < 1),
               ErrorCode::invalid_argument, "block_size must be >= 1");
  raise_if_any(comm, options_.bandwidth < 0, ErrorCode::invalid_argument,
               "bandwidth must be >= 0 (0: the solver's default)");
  raise_if_any(comm, !(options_.validation_tolerance >= 0), ErrorCode::invalid_argument,
               "validation_tolerance must be >= 0 (0: the default)");
  // The ranks agree on tune (checked above), so the first bad knob is the same everywhere.
  const TuneField* bad = nullptr;
  for (const TuneField& f : tune_fields)
    if (!bad && (options_.tune.*f.value < f.min || options_.tune.*f.value > f.max)) bad = &f;
  raise_if_any(comm, bad != nullptr, ErrorCode::invalid_argument,
               bad ? "tune." + std::string(bad->name) + " = " +
                         std::to_string(options_.tune.*bad->value) + " is outside [" +
                         std::to_string(bad->min) + ", " + std::to_string(bad->max) + "]"
                   : std::string());
  if (options_.tune.cache_limit_mb >= 0)
    set_cached_memory_limit(static_cast<std::size_t>(options_.tune.cache_limit_mb) << 20);
  if (Z) {
    raise_if_any(comm, !grid.same_processes(Z->grid()), ErrorCode::grid_mismatch,
                 "Z is not distributed over the same processes as A");
    raise_if_any(comm, Z->m() != n || Z->n() < nev, ErrorCode::invalid_argument,
                 "Z must be N x >= " + std::to_string(nev) + " (the eigenpairs selected) = " +
                     std::to_string(n) + " x " + std::to_string(nev) + ", got " +
                     std::to_string(Z->m()) + " x " + std::to_string(Z->n()));
  }
  if (options_.eigenvalues_only) Z = nullptr;
  if (n == 0) return {};

  choice_ = choose(A, nev);
  // A trial is timed from here: the first automatic call of a process also calibrates the
  // machine model (≈ 0.5 s), which is no candidate's cost.
  const double chosen = MPI_Wtime();
  const EigensolverOptions run = tune::merged(options_, choice_);
  // A CholeskyFactor fixes the blocking of the generalized reduction.
  // A block beyond N lays the matrix out as a block of N does; ScaLAPACK's workspace
  // query overflows on such sizes, so the solvers get N (a factor keeps its own blocking).
  const int asked = factor || run.block_size <= 0
                        ? (options_.block_size > 0 ? options_.block_size : A.nb())
                        : run.block_size;
  const int bs = factor ? asked : std::min(asked, n);
  // last_choice() tells what ran.
  choice_.solver = run.solver;
  choice_.block_size = bs;
  choice_.tune = run.tune;
  // An SCF trial that throws is recorded as failed (+inf), so the search moves on.
  struct FailedTrial {
    tune::ScfSearch* search;
    TuneChoice choice;
    ~FailedTrial() {
      if (search) search->record(choice, std::numeric_limits<double>::infinity());
    }
  } failed{choice_.source == ChoiceSource::scf ? scf_.get() : nullptr, choice_};

  // Work on square blocks with the first block on process (0, 0).
  DistMatrix<T> copy;
  DistMatrix<T>* W = &A;
  if (A.mb() != bs || A.nb() != bs || A.rsrc() != 0 || A.csrc() != 0) {
    StageTimer timer(times_, Stage::redistribute);
    copy = A.redistribute(grid, bs, bs);
    W = &copy;
  }
  if (options_.check_input) {
    StageTimer timer(times_, Stage::check_input);
    dense::check_input(*W, options_.triangle, "A");
  }
  // Validation compares with the input, which the solve destroys.
  std::optional<DistMatrix<T>> kept;
  if (options_.validate) {
    StageTimer timer(times_, Stage::validate);
    kept.emplace(dense::full_working_copy(*W, options_.triangle, bs));
  }
  const Solver solver = run.solver;
  if (factor) {
    dense::reduce_generalized(*W, options_.triangle, *factor, solver, run.tune, times_);
    // An S far more ill-conditioned than A's scale allows overflows here (O(N²/P), small
    // beside the transform's O(N³)); no solver is handed Inf.
    StageTimer timer(times_, Stage::check_input);
    dense::require_finite(
        *W, Triangle::lower,
        "the transformed matrix U^-H A U^-1 (S too ill-conditioned for A's scale)");
  } else
    dense::make_lower_valid(*W, options_.triangle);
  // Entries of subnormal size: solved as 2^k·A, the interval and eigenvalues scaled with it.
  const int k = dense::scale_up_tiny(*W);
  if (k != 0 && wanted.interval)
    wanted.interval =
        ValueRange{std::ldexp(wanted.interval->vl, k), std::ldexp(wanted.interval->vu, k)};

  // The solvers write into a Z with the working layout; the caller's Z gets a copy when
  // its layout differs.
  DistMatrix<T> zwork;
  DistMatrix<T>* Zs = Z;
  if (Z) {
    const bool fits =
        Z->grid().same_as(grid) && Z->mb() == bs && Z->rsrc() == 0 &&
        (solver != Solver::scalapack ||
         (Z->nb() == bs && Z->csrc() == 0 && Z->n() == n && nev == n));  // p?syevd writes n
    if (!fits) {
      zwork = DistMatrix<T>(grid, n, solver == Solver::scalapack ? n : nev, bs, bs);
      Zs = &zwork;
    }
  }
  const Device device =
      solver == Solver::scalapack ? Device::host : dense::solve_device(options_.gpu, comm);
  const dense::SubgridSolve<T> run_solver = [&](DistMatrix<T>& M, DistMatrix<T>* V, StageTimes& t) {
    switch (solver) {
      case Solver::scalapack:
        return dense::solve_scalapack(M, wanted, V, t);
      case Solver::two_stage:
        return device == Device::cuda
                   ? dense::solve_two_stage<Device::cuda>(M, wanted, run.bandwidth, V, run.tune, t)
                   : dense::solve_two_stage<Device::host>(M, wanted, run.bandwidth, V, run.tune, t);
      default:
        return device == Device::cuda
                   ? dense::solve_one_stage<Device::cuda>(M, wanted, V, run.tune, t)
                   : dense::solve_one_stage<Device::host>(M, wanted, V, run.tune, t);
    }
  };
  grid_used_ = working_grid(grid, solver, n, nev, Zs != nullptr, bs);
  std::vector<real_t<T>> w;
  if (grid_used_.nprow == grid.nprow() && grid_used_.npcol == grid.npcol()) {
    w = run_solver(*W, Zs, times_);
  } else {
    const auto sub = subgrids_->get(grid, grid_used_);
    w = dense::solve_on_subgrid(sub.get(), *W, Zs, times_, run_solver);
  }
  for (auto& x : w) x = std::ldexp(x, -k);
  // Ranks outside a sub-grid did not solve; rank 0 always did.
  MPI_Bcast(&wanted.first, 1, MPI_INT, 0, comm);
  const int found = static_cast<int>(w.size());
  if (factor && Zs && found > 0)
    dense::backtransform_generalized(*factor, bs, *Zs, found, solver, run.tune, times_);
  if (Z && Zs != Z && found > 0) {
    StageTimer timer(times_, Stage::redistribute);
    Z->copy_from(*Zs, found);
  }
  if (kept) {
    StageTimer timer(times_, Stage::validate);
    const double tolerance = options_.validation_tolerance > 0 ? options_.validation_tolerance
                                                               : default_validation_tolerance<T>(n);
    std::optional<DistMatrix<T>> Sw;
    if (factor) Sw.emplace(validation_s(S, *factor, options_.triangle, bs));
    validation_ =
        dense::validate(std::move(*kept), Sw ? &*Sw : nullptr, w, Zs, tolerance, wanted.first == 0);
  }
  times_.total = MPI_Wtime() - start;
  agree_on_times(comm, times_);
  if (failed.search) {
    failed.search = nullptr;
    double seconds = MPI_Wtime() - chosen;  // the slowest rank's, so every rank records it
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    record_trial(grid, n, nev, seconds);
  }
  return w;
}

template <class T>
GridShape Eigensolver<T>::working_grid(const Grid& grid, Solver solver, int n, int nev,
                                       bool vectors, int nb) {
  const GridShape given{grid.nprow(), grid.npcol()};
  // The SCF search times candidates on the caller's grid.
  if (options_.grid_choice != GridChoice::automatic || scf_ || grid.size() == 1) return given;
  const dense::GridProblem problem{solver, type_letter<T>(), n, nev, vectors, nb};
  subgrids_ = dense::SubGrids::this_thread();
  return dense::plan_working_grid(problem, given, subgrids_->placement(grid));
}

template <class T>
void Eigensolver<T>::record_trial(const Grid& grid, int n, int nev, double seconds) {
  scf_->record(choice_, seconds);
  const std::string cache = tune::cache_path(options_.tune_file);
  if (scf_->finished() && !cache.empty())
    tune::cache_store(grid.comm(), cache,
                      tune::make_signature(type_letter<T>(), n, nev, grid.nprow(), grid.npcol(),
                                           !options_.eigenvalues_only),
                      scf_->best(), "scf");
}

namespace {

template <class T>
void check_factor(const DistMatrix<T>& H, const CholeskyFactor<T>& factor) {
  const MPI_Comm comm = H.grid().comm();
  raise_if_any(comm, factor.empty(), ErrorCode::invalid_argument,
               "the CholeskyFactor is empty (default-constructed)");
  raise_if_any(comm, !factor.grid().same_as(H.grid()), ErrorCode::grid_mismatch,
               "the CholeskyFactor is not on H's grid");
  raise_if_any(comm, factor.n() != H.n(), ErrorCode::invalid_argument,
               "the CholeskyFactor is of an N = " + std::to_string(factor.n()) + " matrix, H is " +
                   std::to_string(H.m()) + "x" + std::to_string(H.n()));
}

template <class T>
void check_s(const DistMatrix<T>& H, const DistMatrix<T>& S) {
  const MPI_Comm comm = H.grid().comm();
  raise_if_any(comm, !S.grid().same_as(H.grid()), ErrorCode::grid_mismatch, "S is not on H's grid");
  raise_if_any(comm, S.m() != H.n() || S.n() != H.n(), ErrorCode::invalid_argument,
               "S must be N x N like H (" + std::to_string(H.m()) + "x" + std::to_string(H.n()) +
                   "), got " + std::to_string(S.m()) + "x" + std::to_string(S.n()));
}

// The factorization's stages first, as they ran first.
StageTimes with_factor_times(const StageTimes& factor, const StageTimes& solve) {
  StageTimes all = factor;
  all.add(solve);
  all.total = factor.total + solve.total;
  return all;
}

}  // namespace

template <class T>
std::vector<real_t<T>> Eigensolver<T>::generalized_eigenvectors(DistMatrix<T>& H,
                                                                const DistMatrix<T>& S,
                                                                DistMatrix<T>& Z) {
  require_same_call(options_, H, &Z, true, &S);
  check_s(H, S);
  const CholeskyFactor<T> factor(S, options_.triangle, options_.check_input);
  std::vector<real> w = solve(H, &Z, &factor, &S);
  times_ = with_factor_times(factor.timings(), times_);
  return passed(H, std::move(w));
}

template <class T>
std::vector<real_t<T>> Eigensolver<T>::generalized_eigenvectors(DistMatrix<T>& H,
                                                                const CholeskyFactor<T>& factor,
                                                                DistMatrix<T>& Z) {
  require_same_call<T>(options_, H, &Z, true, nullptr);
  check_factor(H, factor);
  return passed(H, solve(H, &Z, &factor));
}

template <class T>
std::vector<real_t<T>> Eigensolver<T>::generalized_eigenvalues(DistMatrix<T>& H,
                                                               const DistMatrix<T>& S) {
  require_same_call<T>(options_, H, nullptr, true, &S);
  check_s(H, S);
  const CholeskyFactor<T> factor(S, options_.triangle, options_.check_input);
  std::vector<real> w = solve(H, nullptr, &factor, &S);
  times_ = with_factor_times(factor.timings(), times_);
  return passed(H, std::move(w));
}

template <class T>
std::vector<real_t<T>> Eigensolver<T>::generalized_eigenvalues(DistMatrix<T>& H,
                                                               const CholeskyFactor<T>& factor) {
  require_same_call<T>(options_, H, nullptr, true, nullptr);
  check_factor(H, factor);
  return passed(H, solve(H, nullptr, &factor));
}

#define TSEIG_INSTANTIATE(T) template class Eigensolver<T>;
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig
