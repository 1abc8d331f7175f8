#pragma once
// Command-line options of tseig-solve. Parsing is a pure function of argv, so every
// rank reaches the same verdict and no rank waits in a collective the others skip.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "tseig/eigensolver.hpp"

namespace tseig::cli {

/// A command-line mistake; reported without a library error code.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  bool help = false;
  std::string matrix_path;  ///< empty: random symmetric matrix of order n
  /// Generalized problem A z = λ B z: B read from b_path (with matrix_path) or, when
  /// b_path is empty, a random well-conditioned positive definite B of order n.
  bool generalized = false;
  std::string b_path;
  int n = 2000;
  char type = 'd';                        ///< LAPACK letter: s, d, c, z
  int nev = -1;                           ///< -1: all eigenpairs
  std::optional<IndexRange> index_range;  ///< --range il:iu
  std::optional<ValueRange> value_range;  ///< --interval vl:vu
  Solver solver = Solver::automatic;
  int nb = 64;
  int bandwidth = 0;         ///< two_stage semi-bandwidth; 0: the solver's default
  TuneParameters tune;       ///< performance knobs, set by --tune NAME=VALUE
  int nprow = 0, npcol = 0;  ///< 0: the most square grid
  GridChoice grid_choice = GridChoice::automatic;
  GpuUse gpu = GpuUse::off;
  std::uint64_t seed = 1;
  bool values_only = false;
  bool validate = false;            ///< EigensolverOptions::validate
  double validation_tolerance = 0;  ///< 0: the library's default
  std::string out_values, out_vectors;
  bool json = false;
};

/// Parses argv; throws UsageError on any mistake. `nprocs` is the number of ranks,
/// checked against --grid.
Options parse_options(int argc, const char* const* argv, int nprocs);

/// The --help text.
std::string usage();

}  // namespace tseig::cli
