/* C API bad-input test: NULL data pointers (handle entry points of all four types and the
 * drop-ins), invalid communicators, and layout parameters missing on some ranks only. Each
 * must give the same error code and message on every rank: never a crash, an abort of the
 * job or a hang. A NULL array where a rank holds none of it stays legal. Exit status 0 iff
 * all checks pass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_capi_util.h"
#include "tseig/tseig.h"

void Cblacs_get(int ctxt, int what, int* val);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int ctxt);

enum { N = 29, NB = 4 };
static int size, nprow, npcol, last;

/* f_d, f_f, f_z or f_c by type letter; void* arguments convert to each. */
#define TYPED(t, f, ...)             \
  ((t) == 'd'   ? f##_d(__VA_ARGS__) \
   : (t) == 'f' ? f##_f(__VA_ARGS__) \
   : (t) == 'z' ? f##_z(__VA_ARGS__) \
                : f##_c(__VA_ARGS__))

/* Hash of a message, to see that every rank got the same one. */
static int text_hash(const char* s) {
  unsigned h = 5381;
  for (; *s; ++s) h = h * 33u + (unsigned char)*s;
  return (int)(h & 0x7fffffff);
}

/* Same value on every rank of MPI_COMM_WORLD. */
static int agreed(int value) {
  int lo = 0, hi = 0;
  MPI_Allreduce(&value, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* Collective (every rank calls it in the same order): err must be want on this rank, and
 * the code and message the same on every rank; the message must contain `contains` (NULL:
 * anything). Local calls (create, destroy) use CHECK. */
static void expect(tseig_handle_t* h, int err, int want, const char* contains, const char* what) {
  const char* msg = tseig_last_error_message(h);
  CHECK(err == want, "%s: got %d (%s) want %d; message: %s", what, err, tseig_strerror(err), want,
        msg);
  if (contains)
    CHECK(strstr(msg, contains) != NULL, "%s: message '%s' lacks '%s'", what, msg, contains);
  CHECK(agreed(err), "%s: ranks returned different codes (%d here)", what, err);
  CHECK(agreed(text_hash(msg)), "%s: ranks returned different messages ('%s' here)", what, msg);
}

/* The INFO of a drop-in: want on every rank, tseig_last_error_message(NULL) naming it. */
static void expect_info(int info, int want, const char* contains, const char* what) {
  expect(NULL, info, want, want ? contains : NULL, what);
}

static layout_t grid_layout(int n) {
  return make_layout(n, n, NB, NB, nprow, npcol, rank / npcol, rank % npcol);
}

/* Layout parameters of l set, the process grid by position, not set up. */
static tseig_handle_t* unset_handle(const layout_t* l) {
  tseig_handle_t* h = NULL;
  CHECK(tseig_create(&h) == TSEIG_OK, "create");
  tseig_set_int(h, "na", l->n);
  tseig_set_int(h, "nblk", NB);
  tseig_set_int(h, "local_nrows", l->lld);
  tseig_set_int(h, "local_ncols", l->cols);
  tseig_set_comm(h, MPI_COMM_WORLD);
  tseig_set_int(h, "process_row", l->myrow);
  tseig_set_int(h, "process_col", l->mycol);
  return h;
}

static tseig_handle_t* make_handle(const layout_t* l) {
  tseig_handle_t* h = unset_handle(l);
  expect(h, tseig_setup(h), TSEIG_OK, NULL, "setup");
  return h;
}

/* NULL arrays at every handle entry point of type t: on every rank, then on the last only. */
static void null_arrays(char t) {
  char what[96];
  layout_t l = grid_layout(N);
  tseig_handle_t* h = make_handle(&l);
  void *a = alloc_local(t, &l), *b = alloc_local(t, &l), *q = alloc_local(t, &l);
  void* ev = calloc(N, sizeof(double));
  const int bad = TSEIG_ERROR_INVALID_ARGUMENT;
  fill_local(a, t, &l, h_entry);
  fill_local(b, t, &l, s_entry);
#define EXPECT_NULL(call, name)                                             \
  do {                                                                      \
    snprintf(what, sizeof what, "%c: line %d: %s NULL", t, __LINE__, name); \
    expect(h, call, bad, name " is NULL on rank", what);                    \
  } while (0)
  EXPECT_NULL(TYPED(t, tseig_eigenvectors, h, NULL, ev, q), "a");
  EXPECT_NULL(TYPED(t, tseig_eigenvectors, h, a, NULL, q), "ev");
  EXPECT_NULL(TYPED(t, tseig_eigenvectors, h, a, ev, NULL), "q");
  EXPECT_NULL(TYPED(t, tseig_eigenvalues, h, NULL, ev), "a");
  EXPECT_NULL(TYPED(t, tseig_eigenvalues, h, a, NULL), "ev");
  EXPECT_NULL(TYPED(t, tseig_generalized_eigenvectors, h, NULL, b, ev, q, 0), "a");
  EXPECT_NULL(TYPED(t, tseig_generalized_eigenvectors, h, a, NULL, ev, q, 0), "b");
  EXPECT_NULL(TYPED(t, tseig_generalized_eigenvectors, h, a, b, NULL, q, 0), "ev");
  EXPECT_NULL(TYPED(t, tseig_generalized_eigenvectors, h, a, b, ev, NULL, 0), "q");
  EXPECT_NULL(TYPED(t, tseig_generalized_eigenvalues, h, a, NULL, ev, 0), "b");
  EXPECT_NULL(TYPED(t, tseig_generalized_eigenvalues, h, a, b, NULL, 0), "ev");
  EXPECT_NULL(TYPED(t, tseig_cholesky, h, NULL), "a");
  EXPECT_NULL(TYPED(t, tseig_invert_triangular, h, NULL), "a");
  EXPECT_NULL(
      TYPED(t, tseig_hermitian_multiply, h, 'F', 'F', N, NULL, b, l.lld, l.cols, q, l.lld, l.cols),
      "a");
  EXPECT_NULL(
      TYPED(t, tseig_hermitian_multiply, h, 'F', 'F', N, a, NULL, l.lld, l.cols, q, l.lld, l.cols),
      "b");
  EXPECT_NULL(
      TYPED(t, tseig_hermitian_multiply, h, 'F', 'F', N, a, b, l.lld, l.cols, NULL, l.lld, l.cols),
      "c");
#undef EXPECT_NULL
  /* NULL on the last rank only: the other ranks must not wait for it, nor go on alone. */
  char on_last[48];
  snprintf(on_last, sizeof on_last, "q is NULL on rank %d", last);
  snprintf(what, sizeof what, "%c: q NULL on the last rank", t);
  expect(h, TYPED(t, tseig_eigenvectors, h, a, ev, rank == last ? NULL : q), bad, on_last, what);
  snprintf(on_last, sizeof on_last, "b is NULL on rank %d", last);
  snprintf(what, sizeof what, "%c: b NULL on the last rank", t);
  expect(h, TYPED(t, tseig_generalized_eigenvalues, h, a, rank == last ? NULL : b, ev, 0), bad,
         on_last, what);
  /* The handle still works. */
  fill_local(a, t, &l, h_entry);
  snprintf(what, sizeof what, "%c: solve after the NULL errors", t);
  expect(h, TYPED(t, tseig_eigenvectors, h, a, ev, q), TSEIG_OK, NULL, what);
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");
  free(a);
  free(b);
  free(q);
  free(ev);
}

/* A NULL local array is legal where a rank holds none of it: na = 3 < nblk leaves
 * everything on process (0, 0). */
static void null_where_empty(char t) {
  char what[64];
  const int n = 3;
  layout_t l = grid_layout(n);
  const int empty = l.rows == 0 || l.cols == 0;
  tseig_handle_t* h = make_handle(&l);
  void *a = empty ? NULL : alloc_local(t, &l), *b = empty ? NULL : alloc_local(t, &l);
  void* q = empty ? NULL : alloc_local(t, &l);
  double ev_storage[3] = {0, 0, 0}, ref[3], w[3];
  void* ev = ev_storage;
  if (!empty) fill_local(a, t, &l, h_entry);
  snprintf(what, sizeof what, "%c: NULL a, q where empty", t);
  expect(h, TYPED(t, tseig_eigenvectors, h, a, ev, q), TSEIG_OK, NULL, what);
  double complex* H = full_matrix(n, h_entry, is_complex(t));
  lapack_eigenvalues(H, NULL, n, ref);
  to_double(ev, t, n, w);
  for (int k = 0; k < n; ++k)
    CHECK(fabs(w[k] - ref[k]) <= 1e-4 * (1 + fabs(ref[k])), "%s: eigenvalue %d: %g vs %g", what, k,
          w[k], ref[k]);
  if (!empty) {
    fill_local(a, t, &l, h_entry);
    fill_local(b, t, &l, s_entry);
  }
  snprintf(what, sizeof what, "%c: generalized, NULL a, b where empty", t);
  expect(h, TYPED(t, tseig_generalized_eigenvalues, h, a, b, ev, 0), TSEIG_OK, NULL, what);
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");
  free(H);
  free(a);
  free(b);
  free(q);
}

/* The drop-ins: NULL arrays are argument errors (INFO = -position) on every rank. */
static void null_dropins(void) {
  int ctxt = -1, info = 0;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", nprow, npcol);
  layout_t l = grid_layout(N);
  const int n = N, one = 1, il = 1, iu = 5;
  const double vl = -1e9, vu = 1e9;
  int desc[9] = {1, ctxt, N, N, NB, NB, 0, 0, l.lld}, m = 0, nz = 0;
  void *a = alloc_local('z', &l), *b = alloc_local('z', &l), *z = alloc_local('z', &l);
  double w[N];
  void* a_last = rank == last ? NULL : a;
  fill_local(a, 'd', &l, h_entry);
  tseig_pdsyevd("V", "L", &n, NULL, &one, &one, desc, w, z, &one, &one, desc, NULL, NULL, NULL,
                NULL, &info);
  expect_info(info, -4, "A is NULL", "pdsyevd A NULL");
  tseig_pdsyevd("V", "L", &n, a, &one, &one, desc, NULL, z, &one, &one, desc, NULL, NULL, NULL,
                NULL, &info);
  expect_info(info, -8, "W is NULL", "pdsyevd W NULL");
  tseig_pdsyevd("V", "L", &n, a, &one, &one, desc, w, NULL, &one, &one, desc, NULL, NULL, NULL,
                NULL, &info);
  expect_info(info, -9, "Z is NULL", "pdsyevd Z NULL");
  tseig_pdsyevd("V", "L", &n, a_last, &one, &one, desc, w, z, &one, &one, desc, NULL, NULL, NULL,
                NULL, &info);
  expect_info(info, -4, "A is NULL", "pdsyevd A NULL on the last rank");
  tseig_pssyevd("V", "L", &n, NULL, &one, &one, desc, (float*)w, z, &one, &one, desc, NULL, NULL,
                NULL, NULL, &info);
  expect_info(info, -4, "A is NULL", "pssyevd A NULL");
  tseig_pzheevd("V", "L", &n, NULL, &one, &one, desc, w, z, &one, &one, desc, NULL, NULL, NULL,
                NULL, NULL, NULL, &info);
  expect_info(info, -4, "A is NULL", "pzheevd A NULL");
  tseig_pcheevd("N", "L", &n, a, &one, &one, desc, NULL, NULL, &one, &one, desc, NULL, NULL, NULL,
                NULL, NULL, NULL, &info);
  expect_info(info, -8, "W is NULL", "pcheevd W NULL");
  /* JOBZ = 'N': Z is not referenced, NULL is fine. */
  fill_local(a, 'd', &l, h_entry);
  tseig_pdsyevd("N", "L", &n, a, &one, &one, desc, w, NULL, &one, &one, desc, NULL, NULL, NULL,
                NULL, &info);
  expect_info(info, 0, NULL, "pdsyevd JOBZ = 'N' with Z NULL");

  tseig_pdsyevr("V", "I", "L", &n, NULL, &one, &one, desc, NULL, NULL, &il, &iu, &m, &nz, w, z,
                &one, &one, desc, NULL, NULL, NULL, NULL, &info);
  expect_info(info, -5, "A is NULL", "pdsyevr A NULL");
  tseig_pdsyevr("V", "V", "L", &n, a, &one, &one, desc, NULL, &vu, NULL, NULL, &m, &nz, w, z, &one,
                &one, desc, NULL, NULL, NULL, NULL, &info);
  expect_info(info, -9, "VL is NULL", "pdsyevr VL NULL");
  tseig_pdsyevr("V", "I", "L", &n, a, &one, &one, desc, NULL, NULL, &il, NULL, &m, &nz, w, z, &one,
                &one, desc, NULL, NULL, NULL, NULL, &info);
  expect_info(info, -12, "IU is NULL", "pdsyevr IU NULL");
  tseig_pdsyevr("V", "I", "L", &n, a, &one, &one, desc, NULL, NULL, &il, &iu, NULL, &nz, w, z, &one,
                &one, desc, NULL, NULL, NULL, NULL, &info);
  expect_info(info, -13, "M is NULL", "pdsyevr M NULL");
  tseig_pdsyevr("V", "A", "L", &n, a, &one, &one, desc, &vl, &vu, NULL, NULL, &m, &nz, NULL, z,
                &one, &one, desc, NULL, NULL, NULL, NULL, &info);
  expect_info(info, -15, "W is NULL", "pdsyevr W NULL");
  tseig_pzheevr("V", "A", "L", &n, a, &one, &one, desc, NULL, NULL, NULL, NULL, &m, &nz, w, NULL,
                &one, &one, desc, NULL, NULL, NULL, NULL, NULL, NULL, &info);
  expect_info(info, -16, "Z is NULL", "pzheevr Z NULL");

  const int itype = 1;
  fill_local(b, 'd', &l, s_entry);
  tseig_pdsygvd(&itype, "V", "L", &n, a, &one, &one, desc, NULL, &one, &one, desc, w, z, &one, &one,
                desc, &info);
  expect_info(info, -9, "B is NULL", "pdsygvd B NULL");
  tseig_pchegvd(&itype, "V", "L", &n, NULL, &one, &one, desc, b, &one, &one, desc, (float*)w, z,
                &one, &one, desc, &info);
  expect_info(info, -5, "A is NULL", "pchegvd A NULL");
  tseig_pzhegvd(&itype, "V", "L", &n, a, &one, &one, desc, b, &one, &one, desc, NULL, z, &one, &one,
                desc, &info);
  expect_info(info, -13, "W is NULL", "pzhegvd W NULL");
  tseig_pssygvd(&itype, "V", "L", &n, a, &one, &one, desc, b, &one, &one, desc, (float*)w, NULL,
                &one, &one, desc, &info);
  expect_info(info, -14, "Z is NULL", "pssygvd Z NULL");
  Cblacs_gridexit(ctxt);
  free(a);
  free(b);
  free(z);
}

/* Invalid communicators: an error code, not an abort of the job. */
static void bad_communicators(void) {
  layout_t l = grid_layout(N);
  tseig_handle_t* h = NULL;
  CHECK(tseig_create(&h) == TSEIG_OK, "create");
  expect(h, tseig_set_comm(h, MPI_COMM_NULL), TSEIG_ERROR_INVALID_ARGUMENT, "MPI_COMM_NULL",
         "set_comm(MPI_COMM_NULL)");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");

  h = unset_handle(&l);
  tseig_set_int(h, "mpi_comm_parent", MPI_Comm_c2f(MPI_COMM_NULL));
  expect(h, tseig_setup(h), TSEIG_ERROR_INVALID_ARGUMENT, "MPI_COMM_NULL",
         "setup with mpi_comm_parent = MPI_COMM_NULL");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");

  h = unset_handle(&l);
  tseig_set_int(h, "mpi_comm_parent", 12345);
  expect(h, tseig_setup(h), TSEIG_ERROR_INVALID_ARGUMENT, "not a valid communicator",
         "setup with mpi_comm_parent = 12345");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");

  /* ELPA's row and column communicators, one of them invalid on the last rank only. */
  MPI_Comm rows = MPI_COMM_NULL, cols = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, l.mycol, l.myrow, &rows);
  MPI_Comm_split(MPI_COMM_WORLD, l.myrow, l.mycol, &cols);
  CHECK(tseig_create(&h) == TSEIG_OK, "create");
  tseig_set_int(h, "na", N);
  tseig_set_int(h, "nblk", NB);
  tseig_set_int(h, "local_nrows", l.lld);
  tseig_set_int(h, "local_ncols", l.cols);
  tseig_set_comm(h, MPI_COMM_WORLD);
  tseig_set_int(h, "mpi_comm_rows", rank == last ? 12345 : MPI_Comm_c2f(rows));
  tseig_set_int(h, "mpi_comm_cols", MPI_Comm_c2f(cols));
  expect(h, tseig_setup(h), TSEIG_ERROR_INVALID_ARGUMENT, "mpi_comm_rows = 12345",
         "setup with mpi_comm_rows invalid on the last rank");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");
  MPI_Comm_free(&rows);
  MPI_Comm_free(&cols);
}

/* Layout parameters missing on the last rank only: every rank returns the error. */
static void missing_on_one_rank(void) {
  char msg[64];
  layout_t l = grid_layout(N);
  tseig_handle_t* h = NULL;
  if (rank == last) {
    CHECK(tseig_create(&h) == TSEIG_OK, "create");
    tseig_set_comm(h, MPI_COMM_WORLD);
  } else {
    h = unset_handle(&l);
  }
  snprintf(msg, sizeof msg, "parameter 'na' is not set on rank %d", last);
  expect(h, tseig_setup(h), TSEIG_ERROR_PARAMETER_NOT_SET, msg, "na missing on the last rank");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");

  /* The grid positions missing on the last rank. */
  h = unset_handle(&l);
  if (rank == last) {
    tseig_destroy(h);
    CHECK(tseig_create(&h) == TSEIG_OK, "create");
    tseig_set_int(h, "na", N);
    tseig_set_int(h, "nblk", NB);
    tseig_set_int(h, "local_nrows", l.lld);
    tseig_set_int(h, "local_ncols", l.cols);
    tseig_set_comm(h, MPI_COMM_WORLD);
  }
  expect(h, tseig_setup(h), TSEIG_ERROR_PARAMETER_NOT_SET, "process_row",
         "process_row missing on the last rank");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");

  /* A BLACS grid, nblk missing on the last rank. */
  int ctxt = -1;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", nprow, npcol);
  CHECK(tseig_create(&h) == TSEIG_OK, "create");
  tseig_set_int(h, "na", N);
  if (rank != last) tseig_set_int(h, "nblk", NB);
  tseig_set_int(h, "local_nrows", l.lld);
  tseig_set_int(h, "local_ncols", l.cols);
  tseig_set_int(h, "blacs_context", ctxt);
  snprintf(msg, sizeof msg, "parameter 'nblk' is not set on rank %d", last);
  expect(h, tseig_setup(h), TSEIG_ERROR_PARAMETER_NOT_SET, msg, "nblk missing on the last rank");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");
  Cblacs_gridexit(ctxt);

  /* Still a local error without any communicator. */
  CHECK(tseig_create(&h) == TSEIG_OK, "create");
  expect(h, tseig_setup(h), TSEIG_ERROR_PARAMETER_NOT_SET, "'na' is not set", "nothing set");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");
}

/* Ranks that call differently (eigenvectors on the last rank, eigenvalues only on the
 * others; JOBZ or RANGE of a drop-in) get one error on every rank. Before, the two kinds
 * of rank ran different collectives and MPI aborted the job (MPI_ERR_TRUNCATE). */
static void calls_differ(void) {
  if (size < 2) return;
  layout_t l = grid_layout(N);
  tseig_handle_t* h = make_handle(&l);
  double *a = alloc_local('d', &l), *q = alloc_local('d', &l), w[N];
  fill_local(a, 'd', &l, h_entry);
  const int err = rank == last ? tseig_eigenvectors_d(h, a, w, q) : tseig_eigenvalues_d(h, a, w);
  expect(h, err, TSEIG_ERROR_INVALID_ARGUMENT, "different calls",
         "eigenvectors on the last rank, eigenvalues on the others");
  fill_local(a, 'd', &l, h_entry);
  expect(h, tseig_eigenvectors_d(h, a, w, q), TSEIG_OK, NULL, "the next call");
  CHECK(tseig_destroy(h) == TSEIG_OK, "destroy");

  int ctxt = -1, info = 0, m = 0, nz = 0;
  const int n = N, one = 1, il = 1, iu = 5;
  const double vl = -1e9, vu = 1e9;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", nprow, npcol);
  int desc[9] = {1, ctxt, N, N, NB, NB, 0, 0, l.lld};
  fill_local(a, 'd', &l, h_entry);
  tseig_pdsyevd(rank == last ? "N" : "V", "L", &n, a, &one, &one, desc, w, q, &one, &one, desc,
                NULL, NULL, NULL, NULL, &info);
  expect_info(info, -1, "argument 1 differs", "pdsyevd JOBZ 'N' on the last rank only");
  fill_local(a, 'd', &l, h_entry);
  tseig_pdsyevr("V", rank == last ? "V" : "I", "L", &n, a, &one, &one, desc, &vl, &vu, &il, &iu, &m,
                &nz, w, q, &one, &one, desc, NULL, NULL, NULL, NULL, &info);
  expect_info(info, -2, "argument 2 differs", "pdsyevr RANGE 'V' on the last rank only");
  Cblacs_gridexit(ctxt);
  free(a);
  free(q);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  grid_shape(size, &nprow, &npcol);
  last = size - 1;

  const char types[] = {'d', 'f', 'z', 'c'};
  for (int k = 0; k < 4; ++k) {
    null_arrays(types[k]);
    null_where_empty(types[k]);
  }
  null_dropins();
  bad_communicators();
  missing_on_one_rank();
  calls_differ();

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_capi_bad_input on %d ranks: %s (%d failed checks)\n", size,
           total == 0 ? "OK" : "FAILED", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
