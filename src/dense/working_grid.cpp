// The working grid (see working_grid.hpp): the cost model and the solve on a sub-grid.
#include "dense/working_grid.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "core/redistribute.hpp"
#include "core/stage_timer.hpp"
#include "tseig/error.hpp"
#include "tune/machine_model.hpp"

namespace tseig::dense {

namespace {

// A nominal machine: the plan compares grids, so only the ratios of these rates matter.
// The latency is one tseig message, fitted so that 2 ranks overtake 1 at N ≈ 100–200 as
// measured (one_stage, nb 16–32, 2-core EPYC).
constexpr double nominal_gemm_gflops = 20;
constexpr double nominal_stream_gbs = 10;
constexpr double nominal_latency_s = 2e-6;
constexpr double nominal_network_gbs = 5;  // per rank, within a node
constexpr double nominal_panel_gemm_share = 0.68;
constexpr double nominal_symv_gbs_per_gflops = 0.463;
constexpr double nominal_band_backtransform_share = 0.36;
// The divide & conquer and the Householder back-transforms at the fractions of dgemm the
// machine model charged them when the grid choices were fitted (0.47; 0.64 and 0.58).
constexpr double nominal_divide_conquer_share = 0.47;
constexpr double nominal_householder_share = 0.6;
// Between nodes: a 100 Gb/s link, shared by the node's ranks.
constexpr double node_link_gbs = 12.5;
constexpr double node_latency_s = 3e-6;
// Ranks sharing a core run in turns: a message waits for its peer's time slice. Fitted
// to one_stage, N = 100–1200, 4 ranks on 2 cores: 2.7× (N = 100) to 1.45× (N = 1200)
// slower than 2 ranks (Open MPI, --oversubscribe).
constexpr double time_slice_latency_factor = 2;
// Small local blocks run below the BLAS-3 rate: the rate × m / (m + m0) for local
// blocks of order m = N / √p (one_stage measured 4× below the model at N = 100).
constexpr double half_rate_block = 200;
// Another grid must be predicted this much faster, so near ties keep the caller's.
constexpr double gain_required = 0.9;

int element_bytes(char type) {
  switch (type) {
    case 's':
      return 4;
    case 'z':
      return 16;
    default:
      return 8;
  }
}

std::vector<int> candidate_rank_counts(int p) {
  std::vector<int> counts{p};
  if (p > 1) counts.push_back(p - 1);
  for (int k = 1; k < p - 1; k *= 2) counts.push_back(k);
  return counts;
}

}  // namespace

double predicted_seconds(const GridProblem& problem, GridShape shape, GridShape given,
                         const RankPlacement& placement) {
  const int p = shape.nprow * shape.npcol, given_p = given.nprow * given.npcol;
  const double turns = std::max(1.0, placement.oversubscription(p));
  const double local_order = problem.n / std::sqrt(static_cast<double>(p));
  const bool across_nodes = placement.nodes(p) > 1;
  tune::MachineRates rates;
  const double small_blocks = local_order / (local_order + half_rate_block);
  rates.gemm_gflops = nominal_gemm_gflops / turns * small_blocks;
  // The model counts a complex flop as 4 real ones; small blocks are overhead-bound, so
  // there a complex solve costs less than 4× a real one (measured: 1.2× at N = 40, 1.7×
  // at N = 100, two_stage, one rank).
  const bool complex = problem.type == 'c' || problem.type == 'z';
  if (complex) rates.gemm_gflops *= 4 / (1 + 3 * small_blocks);
  rates.stream_gbs = nominal_stream_gbs / turns;
  // The nominal bulge chase: 1/20 of the dgemm rate, 1/4 while the band fits a 1 MiB
  // L2 cache (the fit the grid choices were made with).
  const double band_bytes =
      8.0 * problem.n *
      std::min(std::max(TuneParameters{}.bandwidth_target, problem.nb), problem.n);
  rates.bulge_chase_gflops = rates.gemm_gflops * (band_bytes <= (1 << 20) ? 0.25 : 0.05);
  // Nominal rank-64 updates, tile products and stage-4 kernel: the rates at which the
  // reductions and stage 4 cost what the fit the grid choices were made with charged
  // (4/3·N³ flops at 1/4 of dgemm for one_stage, at 0.51 for two_stage, its stage 4 at
  // 0.36).
  rates.panel_gemm_gflops = rates.gemm_gflops * nominal_panel_gemm_share;
  rates.symv_gbs = rates.gemm_gflops * nominal_symv_gbs_per_gflops;
  rates.band_backtransform_gflops = rates.gemm_gflops * nominal_band_backtransform_share;
  rates.tridiagonal_solve_gflops = rates.gemm_gflops * nominal_divide_conquer_share;
  rates.householder_gflops = rates.gemm_gflops * nominal_householder_share;
  rates.latency_s = (across_nodes ? node_latency_s : nominal_latency_s) *
                    (turns > 1 ? time_slice_latency_factor * turns : 1);
  rates.network_gbs =
      (across_nodes ? node_link_gbs / placement.most_ranks_per_node(p) : nominal_network_gbs) /
      turns;
  tune::Signature sig;
  sig.type = problem.type;
  sig.n = problem.n;
  sig.nev = problem.nev;
  sig.nprow = shape.nprow;
  sig.npcol = shape.npcol;
  sig.vectors = problem.vectors;
  double seconds = tune::predict(problem.solver, sig, problem.nb, rates).total;
  // Words each rank sends along its process row and column: panels and vectors of
  // N²/nprow and N²/npcol (a 1×P grid broadcasts whole columns).
  const double n2 = static_cast<double>(problem.n) * problem.n * element_bytes(problem.type);
  const double along =
      (shape.npcol > 1 ? 1.0 / shape.nprow : 0) + (shape.nprow > 1 ? 1.0 / shape.npcol : 0);
  seconds += n2 * along * (problem.vectors ? 2 : 1) / (rates.network_gbs * 1e9);
  if (shape.nprow != given.nprow || shape.npcol != given.npcol) {
    // A in, Z out: every element crosses once, received by the p ranks.
    const double z = problem.vectors ? static_cast<double>(problem.nev) / problem.n : 0;
    seconds += n2 * (1 + z) / p / (rates.network_gbs * 1e9) + 2 * given_p * rates.latency_s;
  }
  return seconds;
}

GridShape plan_working_grid(const GridProblem& problem, GridShape given,
                            const RankPlacement& placement) {
  const double stay = predicted_seconds(problem, given, given, placement);
  GridShape best = given;
  double best_seconds = stay;
  for (int p : candidate_rank_counts(given.nprow * given.npcol))
    for (int r = 1; r * r <= p; ++r) {
      if (p % r) continue;
      const GridShape shape{r, p / r};
      const double s = predicted_seconds(problem, shape, given, placement);
      if (s < best_seconds) {
        best = shape;
        best_seconds = s;
      }
    }
  return best_seconds < gain_required * stay ? best : given;
}

namespace {

// This process's part of a matrix on the sub-grid (nothing when it is not in it), and
// of one on the whole grid.
template <class T>
detail::LayoutPart<T> sub_part(const Grid* sub, int nb, T* data, int lld) {
  if (!sub) return {nb, nb, 0, 0, -1, -1, nullptr, 1};
  return {nb, nb, 0, 0, sub->myrow(), sub->mycol(), data, lld};
}
template <class T, class M>
detail::LayoutPart<T> whole_part(M& X) {
  return {X.mb(),           X.nb(),           X.rsrc(), X.csrc(),
          X.grid().myrow(), X.grid().mycol(), X.data(), X.lld()};
}

// Stage times of the sub-grid's rank 0 (rank 0 of the whole grid) to every rank.
void share_times(MPI_Comm comm, const StageTimes& sub, StageTimes& times) {
  std::vector<double> flat;
  for (const auto& [name, seconds] : sub.stages)
    if (auto stage = stage_from_string(name))
      flat.insert(flat.end(), {static_cast<double>(*stage), seconds});
  int count = static_cast<int>(flat.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, comm);
  flat.resize(count);
  MPI_Bcast(flat.data(), count, MPI_DOUBLE, 0, comm);
  for (int k = 0; k < count; k += 2) times.add(static_cast<Stage>(flat[k]), flat[k + 1]);
}

}  // namespace

template <class T>
std::vector<real_t<T>> solve_on_subgrid(const Grid* sub, DistMatrix<T>& A, DistMatrix<T>* Z,
                                        StageTimes& times, const SubgridSolve<T>& solve) {
  const Grid& grid = A.grid();
  const MPI_Comm comm = grid.comm();
  const int n = A.n(), nb = A.nb();
  DistMatrix<T> As, Zs;
  collectively(comm, [&] {
    if (!sub) return;
    As = DistMatrix<T>(*sub, n, n, nb, nb);
    if (Z) Zs = DistMatrix<T>(*sub, n, Z->n(), nb, nb);
  });
  {
    StageTimer timer(times, Stage::redistribute);
    detail::exchange_blocks<T>(comm, n, n, whole_part<const T>(A),
                               sub_part<T>(sub, nb, As.data(), As.lld()));
  }
  std::vector<real_t<T>> w;
  StageTimes sub_times;
  collectively(comm, [&] {
    if (sub) w = solve(As, Z ? &Zs : nullptr, sub_times);
  });
  share_times(comm, sub_times, times);
  int count = static_cast<int>(w.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, comm);
  w.resize(count);
  MPI_Bcast(w.data(), count, mpi_type<real_t<T>>(), 0, comm);
  if (Z) {
    StageTimer timer(times, Stage::redistribute);
    detail::exchange_blocks<T>(comm, n, count, sub_part<const T>(sub, nb, Zs.data(), Zs.lld()),
                               whole_part<T>(*Z));
  }
  return w;
}

#define TSEIG_INSTANTIATE(T)                                                                    \
  template std::vector<real_t<T>> solve_on_subgrid(const Grid*, DistMatrix<T>&, DistMatrix<T>*, \
                                                   StageTimes&, const SubgridSolve<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
