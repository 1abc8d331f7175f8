// ELPA runner of dense_bench, through Debian's ELPA C API. The matrix is handed over
// in tseig's own block-cyclic layout (ELPA wants the same layout for A and Q).
#include <mpi.h>

#include <complex>
#include <memory>
#include <string>
#include <type_traits>

// Compiled as C++, elpa.h declares its complex API with std::complex.
#include <elpa/elpa.h>

#include "core/instantiate.hpp"
#include "runners.hpp"
#include "tseig/error.hpp"

namespace tseig::bench {
namespace {

// Oldest API version whose C interface we use; ELPA 2022.11 still accepts it.
constexpr int elpa_api_version = 20171201;

// elpa.h declares elpa_strerr without C linkage, so it does not link from C++; the
// names come from ELPA's own error table instead.
std::string error_name(int error) {
#define TSEIG_ELPA_ERROR_NAME(name, value) \
  if (error == (value)) return #name;
  ELPA_FOR_ALL_ERRORS(TSEIG_ELPA_ERROR_NAME)
#undef TSEIG_ELPA_ERROR_NAME
  return "error code " + std::to_string(error);
}

void check(MPI_Comm comm, int error, const std::string& what) {
  raise_if_any(comm, error != ELPA_OK, ErrorCode::numerical_failure,
               "ELPA " + what + " failed: " + error_name(error));
}

void initialize_once(MPI_Comm comm) {
  // elpa_uninit is left to process exit: ELPA keeps no resource beyond it.
  static const int status = elpa_init(elpa_api_version);
  check(comm, status, "elpa_init");
}

struct HandleDeleter {
  void operator()(elpa_t handle) const {
    int error = ELPA_OK;
    elpa_deallocate(handle, &error);
  }
};
using Handle = std::unique_ptr<elpa_struct, HandleDeleter>;

// An ELPA object set up for A's layout, nev vectors and the ELPA1 or ELPA2 solver.
template <class T>
Handle make_handle(const DistMatrix<T>& A, int nev, int stages) {
  const Grid& grid = A.grid();
  MPI_Comm comm = grid.comm();
  initialize_once(comm);
  raise_if_any(comm, A.lld() != A.local_rows(), ErrorCode::unsupported,
               "ELPA needs the leading dimension to equal the local row count");

  int error = ELPA_OK;
  Handle handle(elpa_allocate(&error));
  check(comm, error, "elpa_allocate");
  auto set = [&](const char* key, int value) {
    elpa_set(handle.get(), key, value, &error);
    check(comm, error, key);
  };
  set("na", A.n());
  set("nev", nev);
  set("local_nrows", A.local_rows());
  set("local_ncols", A.local_cols());
  set("nblk", A.nb());
  set("mpi_comm_parent", static_cast<int>(MPI_Comm_c2f(comm)));
  set("process_row", grid.myrow());
  set("process_col", grid.mycol());
  set("blacs_context", grid.blacs_context());
  check(comm, elpa_setup(handle.get()), "elpa_setup");
  set("solver", stages == 1 ? ELPA_SOLVER_1STAGE : ELPA_SOLVER_2STAGE);
  return handle;
}

const char* precision_note(bool single) {
  // Debian's ELPA is built without single precision and fails for float types.
  return single ? " (single precision)" : "";
}

}  // namespace

template <class T>
Solution<T> solve_elpa(DistMatrix<T>& A, int nev, int stages) {
  const MPI_Comm comm = A.grid().comm();
  Handle handle = make_handle(A, nev, stages);
  int error = ELPA_OK;
  Solution<T> s{std::vector<real_t<T>>(A.n()), DistMatrix<T>::like(A), 0, {}};
  MPI_Barrier(comm);
  double start = MPI_Wtime();
  elpa_eigenvectors(handle.get(), A.data(), s.w.data(), s.Z.data(), &error);
  MPI_Barrier(comm);
  s.seconds = MPI_Wtime() - start;
  // Debian's ELPA is built without single precision and fails here for float types.
  check(comm, error,
        std::string("elpa_eigenvectors") + precision_note(std::is_same_v<real_t<T>, float>));
  s.w.resize(nev);
  return s;
}

template <class T>
GeneralizedSolutions<T> solve_elpa_generalized(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                               int nev, int stages) {
  const MPI_Comm comm = H.grid().comm();
  Handle handle = make_handle(H, nev, stages);
  // ELPA overwrites b with its factor; the second call reuses it (is_already_decomposed).
  DistMatrix<T> b = S.clone();
  GeneralizedSolutions<T> out;
  for (int decomposed : {0, 1}) {
    DistMatrix<T> a = H.clone();
    Solution<T> s{std::vector<real_t<T>>(H.n()), DistMatrix<T>::like(H), 0, {}};
    int error = ELPA_OK;
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    elpa_generalized_eigenvectors(handle.get(), a.data(), b.data(), s.w.data(), s.Z.data(),
                                  decomposed, &error);
    MPI_Barrier(comm);
    s.seconds = MPI_Wtime() - start;
    check(comm, error,
          std::string("elpa_generalized_eigenvectors") +
              precision_note(std::is_same_v<real_t<T>, float>));
    s.w.resize(nev);
    (decomposed ? out.reuse : out.first) = std::move(s);
  }
  return out;
}

#define TSEIG_INSTANTIATE(T)                                                    \
  template GeneralizedSolutions<T> solve_elpa_generalized(const DistMatrix<T>&, \
                                                          const DistMatrix<T>&, int, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE
template Solution<float> solve_elpa(DistMatrix<float>&, int, int);
template Solution<double> solve_elpa(DistMatrix<double>&, int, int);
template Solution<std::complex<float>> solve_elpa(DistMatrix<std::complex<float>>&, int, int);
template Solution<std::complex<double>> solve_elpa(DistMatrix<std::complex<double>>&, int, int);

}  // namespace tseig::bench
