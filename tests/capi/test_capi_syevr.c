/* Subset drop-in test: tseig_p?syevr / tseig_p?heevr against ScaLAPACK's own p?syevr /
 * p?heevr on the same descriptors, for d, f, z, c, RANGE 'A', 'I' (first, last, a middle
 * window) and 'V' (a window, an empty interval), JOBZ 'V' and 'N'; the workspace query; a
 * 0 x 0 matrix; INFO for wrong selections on every rank. Exit status 0 iff all pass. */
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
/* ScaLAPACK's drivers (hidden CHARACTER lengths last). */
void pdsyevr_(const char*, const char*, const char*, const int*, double*, const int*, const int*,
              const int*, const double*, const double*, const int*, const int*, int*, int*, double*,
              double*, const int*, const int*, const int*, double*, const int*, int*, const int*,
              int*, size_t, size_t, size_t);
void pssyevr_(const char*, const char*, const char*, const int*, float*, const int*, const int*,
              const int*, const float*, const float*, const int*, const int*, int*, int*, float*,
              float*, const int*, const int*, const int*, float*, const int*, int*, const int*,
              int*, size_t, size_t, size_t);
void pzheevr_(const char*, const char*, const char*, const int*, double complex*, const int*,
              const int*, const int*, const double*, const double*, const int*, const int*, int*,
              int*, double*, double complex*, const int*, const int*, const int*, double complex*,
              const int*, double*, const int*, int*, const int*, int*, size_t, size_t, size_t);
void pcheevr_(const char*, const char*, const char*, const int*, float complex*, const int*,
              const int*, const int*, const float*, const float*, const int*, const int*, int*,
              int*, float*, float complex*, const int*, const int*, const int*, float complex*,
              const int*, float*, const int*, int*, const int*, int*, size_t, size_t, size_t);

enum { N = 41, NB = 4 };
static const int one = 1;
static int size;

/* One selection: RANGE with its bounds. */
typedef struct {
  char range;
  double vl, vu;
  int il, iu;
  const char* what;
} selection_t;

/* The workspace sizes a driver asks for (a query), as ints. */
typedef struct {
  int lwork, lrwork, liwork;
} workspace_t;

/* p?syevr / p?heevr of type t, ScaLAPACK's (peer = 1) or tseig's, with workspace of
 * ws's sizes (ws->lwork = -1: a query whose answers go back into ws). Returns INFO. */
static int syevr(int peer, char t, const char* jobz, const selection_t* s, void* a, const int* desc,
                 int* m, int* nz, double* w, void* z, workspace_t* ws) {
  const int n = desc[2], query = ws->lwork == -1;
  int info = 0, lw = query ? -1 : ws->lwork, lr = query ? -1 : ws->lrwork;
  int li = query ? -1 : ws->liwork, il = s->il, iu = s->iu;
  const char* range = s->range == 'A' ? "A" : s->range == 'V' ? "V" : s->range == 'I' ? "I" : "X";
  const int wants = query ? 1 : 1 + lw;
  double complex* work = calloc(wants > 1 ? (size_t)wants : 2, sizeof(double complex));
  double* rwork = calloc(query ? 2 : (size_t)lr + 1, sizeof(double));
  int* iwork = calloc(query ? 2 : (size_t)li + 1, sizeof(int));
  float wf[N], vlf = (float)s->vl, vuf = (float)s->vu;
  switch (t) {
    case 'd':
      (peer ? (void)pdsyevr_(jobz, range, "U", &n, a, &one, &one, desc, &s->vl, &s->vu, &il, &iu, m,
                             nz, w, z, &one, &one, desc, (double*)work, &lw, iwork, &li, &info, 1,
                             1, 1)
            : tseig_pdsyevr(jobz, range, "U", &n, a, &one, &one, desc, &s->vl, &s->vu, &il, &iu, m,
                            nz, w, z, &one, &one, desc, (double*)work, &lw, iwork, &li, &info));
      if (query) ws->lwork = (int)((double*)work)[0];
      break;
    case 'f':
      (peer ? (void)pssyevr_(jobz, range, "L", &n, a, &one, &one, desc, &vlf, &vuf, &il, &iu, m, nz,
                             wf, z, &one, &one, desc, (float*)work, &lw, iwork, &li, &info, 1, 1, 1)
            : tseig_pssyevr(jobz, range, "L", &n, a, &one, &one, desc, &vlf, &vuf, &il, &iu, m, nz,
                            wf, z, &one, &one, desc, (float*)work, &lw, iwork, &li, &info));
      if (query) ws->lwork = (int)((float*)work)[0];
      break;
    case 'z':
      (peer ? (void)pzheevr_(jobz, range, "L", &n, a, &one, &one, desc, &s->vl, &s->vu, &il, &iu, m,
                             nz, w, z, &one, &one, desc, work, &lw, rwork, &lr, iwork, &li, &info,
                             1, 1, 1)
            : tseig_pzheevr(jobz, range, "L", &n, a, &one, &one, desc, &s->vl, &s->vu, &il, &iu, m,
                            nz, w, z, &one, &one, desc, work, &lw, rwork, &lr, iwork, &li, &info));
      if (query) ws->lwork = (int)creal(work[0]);
      break;
    default:
      (peer ? (void)pcheevr_(jobz, range, "U", &n, a, &one, &one, desc, &vlf, &vuf, &il, &iu, m, nz,
                             wf, z, &one, &one, desc, (float complex*)work, &lw, (float*)rwork, &lr,
                             iwork, &li, &info, 1, 1, 1)
            : tseig_pcheevr(jobz, range, "U", &n, a, &one, &one, desc, &vlf, &vuf, &il, &iu, m, nz,
                            wf, z, &one, &one, desc, (float complex*)work, &lw, (float*)rwork, &lr,
                            iwork, &li, &info));
      if (query) ws->lwork = (int)crealf(((float complex*)work)[0]);
  }
  if (query) {
    ws->liwork = iwork[0];
    ws->lrwork = t == 'z' ? (int)rwork[0] : t == 'c' ? (int)((float*)rwork)[0] : 0;
  }
  if ((t == 'f' || t == 'c') && !query && info == 0)
    for (int k = 0; k < *m; ++k) w[k] = wf[k];
  free(work);
  free(rwork);
  free(iwork);
  return info;
}

static double tolerance(char t) {
  return 100.0 * sqrt((double)N) * type_eps(t);
}

/* One selection, one JOBZ, one type: ScaLAPACK first, then tseig on the same input. */
static void compare(char t, const char* jobz, const selection_t* s, const layout_t* l,
                    const int* desc, const double* ref, double scale) {
  void *a = alloc_local(t, l), *z = alloc_local(t, l);
  double ws[N], wt[N];
  int ms = -1, mt = -1, nzs = -1, nzt = -7;
  workspace_t query = {-1, -1, -1};
  fill_local(a, t, l, h_entry);
  int info = syevr(1, t, jobz, s, a, desc, &ms, &nzs, ws, z, &query);
  CHECK(info == 0, "%c ScaLAPACK query: INFO %d", t, info);
  workspace_t sizes = query;
  info = syevr(1, t, jobz, s, a, desc, &ms, &nzs, ws, z, &sizes);
  CHECK(info == 0, "%c %s JOBZ=%s: ScaLAPACK INFO %d", t, s->what, jobz, info);

  workspace_t mine = {-1, -1, -1};
  info = syevr(0, t, jobz, s, a, desc, &mt, &nzt, wt, z, &mine);
  CHECK(info == 0 && mine.lwork == 1 && mine.liwork == 1 && (!is_complex(t) || mine.lrwork == 1),
        "%c tseig workspace query: INFO %d, sizes %d %d %d", t, info, mine.lwork, mine.lrwork,
        mine.liwork);
  fill_local(a, t, l, h_entry);
  info = syevr(0, t, jobz, s, a, desc, &mt, &nzt, wt, z, &sizes);
  CHECK(info == 0, "%c %s JOBZ=%s: tseig INFO %d (%s)", t, s->what, jobz, info,
        tseig_last_error_message(NULL));
  CHECK(mt == ms, "%c %s JOBZ=%s: M = %d, ScaLAPACK's %d", t, s->what, jobz, mt, ms);
  if (jobz[0] == 'V') CHECK(nzt == mt, "%c %s: NZ = %d, M = %d", t, s->what, nzt, mt);
  if (jobz[0] == 'N') CHECK(nzt == -7, "%c %s JOBZ=N: NZ written (%d)", t, s->what, nzt);
  const int first = s->range == 'I' ? s->il - 1 : 0;
  for (int k = 0; info == 0 && k < mt && k < ms; ++k) {
    CHECK(fabs(wt[k] - ws[k]) <= tolerance(t) * scale, "%c %s JOBZ=%s: w[%d] %.12g vs %.12g", t,
          s->what, jobz, k, wt[k], ws[k]);
    if (s->range != 'V')
      CHECK(fabs(wt[k] - ref[first + k]) <= tolerance(t) * scale,
            "%c %s: w[%d] %.12g vs LAPACK %.12g", t, s->what, k, wt[k], ref[first + k]);
  }
  if (jobz[0] == 'V' && info == 0 && mt > 0) {
    double complex* H = full_matrix(N, h_entry, is_complex(t));
    double complex* Z = gather_full(z, t, l, MPI_COMM_WORLD);
    double res = residual(H, NULL, Z, wt, N, mt), orth = orthogonality(NULL, Z, N, mt);
    CHECK(res <= tolerance(t), "%c %s: residual %.3g", t, s->what, res);
    CHECK(orth <= tolerance(t), "%c %s: orthogonality %.3g", t, s->what, orth);
    free(H);
    free(Z);
  }
  free(a);
  free(z);
}

/* Any blocking (MB != NB, first block off process (0, 0)), which ScaLAPACK's p?syevr
 * refuses: tseig's RANGE = 'I' against LAPACK. */
static void ragged(int ctxt, int nprow, int npcol, int myrow, int mycol) {
  layout_t l = make_layout_src(N, N, 5, 3, nprow - 1, npcol - 1, nprow, npcol, myrow, mycol);
  int desc[9] = {1, ctxt, N, N, 5, 3, nprow - 1, npcol - 1, l.lld}, m = -1, nz = -1;
  double ref[N], w[N];
  double complex* H = full_matrix(N, h_entry, 1);
  lapack_eigenvalues(H, NULL, N, ref);
  void *a = alloc_local('z', &l), *z = alloc_local('z', &l);
  fill_local(a, 'z', &l, h_entry);
  selection_t s = {'I', 0, 0, 3, 11, "ragged IL..IU = 3..11"};
  workspace_t ws = {1, 1, 1};
  int info = syevr(0, 'z', "V", &s, a, desc, &m, &nz, w, z, &ws);
  CHECK(info == 0 && m == 9 && nz == 9, "%s: INFO %d, M %d, NZ %d (%s)", s.what, info, m, nz,
        tseig_last_error_message(NULL));
  if (info == 0 && m == 9) {
    const double scale = fmax(fabs(ref[0]), fabs(ref[N - 1]));
    for (int k = 0; k < m; ++k)
      CHECK(fabs(w[k] - ref[2 + k]) <= tolerance('z') * scale, "%s: w[%d] %.12g vs %.12g", s.what,
            k, w[k], ref[2 + k]);
    double complex* Z = gather_full(z, 'z', &l, MPI_COMM_WORLD);
    CHECK(residual(H, NULL, Z, w, N, m) <= tolerance('z'), "%s: residual", s.what);
    CHECK(orthogonality(NULL, Z, N, m) <= tolerance('z'), "%s: orthogonality", s.what);
    free(Z);
  }
  free(H);
  free(a);
  free(z);
}

/* Wrong selections: p?syevr's INFO on every rank, with a message. */
static void info_codes(const layout_t* l, const int* desc) {
  double* a = alloc_local('d', l);
  double w[N];
  int m = 0, nz = 0, info = 0;
  struct {
    selection_t s;
    const char* jobz;
    int want;
  } cases[] = {
      {{'I', 0, 0, 5, 3, "IL > IU"}, "V", -12},    {{'I', 0, 0, 0, 3, "IL = 0"}, "V", -11},
      {{'I', 0, 0, 1, N + 1, "IU > N"}, "N", -12}, {{'V', 1, 1, 0, 0, "VL = VU"}, "V", -10},
      {{'V', 2, 1, 0, 0, "VL > VU"}, "N", -10},    {{'X', 0, 0, 0, 0, "RANGE X"}, "V", -2},
      {{'I', 0, 0, 1, 1, "JOBZ X"}, "X", -1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    fill_local(a, 'd', l, h_entry);
    workspace_t ws = {1, 1, 1};
    info = syevr(0, 'd', cases[k].jobz, &cases[k].s, a, desc, &m, &nz, w, a, &ws);
    CHECK(info == cases[k].want, "%s: INFO %d, want %d (%s)", cases[k].s.what, info, cases[k].want,
          tseig_last_error_message(NULL));
    CHECK(strlen(tseig_last_error_message(NULL)) > 0, "%s: no message", cases[k].s.what);
  }
  /* A bad IL on one rank only is reported on all. */
  selection_t s = {'I', 0, 0, rank == size - 1 ? 0 : 1, 3, "IL = 0 on the last rank"};
  workspace_t ws = {1, 1, 1};
  info = syevr(0, 'd', "N", &s, a, desc, &m, &nz, w, NULL, &ws);
  CHECK(info == -11, "%s: INFO %d, want -11", s.what, info);
  /* N = 0 with IL = 1, IU = 0 is valid and finds nothing. */
  s = (selection_t){'I', 0, 0, 1, 0, "N = 0"};
  int zero[9];
  memcpy(zero, desc, sizeof zero);
  zero[2] = zero[3] = 0;
  zero[8] = 1;
  m = nz = -1;
  double work = 0;
  int iwork = 0;
  tseig_pdsyevr("V", "I", "U", &(int){0}, a, &one, &one, zero, &s.vl, &s.vu, &s.il, &s.iu, &m, &nz,
                w, a, &one, &one, zero, &work, &one, &iwork, &one, &info);
  CHECK(info == 0 && m == 0 && nz == 0, "N = 0: INFO %d, M %d, NZ %d (%s)", info, m, nz,
        tseig_last_error_message(NULL));
  free(a);
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
  layout_t l = make_layout(N, N, NB, NB, nprow, npcol, myrow, mycol);
  int desc[9] = {1, ctxt, N, N, NB, NB, 0, 0, l.lld};

  for (int k = 0; k < 4; ++k) {
    const char t = "dfzc"[k];
    double complex* H = full_matrix(N, h_entry, is_complex(t));
    double ref[N];
    lapack_eigenvalues(H, NULL, N, ref);
    free(H);
    const double scale = fmax(fabs(ref[0]), fabs(ref[N - 1]));
    /* Value bounds halfway between eigenvalues, so that rounding cannot move one across. */
    const double mid4 = 0.5 * (ref[4] + ref[5]), mid20 = 0.5 * (ref[20] + ref[21]);
    const double gap = ref[5] - ref[4];
    const selection_t selections[] = {
        {'A', 0, 0, 0, 0, "all"},
        {'I', 0, 0, 1, 1, "IL = IU = 1"},
        {'I', 0, 0, N, N, "IL = IU = N"},
        {'I', 0, 0, 9, 27, "IL..IU = 9..27"},
        {'V', mid4, mid20, 0, 0, "(VL, VU] around 6..21"},
        {'V', mid4 - 0.1 * gap, mid4 + 0.1 * gap, 0, 0, "empty (VL, VU]"},
    };
    for (size_t s = 0; s < sizeof selections / sizeof selections[0]; ++s) {
      compare(t, "V", &selections[s], &l, desc, ref, scale);
      compare(t, "N", &selections[s], &l, desc, ref, scale);
    }
  }
  ragged(ctxt, nprow, npcol, myrow, mycol);
  info_codes(&l, desc);
  Cblacs_gridexit(ctxt);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_capi_syevr on %d ranks: %s (%d failed checks)\n", size,
           total == 0 ? "OK" : "FAILED", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
