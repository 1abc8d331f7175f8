// tseig runner of dense_bench: the Eigensolver as a user calls it.
#include <mpi.h>

#include <complex>

#include "runners.hpp"

namespace tseig::bench {

template <class T>
Solution<T> solve_tseig(DistMatrix<T>& A, int nev, Solver solver, GpuUse gpu) {
  EigensolverOptions opts;
  opts.solver = solver;
  opts.nev = nev;
  opts.gpu = gpu;
  Eigensolver<T> es(opts);
  Solution<T> s{{}, DistMatrix<T>(A.grid(), A.n(), nev, A.nb()), 0, {}};
  MPI_Barrier(A.grid().comm());
  double start = MPI_Wtime();
  s.w = es.eigenvectors(A, s.Z);
  MPI_Barrier(A.grid().comm());
  s.seconds = MPI_Wtime() - start;
  s.stages = es.timings().stages;
  return s;
}

template Solution<float> solve_tseig(DistMatrix<float>&, int, Solver, GpuUse);
template Solution<double> solve_tseig(DistMatrix<double>&, int, Solver, GpuUse);
template Solution<std::complex<float>> solve_tseig(DistMatrix<std::complex<float>>&, int, Solver,
                                                   GpuUse);
template Solution<std::complex<double>> solve_tseig(DistMatrix<std::complex<double>>&, int, Solver,
                                                    GpuUse);

}  // namespace tseig::bench
