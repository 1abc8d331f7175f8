#pragma once
// Command-line options of tseig-solve's sparse mode: a sparse matrix (Matrix Market
// coordinate file or a generator) and a method (KPM, LOBPCG, ChebFD). Parsed from argv
// alone, so every rank reaches the same verdict.
#include <array>
#include <cstdint>
#include <string>

namespace tseig::cli {

enum class SparseGenerator { none, laplace3d, laplace2d, graphene, ti };
enum class SparseMethod { kpm, lobpcg, chebfd, nearest };

struct SparseOptions {
  std::string mtx;     ///< Matrix Market coordinate file (instead of a generator)
  std::string b_path;  ///< --B: S of H x = λ S x (LOBPCG)
  SparseGenerator generator = SparseGenerator::none;
  std::array<std::int64_t, 3> dims{0, 0, 0};
  double disorder = 0;  ///< TI on-site disorder W
  std::uint64_t seed = 1;
  char type = 0;  ///< d or z (s, c too); 0: z for --ti, d otherwise
  SparseMethod method = SparseMethod::kpm;
  int nev = 8;
  double tol = 0;  ///< 0: the solver's default (√ε)
  bool largest = false;
  double lower = 0, upper = 0;  ///< --chebfd interval, --kpm count interval
  bool interval_given = false;
  double target = 0;  ///< --nearest
  int moments = 256, vectors = 16, dos_points = 400;
  int max_iterations = 0;  ///< 0: the solver's default
  bool jacobi = false;     ///< LOBPCG with the Jacobi preconditioner
  int chebyshev = 0;       ///< > 0: LOBPCG with the Chebyshev preconditioner of this degree
  bool subspace_iteration = false;  ///< ChebFD: ChebfdMethod::subspace
  int degree = 0;                   ///< ChebFD filter degree; 0: planned
  int max_degree = 0;               ///< ChebFD's cap on a planned degree; 0: the default
  int block_width = 0;              ///< LOBPCG/ChebFD block width nb; 0: the default
  int pipeline_blocks = 0;          ///< ChebFD subspace blocks taking turns; 0: the default
  std::string tune_file;            ///< tuning cache (tseig-tune); empty: $TSEIG_TUNE_FILE
  bool json = false;
  std::string out_values;
  std::string out_vectors;  ///< Matrix Market array file of the eigenvectors
};

/// True when argv asks for the sparse mode (a sparse matrix or a sparse method).
bool is_sparse_invocation(int argc, const char* const* argv);

/// Throws UsageError on any mistake.
SparseOptions parse_sparse_options(int argc, const char* const* argv);

std::string sparse_usage();

}  // namespace tseig::cli
