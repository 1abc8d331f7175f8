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
  int blas_threads = 0;  ///< BLAS threads of the solve where it is not the run's (LAPACK)
};

/// tseig's Eigensolver with the given solver (one_stage, two_stage or scalapack); gpu is
/// EigensolverOptions::gpu (GpuUse::on: the back-transforms on the GPU).
template <class T>
Solution<T> solve_tseig(DistMatrix<T>& A, int nev, Solver solver, GpuUse gpu = GpuUse::off);

/// cuSOLVER Xsyevd (nev == N) or Xsyevdx (il = 1, iu = nev) on rank 0's GPU, on the
/// gathered matrix; stages "transfers" (both copies) and "cusolver_solve". Error(unsupported)
/// when built without CUDA or without a usable GPU.
template <class T>
Solution<T> solve_cusolver(const DistMatrix<T>& A, int nev);

/// ELPA1 (stages = 1) or ELPA2 (stages = 2); only built with TSEIG_HAVE_ELPA.
template <class T>
Solution<T> solve_elpa(DistMatrix<T>& A, int nev, int stages);

/// LAPACK ?syevd/?heevd on the gathered matrix, rank 0 alone with the BLAS threads and
/// cores of all ranks on its node (the others sleep meanwhile), all eigenpairs.
template <class T>
Solution<T> solve_lapack(const DistMatrix<T>& A);

/// Two generalized solves of H z = λ S z with the same S: the first factors S, the
/// second reuses the factor (what an SCF loop does from its second iteration on).
template <class T>
struct GeneralizedSolutions {
  Solution<T> first, reuse;
};

/// tseig: generalized_eigenvectors(H, S, Z), then (H, CholeskyFactor, Z) with a factor
/// built beforehand (its time is not in the second solve).
template <class T>
GeneralizedSolutions<T> solve_tseig_generalized(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                                int nev, Solver solver, GpuUse gpu = GpuUse::off);

/// ScaLAPACK alone: p?potrf + p?sygst/p?hegst + p?syevd/p?heevd + p?trsm, then the same
/// without p?potrf.
template <class T>
GeneralizedSolutions<T> solve_scalapack_generalized(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                                    int nev);

/// ELPA's elpa_generalized_eigenvectors with is_already_decomposed = 0, then 1.
template <class T>
GeneralizedSolutions<T> solve_elpa_generalized(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                               int nev, int stages);

}  // namespace tseig::bench
