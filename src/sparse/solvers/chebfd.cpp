// ChebFD (Pieper et al. 2016, Algorithm 1):
//   bounds and the KPM density → degree and search space Y (whole subspace blocks of nb)
//   planned from it (chebfd_plan.hpp) → repeat: Y ← p(H)·Y one block of nb columns at
//   a time (a block stays in cache through all degree steps; one fused sweep per step
//   does the recurrence and, every third step, the accumulation: chebyshev_sum.hpp) →
//   orthonormalize against the locked vectors → Rayleigh–Ritz → lock the converged
//   Ritz pairs inside [a, b].
// Stop when no unconverged Ritz value is left inside [a, b] and one more pass found no
// new one (a pair missing from the space would show up in it). The space grows
// when the Ritz values inside [a, b] leave too few buffer vectors; the degree (then the
// space) grows when a pass gains much less than the plan predicted.
#include "tseig/sparse/chebfd.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/instantiate.hpp"
#include "core/require_each.hpp"
#include "sparse/dist/hermitian_check.hpp"
#include "sparse/solvers/agree.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "sparse/solvers/block_orthogonalize.hpp"
#include "sparse/solvers/block_sweeps.hpp"
#include "sparse/solvers/chebfd_edges.hpp"
#include "sparse/solvers/chebfd_krylov.hpp"
#include "sparse/solvers/chebfd_plan.hpp"
#include "sparse/solvers/chebfd_window.hpp"
#include "sparse/solvers/chebfd_window_setup.hpp"
#include "sparse/solvers/level_end.hpp"
#include "sparse/solvers/rayleigh_ritz.hpp"
#include "sparse/solvers/result_costs.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/kernels.hpp"

namespace tseig::sparse {

namespace {

using detail::Timer;

template <class T>
class Chebfd {
 public:
  using R = real_t<T>;
  Chebfd(const Matrix<T>& a, const KpmMoments& kpm, double lower, double upper,
         const ChebfdOptions& o)
      : a_(a), o_(o), win_(kpm, lower, upper, o) {
    const double count = eigenvalue_count(kpm, lower, upper).count;
    kpm_count_ = count;
    detail::FilterPlanRequest request;
    request.lower = lower;
    request.upper = upper;
    request.count = count;
    request.tol = win_.tol;
    request.block = win_.nb;
    request.rows = a.rows();
    request.nonzeros_per_row = static_cast<double>(a.nonzeros()) / static_cast<double>(a.rows());
    request.degree = o.degree;
    request.max_degree = o.max_degree;
    request.search_factor = o.search_factor;
    request.damping = o.damping;
    const detail::FilterPlan plan = detail::plan_filter(kpm, request);
    degree_ = first_degree_ = plan.degree;
    rate_ = plan.rate;
    factor_ = plan.space / std::max(count, 1.0);
    y_ = MultiVector<T>(a.vector_layout(), plan.space);
    y_.fill_random(o.kpm.seed + 101);
  }

  EigenResult<T> run();

 private:
  int space_for(double count) const {
    const int want = static_cast<int>(std::ceil(factor_ * std::max(count, 1.0)));
    return static_cast<int>(
        std::min<std::int64_t>((want + win_.nb - 1) / win_.nb * win_.nb, a_.rows()));
  }
  void filter(const MultiVector<T>& y) {
    sweeps_.filter(
        y,
        detail::window_coefficients((win_.lower - win_.center) / win_.half,
                                    (win_.upper - win_.center) / win_.half, degree_, o_.damping),
        win_.center, win_.half);
  }
  int orthonormalize(int locked, const MultiVector<T>& y);
  void grow(int cols);

  const Matrix<T>& a_;
  const ChebfdOptions& o_;
  const detail::WindowSetup<R> win_;
  int degree_ = 0, first_degree_ = 0;
  double rate_ = 1, factor_ = 1;  // the plan's predicted gain per pass and space / count
  double kpm_count_ = 0;          // KPM's estimate of the count in the window
  MultiVector<T> y_;              // locked vectors first, then the active ones
  SolverTimes times_;
  detail::BlockSweeps<T> sweeps_{a_, win_.nb, o_.tune.pipeline_blocks, times_};
  std::vector<R> theta_;
  std::vector<double> rel_;
  std::vector<double> unconverged_;  // residuals of the unconverged Ritz pairs inside
  double previous_straddle_ = std::numeric_limits<double>::infinity();
};

/// Orthonormalizes y against the `locked` leading columns of y_; returns the columns kept.
template <class T>
int Chebfd<T>::orthonormalize(int locked, const MultiVector<T>& y) {
  const MultiVector<T> q = y_.view(0, locked);
  if (o_.orthogonalization == Orthogonalization::cholesky_qr2) {
    detail::project_out(q, q, y, nullptr, times_);
    detail::project_out(q, q, y, nullptr, times_);
    if (detail::cholesky_qr2(y, nullptr, times_)) return y.cols();
  }
  return detail::orthonormalize_against(q, q, y, nullptr, win_.drop, o_.tune, times_);
}

template <class T>
void Chebfd<T>::grow(int cols) {
  MultiVector<T> bigger(a_.vector_layout(), cols);
  bigger.view(0, y_.cols()).assign(y_);
  detail::fill_uniform(bigger.view(y_.cols(), cols - y_.cols()), o_.kpm.seed + 211 + cols);
  y_ = bigger;
}

template <class T>
EigenResult<T> Chebfd<T>::run() {
  const double begin = MPI_Wtime();
  const MPI_Comm comm = a_.comm();
  int locked = 0, previous_locked = -1, previous_inside = -1, iterations = 0;
  double previous_worst = std::numeric_limits<double>::infinity();
  bool converged = false;
  while (iterations < o_.max_iterations) {
    const int active = y_.cols() - locked;
    filter(y_.view(locked, active));
    int kept = orthonormalize(locked, y_.view(locked, active));
    for (int attempt = 1; attempt < 4 && kept < active; ++attempt) {  // refill lost columns
      MultiVector<T> fresh = y_.view(locked + kept, active - kept);
      detail::fill_uniform(fresh, o_.kpm.seed + 307 * attempt + iterations);
      kept += detail::orthonormalize_against(y_.view(0, locked + kept), y_.view(0, locked + kept),
                                             fresh, nullptr, win_.drop, o_.tune, times_);
    }
    raise_if_any(comm, kept < active, ErrorCode::numerical_failure,
                 "chebfd: cannot keep an orthonormal search space");
    const MultiVector<T> y = y_.view(locked, active);
    const detail::SmallEigen<T> e =
        detail::projected_eigen(comm, active, sweeps_.projected_h(y), std::vector<T>{}, o_.tune,
                                times_, times_.rayleigh_ritz);
    {
      Timer t(times_.rayleigh_ritz);
      detail::transform_in_place(y, e.vectors.data(), active);  // the Ritz vectors
    }
    const std::vector<double> sq = sweeps_.residual_norms(y, e.values);
    const std::vector<double> rel =
        detail::relative_residuals(comm, sq, e.values, win_.norm_h, times_);
    // Lock: converged pairs inside [a, b] go first, the rest follows in Ritz order.
    std::vector<int> order(active);
    std::iota(order.begin(), order.end(), 0);
    auto inside = [&](int j) { return e.values[j] >= win_.lower && e.values[j] <= win_.upper; };
    // Converged, with a value inside within its error bound; the locked pairs are
    // neighbours too in the bound's estimate of the gap (chebfd_edges.hpp).
    std::vector<double> values(theta_.begin(), theta_.end()), rho;
    for (std::size_t j = 0; j < theta_.size(); ++j)
      rho.push_back(rel_[j] * (win_.norm_h + std::abs(theta_[j])));
    for (int j = 0; j < active; ++j) {
      values.push_back(e.values[j]);
      rho.push_back(rel[j] * (win_.norm_h + std::abs(e.values[j])));
    }
    std::vector<char> lock(active);
    for (int j = 0; j < active; ++j)
      lock[j] = rel[j] <= win_.tol &&
                detail::near_window(
                    e.values[j],
                    detail::eigenvalue_error_bound(values, rho, theta_.size() + j, win_.rounding()),
                    win_.lower, win_.upper);
    auto lockable = [&](int j) { return lock[j] != 0; };
    std::stable_partition(order.begin(), order.end(), lockable);
    unconverged_.clear();
    double straddle = std::numeric_limits<double>::infinity();
    detail::permute_columns(y, order);
    for (int j = 0; j < active; ++j) {
      const int k = order[j];
      // [θ − ρ, θ + ρ] holds an eigenvalue (ρ = ‖Hy − θy‖, ‖y‖ = 1). An unconverged Ritz
      // value whose interval reaches across an edge of [a, b] may be a mixture of
      // eigenvectors from both sides of the window (the space's surplus columns, which
      // the filter cannot converge), or an eigenvalue inside still converging.
      const double rho = std::sqrt(sq[k]);
      if (lockable(k)) {
        theta_.push_back(e.values[k]);
        rel_.push_back(rel[k]);
      } else if (inside(k) && e.values[k] - rho >= win_.lower && e.values[k] + rho <= win_.upper) {
        unconverged_.push_back(rel[k]);
      } else if (detail::near_window(e.values[k], rho, win_.lower, win_.upper)) {
        straddle = std::min(straddle, rho);  // either side: a copy of an edge level may
      }                                      // converge from outside (an 18-fold 4 in [4, b])
    }
    locked = static_cast<int>(theta_.size());
    ++iterations;
    // A genuine eigenvalue near an edge shrinks its residual by the filter's gain every
    // pass; surplus mixtures do not. Stop once the straddlers stopped shrinking too.
    const bool straddlers_settled = straddle >= 0.5 * previous_straddle_;
    previous_straddle_ = straddle;
    // Done when every Ritz value inside is locked and one more pass added none: the
    // locked count held, or it equals the count inside (locked or not) of the pass
    // before, so the pass that converged them was that extra pass.
    if (unconverged_.empty() && (locked == previous_locked || locked == previous_inside) &&
        straddlers_settled) {
      // Nothing found, with the degree held below what the window needs: unless KPM
      // sees nothing there either, the filter could not single the window out (a
      // 27-fold level in a window of 2e-4 of the spectrum, max_degree 200, returned 0
      // pairs as converged; KPM, as blurred, counted 0.49 there).
      converged = !(locked == 0 && kpm_count_ >= 0.05 && !win_.degree_note(degree_, o_).empty());
      break;
    }
    previous_locked = locked;
    const int inside_count = locked + static_cast<int>(unconverged_.size());
    previous_inside = inside_count;
    if (y_.cols() - inside_count < std::max(2, inside_count / 4) && y_.cols() < a_.rows())
      grow(static_cast<int>(std::min<std::int64_t>(
          std::max(space_for(inside_count), y_.cols() + win_.nb), a_.rows())));
    const double worst =
        unconverged_.empty() ? 0.0 : *std::max_element(unconverged_.begin(), unconverged_.end());
    // Slower than the plan predicted (the KPM density is coarse near the window edges):
    // the degree grows, up to 8× the first, then the space. Ritz values that stay inside
    // without converging are mixtures of levels the filter cannot tell apart, which only
    // a sharper filter or a space holding them whole splits.
    if (!unconverged_.empty() && worst > std::max(0.1, std::sqrt(rate_)) * previous_worst) {
      if (const int cap = o_.degree > 0 ? INT_MAX : o_.max_degree;
          degree_ < 8 * first_degree_ && degree_ < cap)
        degree_ = std::min(cap, degree_ + (degree_ + 1) / 2);
      else if (y_.cols() < a_.rows())
        grow(static_cast<int>(
            std::min<std::int64_t>(y_.cols() + std::max(win_.nb, y_.cols() / 2), a_.rows())));
    }
    previous_worst = worst;
    if (o_.progress)
      o_.progress({iterations, locked, static_cast<int>(unconverged_.size()), worst, degree_,
                   y_.cols(), MPI_Wtime() - begin});
    // Every column locked: the space would have grown above unless it is the whole space
    // already, so these are all of H's eigenpairs, every one inside the window (an order
    // a few times the count asked for, e.g. the 3 nearest of n = 6).
    if (locked >= y_.cols()) {
      converged = true;
      break;
    }
  }
  times_.total = MPI_Wtime() - begin;
  if (!converged && o_.throw_on_failure)
    detail::raise_not_converged(comm,
                                "chebfd: not converged after " + std::to_string(iterations) +
                                    " filter passes, " + std::to_string(locked) + " pairs locked" +
                                    win_.degree_note(degree_, o_),
                                win_.tol, unconverged_);
  std::vector<int> order(locked);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return theta_[i] < theta_[j]; });
  EigenResult<T> r;
  detail::permute_columns(y_.view(0, locked), order);
  r.eigenvectors = y_.view(0, locked);  // no copy: it would add to the peak memory
  for (int j = 0; j < locked; ++j) {
    r.eigenvalues.push_back(theta_[order[j]]);
    r.residuals.push_back(rel_[order[j]]);
  }
  r.iterations = iterations;
  r.operator_applications = sweeps_.applications();
  r.converged = converged;
  r.times = times_;
  return r;
}

// where: the interval (chebfd) or the target and k (chebfd_nearest); placed: what
// they must satisfy, checked after the options.
void check_options(MPI_Comm comm, const ChebfdOptions& o, const char* what,
                   std::initializer_list<double> where, std::vector<Requirement> placed) {
  std::vector<int> values{static_cast<int>(o.method),
                          o.max_iterations,
                          o.degree,
                          o.max_degree,
                          static_cast<int>(o.damping),
                          static_cast<int>(o.orthogonalization),
                          o.kpm.moments,
                          o.kpm.vectors,
                          o.kpm.lanczos_steps,
                          o.throw_on_failure ? 1 : 0};
  for (double x : {o.tol, o.search_factor, o.kpm.margin, static_cast<double>(o.kpm.seed)})
    append_bits(values, x);
  for (double x : where) append_bits(values, x);
  append_tune(values, o.tune);
  require_same_options(comm, values, what);
  std::vector<Requirement> all = {
      {o.tol >= 0, "tol >= 0, not " + shown(o.tol)},
      {o.max_iterations >= 1, "max_iterations >= 1, not " + std::to_string(o.max_iterations)},
      {o.degree >= 0, "degree >= 0, not " + std::to_string(o.degree)},
      {o.max_degree >= 1, "max_degree >= 1, not " + std::to_string(o.max_degree)},
      {o.search_factor == 0 || o.search_factor >= 1,
       "search_factor 0 or >= 1, not " + shown(o.search_factor)},
      {o.tune.block_width >= 1, "block_width >= 1, not " + std::to_string(o.tune.block_width)},
      {o.tune.pipeline_blocks >= 1,
       "pipeline_blocks >= 1, not " + std::to_string(o.tune.pipeline_blocks)}};
  all.insert(all.end(), placed.begin(), placed.end());
  require_each(comm, what, all);
}

/// [lower, upper] clipped to the spectral bounds (the window must lie in [−1, 1]).
template <class T>
EigenResult<T> run_window(const Matrix<T>& a, const KpmMoments& kpm, double lower, double upper,
                          const ChebfdOptions& o) {
  lower = std::max(lower, kpm.bounds.lower);
  upper = std::min(upper, kpm.bounds.upper);
  // The KPM count with three standard errors to spare decides whether the Krylov–Schur
  // basis can hold the window; it hands back what outgrows its basis after all, and a
  // window with a level as large as its block width; its cost is added to the result.
  // (Its converged pairs locked from the start made the subspace iteration no faster:
  // 53230 against 50855 H·vector over 9 windows of the 10×10 periodic Laplacian, blocks
  // of 8.)
  const EigenvalueCount count = eigenvalue_count(kpm, lower, upper);
  EigenResult<T> found;
  if (o.method == ChebfdMethod::krylov_schur &&
      detail::krylov_holds(a.rows(), std::max(1, o.tune.block_width),
                           count.count + 3 * count.error + 1))
    if (auto r = detail::chebfd_krylov_schur(a, kpm, lower, upper, o, found)) return std::move(*r);
  Chebfd<T> solver(a, kpm, lower, upper, o);
  EigenResult<T> r = solver.run();
  detail::add_costs(r, found);
  return r;
}

}  // namespace

template <class T>
EigenResult<T> chebfd(const Matrix<T>& a, double lower, double upper, const ChebfdOptions& o) {
  check_options(
      a.comm(), o, "chebfd", {lower, upper},
      {{a.rows() > 0, "a matrix of at least one row"},
       {std::isfinite(lower) && std::isfinite(upper),
        "a finite interval, not [" + shown(lower) + ", " + shown(upper) + "]"},
       {lower < upper, "lower < upper, not [" + shown(lower) + ", " + shown(upper) + "]"}});
  require_hermitian(a, "chebfd");
  const KpmMoments kpm = kpm_moments(a, o.kpm);
  if (upper < kpm.bounds.lower || lower > kpm.bounds.upper) {  // no eigenvalue there
    EigenResult<T> r;
    r.eigenvectors = MultiVector<T>(a.vector_layout(), 0);
    r.converged = true;
    return r;
  }
  return run_window(a, kpm, lower, upper, o);
}

template <class T>
EigenResult<T> chebfd_nearest(const Matrix<T>& a, double target, int k, const ChebfdOptions& o) {
  check_options(a.comm(), o, "chebfd_nearest", {target, static_cast<double>(k)},
                {{a.rows() > 0, "a matrix of at least one row"},
                 {k >= 1 && k <= a.rows(),
                  "1 <= k <= n (" + std::to_string(a.rows()) + "), not " + std::to_string(k)},
                 {std::isfinite(target), "a finite target, not " + shown(target)}});
  require_hermitian(a, "chebfd_nearest");
  const KpmMoments kpm = kpm_moments(a, o.kpm);
  const double lower = kpm.bounds.lower, upper = kpm.bounds.upper, span = upper - lower;
  // Windows [target − δ, target + δ] from one that reaches the spectrum (the target may
  // lie outside it) to one that holds all of it (reach: the target may be near one end,
  // or beyond it, where δ = span falls short of the far end).
  const double gap = std::max({0.0, lower - target, target - upper});
  const double reach = std::max(target - lower, upper - target);
  // The KPM count sizes the first window: it should hold about 1.5 k eigenvalues.
  double delta = std::min(reach, gap + span * k / static_cast<double>(a.rows()));
  while (eigenvalue_count(kpm, target - delta, target + delta).count < 1.5 * k + 1 && delta < reach)
    delta = std::min(reach, delta * 1.5);
  EigenResult<T> r;
  SolverTimes times;
  int iterations = 0;
  std::int64_t applications = 0;
  for (;;) {
    r = EigenResult<T>{};  // the last window's vectors go before the next window's come
    r = run_window(a, kpm, target - delta, target + delta, o);
    iterations += r.iterations;
    applications += r.operator_applications;
    for (auto field :
         {&SolverTimes::spmmv, &SolverTimes::orthogonalization, &SolverTimes::rayleigh_ritz,
          &SolverTimes::communication, &SolverTimes::total})
      times.*field += r.times.*field;
    if (static_cast<int>(r.eigenvalues.size()) >= k || delta >= reach) break;
    delta = std::min(reach, delta * 1.5);
  }
  const int found = static_cast<int>(r.eigenvalues.size());
  raise_if_any(a.comm(), found < k && o.throw_on_failure, ErrorCode::not_converged,
               "chebfd_nearest: found " + std::to_string(found) + " of " + std::to_string(k) +
                   " eigenvalues in the widest window");
  std::vector<int> order(found);
  std::iota(order.begin(), order.end(), 0);
  auto distance = [&](int j) { return std::abs(static_cast<double>(r.eigenvalues[j]) - target); };
  std::stable_sort(order.begin(), order.end(),
                   [&](int i, int j) { return distance(i) < distance(j); });
  const double norm_h = std::max(std::abs(kpm.bounds.lower), std::abs(kpm.bounds.upper));
  // The rest of the level (or its mirror image about the target) cut by the k-th.
  const int count = detail::level_end(
      std::min(k, found), found, [&](int j) { return distance(order[j]); },
      [&](int j) {
        return r.residuals[order[j]] *
               (norm_h + std::abs(static_cast<double>(r.eigenvalues[order[j]])));
      },
      8 * std::numeric_limits<real_t<T>>::epsilon() * norm_h);
  EigenResult<T> out;
  detail::permute_columns(r.eigenvectors, order);
  out.eigenvectors = r.eigenvectors.view(0, count);
  for (int j = 0; j < count; ++j) {
    out.eigenvalues.push_back(r.eigenvalues[order[j]]);
    out.residuals.push_back(r.residuals[order[j]]);
  }
  out.iterations = iterations;
  out.operator_applications = applications;
  out.converged = r.converged && found >= k;
  out.times = times;
  return out;
}

#define TSEIG_INSTANTIATE(T)                                                      \
  template TSEIG_API EigenResult<T> chebfd(const Matrix<T>&, double, double,      \
                                           const ChebfdOptions&);                 \
  template TSEIG_API EigenResult<T> chebfd_nearest(const Matrix<T>&, double, int, \
                                                   const ChebfdOptions&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
