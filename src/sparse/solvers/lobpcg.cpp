// LOBPCG (Duersch et al. 2018's robust variant). The basis [X, P, W] (Ritz vectors,
// search directions and preconditioned residuals of the unconverged pairs) is kept
// S-orthonormal as a whole: X and P by construction in the small space, W by projection
// against [X, P] and SVQB with a drop tolerance, once, and again when the product below
// shows W not orthonormal enough. Rayleigh–Ritz is then a standard eigenproblem of order
// ≤ 3m; P is the part of the unconverged columns of the new X outside the old X
// (Hetmaniuk & Lehoucq), orthonormalized in the small space. If [X, P, W] is found not
// orthonormal, P is dropped (restart). The operator is applied to W, and H·[X P] and
// S·[X P] follow X and P through the same small transformations (in place, row chunk by
// row chunk), as do the projected matrices of [X P], so an iteration forms only
// [X P W]ᴴ·[HW SW], in one reduction. Where applying H to the new X is cheaper than
// rotating H·[X P W] (a sparse matrix with few nonzeros per row, by a flop model:
// SparseTuneParameters::lobpcg_recompute_hx), H·X is recomputed instead. Before
// convergence is declared H·X and S·X are recomputed and the Ritz pairs refreshed, so the
// reported residuals are true.
#include "tseig/sparse/lobpcg.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "core/require_each.hpp"
#include "sparse/dist/hermitian_check.hpp"
#include "sparse/solvers/agree.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "sparse/solvers/block_orthogonalize.hpp"
#include "sparse/solvers/lanczos_extremes.hpp"
#include "sparse/solvers/level_end.hpp"
#include "sparse/solvers/lobpcg_basis.hpp"
#include "sparse/solvers/lobpcg_directions.hpp"
#include "sparse/solvers/projected_blocks.hpp"
#include "sparse/solvers/rayleigh_ritz.hpp"
#include "sparse/solvers/result_costs.hpp"
#include "tseig/error.hpp"

namespace tseig::sparse {

namespace {

using detail::agree;
using detail::Timer;

/// Block size m = nev + guard, at most n.
template <class T>
int block_columns(const LobpcgOptions<T>& o, std::int64_t n) {
  const int guard = o.guard < 0 ? std::max(4, o.nev / 4) : o.guard;
  return static_cast<int>(std::min<std::int64_t>(std::int64_t{o.nev} + guard, n));
}

/// lobpcg_recompute_hx's choice. Automatic: by a flop model that gives the same answer on
/// every rank and in every run (results stay bitwise reproducible). Rotating H·[X P W]
/// (≈ 3m × 2m) costs ≈ 6m² multiply-adds per row, H·X 2m·(nonzeros per row) counted
/// twice (a sparse product is bound by memory, the rotation was nearly bound by the FMA
/// units through BLAS: measured on the 64³ Laplacian, 1.9 ns per row and vector against
/// 6.5 ns per row and output column for 52 → 36 columns), so recompute below 1.5m
/// nonzeros per row; a callback's cost is unknown, so it is rotated. With the
/// tall-skinny kernels both ways ran alike there (48³ at np = 1, within the VM's noise).
template <class T>
bool recompute_hx(int choice, const LinearOperator<T>& h, int m) {
  if (choice >= 0) return choice == 1;
  if (!h.matrix() || h.rows() == 0) return false;
  const double per_row = static_cast<double>(h.matrix()->nonzeros()) / h.rows();
  return per_row < 1.5 * m;
}

template <class T>
class Lobpcg {
 public:
  using R = real_t<T>;
  /// confirm_level: the first pair beyond the nev-th level must converge too (a warm run
  /// whose new columns are still far from the level's missing members would end at once).
  /// iterations_before, begin: where the solve stands when this run starts (a rerun with
  /// more guard columns continues the progress reports).
  Lobpcg(const LinearOperator<T>& h, const LinearOperator<T>* s, const LobpcgOptions<T>& o,
         const Preconditioner<T>& pc, bool confirm_level, int iterations_before, double begin)
      : confirm_level_(confirm_level),
        iterations_before_(iterations_before),
        begin_(begin),
        h_(h),
        s_(s),
        o_(o),
        pc_(pc),
        comm_(h.comm()),
        nev_(o.nev),
        m_(block_columns(o, h.rows())),
        sign_(o.which == Which::smallest ? 1 : -1),
        tol_(o.tol > 0 ? o.tol : std::sqrt(std::numeric_limits<R>::epsilon())),
        drop_(1e3 * std::numeric_limits<R>::epsilon()),
        basis_(h, s, 3 * m_),
        recompute_hx_(recompute_hx(o.tune.lobpcg_recompute_hx, h, m_)) {}

  EigenResult<T> run();
  /// After a converged run: the nev-th level filled the whole block, so it may go on
  /// beyond it.
  bool level_open() const { return level_open_; }
  double norm_h() const { return norm_h_; }
  double norm_s() const { return norm_s_; }

 private:
  void apply(const LinearOperator<T>& op, const MultiVector<T>& x, const MultiVector<T>& y) {
    Timer t(times_.spmmv);
    if (&op == &h_) applications_ += x.cols();
    // A sparse matrix's kernels read the basis's columns where they lie (rows of whole
    // cache lines): copying them into contiguous panels first cost 9 % of the 64³
    // Laplacian's run and gained nothing. A callback gets contiguous panels.
    if (op.matrix()) return op.apply(x, y);
    detail::by_panels(
        &op == &h_ ? panels_[0] : panels_[1], op.layout(), x, y,
        [&](const MultiVector<T>& in, const MultiVector<T>& out) { op.apply(in, out); });
  }
  /// ‖op‖ by 20 Lanczos steps, unless `given`. For S the same steps check that it is
  /// positive definite: a Ritz value (a Rayleigh quotient) below −√ε‖S‖ is a direction
  /// of negative S-norm, which the S-orthonormal basis would drop without a word, and
  /// with it the pencil's eigenpairs there (Error(not_positive_definite), every rank).
  double norm_estimate(const LinearOperator<T>& op, double given, bool is_s) {
    if (given > 0) return given;
    Timer t(times_.spmmv);
    const detail::RitzExtremes r = detail::lanczos_extremes(op, 20, 7);
    const double norm =
        std::max(std::abs(r.lowest - r.lowest_residual), std::abs(r.highest + r.highest_residual));
    if (is_s && r.lowest < -std::sqrt(double(std::numeric_limits<real_t<T>>::epsilon())) * norm) {
      char text[200];
      std::snprintf(text, sizeof text,
                    "lobpcg: S is not positive definite (a Rayleigh quotient of S is %.3e, "
                    "with ||S|| about %.3e)",
                    r.lowest, norm);
      throw Error(ErrorCode::not_positive_definite, text);
    }
    return norm;
  }
  /// Where the residuals of the first `cols` active columns go for a basis of q columns:
  /// straight into W without a preconditioner, else into H·V's last m columns (free
  /// until H·W).
  MultiVector<T> residual_home(int q, int cols) const {
    return pc_.empty() ? basis_.v.view(q, cols) : basis_.hv.view(2 * m_, cols);
  }
  void start();
  void refresh();
  void compute_residuals();
  int wanted() const;
  bool step();
  void rotate(const std::vector<T>& c, int k, int cols, const std::vector<T>& gh,
              const std::vector<T>& gs, bool may_recompute);
  EigenResult<T> result(int count, bool converged);

  void report(int wanted) const;

  const bool confirm_level_;
  const int iterations_before_;
  const double begin_;
  const LinearOperator<T>& h_;
  const LinearOperator<T>* s_;
  const LobpcgOptions<T>& o_;
  const Preconditioner<T>& pc_;
  MPI_Comm comm_;
  const int nev_, m_, sign_;
  const double tol_, drop_;
  double norm_h_ = 1, norm_s_ = 1;
  detail::Basis<T> basis_;       // X at [0, m), P at [m, m + np), W after
  std::vector<T> gh_, gs_;       // [X P]ᴴ·H·[X P] and [X P]ᴴ·S·[X P], (m + np)², carried
  detail::Panels<T> panels_[2];  // for H and for S (their layouts may differ in halo)
  int np_ = 0, iterations_ = 0, space_ = 0;  // space_: columns of the last Rayleigh–Ritz
  int residuals_at_ = -1;          // q of the last residual_home holding all m residuals, or −1
  std::int64_t applications_ = 0;  // H times one vector
  bool recompute_hx_;  // H·X by the operator after Rayleigh–Ritz (lobpcg_recompute_hx)
  bool level_open_ = false;
  std::vector<int> active_;  // the columns given a residual direction and a P direction
  std::vector<R> theta_;     // Ritz values, from the wanted end
  std::vector<double> rel_;  // relative residuals
  SolverTimes times_;
};

/// X ← random block with the warm-start columns first, S-orthonormal (SVQB; columns lost
/// to rank deficiency are refilled with new random ones, uniform rather than ±1).
template <class T>
void Lobpcg<T>::start() {
  MultiVector<T> x = basis_.v.view(0, m_);
  x.fill_random(0x10b9c9);
  for (int j = 0; j < o_.initial.cols(); ++j) detail::copy_column(o_.initial, j, x, j);
  int kept = 0;
  for (int attempt = 0; attempt < 4 && kept < m_; ++attempt) {
    MultiVector<T> fresh = x.view(kept, m_ - kept);
    if (attempt > 0) detail::fill_uniform(fresh, 0x5eed + attempt);
    const MultiVector<T> sfresh = basis_.s_view(kept, m_ - kept);
    if (s_) apply(*s_, fresh, sfresh);
    kept += detail::orthonormalize_against(x.view(0, kept), basis_.s_view(0, kept), fresh,
                                           s_ ? &sfresh : nullptr, drop_, o_.tune, times_);
  }
  raise_if_any(comm_, kept < m_, ErrorCode::numerical_failure,
               "lobpcg: cannot build an S-orthonormal start block of " + std::to_string(m_) +
                   " columns (is S positive definite?)");
  refresh();
}

/// H·X and S·X recomputed, then Rayleigh–Ritz on X alone (generalized with XᴴSX, which
/// absorbs the drift of the updated products); P is dropped.
template <class T>
void Lobpcg<T>::refresh() {
  const MultiVector<T> x = basis_.v.view(0, m_), hx = basis_.hv.view(0, m_);
  apply(h_, x, hx);
  if (s_) apply(*s_, x, basis_.sv.view(0, m_));
  const MultiVector<T> sx = basis_.s_view(0, m_);
  const std::size_t mm = static_cast<std::size_t>(m_) * m_;
  std::vector<T> g(2 * mm, T(0));
  {
    Timer t(times_.rayleigh_ritz);
    detail::local_gram(x, hx, g.data(), sx, g.data() + mm);
  }
  detail::reduce(comm_, std::span<T>(g), times_);
  const std::vector<T> gh(g.begin(), g.begin() + mm), gs(g.begin() + mm, g.end());
  std::vector<T> a = gh;
  for (T& v : a) v *= R(sign_);
  const detail::SmallEigen<T> e =
      detail::projected_eigen(comm_, m_, std::move(a), gs, o_.tune, times_, times_.rayleigh_ritz);
  raise_if_any(comm_, !e.ok, ErrorCode::numerical_failure,
               "lobpcg: the Ritz block lost S-orthogonality beyond repair");
  theta_.resize(m_);
  for (int j = 0; j < m_; ++j) theta_[j] = R(sign_) * e.values[j];
  rotate(e.vectors, m_, m_, gh, gs, false);  // H·X just computed: m × m is cheap
  np_ = 0;
}

/// The relative residuals of all m pairs, and the residual vectors themselves where the
/// next step wants those of its active columns (the same pass over the rows).
template <class T>
void Lobpcg<T>::compute_residuals() {
  const MultiVector<T> x = basis_.v.view(0, m_), hx = basis_.hv.view(0, m_),
                       sx = basis_.s_view(0, m_);
  std::vector<double> sq(2 * static_cast<std::size_t>(m_), 0.0);  // ‖r_j‖², then ‖x_j‖²
  residuals_at_ = m_ + np_;
  if (x.local_rows() > 0)
    detail::residual_sums(x, hx, sx, theta_.data(), sq.data(), residual_home(residuals_at_, m_));
  detail::reduce(comm_, std::span<double>(sq), times_);
  rel_.resize(m_);
  for (int j = 0; j < m_; ++j)
    rel_[j] = std::sqrt(sq[j]) /
              ((norm_h_ + std::abs(theta_[j]) * norm_s_) * std::max(std::sqrt(sq[m_ + j]), 1e-300));
  agree(comm_, std::span<double>(rel_), times_);
}

/// nev, grown over the guard columns whose Ritz values belong to the nev-th level. While
/// they are far from converged their bounds are wide and the level with them, so they must
/// converge before the level can end short of them. (With S, ‖Hx − θSx‖/‖x‖ bounds the
/// error up to ‖S⁻¹‖: the level rule is an estimate there.)
template <class T>
int Lobpcg<T>::wanted() const {
  const double scale = norm_h_ + std::abs(theta_[nev_ - 1]) * norm_s_;
  return detail::level_end(
      nev_, m_, [&](int j) { return static_cast<double>(theta_[j]); },
      [&](int j) { return rel_[j] * (norm_h_ + std::abs(theta_[j]) * norm_s_); },
      8 * std::numeric_limits<R>::epsilon() * scale);
}

/// One iteration; false when it cannot extend the basis any more (stagnation).
template <class T>
bool Lobpcg<T>::step() {
  // Soft locking: converged pairs stay in X but add no directions. The unconverged ones
  // are joined by the least converged others up to a width the kernels take whole
  // (whole panels and a power of two), for free: they would pad with zero columns.
  std::vector<int> order(m_);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rel_[a] > rel_[b]; });
  const int unconverged = static_cast<int>(
      std::count_if(rel_.begin(), rel_.begin() + m_, [&](double r) { return r > tol_; }));
  const int rest = unconverged % detail::Panels<T>::columns;
  const int nw0 = std::min(
      m_, rest ? unconverged - rest + static_cast<int>(std::bit_ceil(static_cast<unsigned>(rest)))
               : unconverged);
  active_.assign(order.begin(), order.begin() + nw0);
  std::sort(active_.begin(), active_.end());
  auto drop_directions = [&] {  // restart without P
    gh_ = detail::leading(gh_, m_ + np_, m_);
    gs_ = detail::leading(gs_, m_ + np_, m_);
    np_ = 0;
  };
  for (;;) {
    const int q = m_ + np_;
    const MultiVector<T> w = basis_.v.view(q, nw0), sw = basis_.s_view(q, nw0);
    // The residuals of the active columns.
    const MultiVector<T> r = residual_home(q, nw0);
    if (residuals_at_ == q) {  // all m there, from compute_residuals: keep the active ones
      const bool all = active_.back() == nw0 - 1;
      if (!all) detail::compact_columns(residual_home(q, m_), active_.data(), nw0);
    } else {
      std::vector<R> theta(nw0);
      for (int k = 0; k < nw0; ++k) theta[k] = theta_[active_[k]];
      if (r.local_rows() > 0)
        detail::residual_block(basis_.hv.view(0, m_), basis_.s_view(0, m_), active_.data(),
                               theta.data(), r);
    }
    residuals_at_ = -1;
    if (!pc_.empty()) {
      Timer t(times_.spmmv);
      collectively(h_.comm(), [&] { pc_.apply(r, w); });  // a callback failing on some ranks
    }
    if (s_) apply(*s_, w, sw);
    // W against [X P] and SVQB once; a second time only when the product with the basis,
    // formed anyway for Rayleigh–Ritz, shows that W came out not orthonormal enough.
    int nw = nw0;
    std::vector<T> gh, gs;
    for (int pass = 0; pass < 2 && nw > 0; ++pass) {
      const MultiVector<T> wp = w.view(0, nw), swp = sw.view(0, nw);
      const std::vector<double> removed = detail::project_out(
          basis_.v.view(0, q), basis_.s_view(0, q), wp, s_ ? &swp : nullptr, times_);
      nw = detail::svqb(wp, s_ ? &swp : nullptr, drop_, o_.tune, times_, removed);
      if (nw == 0) break;
      const int k = q + nw;
      apply(h_, w.view(0, nw), basis_.hv.view(q, nw));
      const std::size_t kw = static_cast<std::size_t>(k) * nw;
      std::vector<T> fresh(2 * kw, T(0));
      {
        Timer t(times_.rayleigh_ritz);
        detail::local_gram(basis_.v.view(0, k), basis_.hv.view(q, nw), fresh.data(),
                           basis_.s_view(q, nw), fresh.data() + kw);
      }
      detail::reduce(comm_, std::span<T>(fresh), times_);
      gh = detail::assemble(gh_, q, fresh.data(), k);
      gs = detail::assemble(gs_, q, fresh.data() + kw, k);
      double w_deviation = 0;
      for (std::size_t i = 0; i < kw; ++i)
        w_deviation = std::max(
            w_deviation, static_cast<double>(std::abs(
                             fresh[kw + i] -
                             T(static_cast<int>(i % k) == q + static_cast<int>(i / k) ? 1 : 0))));
      detail::agree(comm_, std::span<double>(&w_deviation, 1), times_);
      if (w_deviation <= 1e3 * std::numeric_limits<R>::epsilon()) break;
    }
    if (nw == 0) {
      if (np_ == 0) return false;
      drop_directions();
      continue;
    }
    const int k = q + nw;
    double deviation = 0;
    for (int b = 0; b < k; ++b)
      for (int a = 0; a < k; ++a)
        deviation = std::max(
            deviation, static_cast<double>(
                           std::abs(gs[a + static_cast<std::size_t>(b) * k] - T(a == b ? 1 : 0))));
    detail::agree(comm_, std::span<double>(&deviation, 1), times_);
    const bool orthonormal = deviation <= std::sqrt(std::numeric_limits<R>::epsilon());
    if (!orthonormal && np_ > 0) {
      drop_directions();
      continue;
    }
    std::vector<T> a = gh, b;
    if (!orthonormal) b = gs;
    for (T& x : a) x *= R(sign_);
    space_ = k;
    const detail::SmallEigen<T> e = detail::projected_eigen(comm_, k, std::move(a), std::move(b),
                                                            o_.tune, times_, times_.rayleigh_ritz);
    raise_if_any(comm_, !e.ok, ErrorCode::numerical_failure,
                 "lobpcg: the basis [X, P, W] lost S-orthogonality beyond repair");
    for (int j = 0; j < m_; ++j) theta_[j] = R(sign_) * e.values[j];
    // [X P] ← V·[C_x Z] in one pass per block.
    std::vector<T> c(e.vectors.begin(), e.vectors.begin() + static_cast<std::ptrdiff_t>(k) * m_);
    if (orthonormal) {
      Timer t(times_.rayleigh_ritz);
      const std::vector<T> z = detail::direction_coefficients(e.vectors, k, m_, active_);
      c.insert(c.end(), z.begin(), z.end());
    }
    const int cols = static_cast<int>(c.size() / k);
    rotate(c, k, cols, gh, gs, true);
    np_ = cols - m_;
    return true;
  }
}

/// The basis's leading k columns (and S times them) times C (k × cols) become its leading
/// cols, in place, and the carried projected matrices Cᴴ·G·C. H·X follows by the same
/// rotation of H times the basis or, where allowed and chosen (recompute_hx), by H applied
/// to the new X.
template <class T>
void Lobpcg<T>::rotate(const std::vector<T>& c, int k, int cols, const std::vector<T>& gh,
                       const std::vector<T>& gs, bool may_recompute) {
  {
    Timer t(times_.rayleigh_ritz);
    detail::transform_in_place(basis_.v.view(0, k), c.data(), cols);
    if (s_) detail::transform_in_place(basis_.sv.view(0, k), c.data(), cols);
    gh_ = detail::congruence(gh, c, k, cols);
    gs_ = detail::congruence(gs, c, k, cols);
  }
  if (may_recompute && recompute_hx_) {
    apply(h_, basis_.v.view(0, m_), basis_.hv.view(0, m_));
    return;
  }
  Timer t(times_.rayleigh_ritz);
  detail::transform_in_place(basis_.hv.view(0, k), c.data(), cols);
}

/// The wanted pairs' residuals after the iterations so far (agreed on every rank).
template <class T>
void Lobpcg<T>::report(int wanted) const {
  Progress p;
  p.iteration = iterations_before_ + iterations_;
  double worst = 0;
  for (int j = 0; j < wanted; ++j)
    if (rel_[j] <= tol_)
      ++p.converged;
    else
      worst = std::max(worst, rel_[j]);
  p.unconverged = wanted - p.converged;
  p.largest_residual = worst;
  p.space = space_;
  p.seconds = MPI_Wtime() - begin_;
  o_.progress(p);
}

template <class T>
EigenResult<T> Lobpcg<T>::result(int count, bool converged) {
  EigenResult<T> r;
  r.eigenvalues.assign(theta_.begin(), theta_.begin() + count);
  r.residuals.assign(rel_.begin(), rel_.begin() + count);
  r.eigenvectors = MultiVector<T>(basis_.v.layout(), count);
  r.eigenvectors.assign(basis_.v.view(0, count));
  r.iterations = iterations_;
  r.operator_applications = applications_;
  r.converged = converged;
  r.times = times_;
  return r;
}

template <class T>
EigenResult<T> Lobpcg<T>::run() {
  const double begin = MPI_Wtime();
  norm_h_ = norm_estimate(h_, o_.norm_h, false);
  if (s_) norm_s_ = norm_estimate(*s_, o_.norm_s, true);
  start();
  bool fresh = true;  // products recomputed since the last step
  for (;;) {
    compute_residuals();
    const int w = wanted();
    const int confirmed = confirm_level_ && w < m_ ? w + 1 : w;
    const bool done =
        std::all_of(rel_.begin(), rel_.begin() + confirmed, [&](double r) { return r <= tol_; });
    if (done && fresh) {
      times_.total = MPI_Wtime() - begin;
      level_open_ = w == m_ && m_ < h_.rows();
      return result(w, true);
    }
    if (done) {
      refresh();
      fresh = true;
      continue;
    }
    if (o_.progress) report(confirmed);
    if (iterations_ >= o_.max_iterations || !step()) break;
    ++iterations_;
    fresh = false;
  }
  times_.total = MPI_Wtime() - begin;
  const int w = wanted();
  if (!o_.throw_on_failure) return result(w, false);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", tol_);  // std::to_string(1e-8) is "0.000000"
  std::string message = "lobpcg: not converged after " +
                        std::to_string(iterations_before_ + iterations_) + " iterations (tol " +
                        buffer + "); relative residuals reached:";
  for (int j = 0; j < w; ++j) {
    std::snprintf(buffer, sizeof buffer, " %.3e", rel_[j]);
    message += buffer;
  }
  raise_if_any(comm_, true, ErrorCode::not_converged, message);
  return {};
}

template <class T>
EigenResult<T> solve(const LinearOperator<T>& h, const LinearOperator<T>* s,
                     const LobpcgOptions<T>& o, const Preconditioner<T>& pc) {
  std::vector<int> values{o.nev,
                          o.guard,
                          static_cast<int>(o.which),
                          o.max_iterations,
                          s ? 1 : 0,
                          pc.empty() ? 0 : 1,
                          o.initial.cols(),
                          o.throw_on_failure ? 1 : 0};
  for (double x : {o.tol, o.norm_h, o.norm_s}) append_bits(values, x);
  append_tune(values, o.tune);
  require_same_options(h.comm(), values, "lobpcg");
  const VectorLayout& l = h.layout();
  const auto on_rows = [&](const VectorLayout& v) { return v.partition_key == l.partition_key; };
  require_each(
      h.comm(), "lobpcg",
      {{o.nev >= 1 && o.nev <= h.rows(),
        "1 <= nev <= n (" + std::to_string(h.rows()) + "), not " + std::to_string(o.nev)},
       {o.tol >= 0, "tol >= 0, not " + shown(o.tol)},
       {o.max_iterations >= 0, "max_iterations >= 0, not " + std::to_string(o.max_iterations)},
       {!s || on_rows(s->layout()), "S on the operator's rows (the same row partition)"},
       {o.initial.cols() == 0 || on_rows(o.initial.layout()),
        "the initial block on the operator's rows (the same row partition)"},
       {o.initial.cols() <= block_columns(o, h.rows()),
        "at most nev + guard (" + std::to_string(block_columns(o, h.rows())) +
            ") initial vectors, not " + std::to_string(o.initial.cols())},
       {o.tune.lobpcg_recompute_hx >= -1 && o.tune.lobpcg_recompute_hx <= 1,
        "tune.lobpcg_recompute_hx -1, 0 or 1, not " + std::to_string(o.tune.lobpcg_recompute_hx)}});
  if (h.matrix()) require_hermitian(*h.matrix(), "lobpcg (H)");
  if (s && s->matrix()) require_hermitian(*s->matrix(), "lobpcg (S)");
  // A level that fills the block may hold more pairs than the block has columns: then
  // again with twice the guard columns, warm from the pairs found, until the level ends
  // inside the block (so any multiplicity comes back whole).
  LobpcgOptions<T> current = o;
  EigenResult<T> before;
  const double begin = MPI_Wtime();
  for (bool warm = false;; warm = true) {
    // A widened rerun that breaks down (S so ill-conditioned that the new directions drop
    // out at once) leaves the converged pairs of the run before it standing.
    current.throw_on_failure = o.throw_on_failure && !warm;
    Lobpcg<T> solver(h, s, current, pc, warm, before.iterations, begin);
    EigenResult<T> r = solver.run();
    detail::add_costs(r, before);
    if (warm && !r.converged) {
      before.iterations = r.iterations;
      before.operator_applications = r.operator_applications;
      before.times = r.times;
      return before;
    }
    if (!solver.level_open()) return r;
    const int guard = block_columns(current, h.rows()) - current.nev;
    current.guard = static_cast<int>(std::min<std::int64_t>(2 * guard + 4, h.rows() - current.nev));
    current.max_iterations = std::max(0, o.max_iterations - r.iterations);
    current.norm_h = solver.norm_h();
    current.norm_s = solver.norm_s();
    current.initial = r.eigenvectors;
    before = std::move(r);
  }
}

}  // namespace

template <class T>
EigenResult<T> lobpcg(const LinearOperator<T>& h, const LobpcgOptions<T>& options,
                      const Preconditioner<T>& preconditioner) {
  return solve(h, static_cast<const LinearOperator<T>*>(nullptr), options, preconditioner);
}

template <class T>
EigenResult<T> lobpcg(const LinearOperator<T>& h, const LinearOperator<T>& s,
                      const LobpcgOptions<T>& options, const Preconditioner<T>& preconditioner) {
  return solve(h, &s, options, preconditioner);
}

#define TSEIG_INSTANTIATE(T)                                                                   \
  template TSEIG_API EigenResult<T> lobpcg(const LinearOperator<T>&, const LobpcgOptions<T>&,  \
                                           const Preconditioner<T>&);                          \
  template TSEIG_API EigenResult<T> lobpcg(const LinearOperator<T>&, const LinearOperator<T>&, \
                                           const LobpcgOptions<T>&, const Preconditioner<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
