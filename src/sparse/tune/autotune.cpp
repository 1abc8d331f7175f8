// The sparse tuner (see tseig/sparse/autotune.hpp). Formats are compared by the kernel the
// solver runs, on the caller's matrix and block width, each the best of repetitions;
// a SELL-C-σ candidate replaces CRS only when it is faster by more than the timing
// noise. The Rayleigh–Ritz threshold is the smallest timed order from which the grid
// solve is faster at that order and every larger one timed. For ChebFD, its filter's
// Chebyshev series on one block and on two taking turns (pipeline_blocks) per block
// step: the pair replaces one block at a time only when faster by the same margin. CRS
// is timed with its X-row prefetch forced on and off, and with the row streams prefetched
// too (prefetch_x), and SELL-C-σ must beat the best of the four; the storage candidates are timed
// in turn over rounds.
#include "tseig/sparse/autotune.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/best_time.hpp"
#include "core/instantiate.hpp"
#include "core/json.hpp"
#include "sparse/kernels/chebyshev_sum.hpp"
#include "sparse/random.hpp"
#include "sparse/solvers/rayleigh_ritz.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/multivector.hpp"
#include "tune/sparse_choice.hpp"
#include "tune/tune_cache.hpp"

namespace tseig::sparse {

namespace {

// A SELL candidate must beat CRS by this factor: smaller gains are within the noise of
// a best-of-repetitions time, and CRS is the documented default.
constexpr double switch_margin = 0.97;
// Rounds over the storage candidates (see autotune).
constexpr int kernel_rounds = 3;

template <class T>
double time_kernel(const Matrix<T>& a, const SparseAutotuneOptions& o) {
  const int nb = o.block_width;
  MultiVector<T> x(a.vector_layout(), nb), y(a.vector_layout(), nb), z(a.vector_layout(), nb);
  x.fill_random(1);
  y.fill_random(2);
  std::vector<T> d1(nb), d2(nb);
  // Scaled so that repeated applications stay far from overflow.
  const T alpha(0.25), beta(0.5), small(1e-3);
  const auto run = [&] {
    switch (o.kernel) {
      case TunedKernel::spmmv:
        return spmmv(a, x, y);
      case TunedKernel::aug_spmmv:
        return aug_spmmv(a, alpha, beta, x, small, y, std::span<T>(d1), std::span<T>(d2));
      case TunedKernel::chebfd_op:
        return chebfd_op(a, alpha, beta, x, y, small, z, std::span<T>(d1), std::span<T>(d2));
    }
  };
  return best_time(a.comm(), o.seconds, run, 2);
}

/// Seconds per block and degree step of ChebFD's filter with `blocks` blocks of the
/// tuned width taking turns (detail::chebyshev_sums).
template <class T>
double time_series(const Matrix<T>& a, const SparseAutotuneOptions& o, int blocks) {
  const SpectralBounds bounds = spectral_bounds(a);
  const double center = (bounds.upper + bounds.lower) / 2,
               half = std::max((bounds.upper - bounds.lower) / 2, 1e-300);
  constexpr int degree = 12;  // |T_k| ≤ 1 on the spectrum: repetitions stay bounded
  const std::vector<double> c(degree + 1, 1e-2);
  std::vector<MultiVector<T>> blocks_of(3 * blocks);
  for (auto& v : blocks_of) v = MultiVector<T>(a.vector_layout(), o.block_width);
  for (int b = 0; b < blocks; ++b) blocks_of[3 * b].fill_random(3 + b);
  const auto run = [&] {
    std::vector<detail::ChebyshevSeries<T>> series;
    series.reserve(blocks);
    for (int b = 0; b < blocks; ++b)
      series.emplace_back(a, std::span<const double>(c), center, half, blocks_of[3 * b],
                          blocks_of[3 * b + 1], blocks_of[3 * b + 2]);
    detail::chebyshev_sums(std::span<detail::ChebyshevSeries<T>>(series));
  };
  return best_time(a.comm(), o.seconds, run, 2) / (blocks * degree);
}

/// A random Hermitian n × n matrix, the same on every rank.
template <class T>
std::vector<T> random_projected(int n) {
  std::vector<T> m(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      T v(random_unit(random_bits(7, i, j)) - 0.5);
      if constexpr (is_complex_v<T>)
        if (i != j) v += T(0, random_unit(random_bits(8, i, j)) - 0.5);
      m[i + static_cast<std::size_t>(j) * n] = v;
      m[j + static_cast<std::size_t>(i) * n] = conj_if_complex(v);
    }
  return m;
}

template <class T>
double time_projected(MPI_Comm comm, int n, bool grid, double seconds) {
  const std::vector<T> m = random_projected<T>(n);
  SparseTuneParameters t;
  t.rr_distributed_min = grid ? n : n + 1;
  const auto solve = [&] {
    SolverTimes times;
    double part = 0;
    (void)detail::projected_eigen(comm, n, m, {}, t, times, part);
  };
  return best_time(comm, seconds, solve, 2);
}

void check_options(MPI_Comm comm, const SparseAutotuneOptions& o) {
  bool bad = o.block_width < 1 || !(o.seconds >= 0) ||
             !std::is_sorted(o.rr_orders.begin(), o.rr_orders.end());
  for (const auto& [c, s] : o.sell_candidates) bad |= c < 1 || s < c || s % c != 0;
  for (int n : o.rr_orders) bad |= n < 1;
  raise_if_any(comm, bad, ErrorCode::invalid_argument,
               "sparse autotune: block_width >= 1, seconds >= 0, SELL candidates with C >= 1 "
               "and σ a multiple of C, rr_orders ascending and positive");
}

template <class T>
tune::SparseSignature signature_of(const Matrix<T>& a, TunedKernel kernel) {
  int ranks = 1;
  MPI_Comm_size(a.comm(), &ranks);
  return tune::make_sparse_signature(type_letter<T>(), a.rows(), a.nonzeros(), ranks,
                                     to_string(kernel));
}

}  // namespace

const char* to_string(TunedKernel k) {
  switch (k) {
    case TunedKernel::spmmv:
      return "spmmv";
    case TunedKernel::aug_spmmv:
      return "aug_spmmv";
    default:
      return "chebfd_op";
  }
}

std::string format_label(const SparseTuneParameters& t) {
  if (t.format == SparseFormat::crs) return "crs";
  return "sell-" + std::to_string(t.sell_chunk) + "-" + std::to_string(t.sell_sigma);
}

std::string storage_label(const SparseTuneParameters& t) {
  if (t.format != SparseFormat::crs || t.prefetch_x < 0) return format_label(t);
  static const char* const label[] = {"crs, no prefetch", "crs, X rows prefetched",
                                      "crs, X rows and row streams prefetched"};
  return label[t.prefetch_x];
}

template <class T>
SparseAutotuneResult autotune(const Matrix<T>& a, const SparseAutotuneOptions& o) {
  check_options(a.comm(), o);
  SparseAutotuneResult r;
  if (o.kernel == TunedKernel::chebfd_op) r.best.block_width = o.block_width;
  // CRS as by default, with its X-row prefetch forced on and off (the default is one of
  // the two by the row's width) and with the row streams prefetched too, then the
  // SELL-C-σ candidates.
  std::vector<SparseTuneParameters> candidates(4);
  candidates[1].prefetch_x = 1;
  candidates[2].prefetch_x = 0;
  candidates[3].prefetch_x = 2;
  for (const auto& [c, s] : o.sell_candidates) {
    SparseTuneParameters t;
    t.format = SparseFormat::sell_c_sigma;
    t.sell_chunk = c;
    t.sell_sigma = s;
    candidates.push_back(t);
  }
  // Timed in turn over several rounds, each candidate's best kept: a machine that runs
  // slow for seconds at a time then slows every candidate, not only those timed then
  // (on a 2-core VM two timings of one configuration in a row differed by 7–16 %).
  const Matrix<T> base = a.with_format({});
  std::vector<double> seconds(candidates.size(), std::numeric_limits<double>::infinity());
  SparseAutotuneOptions round = o;
  round.seconds = o.seconds / kernel_rounds;
  for (int k = 0; k < kernel_rounds; ++k)
    for (std::size_t c = 0; c < candidates.size(); ++c)
      seconds[c] =
          std::min(seconds[c], time_kernel(c == 0 ? base : base.with_format(candidates[c]), round));
  for (std::size_t c = 0; c < candidates.size(); ++c)
    r.trials.push_back({storage_label(candidates[c]), seconds[c]});
  // A forced prefetch must beat the default, and SELL-C-σ the best CRS, by the margin.
  std::size_t chosen = 0;
  for (std::size_t c = 1; c < candidates.size(); ++c)
    if (seconds[c] < seconds[chosen] * switch_margin) chosen = c;
  r.best.format = candidates[chosen].format;
  r.best.sell_chunk = candidates[chosen].sell_chunk;
  r.best.sell_sigma = candidates[chosen].sell_sigma;
  r.best.prefetch_x = candidates[chosen].prefetch_x;

  if (o.kernel == TunedKernel::chebfd_op) {
    const Matrix<T> filtered = base.with_format(r.best);
    const double alone = time_series(filtered, o, 1), turns = time_series(filtered, o, 2);
    r.trials.push_back({"filter, 1 block at a time", alone});
    r.trials.push_back({"filter, 2 blocks in turn", turns});
    r.best.pipeline_blocks = turns < alone * switch_margin ? 2 : 1;
  }

  if (!o.rr_orders.empty()) {
    std::vector<bool> grid_wins;
    for (int n : o.rr_orders) {
      if (n > a.rows()) break;  // no projected problem is larger than the matrix
      const double local = time_projected<T>(a.comm(), n, false, o.seconds);
      const double grid = time_projected<T>(a.comm(), n, true, o.seconds);
      r.trials.push_back({"rr " + std::to_string(n) + " one rank", local});
      r.trials.push_back({"rr " + std::to_string(n) + " grid", grid});
      grid_wins.push_back(grid < local);
    }
    // None won: no measurement says the grid pays below twice the largest order timed.
    // None timed (all larger than the matrix): the default stays.
    std::size_t k = grid_wins.size();
    while (k > 0 && grid_wins[k - 1]) --k;
    if (!grid_wins.empty())
      r.best.rr_distributed_min =
          k < grid_wins.size() ? o.rr_orders[k] : 2 * o.rr_orders[grid_wins.size() - 1];
  }

  const std::string path = tune::cache_path(o.tune_file);
  if (!path.empty()) {
    const tune::SparseSignature sig = signature_of(a, o.kernel);
    std::string trials = "[";
    for (const auto& t : r.trials)
      trials += (trials.size() > 1 ? ",{\"what\":\"" : "{\"what\":\"") + t.what +
                "\",\"seconds\":" + json::number(t.seconds, "%.4g") + "}";
    const std::string entry = "{\"signature\":" + sig.json() +
                              ",\"choice\":" + tune::sparse_choice_json(r.best) + ",\"kernel\":\"" +
                              to_string(o.kernel) + "\"" +
                              ",\"block_width\":" + std::to_string(o.block_width) +
                              ",\"trials\":" + trials + "],\"by\":\"sparse autotune\"}";
    if (tune::cache_store_entry(a.comm(), path, sig.key(), entry)) r.stored_in = path;
  }
  return r;
}

template <class T>
std::optional<SparseTuneParameters> cached_tuning(const Matrix<T>& a, TunedKernel kernel,
                                                  const std::string& tune_file) {
  const std::string key = signature_of(a, kernel).key();
  const auto entry = tune::cache_lookup_entry(
      a.comm(), tune::cache_path(tune_file), key, [&](const tune::JsonValue& e) {
        const tune::JsonValue* c = e.find("choice");
        if (!c) throw Error(ErrorCode::io_error, "entry '" + key + "' has no 'choice'");
        (void)tune::sparse_choice_from_json(*c);
      });
  if (!entry) return std::nullopt;
  return tune::sparse_choice_from_json(*entry->find("choice"));
}

template <class T>
SparseTuneParameters tuned_parameters(const Matrix<T>& a, TunedKernel kernel,
                                      const SparseTuneParameters& user,
                                      const std::string& tune_file) {
  const auto cached = cached_tuning(a, kernel, tune_file);
  return cached ? tune::merged(user, *cached) : user;
}

#define TSEIG_INSTANTIATE(T)                                                           \
  template TSEIG_API SparseAutotuneResult autotune(const Matrix<T>&,                   \
                                                   const SparseAutotuneOptions&);      \
  template TSEIG_API SparseTuneParameters tuned_parameters(                            \
      const Matrix<T>&, TunedKernel, const SparseTuneParameters&, const std::string&); \
  template TSEIG_API std::optional<SparseTuneParameters> cached_tuning(                \
      const Matrix<T>&, TunedKernel, const std::string&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
