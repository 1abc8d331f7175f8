// cuSOLVER row of dense_bench: what one GPU does with the whole matrix. Rank 0 gathers A,
// solves it on its GPU (cusolver_eig.cu) and scatters the eigenvectors, as solve_lapack.cpp
// does, so the same accuracy checks apply; the other ranks wait.
#include <mpi.h>

#include <complex>
#include <string>

#include "core/mpi_types.hpp"
#include "runners.hpp"
#include "tseig/error.hpp"
#ifdef TSEIG_BENCH_HAVE_CUDA
#include "cusolver_eig.hpp"
#endif

namespace tseig::bench {

#ifdef TSEIG_BENCH_HAVE_CUDA
namespace {

// Rank 0's outcome on every rank, so all ranks throw (or not) together.
void share_outcome(MPI_Comm comm, cusolver::Result& r) {
  int head[2] = {static_cast<int>(r.status), static_cast<int>(r.message.size())};
  MPI_Bcast(head, 2, MPI_INT, 0, comm);
  r.message.resize(head[1]);
  MPI_Bcast(r.message.data(), head[1], MPI_CHAR, 0, comm);
  switch (static_cast<cusolver::Result::Status>(head[0])) {
    case cusolver::Result::ok:
      break;
    case cusolver::Result::no_gpu:
      throw Error(ErrorCode::unsupported, r.message);
    case cusolver::Result::info_failure:
      throw Error(ErrorCode::numerical_failure, r.message);
    default:
      throw Error(ErrorCode::device_error, r.message);
  }
  double times[4] = {r.seconds, r.solve_seconds, r.transfer_seconds, static_cast<double>(r.found)};
  MPI_Bcast(times, 4, MPI_DOUBLE, 0, comm);
  r.seconds = times[0];
  r.solve_seconds = times[1];
  r.transfer_seconds = times[2];
  r.found = static_cast<std::int64_t>(times[3]);
}

}  // namespace
#endif

template <class T>
Solution<T> solve_cusolver(const DistMatrix<T>& A, int nev) {
#ifndef TSEIG_BENCH_HAVE_CUDA
  throw Error(ErrorCode::unsupported, "dense_bench built without CUDA");
#else
  using R = real_t<T>;
  const Grid& grid = A.grid();
  const int n = A.n();
  std::vector<T> full = A.gather(0);
  std::vector<R> w(n);
  cusolver::Result r;
  if (grid.rank() == 0) r = cusolver::eigh(n, nev, full.data(), w.data());
  share_outcome(grid.comm(), r);
  const int found = static_cast<int>(r.found);
  if (found < nev)
    throw Error(ErrorCode::numerical_failure, "cuSOLVER found " + std::to_string(found) + " of " +
                                                  std::to_string(nev) + " eigenpairs");
  Solution<T> s{std::move(w), DistMatrix<T>(grid, n, found, A.nb()), r.seconds, {}};
  s.w.resize(found);
  MPI_Bcast(s.w.data(), found, mpi_type<R>(), 0, grid.comm());
  s.Z.scatter(full.data(), 0);  // on rank 0 the first `found` columns are Z
  s.stages = {{"transfers", r.transfer_seconds}, {"cusolver_solve", r.solve_seconds}};
  return s;
#endif
}

template Solution<float> solve_cusolver(const DistMatrix<float>&, int);
template Solution<double> solve_cusolver(const DistMatrix<double>&, int);
template Solution<std::complex<float>> solve_cusolver(const DistMatrix<std::complex<float>>&, int);
template Solution<std::complex<double>> solve_cusolver(const DistMatrix<std::complex<double>>&,
                                                       int);

}  // namespace tseig::bench
