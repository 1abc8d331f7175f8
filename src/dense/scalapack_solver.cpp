#include "dense/scalapack_solver.hpp"

#include <string>

#include "core/blas/scalapack.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "core/stage_timer.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
std::vector<real_t<T>> solve_scalapack(DistMatrix<T>& A, int nev, DistMatrix<T>* Z,
                                       StageTimes& times) {
  const int n = A.n();
  std::vector<real_t<T>> w(n);
  // With vectors all pairs even for nev < N: p?syevr's internal p?ormtr call gets too
  // little workspace for small nev with NB > 1 in ScaLAPACK 2.2 (PDORMTR reports LWORK).
  // p?syevd has no eigenvalues-only mode; the MRRR driver serves that.
  const Stage stage = Z ? (is_complex_v<T> ? Stage::scalapack_heevd : Stage::scalapack_syevd)
                        : (is_complex_v<T> ? Stage::scalapack_heevr : Stage::scalapack_syevr);
  const char* name = to_string(stage);
  StageTimer timer(times, stage);
  int info = 0, found = n;
  if (Z) {
    info = scalapack::pheevd<T>('V', 'L', n, A.data(), A.desc(), w.data(), Z->data(), Z->desc());
  } else {
    T* z = Z ? Z->data() : A.data();
    const int* descz = Z ? Z->desc() : A.desc();
    info = scalapack::pheevr<T>(Z ? 'V' : 'N', nev == n ? 'A' : 'I', 'L', n, A.data(), A.desc(), 1,
                                nev, found, w.data(), z, descz);
  }
  raise_if_any(A.grid().comm(), info != 0 || found < nev, ErrorCode::numerical_failure,
               std::string("ScaLAPACK ") + name + " failed with info = " + std::to_string(info));
  // As with p?stedc, ranks owning nothing (N < NB) may hold unsorted values.
  MPI_Bcast(w.data(), n, mpi_type<real_t<T>>(), 0, A.grid().comm());
  w.resize(nev);
  return w;
}

#define TSEIG_INSTANTIATE(T) \
  template std::vector<real_t<T>> solve_scalapack(DistMatrix<T>&, int, DistMatrix<T>*, StageTimes&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
