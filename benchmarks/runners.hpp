#pragma once
// The solvers dense_bench compares, behind one shape: take a copy of A (destroyed),
// return eigenvalues, eigenvectors and the time of the solve alone.
#include <string>
#include <utility>
#include <vector>

#include "tseig/eigensolver.hpp"
#include "tseig/matrix.hpp"

namespace tseig::bench {

template <class T>
struct Solution {
  std::vector<real_t<T>> w;  ///< on every rank; the first nev are checked
  DistMatrix<T> Z;           ///< the first nev columns are the eigenvectors
  double seconds = 0;        ///< barrier to barrier, setup excluded
  std::vector<std::pair<std::string, double>> stages;
};

/// tseig's Eigensolver with the given solver (one_stage or scalapack).
template <class T>
Solution<T> solve_tseig(DistMatrix<T>& A, int nev, Solver solver);

/// ELPA1 (stages = 1) or ELPA2 (stages = 2); only built with TSEIG_HAVE_ELPA.
template <class T>
Solution<T> solve_elpa(DistMatrix<T>& A, int nev, int stages);

/// LAPACK ?syevd/?heevd on the gathered matrix, rank 0 alone, all eigenpairs.
template <class T>
Solution<T> solve_lapack(const DistMatrix<T>& A);

}  // namespace tseig::bench
