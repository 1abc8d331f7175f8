// ScaLAPACK-signature drop-ins for a subset of eigenpairs: tseig_p?syevr / tseig_p?heevr
// (RANGE = 'A', 'V', 'I'). The Fortran external names (tseig_pdsyevr_, ...) are aliases.
#include <cmath>
#include <limits>

#include "capi/dropin.hpp"
#include "capi/solve_into.hpp"

namespace tseig::capi {
namespace {

// p?syevr's argument positions; p?heevr's agree up to DESCZ (RWORK comes after LWORK).
inline constexpr Positions syevr_pos{1, 3, 4, 6, 7, 8, 17, 18, 19};
enum { range_pos = 2, vl_pos = 9, vu_pos = 10, il_pos = 11, iu_pos = 12 };

// RANGE's checks in p?syevr's order and codes: VU <= VL is -10 (only for N > 0), IL
// outside [1, max(1, N)] -11, IU outside [min(N, IL), N] -12.
void check_range(ArgCheck& check, char range, int n, double vl, double vu, int il, int iu) {
  check.scalar(range == 'A' || range == 'V' || range == 'I', range_pos,
               "RANGE must be 'A', 'V' or 'I'");
  if (range == 'V')
    check.scalar(n <= 0 || vu > vl, vu_pos,
                 "VU = " + std::to_string(vu) + " must be > VL = " + std::to_string(vl));
  if (range == 'I') {
    check.scalar(il >= 1 && il <= std::max(1, n), il_pos,
                 "IL = " + std::to_string(il) + " must be in [1, max(1, N)]");
    check.scalar(iu >= std::min(n, il) && iu <= n, iu_pos,
                 "IU = " + std::to_string(iu) + " must be in [min(N, IL), N] = [" +
                     std::to_string(std::min(n, il)) + ", " + std::to_string(n) + "]");
  }
}

// VL or VU = -/+infinity ((-inf, vu], everything above vl) is a valid request; the
// Eigensolver takes finite bounds, and the largest finite double excludes no eigenvalue.
double finite(double v) {
  const double big = std::numeric_limits<double>::max();
  return std::clamp(v, -big, big);
}

template <class T>
void syevr(const char* jobz, const char* range, const char* uplo, const int* n, T* a, const int* ia,
           const int* ja, const int* desca, const real_t<T>* vl, const real_t<T>* vu, const int* il,
           const int* iu, int* m, int* nz, real_t<T>* w, T* z, const int* iz, const int* jz,
           const int* descz, int* info) {
  const char rng = upper(range);
  const bool vectors = upper(jobz) == 'V';
  // Read only what RANGE names, as ScaLAPACK does: the others may be any pointers (a NULL
  // one that RANGE names is argument error -9 .. -12 below).
  const double lo = rng == 'V' && vl ? double(*vl) : 0, hi = rng == 'V' && vu ? double(*vu) : 0;
  const int first = rng == 'I' && il ? *il : 1, last = rng == 'I' && iu ? *iu : 0;
  *info = run_dropin(
      syevr_pos, desca, false,
      [&](const Grid& g, ArgCheck& check) {
        // p?syevr checks JOBZ before RANGE, and RANGE before the rest.
        check.scalar(upper(jobz) == 'V' || upper(jobz) == 'N', syevr_pos.jobz,
                     "JOBZ must be 'V' or 'N'");
        if (rng == 'V') {
          check.scalar(vl != nullptr, vl_pos, "VL is NULL (RANGE = 'V' reads it)");
          check.scalar(vu != nullptr, vu_pos, "VU is NULL (RANGE = 'V' reads it)");
        }
        if (rng == 'I') {
          check.scalar(il != nullptr, il_pos, "IL is NULL (RANGE = 'I' reads it)");
          check.scalar(iu != nullptr, iu_pos, "IU is NULL (RANGE = 'I' reads it)");
        }
        check.same(range_pos, rng);
        check_range(check, rng, *n, lo, hi, first, last);
        check_common(check, syevr_pos, g, jobz, uplo, n, ia, ja, desca, iz, jz, descz);
        // p?syevr's A, M, NZ, W and Z: arguments 5, 13, 14, 15 and 16.
        check_local_array(check, g, a, 5, "A", desca, *n);
        check.scalar(m != nullptr, 13, "M is NULL");
        if (vectors) check.scalar(nz != nullptr, 14, "NZ is NULL (JOBZ = 'V' sets it)");
        check_output_array(check, w, 15, "W", *n);
        if (vectors) check_local_array(check, g, z, 16, "Z", descz, *n);
      },
      [&](const Grid& g) {
        int found = 0;
        if (*n > 0) {
          EigensolverOptions options;
          options.triangle = upper(uplo) == 'L' ? Triangle::lower : Triangle::upper;
          if (rng == 'I') options.index_range = IndexRange{first, last};
          if (rng == 'V') options.value_range = ValueRange{finite(lo), finite(hi)};
          Eigensolver<T> solver(options);
          DistMatrix<T> A = leading_view(g, desca, *n, a);
          found = solve_into<T>(
              solver, A, nullptr, vectors, [&] { return leading_view(g, descz, *n, z); }, w);
        }
        *m = found;
        if (vectors) *nz = found;  // p?syevr: NZ is referenced only for JOBZ = 'V'
      });
}

}  // namespace
}  // namespace tseig::capi

using tseig::capi::is_query;
using tseig::capi::minimal_workspace;

extern "C" {

void tseig_pdsyevr(const char* jobz, const char* range, const char* uplo, const int* n, double* a,
                   const int* ia, const int* ja, const int* desca, const double* vl,
                   const double* vu, const int* il, const int* iu, int* m, int* nz, double* w,
                   double* z, const int* iz, const int* jz, const int* descz, double* work,
                   const int* lwork, int* iwork, const int* liwork, int* info) {
  if (is_query(lwork, liwork)) {
    minimal_workspace(work, iwork);
    *info = 0;
    return;
  }
  tseig::capi::syevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, iz, jz,
                     descz, info);
}

void tseig_pssyevr(const char* jobz, const char* range, const char* uplo, const int* n, float* a,
                   const int* ia, const int* ja, const int* desca, const float* vl, const float* vu,
                   const int* il, const int* iu, int* m, int* nz, float* w, float* z, const int* iz,
                   const int* jz, const int* descz, float* work, const int* lwork, int* iwork,
                   const int* liwork, int* info) {
  if (is_query(lwork, liwork)) {
    minimal_workspace(work, iwork);
    *info = 0;
    return;
  }
  tseig::capi::syevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, iz, jz,
                     descz, info);
}

void tseig_pzheevr(const char* jobz, const char* range, const char* uplo, const int* n,
                   tseig_complex_double* a, const int* ia, const int* ja, const int* desca,
                   const double* vl, const double* vu, const int* il, const int* iu, int* m,
                   int* nz, double* w, tseig_complex_double* z, const int* iz, const int* jz,
                   const int* descz, tseig_complex_double* work, const int* lwork, double* rwork,
                   const int* lrwork, int* iwork, const int* liwork, int* info) {
  if (is_query(lwork, lrwork, liwork)) {
    minimal_workspace(work, iwork, rwork);
    *info = 0;
    return;
  }
  tseig::capi::syevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, iz, jz,
                     descz, info);
}

void tseig_pcheevr(const char* jobz, const char* range, const char* uplo, const int* n,
                   tseig_complex_float* a, const int* ia, const int* ja, const int* desca,
                   const float* vl, const float* vu, const int* il, const int* iu, int* m, int* nz,
                   float* w, tseig_complex_float* z, const int* iz, const int* jz, const int* descz,
                   tseig_complex_float* work, const int* lwork, float* rwork, const int* lrwork,
                   int* iwork, const int* liwork, int* info) {
  if (is_query(lwork, lrwork, liwork)) {
    minimal_workspace(work, iwork, rwork);
    *info = 0;
    return;
  }
  tseig::capi::syevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, iz, jz,
                     descz, info);
}

// Fortran external names (gfortran and most compilers: lowercase + underscore).
TSEIG_FORTRAN_ALIAS(tseig_pdsyevr, const char*, const char*, const char*, const int*, double*,
                    const int*, const int*, const int*, const double*, const double*, const int*,
                    const int*, int*, int*, double*, double*, const int*, const int*, const int*,
                    double*, const int*, int*, const int*, int*)
TSEIG_FORTRAN_ALIAS(tseig_pssyevr, const char*, const char*, const char*, const int*, float*,
                    const int*, const int*, const int*, const float*, const float*, const int*,
                    const int*, int*, int*, float*, float*, const int*, const int*, const int*,
                    float*, const int*, int*, const int*, int*)
TSEIG_FORTRAN_ALIAS(tseig_pzheevr, const char*, const char*, const char*, const int*,
                    tseig_complex_double*, const int*, const int*, const int*, const double*,
                    const double*, const int*, const int*, int*, int*, double*,
                    tseig_complex_double*, const int*, const int*, const int*,
                    tseig_complex_double*, const int*, double*, const int*, int*, const int*, int*)
TSEIG_FORTRAN_ALIAS(tseig_pcheevr, const char*, const char*, const char*, const int*,
                    tseig_complex_float*, const int*, const int*, const int*, const float*,
                    const float*, const int*, const int*, int*, int*, float*, tseig_complex_float*,
                    const int*, const int*, const int*, tseig_complex_float*, const int*, float*,
                    const int*, int*, const int*, int*)

}  // extern "C"
