#include "dense/scalapack_solver.hpp"

#include <algorithm>
#include <string>

#include "core/blas/scalapack.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "core/stage_timer.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
std::vector<real_t<T>> solve_scalapack(DistMatrix<T>& A, Wanted& wanted, DistMatrix<T>* Z,
                                       StageTimes& times) {
  using R = real_t<T>;
  const int n = A.n();
  const MPI_Comm comm = A.grid().comm();
  std::vector<R> w(n);
  // With vectors all pairs even for a subset: p?syevr's internal p?ormtr call gets too
  // little workspace for small subsets with NB > 1 in ScaLAPACK 2.2 (PDORMTR reports
  // LWORK). p?syevd has no eigenvalues-only mode; the MRRR driver serves that.
  const Stage stage = Z ? (is_complex_v<T> ? Stage::scalapack_heevd : Stage::scalapack_syevd)
                        : (is_complex_v<T> ? Stage::scalapack_heevr : Stage::scalapack_syevr);
  const char* name = to_string(stage);
  int info = 0, found = 0;
  // p?syevr finds an index window itself; an interval and p?syevd's vectors are selected
  // from all eigenpairs below. A subset above the lowest gets all vectors in a work
  // matrix and the wanted ones copied.
  const bool window = !wanted.interval && wanted.count < n;
  const bool via_work = Z && (wanted.interval || wanted.first > 0);
  DistMatrix<T> all;
  {
    StageTimer timer(times, stage);
    if (Z) {
      if (via_work) all = DistMatrix<T>::like(*Z);
      DistMatrix<T>& V = via_work ? all : *Z;
      info = scalapack::pheevd<T>('V', 'L', n, A.data(), A.desc(), w.data(), V.data(), V.desc());
      found = n;
    } else {
      info =
          scalapack::pheevr<T>('N', window ? 'I' : 'A', 'L', n, A.data(), A.desc(),
                               wanted.first + 1, wanted.end(), found, w.data(), A.data(), A.desc());
    }
  }
  const bool values_window = !Z && window;
  raise_if_any(comm, info != 0 || found < (values_window ? wanted.count : n),
               ErrorCode::numerical_failure,
               std::string("ScaLAPACK ") + name + " failed with info = " + std::to_string(info));
  // As with p?stedc, ranks owning nothing (N < NB) may hold unsorted values.
  MPI_Bcast(w.data(), n, mpi_type<R>(), 0, comm);
  if (values_window) {
    w.resize(wanted.count);  // p?syevr returned the window itself
    return w;
  }
  if (wanted.interval) {
    const auto not_above = [&](double x) {
      return static_cast<int>(std::upper_bound(w.begin(), w.end(), static_cast<R>(x)) - w.begin());
    };
    wanted.first = not_above(wanted.interval->vl);
    wanted.count = not_above(wanted.interval->vu) - wanted.first;
  }
  raise_if_any(comm, Z && Z->n() < wanted.count, ErrorCode::invalid_argument,
               "Z has " + std::to_string(Z ? Z->n() : 0) + " columns; the " +
                   std::to_string(wanted.count) + " selected eigenvectors need as many");
  if (via_work && wanted.count > 0)
    scalapack::gemr2d<T>(n, wanted.count, all.data(), 1, wanted.first + 1, all.desc(), Z->data(), 1,
                         1, Z->desc(), A.grid().blacs_context());
  return selected(std::move(w), wanted);
}

#define TSEIG_INSTANTIATE(T)                                                               \
  template std::vector<real_t<T>> solve_scalapack(DistMatrix<T>&, Wanted&, DistMatrix<T>*, \
                                                  StageTimes&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
