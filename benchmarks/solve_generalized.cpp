// Generalized-problem runners of dense_bench: tseig (first call and factor reuse) and
// ScaLAPACK alone as the reference.
#include <mpi.h>

#include <complex>
#include <string>

#include "core/blas/scalapack.hpp"
#include "core/instantiate.hpp"
#include "runners.hpp"
#include "tseig/error.hpp"
#include "tseig/generalized.hpp"

namespace tseig::bench {
namespace {

// Runs f() between barriers and returns the seconds.
template <class F>
double timed(MPI_Comm comm, F&& f) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  f();
  MPI_Barrier(comm);
  return MPI_Wtime() - start;
}

void check_info(MPI_Comm comm, int info, const char* what) {
  raise_if_any(comm, info != 0, ErrorCode::numerical_failure,
               std::string("ScaLAPACK ") + what + " failed with info = " + std::to_string(info));
}

}  // namespace

template <class T>
GeneralizedSolutions<T> solve_tseig_generalized(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                                int nev, Solver solver, GpuUse gpu) {
  const MPI_Comm comm = H.grid().comm();
  EigensolverOptions opts;
  opts.solver = solver;
  opts.nev = nev;
  opts.gpu = gpu;
  GeneralizedSolutions<T> out;
  for (Solution<T>* s : {&out.first, &out.reuse}) {
    Eigensolver<T> es(opts);
    DistMatrix<T> a = H.clone();
    s->Z = DistMatrix<T>(H.grid(), H.n(), nev, H.nb());
    if (s == &out.first) {
      s->seconds = timed(comm, [&] { s->w = es.generalized_eigenvectors(a, S, s->Z); });
    } else {
      const CholeskyFactor<T> factor(S);
      s->seconds = timed(comm, [&] { s->w = es.generalized_eigenvectors(a, factor, s->Z); });
    }
    s->stages = es.timings().stages;
  }
  return out;
}

template <class T>
GeneralizedSolutions<T> solve_scalapack_generalized(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                                    int nev) {
  const MPI_Comm comm = H.grid().comm();
  const int n = H.n();
  const bool cplx = is_complex_v<T>;
  DistMatrix<T> L = S.clone();
  GeneralizedSolutions<T> out;
  for (Solution<T>* s : {&out.first, &out.reuse}) {
    DistMatrix<T> a = H.clone();
    s->Z = DistMatrix<T>::like(H);
    s->w.resize(n);
    int info[3] = {0, 0, 0};
    double t[4] = {0, 0, 0, 0};
    real_t<T> scale = 1;
    s->seconds = timed(comm, [&] {
      double t0 = MPI_Wtime();
      if (s == &out.first) info[0] = scalapack::ppotrf<T>('L', n, L.data(), 1, 1, L.desc());
      t[0] = MPI_Wtime() - t0;
      t0 = MPI_Wtime();
      info[1] =
          scalapack::psygst<T>('L', n, a.data(), 1, 1, a.desc(), L.data(), 1, 1, L.desc(), scale);
      t[1] = MPI_Wtime() - t0;
      t0 = MPI_Wtime();
      info[2] = scalapack::pheevd<T>('V', 'L', n, a.data(), a.desc(), s->w.data(), s->Z.data(),
                                     s->Z.desc());
      t[2] = MPI_Wtime() - t0;
      t0 = MPI_Wtime();
      scalapack::ptrsm<T>('L', 'L', 'C', 'N', n, nev, T(1), L.data(), 1, 1, L.desc(), s->Z.data(),
                          1, 1, s->Z.desc());
      t[3] = MPI_Wtime() - t0;
    });
    check_info(comm, info[0], "p?potrf");
    check_info(comm, info[1], cplx ? "p?hegst" : "p?sygst");
    check_info(comm, info[2], cplx ? "p?heevd" : "p?syevd");
    if (s == &out.first) s->stages.emplace_back("p?potrf", t[0]);
    s->stages.emplace_back(cplx ? "p?hegst" : "p?sygst", t[1]);
    s->stages.emplace_back(cplx ? "p?heevd" : "p?syevd", t[2]);
    s->stages.emplace_back("p?trsm", t[3]);
    s->w.resize(nev);
  }
  return out;
}

#define TSEIG_INSTANTIATE(T)                                                         \
  template GeneralizedSolutions<T> solve_tseig_generalized(                          \
      const DistMatrix<T>&, const DistMatrix<T>&, int, Solver, GpuUse);              \
  template GeneralizedSolutions<T> solve_scalapack_generalized(const DistMatrix<T>&, \
                                                               const DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::bench
