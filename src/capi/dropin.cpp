// ScaLAPACK-signature drop-ins for the standard problem: tseig_p?syevd / tseig_p?heevd.
// The Fortran external names (tseig_pdsyevd_, ...) are aliases of the C functions.
#include <vector>

#include "capi/dropin.hpp"
#include "capi/solve_into.hpp"

namespace tseig::capi {

std::string& dropin_message() {
  thread_local std::string message;
  return message;
}

void check_local_array(ArgCheck& check, const Grid& g, const void* data, int pos, const char* name,
                       const int* d, int n) {
  if (check.code != 0 || data || n <= 0) return;
  const int rows = block_cyclic::local_count(n, d[4], g.myrow(), d[6], g.nprow());
  const int cols = block_cyclic::local_count(n, d[5], g.mycol(), d[7], g.npcol());
  check.scalar(rows == 0 || cols == 0, pos,
               std::string(name) + " is NULL on rank " + std::to_string(g.rank()) +
                   ", which holds " + std::to_string(rows) + " x " + std::to_string(cols) +
                   " local elements of it (NULL is allowed only where a rank holds none)");
}

void check_output_array(ArgCheck& check, const void* data, int pos, const char* name, int n) {
  if (check.code != 0 || data || n <= 0) return;
  check.scalar(false, pos,
               std::string(name) + " is NULL (needs N = " + std::to_string(n) + " entries)");
}

namespace {

template <class T>
void syevd(const char* jobz, const char* uplo, const int* n, T* a, const int* ia, const int* ja,
           const int* desca, real_t<T>* w, T* z, const int* iz, const int* jz, const int* descz,
           int* info) {
  *info = run_dropin(
      syevd_pos, desca, false,
      [&](const Grid& g, ArgCheck& check) {
        check_common(check, syevd_pos, g, jobz, uplo, n, ia, ja, desca, iz, jz, descz);
        // p?syevd's A, W and Z: arguments 4, 8 and 9.
        check_local_array(check, g, a, 4, "A", desca, *n);
        check_output_array(check, w, 8, "W", *n);
        if (upper(jobz) == 'V') check_local_array(check, g, z, 9, "Z", descz, *n);
      },
      [&](const Grid& g) {
        EigensolverOptions options;
        options.triangle = upper(uplo) == 'L' ? Triangle::lower : Triangle::upper;
        Eigensolver<T> solver(options);
        DistMatrix<T> A = leading_view(g, desca, *n, a);
        solve_into<T>(
            solver, A, nullptr, upper(jobz) == 'V', [&] { return leading_view(g, descz, *n, z); },
            w);
      });
}

}  // namespace
}  // namespace tseig::capi

using tseig::capi::is_query;
using tseig::capi::minimal_workspace;

extern "C" {
void tseig_pdsyevd(const char* jobz, const char* uplo, const int* n, double* a, const int* ia,
                   const int* ja, const int* desca, double* w, double* z, const int* iz,
                   const int* jz, const int* descz, double* work, const int* lwork, int* iwork,
                   const int* liwork, int* info) {
  if (is_query(lwork, liwork)) {
    minimal_workspace(work, iwork);
    *info = 0;
    return;
  }
  tseig::capi::syevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, info);
}

void tseig_pssyevd(const char* jobz, const char* uplo, const int* n, float* a, const int* ia,
                   const int* ja, const int* desca, float* w, float* z, const int* iz,
                   const int* jz, const int* descz, float* work, const int* lwork, int* iwork,
                   const int* liwork, int* info) {
  if (is_query(lwork, liwork)) {
    minimal_workspace(work, iwork);
    *info = 0;
    return;
  }
  tseig::capi::syevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, info);
}

void tseig_pzheevd(const char* jobz, const char* uplo, const int* n, tseig_complex_double* a,
                   const int* ia, const int* ja, const int* desca, double* w,
                   tseig_complex_double* z, const int* iz, const int* jz, const int* descz,
                   tseig_complex_double* work, const int* lwork, double* rwork, const int* lrwork,
                   int* iwork, const int* liwork, int* info) {
  if (is_query(lwork, lrwork, liwork)) {
    minimal_workspace(work, iwork, rwork);
    *info = 0;
    return;
  }
  tseig::capi::syevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, info);
}

void tseig_pcheevd(const char* jobz, const char* uplo, const int* n, tseig_complex_float* a,
                   const int* ia, const int* ja, const int* desca, float* w, tseig_complex_float* z,
                   const int* iz, const int* jz, const int* descz, tseig_complex_float* work,
                   const int* lwork, float* rwork, const int* lrwork, int* iwork, const int* liwork,
                   int* info) {
  if (is_query(lwork, lrwork, liwork)) {
    minimal_workspace(work, iwork, rwork);
    *info = 0;
    return;
  }
  tseig::capi::syevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, info);
}

// Fortran external names (gfortran and most compilers: lowercase + underscore).
TSEIG_FORTRAN_ALIAS(tseig_pdsyevd, const char*, const char*, const int*, double*, const int*,
                    const int*, const int*, double*, double*, const int*, const int*, const int*,
                    double*, const int*, int*, const int*, int*)
TSEIG_FORTRAN_ALIAS(tseig_pssyevd, const char*, const char*, const int*, float*, const int*,
                    const int*, const int*, float*, float*, const int*, const int*, const int*,
                    float*, const int*, int*, const int*, int*)
TSEIG_FORTRAN_ALIAS(tseig_pzheevd, const char*, const char*, const int*, tseig_complex_double*,
                    const int*, const int*, const int*, double*, tseig_complex_double*, const int*,
                    const int*, const int*, tseig_complex_double*, const int*, double*, const int*,
                    int*, const int*, int*)
TSEIG_FORTRAN_ALIAS(tseig_pcheevd, const char*, const char*, const int*, tseig_complex_float*,
                    const int*, const int*, const int*, float*, tseig_complex_float*, const int*,
                    const int*, const int*, tseig_complex_float*, const int*, float*, const int*,
                    int*, const int*, int*)

}  // extern "C"
