// Stage 4 alone (tridiagonal → band back-transform) on one rank: a random band is
// chased to tridiagonal form, then its reflectors are applied to a random N×ncols block
// with each sweeps-per-pass value asked for (host; --sweeps-per-pass 0: none) and with
// each GPU kernel shape asked for (--gpu VARIANT:COLUMNS,...; the data on the device
// beforehand, the kernel alone timed, its result compared with the host's when the host
// ran). Prints seconds, GFlop/s (2·N²·ncols for the whole chain, 4× for complex) and the
// share of a dgemm rate measured in the same run; JSON lines.
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_band/cuda_kernel.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "device/runtime.hpp"
#include "dgemm_rate.hpp"

namespace {

template <class T>
T random_entry(std::mt19937_64& g) {
  std::uniform_real_distribution<double> u(-1, 1);
  if constexpr (tseig::is_complex_v<T>)
    return T(u(g), u(g));
  else
    return T(u(g));
}

// The whole chain at once on the device, as cuda.cpp runs it on one process row.
template <class T>
std::vector<T> apply_on_gpu(const tseig::dense::BandReflectors<T>& q, const std::vector<T>& x0,
                            int ncols, tseig::dense::BandKernelShape shape, int repeat,
                            double& best) {
  using tseig::device::Array;
  tseig::cuda::Context& ctx = tseig::device::context(MPI_COMM_SELF);
  Array<T> x(x0.size()), v(q.v.size()), tau(q.tau.size());
  Array<std::size_t> first(q.first_.size());
  tseig::device::to_device(ctx, v.data(), q.v.data(), q.v.size() * sizeof(T));
  tseig::device::to_device(ctx, tau.data(), q.tau.data(), q.tau.size() * sizeof(T));
  tseig::device::to_device(ctx, first.data(), q.first_.data(),
                           q.first_.size() * sizeof(std::size_t));
  const tseig::dense::DeviceBandReflectors<T> dq{v.data(), tau.data(), first.data(), q.n,
                                                 q.b,      0,          q.n};
  for (int r = 0; r <= repeat; ++r) {  // r = 0: warm-up
    tseig::device::to_device(ctx, x.data(), x0.data(), x0.size() * sizeof(T));
    tseig::device::synchronize(ctx);
    const double t0 = MPI_Wtime();
    tseig::dense::apply_band_reflectors(ctx, dq, 0, q.n - 1, 0, q.steps(0), x.data(), q.n, 0, ncols,
                                        shape);
    tseig::device::synchronize(ctx);
    if (r > 0) best = std::min(best, MPI_Wtime() - t0);
  }
  std::vector<T> out(x0.size());
  tseig::device::to_host(ctx, out.data(), x.data(), out.size() * sizeof(T));
  return out;
}

template <class T>
void run(int n, int b, int ncols, const std::vector<int>& groups,
         const std::vector<tseig::dense::BandKernelShape>& shapes, int repeat, double dgemm) {
  std::mt19937_64 gen(7);
  std::vector<T> band(static_cast<std::size_t>(b + 1) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= b; ++i) {
      T a = random_entry<T>(gen);
      if (i == 0) a = T(std::real(a));
      band[i + static_cast<std::size_t>(j) * (b + 1)] = a;
    }
  const auto q = tseig::dense::bulge_chase(band, n, b, MPI_COMM_SELF, true);
  std::vector<T> x0(static_cast<std::size_t>(n) * ncols), x;
  for (T& v : x0) v = random_entry<T>(gen);
  const double flops = (tseig::is_complex_v<T> ? 4.0 : 1.0) * 2.0 * n * double(n) * ncols;
  for (int group : groups) {
    double best = 1e300;
    for (int r = 0; r < repeat; ++r) {
      x = x0;
      const double t0 = MPI_Wtime();
      tseig::dense::backtransform_band(q, x.data(), n, ncols, group);
      best = std::min(best, MPI_Wtime() - t0);
    }
    const double rate = flops / best * 1e-9;
    std::printf(
        "{\"bench\": \"band_backtransform\", \"type\": \"%c\", \"n\": %d, \"b\": %d, "
        "\"ncols\": %d, \"sweeps_per_pass\": %d, \"seconds\": %.4f, \"gflops\": %.2f, "
        "\"dgemm_gflops\": %.2f, \"of_dgemm\": %.3f}\n",
        tseig::type_letter<T>(), n, b, ncols, group, best, rate, dgemm,
        dgemm > 0 ? rate / dgemm : 0.0);
    std::fflush(stdout);
  }
  for (const auto& shape : shapes) {
    double best = 1e300;
    const std::vector<T> y = apply_on_gpu(q, x0, ncols, shape, repeat, best);
    // Largest difference from the host result, relative to its largest entry (-1: no host run).
    double diff = -1;
    if (!x.empty()) {
      double d = 0, scale = 0;
      for (std::size_t i = 0; i < y.size(); ++i) {
        d = std::max(d, static_cast<double>(std::abs(y[i] - x[i])));
        scale = std::max(scale, static_cast<double>(std::abs(x[i])));
      }
      diff = d / std::max(scale, 1e-300);
    }
    std::printf(
        "{\"bench\": \"band_backtransform_gpu\", \"type\": \"%c\", \"n\": %d, \"b\": %d, "
        "\"ncols\": %d, \"kernel\": %d, \"columns_per_block\": %d, \"seconds\": %.4f, "
        "\"gflops\": %.2f, \"max_rel_diff_from_host\": %.3g}\n",
        tseig::type_letter<T>(), n, b, ncols, shape.variant, shape.columns, best,
        flops / best * 1e-9, diff);
    std::fflush(stdout);
  }
}

std::vector<std::string> split(const std::string& v) {
  std::vector<std::string> parts;
  for (std::size_t at = 0; at < v.size();) {
    std::size_t end = v.find(',', at);
    if (end == std::string::npos) end = v.size();
    parts.push_back(v.substr(at, end - at));
    at = end + 1;
  }
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n = 4000, b = 64, ncols = 2000, repeat = 2;
  std::vector<int> groups = {256};
  std::vector<tseig::dense::BandKernelShape> shapes;
  std::string types = "d";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--n")
      n = std::stoi(v);
    else if (a == "--b")
      b = std::stoi(v);
    else if (a == "--ncols")
      ncols = std::stoi(v);
    else if (a == "--repeat")
      repeat = std::stoi(v);
    else if (a == "--type")
      types = v;
    else if (a == "--sweeps-per-pass") {
      groups.clear();
      for (const std::string& g : split(v))
        if (std::stoi(g) > 0) groups.push_back(std::stoi(g));
    } else if (a == "--gpu") {
      for (const std::string& s : split(v)) {
        const std::size_t colon = s.find(':');
        shapes.push_back({std::stoi(s.substr(0, colon)), std::stoi(s.substr(colon + 1))});
      }
    }
  }
  const double dgemm = tseig::bench::measure_dgemm(MPI_COMM_SELF, 1000).gflops_min_rank;
  int status = 0;
  try {
    for (char t : types) {
      if (t == 'd') run<double>(n, b, ncols, groups, shapes, repeat, dgemm);
      if (t == 'z') run<std::complex<double>>(n, b, ncols, groups, shapes, repeat, dgemm);
      if (t == 's') run<float>(n, b, ncols, groups, shapes, repeat, dgemm);
      if (t == 'c') run<std::complex<float>>(n, b, ncols, groups, shapes, repeat, dgemm);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "band_backtransform_bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
