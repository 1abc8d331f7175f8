#pragma once
// The projected eigenproblems of the block solvers: small dense Hermitian (generalized)
// problems whose matrices every rank holds in full. Solved by LAPACK on rank 0 and
// broadcast, or, from SparseTuneParameters::rr_distributed_min on, by tseig::Eigensolver
// on a process grid over the same ranks; either way every rank gets the same bits.
#include <mpi.h>

#include <vector>

#include "tseig/sparse/linear_operator.hpp"
#include "tseig/sparse/tune.hpp"
#include "tseig/types.hpp"

namespace tseig::sparse::detail {

template <class T>
struct SmallEigen {
  std::vector<real_t<T>> values;  ///< ascending
  std::vector<T> vectors;         ///< n × n column-major; B-orthonormal when b is given
  bool ok = true;                 ///< false: B is not positive definite (numerically)
};

/// Collective: every eigenpair of the n × n Hermitian `a` (column-major, the same on
/// every rank; symmetrised here), generalized with `b` when it is not empty. Its time
/// goes to `part` (a field of `times`), the broadcasts to times.communication.
template <class T>
SmallEigen<T> projected_eigen(MPI_Comm comm, int n, std::vector<T> a, std::vector<T> b,
                              const SparseTuneParameters& tune, SolverTimes& times, double& part);

}  // namespace tseig::sparse::detail
