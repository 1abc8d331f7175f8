#pragma once
// Command-line options of dense_bench.
#include <cstdint>
#include <string>
#include <vector>

namespace tseig::bench {

struct BenchOptions {
  std::vector<int> sizes{2000, 4000};
  std::vector<double> nev_fractions{1.0, 0.2};
  std::vector<char> types{'d', 'z'};
  std::vector<std::string> solvers{"one_stage", "two_stage", "scalapack", "elpa1", "elpa2"};
  int nb = 64;
  std::uint64_t seed = 1;
  int dgemm_n = 2000;    ///< order of the local dgemm rate measurement; 0 skips it
  std::string json_out;  ///< empty: JSON lines on stdout
  /// H z = λ S z with a random positive definite S: per solver the standard solve, the
  /// first generalized call ("+S", factors S) and one reusing the factor ("+F").
  bool generalized = false;
  bool help = false;
};

/// Identical on every rank; throws std::invalid_argument with a one-line message.
BenchOptions parse_bench_options(int argc, const char* const* argv);

std::string bench_usage();

}  // namespace tseig::bench
