#pragma once
// cuSOLVER's dense Hermitian eigensolver on one GPU, for dense_bench's cusolver row.
// Plain C++17 (no tseig headers): cusolver_eig.cu is compiled by nvcc, which CMake drives
// at C++17 at most. Only built with TSEIG_HAVE_CUDA.
#include <complex>
#include <cstdint>
#include <string>

namespace tseig::bench::cusolver {

struct Result {
  enum Status { ok, no_gpu, cuda_failure, info_failure };
  Status status = ok;
  std::string message;          ///< why, when status != ok
  double seconds = 0;           ///< copy in + solve + copy out
  double solve_seconds = 0;     ///< cusolverDnXsyevd[x] alone
  double transfer_seconds = 0;  ///< both copies
  std::int64_t found = 0;       ///< eigenpairs computed
};

/// The nev smallest eigenpairs of the n×n column-major matrix a (lower triangle read):
/// Xsyevd when nev == n, else Xsyevdx with il = 1, iu = nev. On return a holds the
/// eigenvectors in its first `found` columns and w the eigenvalues.
Result eigh(std::int64_t n, std::int64_t nev, float* a, float* w);
Result eigh(std::int64_t n, std::int64_t nev, double* a, double* w);
Result eigh(std::int64_t n, std::int64_t nev, std::complex<float>* a, float* w);
Result eigh(std::int64_t n, std::int64_t nev, std::complex<double>* a, double* w);

}  // namespace tseig::bench::cusolver
