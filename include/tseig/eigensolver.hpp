#pragma once
// Eigensolver<T>: the dense symmetric/Hermitian eigensolver front door.
#include <string>
#include <utility>
#include <vector>

#include "tseig/matrix.hpp"

namespace tseig {

enum class Solver {
  automatic,  ///< pick the best available (today: one_stage)
  scalapack,  ///< ScaLAPACK p?syevd/p?heevd (p?syevr/p?heevr for nev < N): the reference
  one_stage,  ///< tseig's ELPA1-style solver: Householder tridiagonalization + WY back-transform
};
const char* to_string(Solver s);
/// Parses "auto", "scalapack", "one_stage"; throws Error(invalid_argument) otherwise.
Solver solver_from_string(const std::string& name);

/// Which part of A holds valid data on input.
enum class Triangle {
  full,   ///< the whole matrix; checked to be symmetric/Hermitian
  lower,  ///< only the lower triangle is read
  upper,  ///< only the upper triangle is read
};

struct EigensolverOptions {
  Solver solver = Solver::automatic;
  int nev = -1;        ///< number of lowest eigenpairs; -1 = all
  int block_size = 0;  ///< internal block size; 0 = the input matrix's nb
  bool eigenvalues_only = false;
  Triangle triangle = Triangle::full;
  bool check_input = true;  ///< reject NaN/Inf and (Triangle::full) non-Hermitian input
};

/// Wall-clock seconds of each stage of the last solve, in pipeline order.
struct StageTimes {
  std::vector<std::pair<std::string, double>> stages;
  double total = 0;
  void add(const std::string& name, double seconds);
  double get(const std::string& name) const;  ///< 0 if the stage did not run
};

template <class T>
class Eigensolver {
 public:
  using real = real_t<T>;
  explicit Eigensolver(EigensolverOptions options = {}) : options_(options) {}

  EigensolverOptions& options() { return options_; }
  const EigensolverOptions& options() const { return options_; }

  /// Collective. The nev lowest eigenvalues of A in ascending order, on every rank.
  /// A is overwritten (destroyed), as in ELPA and ScaLAPACK.
  std::vector<real> eigenvalues(DistMatrix<T>& A);

  /// Collective. Eigenvalues (returned, ascending) and eigenvectors: column k of Z is
  /// the eigenvector of eigenvalue k. Z must be N×≥nev on the same grid (any
  /// blocking); columns beyond nev are left untouched. A is overwritten.
  std::vector<real> eigenvectors(DistMatrix<T>& A, DistMatrix<T>& Z);

  const StageTimes& timings() const { return times_; }

 private:
  std::vector<real> solve(DistMatrix<T>& A, DistMatrix<T>* Z);
  EigensolverOptions options_;
  StageTimes times_;
};

}  // namespace tseig
