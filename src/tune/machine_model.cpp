// Machine model (see machine_model.hpp). Times are per rank: flops / (P · rate · e) with
// e the stage's efficiency, plus bytes / bandwidth, plus messages × latency.
//
// The efficiencies are each stage's flop rate over the dgemm rate of the same run, fitted
// once to measured stage times (below). The solvers differ by nev, N and P in exactly
// these counts, which is what the choice needs: it compares solvers, it does not
// promise seconds (tune_bench measures how good the choices are).
#include "tune/machine_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "core/blas/host.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "tseig/error.hpp"

namespace tseig::tune {

namespace {

double seconds_of(auto&& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

// Slowest rank's rate: the choice must be the same everywhere, and the slowest rank sets
// the pace of a collective solve.
double slowest(MPI_Comm comm, double rate) {
  MPI_Allreduce(MPI_IN_PLACE, &rate, 1, MPI_DOUBLE, MPI_MIN, comm);
  return rate;
}

// Per-stage efficiencies (fractions of the dgemm rate), fitted to the stage times of
// N = 4000 on 2 ranks (issue 13's table: dgemm 50.6 GFlop/s per core, quiet machine).
constexpr double e_tridiagonalize = 0.25;  // one_stage: half BLAS-2 (memory-bound)
constexpr double e_divide_conquer = 0.47;  // (4/3)·N³ merge flops when nev = N
constexpr double e_backtransform = 0.64;   // one_stage compact-WY GEMMs
constexpr double e_reduce_to_band = 0.51;
// 0.30 fitted there before the stage-4 kernel kept its rows in registers; that change
// took the stage from 47 % to 57 % of dgemm in dense_bench on the development VM (d,
// N = 4000, np = 2), so the fitted value is scaled by the same 1.2.
constexpr double e_backtransform_band = 0.36;
constexpr double e_backtransform_full = 0.58;
constexpr double e_scalapack_trd = 0.34;  // pdsytrd
constexpr double e_scalapack_bt = 0.60;   // pdormtr
// ScaLAPACK's MRRR path (p?syevr, nev < N): flops per N²·nev, fitted (N = 4000, nev = N/5).
constexpr double mrrr_flops = 23;
// Divide & conquer forms the vectors of the wanted part only: its cost falls to this
// fraction of the whole at nev → 0.
constexpr double dc_fixed_share = 0.25;
constexpr double messages_per_column = 6;

}  // namespace

MachineRates calibrate(MPI_Comm comm) {
  MachineRates r;
  int p = 1;
  MPI_Comm_size(comm, &p);
  MPI_Barrier(comm);
  // Allocated together first: an allocation failing on one rank (a memory cap) becomes
  // Error(out_of_memory) on every rank, not a rank missing from the reductions below.
  const int n = 512;
  const std::size_t stream_n = std::size_t{1} << 22;  // 3 × 32 MiB: beyond every cache
  const int chase_n = 1024;
  std::vector<double> a, b, c, x, y, z, band;
  collectively(comm, [&] {
    a.assign(n * n, 0.5), b.assign(n * n, 0.25), c.assign(n * n, 0.0);
    x.assign(stream_n, 1.0), y.assign(stream_n, 2.0), z.assign(stream_n, 0.0);
    band.resize(std::size_t{65} * chase_n);
  });
  // Any band without zeros: entries in (−1, 1) from a fixed sequence.
  std::uint32_t state = 1;
  for (double& e : band) {
    state = state * 1664525u + 1013904223u;
    e = static_cast<double>(state) / 2147483648.0 - 1.0;
  }
  {
    const double s = seconds_of(
        [&] { blas::gemm('N', 'N', n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n); });
    r.gemm_gflops = slowest(comm, 2.0 * n * n * n / s * 1e-9);
  }
  {
    const double s = seconds_of([&] {
      for (std::size_t i = 0; i < stream_n; ++i) z[i] = x[i] + 3.0 * y[i];
    });
    r.stream_gbs = slowest(comm, 3.0 * 8 * stream_n / s * 1e-9);
  }
  {
    // The bulge chase has its own rate (MachineRates::bulge_chase_gflops): on three
    // 2-core VMs it ran at 5–10 GFlop/s per rank while dgemm ran at 19–51, and at
    // N = 512…4000 within 20 % of one rate (6.7 → 5.7 GFlop/s, one rank).
    const double s =
        seconds_of([&] { dense::bulge_chase(band, chase_n, 64, MPI_COMM_SELF, false); });
    r.bulge_chase_gflops = slowest(comm, 6.0 * chase_n * chase_n * 64 / s * 1e-9);
  }
  if (p > 1) {
    double x = 1;
    const int reps = 50;
    const double s = seconds_of([&] {
      for (int k = 0; k < reps; ++k) MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, comm);
    });
    r.latency_s = -slowest(comm, -s / reps);
    std::vector<double> v(std::size_t{1} << 18, 1.0);  // 2 MiB
    const double t = seconds_of([&] {
      MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_DOUBLE, MPI_SUM, comm);
    });
    r.network_gbs = slowest(comm, 8.0 * v.size() / t * 1e-9);
  }
  return r;
}

const MachineRates& machine_rates(MPI_Comm comm) {
  static std::map<int, MachineRates> known;
  int p = 1;
  MPI_Comm_size(comm, &p);
  // Every rank of comm has the same p, so all of them calibrate or none does.
  auto it = known.find(p);
  if (it == known.end()) it = known.emplace(p, calibrate(comm)).first;
  return it->second;
}

Prediction predict(Solver solver, const Signature& sig, int nb, const MachineRates& rates) {
  const double n = sig.n, nev = std::max(1, sig.nev), p = sig.ranks();
  const bool complex = sig.type == 'z' || sig.type == 'c';
  const bool single = sig.type == 's' || sig.type == 'c';
  // Seconds per flop over the ranks at a real double rate: a complex flop counted as a
  // real one costs 4; single precision runs twice as fast.
  auto seconds_per_flop = [&](double gflops) {
    return (complex ? 4.0 : 1.0) / ((single ? 2.0 : 1.0) * gflops * 1e9 * p);
  };
  const double flop_s = seconds_per_flop(rates.gemm_gflops);
  const double hops = std::log2(std::max(2.0, p));
  const double latency = p > 1 ? rates.latency_s * hops : 0.0;
  const double b = std::min(std::max<double>(TuneParameters{}.bandwidth_target, nb), n);
  const double zone_bytes = 4 * b * b * 8 * (complex ? 2 : 1) / (single ? 2 : 1);
  const double n3 = n * n * n, vectors = sig.vectors ? 2 * n * n * nev : 0.0;
  // Without vectors divide & conquer only finds the roots: O(N²).
  const double merges =
      sig.vectors ? 4.0 / 3 * n3 * (dc_fixed_share + (1 - dc_fixed_share) * nev / n) : 0.0;
  Prediction out;
  auto stage = [&](const char* name, double seconds) {
    out.stages.emplace_back(name, seconds);
    out.total += seconds;
  };
  switch (solver) {
    case Solver::two_stage:
      // Only the columns beyond the band have panels; a band as wide as the matrix is a
      // dense tridiagonalization for the bulge chase (at most 4/3·N³).
      stage("reduce_to_band",
            4.0 / 3 * std::pow(n - b, 3) * flop_s / e_reduce_to_band + 4 * n / nb * latency);
      // The flops split over the ranks at the chase's own rate; every sweep hands a 2b × 2b
      // zone of the band to the next rank and back, a few messages per column on the
      // critical path (measured at N = 1000, 2 ranks: the chase took 2.6× its flops'
      // share, which the zones' bytes account for).
      stage("bulge_chase",
            std::min(6 * n * n * b, 4.0 / 3 * n3) * seconds_per_flop(rates.bulge_chase_gflops) +
                (p > 1 ? 2 * n * zone_bytes / (rates.network_gbs * 1e9) : 0.0) + 4 * n * latency);
      stage("tridiagonal_solve", merges * flop_s / e_divide_conquer);
      stage("backtransform_band", vectors * flop_s / e_backtransform_band);
      stage("backtransform_full", vectors * flop_s / e_backtransform_full);
      break;
    case Solver::scalapack:
      stage("tridiagonalize",
            4.0 / 3 * n3 * flop_s / e_scalapack_trd + 2 * messages_per_column * n * latency);
      stage("tridiagonal_solve", nev < n ? mrrr_flops * n * n * nev * flop_s * sig.vectors
                                         : merges * flop_s / e_divide_conquer);
      stage("backtransform", vectors * flop_s / e_scalapack_bt);
      break;
    default:
      stage("tridiagonalize",
            4.0 / 3 * n3 * flop_s / e_tridiagonalize + messages_per_column * n * latency);
      stage("tridiagonal_solve", merges * flop_s / e_divide_conquer);
      stage("backtransform", vectors * flop_s / e_backtransform);
  }
  return out;
}

TuneChoice model_choice(const Signature& sig, int nb, const MachineRates& rates) {
  TuneChoice best;
  best.source = ChoiceSource::model;
  best.seconds = std::numeric_limits<double>::infinity();
  // Only tseig's own solvers: the model picks without measuring, and ScaLAPACK's MRRR
  // path (p?syevr) loses orthogonality on some clustered spectra where divide & conquer
  // does not. ScaLAPACK stays a candidate where choices are measured (SCF, tseig-tune).
  for (Solver s : {Solver::one_stage, Solver::two_stage}) {
    const double t = predict(s, sig, nb, rates).total;
    if (t < best.seconds) {
      best.solver = s;
      best.seconds = t;
    }
  }
  return best;
}

}  // namespace tseig::tune
