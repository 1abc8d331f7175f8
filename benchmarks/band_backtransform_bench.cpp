// Stage 4 alone (tridiagonal → band back-transform) on one rank: a random band is
// chased to tridiagonal form, then its reflectors are applied to a random N×ncols block
// with each sweeps-per-pass value asked for. Prints seconds, GFlop/s (2·N²·ncols for
// the whole chain) and the share of a dgemm rate measured in the same run; JSON lines.
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/bulge_chase/api.hpp"
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

template <class T>
void run(int n, int b, int ncols, const std::vector<int>& groups, int repeat, double dgemm) {
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
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n = 4000, b = 64, ncols = 2000, repeat = 2;
  std::vector<int> groups = {256};
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
      for (std::size_t at = 0; at < v.size();) {
        std::size_t end = v.find(',', at);
        if (end == std::string::npos) end = v.size();
        groups.push_back(std::stoi(v.substr(at, end - at)));
        at = end + 1;
      }
    }
  }
  const double dgemm = tseig::bench::measure_dgemm(MPI_COMM_SELF, 1000).gflops_min_rank;
  for (char t : types) {
    if (t == 'd') run<double>(n, b, ncols, groups, repeat, dgemm);
    if (t == 'z') run<std::complex<double>>(n, b, ncols, groups, repeat, dgemm);
    if (t == 's') run<float>(n, b, ncols, groups, repeat, dgemm);
    if (t == 'c') run<std::complex<float>>(n, b, ncols, groups, repeat, dgemm);
  }
  MPI_Finalize();
}
