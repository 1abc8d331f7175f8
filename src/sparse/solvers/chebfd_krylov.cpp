// ChebFD's Krylov–Schur variant (see chebfd_krylov.hpp). The basis V holds k columns;
// p(H) has been applied to the first `applied` of them, and
//   p(H)·V[:, 0:applied] = V[:, 0:k]·T[0:k, 0:applied]
// with T Hermitian on its leading applied × applied part. An expansion applies p(H) to
// the next block, orthogonalizes it against V twice (the coefficients are T's new
// column block) and appends it, orthonormalized (its R below them). At capacity a
// restart keeps the `keep` Ritz vectors of T[0:applied, 0:applied] with the largest
// values and the unapplied block, whose coupling row is carried along:
//   p(H)·(V·Y) = (V·Y)·Θ + V[:, applied:k]·(T[applied:k, 0:applied]·Y).
// The kept vectors are then rotated into H's Ritz vectors of their span (T follows the
// rotation), whose residuals decide convergence.
#include "sparse/solvers/chebfd_krylov.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "sparse/solvers/block_orthogonalize.hpp"
#include "sparse/solvers/block_sweeps.hpp"
#include "sparse/solvers/chebfd_edges.hpp"
#include "sparse/solvers/chebfd_window.hpp"
#include "sparse/solvers/chebfd_window_setup.hpp"
#include "sparse/solvers/rayleigh_ritz.hpp"
#include "tseig/error.hpp"

namespace tseig::sparse::detail {

namespace {

// The degree: half the one that resolves the window (window_degree). The Krylov space
// does the rest of the separation; TI 64×64×16 (W = 1), the 20 nearest 0, np = 2, blocks
// of 8: 59 s at 48 (≈ 1/4), 54 s at 71 (1/3), 49 s at 110 (1/2), 67 s at 160 (3/4); a
// degree too low needs many restarts before the window's Ritz values of p(H) settle,
// one too high filters more than the Krylov space needs.
template <class T>
class FilteredKrylovSchur {
 public:
  using R = real_t<T>;
  FilteredKrylovSchur(const Matrix<T>& a, const KpmMoments& kpm, double lower, double upper,
                      const ChebfdOptions& o)
      : a_(a), o_(o), win_(kpm, lower, upper, o) {
    const double xa = (lower - win_.center) / win_.half, xb = (upper - win_.center) / win_.half;
    degree_ = o.degree > 0 ? o.degree
                           : capped_degree(static_cast<int>(std::ceil(window_degree(xa, xb) / 2.0)),
                                           o.max_degree);
    coefficients_ = window_coefficients(xa, xb, degree_, o.damping);
    edge_ = std::numeric_limits<double>::infinity();  // min p over [a, b], on a grid
    for (int i = 0; i <= 64; ++i)
      edge_ = std::min(edge_,
                       window_value(coefficients_, std::clamp(xa + (xb - xa) * i / 64, -1.0, 1.0)));
    expected_ = std::max(1, static_cast<int>(std::ceil(eigenvalue_count(kpm, lower, upper).count)));
    resize(capacity_for(expected_));
  }

  /// The pairs found; handed_over() when the window outgrew the largest basis the order
  /// allows or a level filled the block width (see chebfd_krylov_schur).
  EigenResult<T> run();
  bool handed_over() const { return handed_over_; }

 private:
  T& t(int i, int j) { return t_[i + static_cast<std::size_t>(j) * ld()]; }
  int ld() const { return capacity_ + win_.nb; }
  /// Basis size for `count` eigenvalues in the window: 2.5× (the kept half holds them
  /// with a margin), whole blocks, at least four; at most the order less a block. TI
  /// 64×64×16, [−δ, δ] holding 20: 36000, 33414, 32120, 37238 H·vector at 2.5, 3, 3.5,
  /// 5× the count; but the 20 nearest 0 (a window of 36) take as many at 3.5× as at
  /// 2.5× with 1.4× the basis memory.
  int capacity_for(int count) const {
    const std::int64_t want = std::max<std::int64_t>(
        (5 * std::int64_t{count} / 2 + win_.nb - 1) / win_.nb * win_.nb, 4 * win_.nb);
    return static_cast<int>(std::min<std::int64_t>(want, a_.rows() - win_.nb));
  }
  void resize(int capacity);
  /// resize to `capacity`, at most the order less a block; never shrinks.
  void grow(int capacity) {
    capacity = static_cast<int>(std::min<std::int64_t>(capacity, a_.rows() - win_.nb));
    if (capacity > capacity_) resize(capacity);
  }
  void start();
  void expand();
  void complete_block(int first, int kept);
  void restart();
  EigenResult<T> converged_pairs(int iterations, bool converged, double begin);
  /// Per Ritz pair of the last restart: converged, with a value inside the window
  /// within its error bound (chebfd_edges.hpp).
  std::vector<char> returned_pairs() const {
    std::vector<double> rho(lambda_.size());
    for (std::size_t j = 0; j < rho.size(); ++j)
      rho[j] = rel_[j] * (win_.norm_h + std::abs(lambda_[j]));
    std::vector<char> inside(lambda_.size());
    for (std::size_t j = 0; j < inside.size(); ++j)
      inside[j] = rel_[j] <= win_.tol &&
                  near_window(lambda_[j], eigenvalue_error_bound(lambda_, rho, j, win_.rounding()),
                              win_.lower, win_.upper);
    return inside;
  }

  const Matrix<T>& a_;
  const ChebfdOptions& o_;
  const WindowSetup<R> win_;
  int degree_ = 0, expected_ = 1;
  std::vector<double> coefficients_;
  double edge_ = 0;         // the smallest filter value inside the window
  bool p_settled_ = false;  // every kept Ritz pair of p(H) with a value ≥ edge_ converged
  bool outgrown_ = false;   // the window holds more than the largest basis can keep
  int capacity_ = 0, applied_ = 0, k_ = 0;
  int kept_ = 0, min_keep_ = 0;  // kept at the last restart; the least the next one keeps
  MultiVector<T> v_;             // capacity_ + win_.nb columns
  std::vector<T> t_;             // ld() × ld(), column-major, the same on every rank
  std::vector<R> lambda_;        // H's Ritz values of the kept vectors (the last restart)
  std::vector<double> rel_;      // their relative residuals
  SolverTimes times_;
  bool handed_over_ = false;
  BlockSweeps<T> sweeps_{a_, win_.nb, 1, times_};  // one block per expansion
};

/// Room for `capacity` basis columns and a block; the first k_ columns and T[0:k_, 0:k_]
/// are kept.
template <class T>
void FilteredKrylovSchur<T>::resize(int capacity) {
  const int old_ld = capacity_ > 0 ? ld() : 0;
  MultiVector<T> v(a_.vector_layout(), capacity + win_.nb);
  if (k_ > 0) v.view(0, k_).assign(v_.view(0, k_));
  std::vector<T> t(static_cast<std::size_t>(capacity + win_.nb) * (capacity + win_.nb), T(0));
  for (int j = 0; j < k_; ++j)
    for (int i = 0; i < k_; ++i)
      t[i + static_cast<std::size_t>(j) * (capacity + win_.nb)] =
          t_[i + static_cast<std::size_t>(j) * old_ld];
  v_ = std::move(v);
  t_ = std::move(t);
  capacity_ = capacity;
}

/// Columns first+kept … first+nb of V: random, orthonormalized against V[:, 0:first+kept].
template <class T>
void FilteredKrylovSchur<T>::complete_block(int first, int kept) {
  for (int attempt = 1; attempt <= 4 && kept < win_.nb; ++attempt) {
    MultiVector<T> fresh = v_.view(first + kept, win_.nb - kept);
    fill_uniform(fresh, o_.kpm.seed + 307 * attempt + first);
    const MultiVector<T> q = v_.view(0, first + kept);
    kept += orthonormalize_against(q, q, fresh, nullptr, win_.drop, o_.tune, times_);
  }
  raise_if_any(a_.comm(), kept < win_.nb, ErrorCode::numerical_failure,
               "chebfd: cannot keep an orthonormal Krylov basis");
}

template <class T>
void FilteredKrylovSchur<T>::start() {
  v_.view(0, win_.nb).fill_random(o_.kpm.seed + 101);
  complete_block(0, svqb(v_.view(0, win_.nb), nullptr, win_.drop, o_.tune, times_));
  applied_ = 0;
  k_ = win_.nb;
}

/// p(H) on the block at `applied`; the result, orthogonalized against V and
/// orthonormalized, becomes the block at k. Its coefficients fill T's column block.
template <class T>
void FilteredKrylovSchur<T>::expand() {
  MultiVector<T> w = v_.view(k_, win_.nb);
  const MultiVector<T> basis = v_.view(0, k_);
  w.assign(v_.view(applied_, win_.nb));
  sweeps_.filter(w, coefficients_, win_.center, win_.half);
  std::vector<T> c(static_cast<std::size_t>(k_) * win_.nb, T(0));
  std::vector<T> before = gram(w, w, times_, times_.orthogonalization);
  for (int pass = 0; pass < 2; ++pass) {  // classical Gram–Schmidt, twice
    std::vector<T> d = gram(basis, w, times_, times_.orthogonalization);
    Timer timer(times_.orthogonalization);
    for (std::size_t i = 0; i < d.size(); ++i) {
      c[i] += d[i];
      d[i] = -d[i];
    }
    transform(basis, d.data(), w, T(1));
  }
  MultiVector<T> projected = sweeps_.scratch();  // w before orthonormalization
  projected.assign(w);
  // A column that lost all but 1e-8 of its norm lies in span(V) up to rounding: what is
  // left is noise, replaced by a random direction (its coefficients are in c already).
  const std::vector<T> after = gram(w, w, times_, times_.orthogonalization);
  bool lost = false;
  for (int j = 0; j < win_.nb; ++j) {
    const auto jj = static_cast<std::size_t>(j) * (win_.nb + 1);
    if (std::real(after[jj]) <= 1e-16 * std::real(before[jj])) {
      MultiVector<T> column = w.view(j, 1);
      fill_uniform(column, o_.kpm.seed + 401 + k_ + j);
      lost = true;
    }
  }
  int kept = win_.nb;
  if (lost) {
    kept = orthonormalize_against(basis, basis, w, nullptr, win_.drop, o_.tune, times_);
  } else if (!cholesky_qr2(w, nullptr, times_)) {
    w.assign(projected);
    kept = svqb(w, nullptr, win_.drop, o_.tune, times_);
  }
  complete_block(k_, kept);
  const std::vector<T> r =
      gram(w, projected, times_, times_.orthogonalization);  // Qᴴ·(p(H)x − V·c)
  for (int j = 0; j < win_.nb; ++j) {
    for (int i = 0; i < k_; ++i) t(i, applied_ + j) = c[i + static_cast<std::size_t>(j) * k_];
    for (int i = 0; i < win_.nb; ++i)
      t(k_ + i, applied_ + j) = r[i + static_cast<std::size_t>(j) * win_.nb];
  }
  applied_ += win_.nb;
  k_ += win_.nb;
}

template <class T>
void FilteredKrylovSchur<T>::restart() {
  const MPI_Comm comm = a_.comm();
  const int m = applied_, tail = k_ - applied_;
  std::vector<T> tm(static_cast<std::size_t>(m) * m);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) tm[i + static_cast<std::size_t>(j) * m] = t(i, j);
  const SmallEigen<T> e = projected_eigen(comm, m, std::move(tm), std::vector<T>{}, o_.tune, times_,
                                          times_.rayleigh_ritz);
  // Keep about half, at least the window's Ritz values of H seen last time, its KPM
  // count and the Ritz values of p(H) as high as the window's, with a block to spare;
  // the basis grows (by half at least, rarely) when that leaves a cycle too little room.
  const int inside = static_cast<int>(std::count_if(
      lambda_.begin(), lambda_.end(), [&](R x) { return x >= win_.lower && x <= win_.upper; }));
  const int above = static_cast<int>(
      std::count_if(e.values.begin(), e.values.end(), [&](R x) { return x >= edge_; }));
  const int hold = std::max({inside, expected_, above}) + win_.nb;
  if (hold + tail + 2 * win_.nb > capacity_)
    grow(std::max(capacity_for(hold), capacity_ + capacity_ / 2));
  // The basis is as large as the order allows and still cannot keep them: the window holds
  // most of the spectrum (run() hands it to the subspace iteration).
  if (hold + tail + 2 * win_.nb > capacity_) outgrown_ = true;
  const int keep = std::max(1, std::min({m - win_.nb, capacity_ - tail - 2 * win_.nb,
                                         std::max({m / 2, hold, min_keep_})}));
  kept_ = keep;
  const T* y = e.vectors.data() + static_cast<std::size_t>(m - keep) * m;
  const MultiVector<T> u = v_.view(0, keep);
  {
    Timer timer(times_.rayleigh_ritz);
    transform_in_place(v_.view(0, m), y, keep);
  }
  std::vector<T> coupling(static_cast<std::size_t>(tail) * keep);  // T[m:k, 0:m]·Y
  blas::gemm('N', 'N', tail, keep, m, T(1), &t(m, 0), ld(), y, m, T(0), coupling.data(), tail);
  // Ritz pair j of p(H) has the residual ‖coupling(:, j)‖. Every eigenvalue inside the
  // window has p ≥ edge_: the Krylov space has resolved them all only when each Ritz
  // value that may stand for one that high has converged (until then a window eigenvector may be
  // missing from the kept vectors, and no Ritz value of H shows it).
  p_settled_ = true;
  for (int j = 0; j < keep; ++j) {
    double sq = 0;
    for (int i = 0; i < tail; ++i)
      sq += std::norm(coupling[i + static_cast<std::size_t>(j) * tail]);
    const double r = std::sqrt(sq);  // an eigenvalue of p(H) lies within r of the Ritz value
    if (e.values[m - keep + j] + r >= edge_ && r > std::sqrt(win_.tol) * std::abs(e.values[m - 1]))
      p_settled_ = false;
  }
  // H's Ritz vectors of span(U): U ← U·Z.
  const SmallEigen<T> h = projected_eigen(comm, keep, sweeps_.projected_h(u), std::vector<T>{},
                                          o_.tune, times_, times_.rayleigh_ritz);
  {
    Timer timer(times_.rayleigh_ritz);
    transform_in_place(u, h.vectors.data(), keep);
  }
  lambda_ = h.values;
  rel_ = relative_residuals(comm, sweeps_.residual_norms(u, lambda_), lambda_, win_.norm_h, times_);
  // T ← [Zᴴ·Θ·Z, (coupling·Z)ᴴ; coupling·Z, 0] and the tail moved behind U.
  const std::vector<T>& z = h.vectors;
  std::vector<T> theta_z(z.size()), zt(z.size()), cz(coupling.size());
  for (int j = 0; j < keep; ++j)
    for (int i = 0; i < keep; ++i)
      theta_z[i + static_cast<std::size_t>(j) * keep] =
          T(e.values[m - keep + i]) * z[i + static_cast<std::size_t>(j) * keep];
  blas::gemm('C', 'N', keep, keep, keep, T(1), z.data(), keep, theta_z.data(), keep, T(0),
             zt.data(), keep);
  blas::gemm('N', 'N', tail, keep, keep, T(1), coupling.data(), tail, z.data(), keep, T(0),
             cz.data(), tail);
  std::fill(t_.begin(), t_.end(), T(0));
  for (int j = 0; j < keep; ++j) {
    for (int i = 0; i < keep; ++i) t(i, j) = zt[i + static_cast<std::size_t>(j) * keep];
    for (int i = 0; i < tail; ++i) {
      t(keep + i, j) = cz[i + static_cast<std::size_t>(j) * tail];
      t(j, keep + i) = conj_if_complex(cz[i + static_cast<std::size_t>(j) * tail]);
    }
  }
  v_.view(keep, tail).assign(v_.view(m, tail));
  applied_ = keep;
  k_ = keep + tail;
}

/// The converged pairs inside, ascending (H's Ritz values come ascending), to the front.
template <class T>
EigenResult<T> FilteredKrylovSchur<T>::converged_pairs(int iterations, bool converged,
                                                       double begin) {
  times_.total = MPI_Wtime() - begin;
  std::vector<int> order;
  const std::vector<char> returned = returned_pairs();
  for (int j = 0; j < static_cast<int>(lambda_.size()); ++j)
    if (returned[j]) order.push_back(j);
  EigenResult<T> r;
  permute_columns(v_.view(0, static_cast<int>(lambda_.size())), order);
  r.eigenvectors = v_.view(0, static_cast<int>(order.size()));  // no copy (peak memory)
  for (int j : order) {
    r.eigenvalues.push_back(lambda_[j]);
    r.residuals.push_back(rel_[j]);
  }
  r.iterations = iterations;
  r.operator_applications = sweeps_.applications();
  r.converged = converged;
  r.times = times_;
  return r;
}

template <class T>
EigenResult<T> FilteredKrylovSchur<T>::run() {
  const double begin = MPI_Wtime();
  const MPI_Comm comm = a_.comm();
  start();
  int iterations = 0, previous = -1, converged_inside = 0;
  double previous_straddle = std::numeric_limits<double>::infinity();
  std::vector<double> unconverged;
  bool converged = false;
  int expansions = 0, short_cycle = 0;  // this cycle's; 0: until the basis is full
  double previous_worst = 0;
  while (iterations < o_.max_iterations) {
    expansions = 0;
    while (k_ + win_.nb <= capacity_ + win_.nb && (short_cycle == 0 || expansions < short_cycle)) {
      expand();
      ++expansions;
    }
    restart();
    ++iterations;
    handed_over_ = outgrown_;
    if (handed_over_) return converged_pairs(iterations, false, begin);
    converged_inside = 0;
    unconverged.clear();
    double straddle = std::numeric_limits<double>::infinity();
    int level = 0, largest_level = 0;  // converged copies of one eigenvalue
    double last = 0;                   // the last converged value inside
    const std::vector<char> returned = returned_pairs();
    for (std::size_t j = 0; j < lambda_.size(); ++j) {
      const double x = lambda_[j], rho = rel_[j] * (win_.norm_h + std::abs(x));
      if (returned[j]) {
        level = level > 0 && x - last <= win_.tol * win_.norm_h ? level + 1 : 1;
        last = x;
        largest_level = std::max(largest_level, level);
        ++converged_inside;
      } else if (x - rho >= win_.lower && x + rho <= win_.upper) {
        unconverged.push_back(rel_[j]);
      } else if (near_window(x, rho, win_.lower, win_.upper)) {
        // [x − ρ, x + ρ] holds an eigenvalue; reaching across an edge, x may be a
        // mixture of eigenvectors from both sides of it, or a window eigenvalue still
        // converging (from either side). A genuine eigenvalue shrinks its residual
        // every cycle, a mixture does not.
        straddle = std::min(straddle, rho);
      }
    }
    const bool straddlers_settled = straddle >= 0.5 * previous_straddle;
    previous_straddle = straddle;
    // A block Krylov space of width w holds at most w copies of an eigenvalue (of p(H)'s
    // starting block's projection onto its eigenspace): a level with w converged copies
    // may have more, which this space finds only through rounding or random blocks
    // added later, whose components converge too slowly for the end test below (34 of
    // the 42 eigenvalues of the 10×10 periodic Laplacian in [3, 5] with blocks of 4, its
    // 8-fold levels at 3 and 5 halved, as converged). The subspace iteration, whose
    // space holds the window whole, takes such a window.
    handed_over_ = largest_level >= win_.nb;
    if (handed_over_) return converged_pairs(iterations, false, begin);
    // Done when every Ritz value inside has converged and one more cycle added none (an
    // eigenvalue the space had missed would have shown up in it): their number equals
    // the count inside (converged or not) of the cycle before, so the cycle that
    // converged them was that extra cycle.
    const int inside = converged_inside + static_cast<int>(unconverged.size());
    if (unconverged.empty() && converged_inside == previous && straddlers_settled && p_settled_) {
      converged = true;
      break;
    }
    const bool count_settled = inside == previous;
    previous = inside;
    const double worst =
        unconverged.empty() ? 0.0 : *std::max_element(unconverged.begin(), unconverged.end());
    // When only the residuals of a settled window stand between this cycle and the end,
    // the next cycle runs just the expansions their decay so far predicts, one to spare
    // (a full cycle for a pair just above tol cost 29 % of a TI run), keeping at least
    // what this restart kept.
    short_cycle = 0;
    min_keep_ = 0;
    if (!unconverged.empty() && count_settled && straddlers_settled && p_settled_ &&
        previous_worst > worst && expansions > 0) {
      const double per_expansion = std::log(previous_worst / worst) / expansions;
      const double needed = std::ceil(std::log(worst / win_.tol) / per_expansion) + 1;
      if (needed < expansions) {
        short_cycle = static_cast<int>(needed);
        min_keep_ = kept_;
      }
    }
    // Everything inside converged, but the count moved: the next cycle only has to show
    // that none is missing. A window eigenvector outside the space gains at least
    // 1 / rate on the rest with every expansion, so it shows up (a Ritz value inside or a
    // new straddler) within the first expansions of a cycle; two of them, not a whole
    // cycle (the full confirming cycle was a fifth of a TI window's run).
    if (unconverged.empty() && !count_settled && straddlers_settled && p_settled_ &&
        expansions > 2) {
      short_cycle = 2;
      min_keep_ = kept_;
    }
    previous_worst = worst;
    if (o_.progress)
      o_.progress({iterations, converged_inside, static_cast<int>(unconverged.size()), worst,
                   degree_, capacity_, MPI_Wtime() - begin});
  }
  if (!converged && o_.throw_on_failure)
    raise_not_converged(comm,
                        "chebfd: not converged after " + std::to_string(iterations) +
                            " Krylov-Schur restarts, " + std::to_string(converged_inside) +
                            " pairs converged" + win_.degree_note(degree_, o_),
                        win_.tol, unconverged);
  return converged_pairs(iterations, converged, begin);
}

}  // namespace

template <class T>
std::optional<EigenResult<T>> chebfd_krylov_schur(const Matrix<T>& a, const KpmMoments& kpm,
                                                  double lower, double upper,
                                                  const ChebfdOptions& o, EigenResult<T>& found) {
  FilteredKrylovSchur<T> solver(a, kpm, lower, upper, o);
  EigenResult<T> r = solver.run();
  if (!solver.handed_over()) return r;
  found = std::move(r);
  return std::nullopt;
}

#define TSEIG_INSTANTIATE(T)                                  \
  template std::optional<EigenResult<T>> chebfd_krylov_schur( \
      const Matrix<T>&, const KpmMoments&, double, double, const ChebfdOptions&, EigenResult<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse::detail
