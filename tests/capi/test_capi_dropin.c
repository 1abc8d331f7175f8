/* Drop-in test: ScaLAPACK pdsyevd / pzheevd and tseig_pdsyevd / tseig_pzheevd on the same
 * descriptors must agree; the single-precision and generalized drop-ins are checked
 * against LAPACK; INFO follows ScaLAPACK's conventions. Exit status 0 iff all pass. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_capi_util.h"
#include "tseig/tseig.h"

void Cblacs_get(int ctxt, int what, int* val);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ctxt);
void pdsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* ia,
              const int* ja, const int* desca, double* w, double* z, const int* iz, const int* jz,
              const int* descz, double* work, const int* lwork, int* iwork, const int* liwork,
              int* info, size_t, size_t);
void pzheevd_(const char* jobz, const char* uplo, const int* n, double complex* a, const int* ia,
              const int* ja, const int* desca, double* w, double complex* z, const int* iz,
              const int* jz, const int* descz, double complex* work, const int* lwork,
              double* rwork, const int* lrwork, int* iwork, const int* liwork, int* info, size_t,
              size_t);

enum { N = 61, NB = 8 };
static const int one = 1;
static int size;

static void descriptor(int* desc, const layout_t* l, int ctxt) {
  int d[9] = {1, ctxt, l->m, l->n, l->mb, l->nb, l->rsrc, l->csrc, l->lld};
  memcpy(desc, d, sizeof d);
}

static double max_abs(const double* w, int n) {
  double m = 0;
  for (int k = 0; k < n; ++k) m = fmax(m, fabs(w[k]));
  return m;
}

/* Residual and orthogonality of the distributed eigenvectors z (layout l) of the problem
 * built from h (and s: generalized), against the tolerance of type t. */
static void check_vectors(const char* what, char t, const void* z, const layout_t* l,
                          const double* w, double complex (*h)(int, int, int),
                          double complex (*s)(int, int, int), MPI_Comm comm) {
  double tol = 100.0 * sqrt((double)N) * type_eps(t);
  double complex* H = full_matrix(N, h, is_complex(t));
  double complex* S = s ? full_matrix(N, s, is_complex(t)) : NULL;
  double complex* Z = gather_full(z, t, l, comm);
  double res = residual(H, S, Z, w, N, N), orth = orthogonality(S, Z, N, N);
  CHECK(res <= tol, "%s: residual %.3g > %.3g", what, res, tol);
  CHECK(orth <= tol, "%s: orthogonality %.3g > %.3g", what, orth, tol);
  free(H);
  free(S);
  free(Z);
}

static void check_values(const char* what, char t, const double* w,
                         double complex (*h)(int, int, int), double complex (*s)(int, int, int)) {
  double complex* H = full_matrix(N, h, is_complex(t));
  double complex* S = s ? full_matrix(N, s, is_complex(t)) : NULL;
  double ref[N];
  lapack_eigenvalues(H, S, N, ref);
  double tol = 100.0 * sqrt((double)N) * type_eps(t) * max_abs(ref, N);
  for (int k = 0; k < N; ++k)
    CHECK(fabs(w[k] - ref[k]) <= tol, "%s: eigenvalue %d: %.12g vs LAPACK %.12g", what, k, w[k],
          ref[k]);
  free(H);
  free(S);
}

/* Only the UPLO = 'L' triangle is read: NaN above it must not matter. */
static double complex h_lower(int i, int j, int cplx) {
  return i >= j ? h_entry(i, j, cplx) : NAN;
}

/* pdsyevd and tseig_pdsyevd on the same descriptors. */
static void compare_pdsyevd(int ctxt, const layout_t* l) {
  int desc[9];
  descriptor(desc, l, ctxt);
  double *a = alloc_local('d', l), *z = alloc_local('d', l), ws[N], wt[N];
  int info = 0, lwork = -1, liwork = -1, iwork_query = 0;
  double work_query = 0;
  fill_local(a, 'd', l, h_entry);
  pdsyevd_("V", "U", &(int){N}, a, &one, &one, desc, ws, z, &one, &one, desc, &work_query, &lwork,
           &iwork_query, &liwork, &info, 1, 1);
  lwork = (int)work_query;
  liwork = iwork_query;
  double* work = malloc(lwork * sizeof(double));
  int* iwork = malloc(liwork * sizeof(int));
  pdsyevd_("V", "U", &(int){N}, a, &one, &one, desc, ws, z, &one, &one, desc, work, &lwork, iwork,
           &liwork, &info, 1, 1);
  CHECK(info == 0, "ScaLAPACK pdsyevd info %d", info);

  /* The same call with tseig_ prepended, workspace query included. */
  work_query = 0;
  iwork_query = 0;
  tseig_pdsyevd("V", "U", &(int){N}, a, &one, &one, desc, wt, z, &one, &one, desc, &work_query,
                &(int){-1}, &iwork_query, &(int){-1}, &info);
  CHECK(info == 0 && work_query == 1 && iwork_query == 1, "workspace query: info %d", info);
  fill_local(a, 'd', l, h_entry);
  tseig_pdsyevd("V", "U", &(int){N}, a, &one, &one, desc, wt, z, &one, &one, desc, work, &lwork,
                iwork, &liwork, &info);
  CHECK(info == 0, "tseig_pdsyevd info %d: %s", info, tseig_last_error_message(NULL));
  for (int k = 0; k < N; ++k)
    CHECK(fabs(wt[k] - ws[k]) <= 1e-12 * max_abs(ws, N), "pdsyevd eigenvalue %d: %.15g vs %.15g", k,
          wt[k], ws[k]);
  check_vectors("tseig_pdsyevd", 'd', z, l, wt, h_entry, NULL, MPI_COMM_WORLD);

  fill_local(a, 'd', l, h_lower);
  tseig_pdsyevd("N", "L", &(int){N}, a, &one, &one, desc, wt, NULL, &one, &one, NULL, work, &lwork,
                iwork, &liwork, &info);
  CHECK(info == 0, "tseig_pdsyevd JOBZ=N UPLO=L info %d: %s", info, tseig_last_error_message(NULL));
  for (int k = 0; k < N; ++k)
    CHECK(fabs(wt[k] - ws[k]) <= 1e-12 * max_abs(ws, N), "JOBZ=N eigenvalue %d: %.15g vs %.15g", k,
          wt[k], ws[k]);
  free(a);
  free(z);
  free(work);
  free(iwork);
}

static void compare_pzheevd(int ctxt, const layout_t* l) {
  int desc[9];
  descriptor(desc, l, ctxt);
  double complex *a = alloc_local('z', l), *z = alloc_local('z', l), wq;
  double ws[N], wt[N], rq;
  int info = 0, lwork = -1, lrwork = -1, liwork = -1, iq;
  fill_local(a, 'z', l, h_entry);
  pzheevd_("V", "L", &(int){N}, a, &one, &one, desc, ws, z, &one, &one, desc, &wq, &lwork, &rq,
           &lrwork, &iq, &liwork, &info, 1, 1);
  lwork = (int)creal(wq);
  lrwork = (int)rq;
  liwork = iq;
  double complex* work = malloc(lwork * sizeof(double complex));
  double* rwork = malloc(lrwork * sizeof(double));
  int* iwork = malloc(liwork * sizeof(int));
  pzheevd_("V", "L", &(int){N}, a, &one, &one, desc, ws, z, &one, &one, desc, work, &lwork, rwork,
           &lrwork, iwork, &liwork, &info, 1, 1);
  CHECK(info == 0, "ScaLAPACK pzheevd info %d", info);
  fill_local(a, 'z', l, h_entry);
  tseig_pzheevd("V", "L", &(int){N}, a, &one, &one, desc, wt, z, &one, &one, desc, work, &lwork,
                rwork, &lrwork, iwork, &liwork, &info);
  CHECK(info == 0, "tseig_pzheevd info %d: %s", info, tseig_last_error_message(NULL));
  for (int k = 0; k < N; ++k)
    CHECK(fabs(wt[k] - ws[k]) <= 1e-12 * max_abs(ws, N), "pzheevd eigenvalue %d: %.15g vs %.15g", k,
          wt[k], ws[k]);
  check_vectors("tseig_pzheevd", 'z', z, l, wt, h_entry, NULL, MPI_COMM_WORLD);
  free(a);
  free(z);
  free(work);
  free(rwork);
  free(iwork);
}

/* Single precision and generalized drop-ins, any blocking (here MB != NB and the first
 * block off process (0, 0) where the grid allows). */
static void other_dropins(int ctxt, const layout_t* l) {
  int desc[9], info = -99, lw = 1, dummy_i = 0;
  descriptor(desc, l, ctxt);
  double wt[N];
  char what[64];
  for (int k = 0; k < 2; ++k) {
    char t = "fc"[k];
    void *a = alloc_local(t, l), *z = alloc_local(t, l);
    float w[N], dummy[2] = {0, 0};
    fill_local(a, t, l, h_entry);
    if (t == 'f')
      tseig_pssyevd("V", "U", &(int){N}, a, &one, &one, desc, w, z, &one, &one, desc, dummy, &lw,
                    &dummy_i, &lw, &info);
    else
      tseig_pcheevd("V", "U", &(int){N}, a, &one, &one, desc, w, z, &one, &one, desc, a, &lw, dummy,
                    &lw, &dummy_i, &lw, &info);
    snprintf(what, sizeof what, "tseig_p%cs/heevd", t);
    CHECK(info == 0, "%s info %d: %s", what, info, tseig_last_error_message(NULL));
    to_double(w, t, N, wt);
    check_values(what, t, wt, h_entry, NULL);
    check_vectors(what, t, z, l, wt, h_entry, NULL, MPI_COMM_WORLD);
    free(a);
    free(z);
  }
  for (int k = 0; k < 4; ++k) {
    char t = "dzfc"[k];
    void *a = alloc_local(t, l), *b = alloc_local(t, l), *z = alloc_local(t, l);
    double w[N];
    fill_local(a, t, l, h_entry);
    fill_local(b, t, l, s_entry);
    switch (t) {
      case 'd':
        tseig_pdsygvd(&one, "V", "U", &(int){N}, a, &one, &one, desc, b, &one, &one, desc, w, z,
                      &one, &one, desc, &info);
        break;
      case 'z':
        tseig_pzhegvd(&one, "V", "L", &(int){N}, a, &one, &one, desc, b, &one, &one, desc, w, z,
                      &one, &one, desc, &info);
        break;
      case 'f':
        tseig_pssygvd(&one, "V", "U", &(int){N}, a, &one, &one, desc, b, &one, &one, desc,
                      (float*)w, z, &one, &one, desc, &info);
        break;
      default:
        tseig_pchegvd(&one, "V", "L", &(int){N}, a, &one, &one, desc, b, &one, &one, desc,
                      (float*)w, z, &one, &one, desc, &info);
    }
    snprintf(what, sizeof what, "generalized drop-in %c", t);
    CHECK(info == 0, "%s info %d: %s", what, info, tseig_last_error_message(NULL));
    to_double(w, t, N, wt);
    check_values(what, t, wt, h_entry, s_entry);
    check_vectors(what, t, z, l, wt, h_entry, s_entry, MPI_COMM_WORLD);
    free(a);
    free(b);
    free(z);
  }
}

static double complex minus_identity(int i, int j, int cplx) {
  return i == j ? -1.0 : 0.0;
}

/* INFO: -(position) for a scalar, -(100 position + field) for a descriptor; 16 for a B that
 * is not positive definite; the same on every rank; a message for each. */
static void info_codes(int ctxt, const layout_t* l) {
  int desc[9], bad[9], info = 0, lw = 1, iw = 0;
  descriptor(desc, l, ctxt);
  double *a = alloc_local('d', l), *b = alloc_local('d', l), *z = alloc_local('d', l), w[N];
  double work[1];
  struct {
    const char *jobz, *uplo;
    int ia, field, value, want;
  } cases[] = {
      {"X", "U", 1, 0, 0, -1},   {"V", "X", 1, 0, 0, -2},   {"V", "U", 2, 0, 0, -5},
      {"V", "U", 1, 9, 0, -709}, {"V", "U", 1, 1, 2, -701}, {"V", "U", 1, 3, N - 1, -703},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    memcpy(bad, desc, sizeof desc);
    if (cases[k].field) bad[cases[k].field - 1] = cases[k].value;
    fill_local(a, 'd', l, h_entry);
    tseig_pdsyevd(cases[k].jobz, cases[k].uplo, &(int){N}, a, &cases[k].ia, &one, bad, w, z, &one,
                  &one, desc, work, &lw, &iw, &lw, &info);
    CHECK(info == cases[k].want, "INFO case %zu: %d, want %d (%s)", k, info, cases[k].want,
          tseig_last_error_message(NULL));
    CHECK(strlen(tseig_last_error_message(NULL)) > 0, "INFO case %zu: no message", k);
  }
  /* A descriptor error on one rank only is reported on all. */
  memcpy(bad, desc, sizeof desc);
  if (rank == size - 1) bad[8] = 0;
  tseig_pdsyevd("V", "U", &(int){N}, a, &one, &one, desc, w, z, &one, &one, bad, work, &lw, &iw,
                &lw, &info);
  CHECK(info == -1209, "DESCZ LLD wrong on the last rank: INFO %d, want -1209", info);

  fill_local(a, 'd', l, h_entry);
  fill_local(b, 'd', l, s_entry);
  tseig_pdsygvd(&(int){2}, "V", "U", &(int){N}, a, &one, &one, desc, b, &one, &one, desc, w, z,
                &one, &one, desc, &info);
  CHECK(info == -1, "IBTYPE 2: INFO %d, want -1", info);
  tseig_pdsygvd(&one, "V", "U", &(int){N}, a, &one, &one, desc, b, &(int){3}, &one, desc, w, z,
                &one, &one, desc, &info);
  CHECK(info == -10, "IB 3: INFO %d, want -10", info);
  fill_local(b, 'd', l, minus_identity);
  tseig_pdsygvd(&one, "V", "U", &(int){N}, a, &one, &one, desc, b, &one, &one, desc, w, z, &one,
                &one, desc, &info);
  CHECK(info == 16, "B = -I: INFO %d, want 16 (%s)", info, tseig_last_error_message(NULL));
  free(a);
  free(b);
  free(z);
}

/* A BLACS grid on all processes but the last: the last one is outside the grid (context
 * -1) and returns at once, the others solve among themselves. */
static void subset_grid(void) {
  int ctxt = -1, nprow = 0, npcol = 0, myrow = -1, mycol = -1, info = 0, lw = 1, iw = 0;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", 1, size - 1);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  const int member = myrow >= 0;
  MPI_Comm members;
  MPI_Comm_split(MPI_COMM_WORLD, member, rank, &members);
  layout_t l = make_layout(N, N, NB, NB, 1, size - 1, member ? myrow : 0, member ? mycol : 0);
  int desc[9];
  descriptor(desc, &l, member ? ctxt : -1);
  double *a = alloc_local('d', &l), *z = alloc_local('d', &l), w[N], work[1];
  fill_local(a, 'd', &l, h_entry);
  tseig_pdsyevd("V", "U", &(int){N}, a, &one, &one, desc, w, z, &one, &one, desc, work, &lw, &iw,
                &lw, &info);
  if (member) {
    CHECK(info == 0, "subset grid: INFO %d (%s)", info, tseig_last_error_message(NULL));
    check_values("subset grid", 'd', w, h_entry, NULL);
    check_vectors("subset grid", 'd', z, &l, w, h_entry, NULL, members);
    Cblacs_gridexit(ctxt);
  } else {
    CHECK(info == -702, "outside the grid: INFO %d, want -702", info);
  }
  MPI_Comm_free(&members);
  free(a);
  free(z);
}

/* Programs without tseig's module call the drop-ins by their Fortran external names:
 * each must be exported and be the C function itself (they were local symbols, and such
 * a program did not link). */
static void fortran_external_names(void) {
  static const char* names[] = {"tseig_pdsyevd", "tseig_pssyevd", "tseig_pzheevd", "tseig_pcheevd",
                                "tseig_pdsyevr", "tseig_pssyevr", "tseig_pzheevr", "tseig_pcheevr",
                                "tseig_pdsygvd", "tseig_pssygvd", "tseig_pzhegvd", "tseig_pchegvd"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
    char fortran[64];
    snprintf(fortran, sizeof fortran, "%s_", names[k]);
    void* c = dlsym(RTLD_DEFAULT, names[k]);
    void* f = dlsym(RTLD_DEFAULT, fortran);
    CHECK(c && f == c, "%s is %s", fortran, f ? "not the C function" : "not exported");
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int nprow, npcol, ctxt = -1, myrow, mycol;
  grid_shape(size, &nprow, &npcol);
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", nprow, npcol);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

  layout_t square = make_layout(N, N, NB, NB, nprow, npcol, myrow, mycol);
  compare_pdsyevd(ctxt, &square);
  compare_pzheevd(ctxt, &square);
  layout_t ragged = make_layout_src(N, N, 5, 3, nprow - 1, npcol - 1, nprow, npcol, myrow, mycol);
  other_dropins(ctxt, &ragged);
  info_codes(ctxt, &square);
  fortran_external_names();
  if (size >= 3) subset_grid();
  Cblacs_gridexit(ctxt);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_capi_dropin on %d ranks: %s (%d failed checks)\n", size,
           total == 0 ? "OK" : "FAILED", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
