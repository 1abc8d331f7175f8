#pragma once
// The problem signature the tuner keys its choices on: what changes the best solver.
// N and nev/N are bucketed (half powers of two), so nearby sizes share a cache entry.
#include <mpi.h>

#include <string>

namespace tseig::tune {

struct Signature {
  char type = 'd';  ///< 's', 'd', 'c', 'z' (LAPACK's letters)
  int n = 0;
  int nev = 0;
  int nprow = 1, npcol = 1;
  bool vectors = true;  ///< eigenvectors wanted (false: eigenvalues only)
  std::string backend = "host";
  std::string device = "none";
  std::string cpu;       ///< /proc/cpuinfo's model name
  std::string blas;      ///< openblas_get_config() when the BLAS is OpenBLAS
  int blas_threads = 1;  ///< the BLAS's threads per rank (blas_threads())
  std::string version;   ///< tseig's

  int ranks() const { return nprow * npcol; }
  /// The bucket of N: round(2·log2 N) (so 1000 and 1024 share one, 4000 and 6000 do not).
  int n_bucket() const;
  /// The bucket of nev/N: round(log2(nev/N)), clamped to [-10, 0]: N → 0, N/5 → -2, N/20 → -4.
  int nev_bucket() const;
  /// Everything that must match for a cached choice to apply, as one string.
  std::string key() const;
  /// The members as a JSON object (for the cache file, where people read it).
  std::string json() const;
};

/// The signature of a dense problem of type letter `type` on an nprow×npcol grid, with
/// this machine's CPU, BLAS and tseig version filled in.
Signature make_signature(char type, int n, int nev, int nprow, int npcol, bool vectors);

/// This machine's CPU model name ("unknown" when /proc/cpuinfo has none).
const std::string& cpu_model();
/// The BLAS library's own description (OpenBLAS's config string), or "unknown".
const std::string& blas_name();
/// The threads the BLAS runs on per rank now (OpenBLAS's openblas_get_num_threads; 1 for
/// a BLAS that does not say): a rate or a choice measured on one thread is not one of
/// eight.
int blas_threads();

}  // namespace tseig::tune
