// Machine model (see machine_model.hpp). Times are per rank: flops / (P · rate · e) with
// e the stage's efficiency, plus bytes / bandwidth, plus messages × latency.
//
// The efficiencies are each stage's flop rate over the dgemm rate of the same run, fitted
// once to measured stage times (below). The solvers differ by nev, N and P in exactly
// these counts, which is what the choice needs: it compares solvers, it does not
// promise seconds (tune_bench measures how good the choices are).
#include "tune/machine_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/best_time.hpp"
#include "core/blas/host.hpp"
#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "dense/stages/tridiagonalize/hermitian_tile_product.hpp"
#include "dense/tridiagonal_solve.hpp"
#include "tseig/error.hpp"

namespace tseig::tune {

namespace {

// Each rate is timed by best_time (core/best_time.hpp) over at least 3 runs and 50 ms,
// the slowest rank's time of each run, all ranks in step: on a 2-core VM whose neighbours
// take the cores for tens of milliseconds at a time, three 7 ms dgemm runs read 22–35
// GFlop/s from one process start to the next.
constexpr double timing_seconds = 0.05;

// The smallest of the ranks' values: the choice must be the same everywhere.
double smallest_of(MPI_Comm comm, double value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MIN, comm);
  return value;
}

// Per-stage efficiencies: fractions of the calibrated rate each stage's kernels run at.
// The divide & conquer and the Householder back-transforms run at their own calibrated
// rates (order 1024, one rank), which they outgrow as each rank's share of the work grows
// past that order: the merges' secular equations and deflation (O(n²)) and the WY
// blocks' triangular factors weigh less against their GEMMs. Their efficiency over the
// calibrated rate is e_max · m / (m + m_half) from m = 1024 on (1 below), with m the order
// of a cube holding a rank's flops (N/P^⅓ for the merges, (N²·nev/P)^⅓ for the
// back-transforms).
// Fitted to the stage times of N = 1000…4000, nev = N, on 1 and 2 ranks of the Zen 3 VM
// (the merges 0.75–1.9 of their calibrated rate, the back-transforms 1.0–1.55; each
// fit within 15 % of every point). Fixed fractions of dgemm had priced them at 1.5–2.5×
// their time there (fitted on an AVX-512 VM, where the merges ran at 0.47 of dgemm).
struct Ramp {
  double m_half;
  double at(double m) const { return m <= 1024 ? 1.0 : (1024 + m_half) / 1024 * m / (m + m_half); }
};
constexpr Ramp e_divide_conquer{1794};
// One_stage's reflectors and stage 5's alike, through GEMMs or the reflector kernel: on the
// Zen 5 VM (d N = 2000 and 4000, z N = 2000, nev = N, 2 ranks) the kernel's path ran
// 1.8–2.1× faster than the GEMMs' at every order, as at order 1024 (1.9×).
constexpr Ramp e_backtransform{831};
constexpr double backtransform_full_share = 1.07;  // stage 5 over one_stage's, same order
constexpr double e_scalapack_dc = 0.47;            // p?stedc, of dgemm (the AVX-512 VM)
// The two reductions, their rank-2nb and rank-b updates: of the rank-64 update rate.
// Fitted to the stage times of N = 1000…3000 on 1 and 2 ranks of the 2-core znver1-class
// VM (this rate 15.2 GFlop/s per rank): reduce_to_band ran at 0.67–0.92 of it, one_stage's
// tridiagonalization at 0.37–0.5 besides its tile products (the other half of its flops,
// at the tile-product rates the calibration measures, cache share included: within
// −23…+8 % of the measured stage).
constexpr double e_tridiagonal_update = 0.45;
// The blocking's two costs in the one-stage tridiagonalization (nb 16…128, N = 1000…3000,
// 1 and 2 ranks, same VM): each column brought up to date with its panel's earlier
// reflectors before its reflector is formed, on the column's owners (the critical path),
// ≈ 2·N²·nb elements read at the in-cache tile-product rate; and the rank-2nb updates
// at a GEMM rate that grows as 2nb / (2nb + MachineRates::update_half_rank), normalized at
// rank 64 (the half rank was the constant 4 of the znver1 fit; calibrated, it is 2.2–2.7
// on the Zen 5 VM).
constexpr double panel_column_reads = 2;
// A copy into another blocking: its passes over memory on one rank, and its all-to-all
// besides on several (fitted, N = 1000…3000, nb 64 → 16 and 32).
constexpr double redistribute_memory_passes = 5;
constexpr double redistribute_network_passes = 6;
constexpr double e_reduce_to_band = 0.75;
// reduce_to_band's panels besides: ≈ N²·nb flops of work per panel on its owner (the QR,
// forming W, the waits for Y's sums) that the ranks do not share, at this fraction of
// dgemm. Fitted to values-only solves of d N = 1000…4000 on 1 and 2 ranks of the Zen 5 VM,
// where the N³ term alone came 0.03–0.32 s short (within 6 % with it from N = 2000 on,
// 30 % short at N = 1000).
constexpr double e_band_panels = 0.067;
// Stage 4 at the rate of its kernel in the calibration (order 1024, 256 columns). Fitted
// with 64 columns, where the stage ran at 0.84–1.2 of it (N = 2000…3000, AMD VMs) and
// 1.4 on the Intel VM; with 256 columns there 1.0–1.1 (N = 4000, 1 and 2 ranks).
constexpr double e_backtransform_band = 1.0;
constexpr double e_scalapack_trd = 0.34;  // pdsytrd
constexpr double e_scalapack_bt = 0.60;   // pdormtr
// Divide & conquer forms the vectors of the wanted part only: its cost falls to this
// fraction of the whole at nev → 0.
constexpr double dc_fixed_share = 0.25;
constexpr double messages_per_column = 6;

// The last-level cache in bytes as Linux's sysfs describes it (what lscpu shows; in a VM
// sysconf may report the host's), 0 when it does not say.
double last_level_cache_bytes() {
  double bytes = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    double size = 0;
    std::string unit;
    if (!(in >> size)) break;
    in >> unit;
    size *= unit == "K" ? 1024.0 : unit == "M" ? 1048576.0 : 1.0;
    bytes = std::max(bytes, size);
  }
  return bytes;
}

// This rank's share of the last-level cache: its size over the ranks on this node.
double last_level_cache_share(MPI_Comm comm) {
  return last_level_cache_bytes() / ranks_on_node(comm);
}

}  // namespace

int ranks_on_node(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks = 1;
  MPI_Comm_size(node, &ranks);
  MPI_Comm_free(&node);
  return ranks;
}

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
  const Grid self(MPI_COMM_SELF, 1, 1);
  std::vector<double> a, b, c, triad, band;
  DistMatrix<double> reflectors, vectors;
  collectively(comm, [&] {
    a.assign(n * n, 0.5), b.assign(n * n, 0.25), c.assign(n * n, 0.0);
    triad.assign(3 * stream_n, 1.0);
    band.resize(std::size_t{65} * chase_n);
    reflectors = DistMatrix<double>(self, chase_n, chase_n, 64);
    vectors = DistMatrix<double>(self, chase_n, chase_n, 64);
  });
  // The triad's three arrays, one after the other.
  double* x = triad.data();
  double* y = x + stream_n;
  double* z = y + stream_n;
  // Any band without zeros: entries in (−1, 1) from a fixed sequence.
  std::uint32_t state = 1;
  for (double& e : band) {
    state = state * 1664525u + 1013904223u;
    e = static_cast<double>(state) / 2147483648.0 - 1.0;
  }
  MPI_Barrier(comm);  // every rank past its page faults: the rates are of all ranks running
  {
    const double s = best_time(comm, timing_seconds, [&] {
      blas::gemm('N', 'N', n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
    });
    r.gemm_gflops = 2.0 * n * n * n / s * 1e-9;
  }
  {
    // Rank-64 updates (1024 × 1024 += 1024 × 64 · 64 × 1024, C in the triad's second
    // array), the shape of the reductions' trailing updates.
    const int m = 2 * n, k = 64;
    const double s = best_time(comm, timing_seconds, [&] {
      blas::gemm('N', 'N', m, m, k, 1.0, a.data(), m, b.data(), k, 1.0, y, m);
    });
    r.panel_gemm_gflops = 2.0 * m * m * k / s * 1e-9;
    // Rank-16 updates (the same C, four per timing: one takes about a millisecond):
    // ρ = rate(16) / rate(64) = 16(64 + h) / (64(16 + h)) gives h.
    const int narrow = 16;
    const double t = best_time(comm, timing_seconds, [&] {
      for (int rep = 0; rep < 4; ++rep)
        blas::gemm('N', 'N', m, m, narrow, 1.0, a.data(), m, b.data(), narrow, 1.0, y, m);
    });
    const double rho = 4 * 2.0 * m * m * narrow / t * 1e-9 / r.panel_gemm_gflops;
    r.update_half_rank =
        rho >= 1 ? 0.0 : std::min(64.0, narrow * k * (1 - rho) / std::max(rho * k - narrow, 1e-9));
  }
  {
    const double s = best_time(comm, timing_seconds, [&] {
      for (std::size_t i = 0; i < stream_n; ++i) z[i] = x[i] + 3.0 * y[i];
    });
    r.stream_gbs = 3.0 * 8 * stream_n / s * 1e-9;
  }
  {
    // The tile product on all three triad arrays as one tile (3547², 96 MiB), then on
    // tiles that may fit a cache. One array alone (2048², 32 MiB) was not beyond every
    // cache: on the 2-core Intel VM it ran at 29 GB/s where 96 and 128 MiB tiles ran at 14
    // (the rate of an N = 4000 matrix), and the model gave the one-stage
    // tridiagonalization of complex N = 4000 on one rank 0.65 of its time.
    auto symv_gbs = [&](int m) {
      std::vector<double> v(4 * static_cast<std::size_t>(m), 1.0);
      const double s = best_time(comm, timing_seconds, [&] {
        dense::hermitian_tile_product(m, m, x, m, v.data(), v.data() + m, v.data() + 2 * m,
                                      v.data() + 3 * m);
      });
      return 8.0 * m * m / s * 1e-9;
    };
    r.symv_gbs = symv_gbs(static_cast<int>(std::sqrt(3.0 * stream_n)));
    // What sysfs reports need not be what a rank gets: a VM may show its host's cache
    // (480 MiB on a 2-core Intel VM, where the model then read a complex N = 4000
    // one-stage tridiagonalization's matrix from L2's rate and gave it 0.64 of its time).
    // So tiles of 2, 4, 8 and 16 MiB within that share are timed; the cache reaches as
    // far as they run 1.2× faster than memory, at the slowest of their rates (that VM:
    // 43 GB/s at 2 MiB, 25-28 at 4-16 MiB, 17 beyond).
    // Where sysfs names no cache (the Zen 5 VMs), tiles up to 16 MiB are timed all the
    // same, the smallest held to the 1.2× test too: priced at memory's rate, one_stage's
    // tridiagonalization of d N = 2000 on 2 ranks was given 1.5× its measured time.
    const double reported = smallest_of(comm, last_level_cache_share(comm));
    const double most = 16.0 * (1 << 20);
    const double share = reported > 0 ? reported : most;
    const double smallest = std::clamp(share / 2, 1.0 * (1 << 15), 1.0 * (1 << 21));
    auto tile_gbs = [&](double bytes) { return symv_gbs(static_cast<int>(std::sqrt(bytes / 8))); };
    r.symv_cache_gbs = r.symv_reach_gbs = tile_gbs(smallest);
    r.cache_bytes = reported > 0 || r.symv_cache_gbs >= 1.2 * r.symv_gbs ? smallest : 0;
    for (double bytes = 2 * smallest; r.cache_bytes > 0 && bytes <= std::min(share, most);
         bytes *= 2) {
      const double gbs = tile_gbs(bytes);
      if (gbs < 1.2 * r.symv_gbs) break;
      r.cache_bytes = bytes;
      r.symv_reach_gbs = std::min(r.symv_reach_gbs, gbs);
    }
  }
  {
    // The bulge chase has its own rate (MachineRates::bulge_chase_gflops): on three
    // 2-core VMs it ran at 5–10 GFlop/s per rank while dgemm ran at 19–51, and at
    // N = 512…4000 within 20 % of one rate (6.7 → 5.7 GFlop/s, one rank).
    // On one node the ranks share the band and deal out its sweeps: timed so, as its rate
    // per rank. On the Zen 5 VM two ranks ran the chase only 1.0–1.2× faster than one
    // (d N = 2000 and 4000), where the model had counted 2×.
    r.chase_shares_node = ranks_on_node(comm) == p;
    const MPI_Comm chase_comm = r.chase_shares_node ? comm : MPI_COMM_SELF;
    const double s = best_time(comm, timing_seconds,
                               [&] { dense::bulge_chase(band, chase_n, 64, chase_comm, false); });
    r.bulge_chase_gflops = 6.0 * chase_n * chase_n * 64 / s * 1e-9 / (r.chase_shares_node ? p : 1);
    // Its reflectors applied to 256 columns (the triad's third array): stage 4's kernel.
    // With 64 columns (four stripes) the grouping of the reflectors, done once per block
    // for all stripes, weighed in: 41 GFlop/s on a 2-core Intel VM where the stage ran at
    // 65-71 and 256 columns at 60 (order 1024 or 4000 alike).
    const dense::BandReflectors<double> q = dense::bulge_chase(band, chase_n, 64, MPI_COMM_SELF);
    const int cols = 256;
    const double t = best_time(comm, timing_seconds, [&] {
      dense::backtransform_band(q, z, chase_n, cols, TuneParameters{}.band_sweeps_per_pass);
    });
    r.band_backtransform_gflops = 2.0 * chase_n * chase_n * cols / t * 1e-9;
  }
  {
    // Stage 3 and the Householder back-transforms, run whole at order 1024: fixed fractions
    // of dgemm (fitted on one VM) priced them at 1.5–2.5× their measured times on a Zen 3
    // VM, where the merges' secular equations and the compact-WY products keep other
    // proportions to dgemm. The tridiagonal is that of a random dense matrix (the mean of
    // Dumitriu & Edelman's GOE tridiagonal model, e_i ≈ √((n − i)/2)): its vectors spread
    // over all rows and few deflate, where a random tridiagonal's vectors localize and
    // most deflate (the stage then ran 4× faster than on a random dense matrix's).
    std::vector<double> d(band.begin(), band.begin() + chase_n), e(chase_n - 1);
    for (int i = 0; i + 1 < chase_n; ++i) e[i] = std::sqrt((chase_n - 1 - i) / 2.0);
    const double s = best_time(comm, timing_seconds, [&] {
      dense::Wanted all = dense::Wanted::lowest(chase_n);
      dense::solve_tridiagonal<Device::host, double>(self, d, e, all, &vectors, TuneParameters{});
    });
    r.tridiagonal_solve_gflops = 4.0 / 3 * chase_n * chase_n * chase_n / s * 1e-9;
    // Reflectors from the band's entries, each τ = 2 / ‖v‖² (orthogonal, so repeating
    // the product keeps the vectors' size), applied to the eigenvectors just formed.
    std::vector<double> tau(chase_n - 1);
    for (int j = 0; j + 1 < chase_n; ++j) {
      double norm2 = 1;
      for (int i = j + 2; i < chase_n; ++i) {
        const double v = band[(static_cast<std::size_t>(i) * 7 + j) % band.size()];
        reflectors.local(i, j) = v;
        norm2 += v * v;
      }
      tau[j] = 2 / norm2;
    }
    auto householder_gflops = [&](int path) {
      TuneParameters tune;
      tune.householder_kernel = path;
      const double t = best_time(comm, timing_seconds, [&] {
        dense::backtransform_householder<Device::host>(reflectors, tau, 1, vectors, chase_n, tune);
      });
      return 2.0 * chase_n * chase_n * chase_n / t * 1e-9;
    };
    r.householder_gflops = householder_gflops(1);
    r.householder_kernel_gflops = householder_gflops(2);
  }
  if (p > 1) {
    double x = 1;
    const int reps = 50;
    const double s = best_time(comm, timing_seconds, [&] {
      for (int k = 0; k < reps; ++k) MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, comm);
    });
    r.latency_s = s / reps;
    std::vector<double> v(std::size_t{1} << 18, 1.0);  // 2 MiB
    const double t = best_time(comm, timing_seconds, [&] {
      MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_DOUBLE, MPI_SUM, comm);
    });
    r.network_gbs = 8.0 * v.size() / t * 1e-9;
  }
  return r;
}

Prediction predict(Solver solver, const Signature& sig, int nb, const MachineRates& rates,
                   int input_nb) {
  const double n = sig.n, nev = std::max(1, sig.nev), p = sig.ranks();
  const bool complex = sig.type == 'z' || sig.type == 'c';
  const bool single = sig.type == 's' || sig.type == 'c';
  // Seconds per flop over the ranks at a real double rate: a complex flop counted as a
  // real one costs 4; single precision runs twice as fast.
  auto seconds_per_flop = [&](double gflops) {
    return (complex ? 4.0 : 1.0) / ((single ? 2.0 : 1.0) * gflops * 1e9 * p);
  };
  const double flop_s = seconds_per_flop(rates.gemm_gflops);
  // The tridiagonal matrix is real for complex problems too, and so are the divide &
  // conquer's eigenvectors and products (tseig's, p?stedc's): real flops.
  const double real_flop_s = flop_s / (complex ? 4.0 : 1.0);
  const double panel_flop_s = seconds_per_flop(rates.panel_gemm_gflops);
  const double hops = std::log2(std::max(2.0, p));
  const double latency = p > 1 ? rates.latency_s * hops : 0.0;
  const double b = std::min(std::max<double>(TuneParameters{}.bandwidth_target, nb), n);
  const double zone_bytes = 4 * b * b * 8 * (complex ? 2 : 1) / (single ? 2 : 1);
  const double n3 = n * n * n, vectors = sig.vectors ? 2 * n * n * nev : 0.0;
  // Without vectors divide & conquer only finds the roots: O(N²).
  const double merges =
      sig.vectors ? 4.0 / 3 * n3 * (dc_fixed_share + (1 - dc_fixed_share) * nev / n) : 0.0;
  // Stage 3 (real for complex problems too) and the Householder back-transforms at their
  // calibrated rates, ramped up to the size of each rank's share.
  const double merges_s = merges * seconds_per_flop(rates.tridiagonal_solve_gflops) /
                          (complex ? 4.0 : 1.0) / e_divide_conquer.at(n / std::cbrt(p));
  // The kernel's path exists on one process row only; there the faster one is priced.
  const bool paths = sig.nprow == 1 && solver != Solver::scalapack;
  const bool kernel = paths && rates.householder_kernel_gflops > rates.householder_gflops;
  const double householder_s =
      vectors *
      seconds_per_flop(kernel ? rates.householder_kernel_gflops : rates.householder_gflops) /
      e_backtransform.at(std::cbrt(n * n * nev / p));
  const double elem = (complex ? 16.0 : 8.0) / (single ? 2 : 1);
  Prediction out;
  if (paths) out.householder_kernel = kernel ? 2 : 1;
  auto stage = [&](const char* name, double seconds) {
    out.stages.emplace_back(name, seconds);
    out.total += seconds;
  };
  if (input_nb > 0 && input_nb != nb) {
    // A into the blocking, and the eigenvectors back into the caller's.
    const double bytes = n * (n + (sig.vectors ? nev : 0.0)) * elem / p;
    stage("redistribute", bytes *
                              (redistribute_memory_passes / rates.stream_gbs +
                               (p > 1 ? redistribute_network_passes / rates.network_gbs : 0.0)) *
                              1e-9);
  }
  switch (solver) {
    case Solver::two_stage:
      // Only the columns beyond the band have panels; a band as wide as the matrix is a
      // dense tridiagonalization for the bulge chase (at most 4/3·N³).
      stage("reduce_to_band", 4.0 / 3 * std::pow(n - b, 3) * panel_flop_s / e_reduce_to_band +
                                  (n - b) * (n - b) * nb * flop_s * p / e_band_panels +
                                  4 * n / nb * latency);
      // The flops split over the ranks at the chase's own rate. On one node the ranks take
      // whole sweeps of a shared band (d N = 4000, 2 ranks: 0.25 s against 0.48 on one);
      // across nodes every sweep hands a 2b × 2b zone of the band to the next rank and
      // back, a few messages per column on the critical path (measured at N = 1000, 2
      // ranks: the chase took 2.6× its flops' share, which the zones' bytes account for).
      stage("bulge_chase",
            std::min(6 * n * n * b, 4.0 / 3 * n3) * seconds_per_flop(rates.bulge_chase_gflops) +
                (p > 1 && !rates.chase_shares_node
                     ? 2 * n * zone_bytes / (rates.network_gbs * 1e9) + 4 * n * latency
                     : 0.0));
      stage("tridiagonal_solve", merges_s);
      stage("backtransform_band",
            vectors * seconds_per_flop(rates.band_backtransform_gflops) / e_backtransform_band);
      stage("backtransform_full", householder_s / backtransform_full_share);
      break;
    case Solver::scalapack:
      // With vectors tseig calls p?syevd, which forms all N pairs whatever nev (see
      // scalapack_solver.cpp); without, p?syevr's values cost O(N²).
      stage("tridiagonalize",
            4.0 / 3 * n3 * flop_s / e_scalapack_trd + 2 * messages_per_column * n * latency);
      stage("tridiagonal_solve", sig.vectors ? 4.0 / 3 * n3 * real_flop_s / e_scalapack_dc : 0.0);
      stage("backtransform", sig.vectors ? 2 * n3 * flop_s / e_scalapack_bt : 0.0);
      break;
    default: {
      // The tile products read each rank's part of the trailing lower triangle once per
      // column (N³/6 elements over the ranks): from memory while it exceeds the rank's
      // cache share, from cache for the last s columns.
      const double s = std::min(n, std::sqrt(2 * rates.cache_bytes * p / elem));
      const double cached = s * s * s / 6 / p, visits = n3 / 6 / p;
      const double cache_gbs = rates.symv_cache_gbs > 0 ? rates.symv_cache_gbs : rates.symv_gbs;
      const double products =
          ((visits - cached) / rates.symv_gbs +
           cached / (rates.symv_reach_gbs > 0 ? rates.symv_reach_gbs : cache_gbs)) *
          elem * 1e-9;
      const double h = rates.update_half_rank;
      const double update_rate = 2 * nb / (2 * nb + h) * (64 + h) / 64;
      const double column_updates =
          panel_column_reads * n * n * nb * elem / sig.nprow / cache_gbs * 1e-9;
      stage("tridiagonalize", 2.0 / 3 * n3 * panel_flop_s / e_tridiagonal_update / update_rate +
                                  products + column_updates + messages_per_column * n * latency);
      stage("tridiagonal_solve", merges_s);
      stage("backtransform", householder_s);
    }
  }
  return out;
}

std::pair<int, Prediction> best_blocking(Solver solver, const Signature& sig, int input_nb,
                                         const MachineRates& rates) {
  std::pair<int, Prediction> best{input_nb, predict(solver, sig, input_nb, rates, input_nb)};
  // Only one_stage's time moves with the block size enough to pay for a copy into
  // another blocking (two_stage's bandwidth, 64, sets its reduction's shape).
  if (solver != Solver::one_stage) return best;
  for (int nb : {16, 32, 64}) {
    if (nb == input_nb || nb > sig.n) continue;
    Prediction p = predict(solver, sig, nb, rates, input_nb);
    if (p.total < best.second.total) best = {nb, std::move(p)};
  }
  return best;
}

TuneChoice model_choice(const Signature& sig, int input_nb, const MachineRates& rates) {
  TuneChoice best;
  best.source = ChoiceSource::model;
  best.seconds = std::numeric_limits<double>::infinity();
  // Only tseig's own solvers: the model picks without measuring, and ScaLAPACK's
  // efficiencies are fitted on one machine only. ScaLAPACK stays a candidate where
  // choices are measured (SCF, tseig-tune).
  for (Solver s : {Solver::one_stage, Solver::two_stage}) {
    const auto [nb, p] = best_blocking(s, sig, input_nb, rates);
    if (p.total < best.seconds) {
      best.solver = s;
      best.block_size = nb == input_nb ? 0 : nb;
      best.tune.householder_kernel = p.householder_kernel;
      best.seconds = p.total;
    }
  }
  return best;
}

}  // namespace tseig::tune
