#pragma once
// A tseig sparse matrix as a PETSc MPIAIJ matrix with the same rows on every rank, so
// the peers in the sparse benchmarks work on exactly our problem and distribution.
#include <petscmat.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sparse_bench_common.hpp"

namespace tseig::bench {

inline void petsc_check(PetscErrorCode code, const char* what) {
  if (code != 0) throw std::runtime_error(std::string("PETSc/SLEPc error in ") + what);
}

template <class T>
Mat to_petsc(const sparse::Matrix<T>& a) {
  std::vector<std::int64_t> ptr, cols;
  std::vector<T> values;
  global_csr(a, ptr, cols, values);
  std::vector<PetscInt> i(ptr.begin(), ptr.end()), j(cols.begin(), cols.end());
  std::vector<PetscScalar> v(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) v[k] = PetscScalar(values[k]);
  Mat m;
  const PetscInt rows = a.local_rows(), n = static_cast<PetscInt>(a.rows());
  petsc_check(
      MatCreateMPIAIJWithArrays(a.comm(), rows, rows, n, n, i.data(), j.data(), v.data(), &m),
      "MatCreateMPIAIJWithArrays");
  return m;
}

}  // namespace tseig::bench
