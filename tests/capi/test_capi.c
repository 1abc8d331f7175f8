/* C API test: standard and generalized problems for d, f, z, c through the handle
 * (nev < N, all solvers, the three ways of describing the grid), the ELPA utilities,
 * and every error code a C caller can provoke. Exit status 0 iff all checks pass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_capi_util.h"
#include "tseig/tseig.h"

void Cblacs_get(int ctxt, int what, int* val);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);

enum { N = 53, NB = 4, NEV = 17 };
static int size, nprow, npcol;

/* Type-generic calls. */
static int eigenvectors(tseig_handle_t* h, char t, void* a, void* ev, void* q) {
  switch (t) {
    case 'd':
      return tseig_eigenvectors_d(h, a, ev, q);
    case 'f':
      return tseig_eigenvectors_f(h, a, ev, q);
    case 'z':
      return tseig_eigenvectors_z(h, a, ev, q);
    default:
      return tseig_eigenvectors_c(h, a, ev, q);
  }
}
static int eigenvalues(tseig_handle_t* h, char t, void* a, void* ev) {
  switch (t) {
    case 'd':
      return tseig_eigenvalues_d(h, a, ev);
    case 'f':
      return tseig_eigenvalues_f(h, a, ev);
    case 'z':
      return tseig_eigenvalues_z(h, a, ev);
    default:
      return tseig_eigenvalues_c(h, a, ev);
  }
}
static int gen_vectors(tseig_handle_t* h, char t, void* a, void* b, void* ev, void* q, int re) {
  switch (t) {
    case 'd':
      return tseig_generalized_eigenvectors_d(h, a, b, ev, q, re);
    case 'f':
      return tseig_generalized_eigenvectors_f(h, a, b, ev, q, re);
    case 'z':
      return tseig_generalized_eigenvectors_z(h, a, b, ev, q, re);
    default:
      return tseig_generalized_eigenvectors_c(h, a, b, ev, q, re);
  }
}
static int gen_values(tseig_handle_t* h, char t, void* a, void* b, void* ev, int re) {
  switch (t) {
    case 'd':
      return tseig_generalized_eigenvalues_d(h, a, b, ev, re);
    case 'f':
      return tseig_generalized_eigenvalues_f(h, a, b, ev, re);
    case 'z':
      return tseig_generalized_eigenvalues_z(h, a, b, ev, re);
    default:
      return tseig_generalized_eigenvalues_c(h, a, b, ev, re);
  }
}
static int cholesky(tseig_handle_t* h, char t, void* a) {
  switch (t) {
    case 'd':
      return tseig_cholesky_d(h, a);
    case 'f':
      return tseig_cholesky_f(h, a);
    case 'z':
      return tseig_cholesky_z(h, a);
    default:
      return tseig_cholesky_c(h, a);
  }
}
static int invert(tseig_handle_t* h, char t, void* a) {
  switch (t) {
    case 'd':
      return tseig_invert_triangular_d(h, a);
    case 'f':
      return tseig_invert_triangular_f(h, a);
    case 'z':
      return tseig_invert_triangular_z(h, a);
    default:
      return tseig_invert_triangular_c(h, a);
  }
}
static int multiply(tseig_handle_t* h, char t, char ua, char uc, const void* a, const void* b,
                    int nrb, int ncb_loc, void* c, int nrc, int ncc) {
  switch (t) {
    case 'd':
      return tseig_hermitian_multiply_d(h, ua, uc, N, a, b, nrb, ncb_loc, c, nrc, ncc);
    case 'f':
      return tseig_hermitian_multiply_f(h, ua, uc, N, a, b, nrb, ncb_loc, c, nrc, ncc);
    case 'z':
      return tseig_hermitian_multiply_z(h, ua, uc, N, a, b, nrb, ncb_loc, c, nrc, ncc);
    default:
      return tseig_hermitian_multiply_c(h, ua, uc, N, a, b, nrb, ncb_loc, c, nrc, ncc);
  }
}

static double tolerance(char t) {
  return 100.0 * sqrt((double)N) * type_eps(t);
}

/* Expects err == want; prints the handle's message otherwise. */
static void expect(tseig_handle_t* h, int err, int want, const char* what) {
  CHECK(err == want, "%s: got %d (%s) want %d; message: %s", what, err, tseig_strerror(err), want,
        tseig_last_error_message(h));
  if (want != TSEIG_OK && h) CHECK(strlen(tseig_last_error_message(h)) > 0, "%s: no message", what);
}

/* Grid modes: how the handle learns the process grid. Mode 0 places ranks column-major,
 * so the handle must reorder them; modes 1 and 2 are row-major. */
enum { BY_POSITION, BY_ROW_COL_COMMS, BY_BLACS };

static layout_t grid_layout(int mode, int m, int n) {
  int myrow = mode == BY_POSITION ? rank % nprow : rank / npcol;
  int mycol = mode == BY_POSITION ? rank / nprow : rank % npcol;
  return make_layout(m, n, NB, NB, nprow, npcol, myrow, mycol);
}

static tseig_handle_t* make_handle(int mode, const layout_t* l) {
  tseig_handle_t* h = NULL;
  expect(NULL, tseig_create(&h), TSEIG_OK, "create");
  expect(h, tseig_set_int(h, "na", N), TSEIG_OK, "set na");
  expect(h, tseig_set_int(h, "nblk", NB), TSEIG_OK, "set nblk");
  expect(h, tseig_set_int(h, "local_nrows", l->lld), TSEIG_OK, "set local_nrows");
  expect(h, tseig_set_int(h, "local_ncols", l->cols), TSEIG_OK, "set local_ncols");
  MPI_Comm rows = MPI_COMM_NULL, cols = MPI_COMM_NULL;
  int ctxt = -1;
  if (mode == BY_BLACS) {
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", nprow, npcol);
    expect(h, tseig_set_int(h, "blacs_context", ctxt), TSEIG_OK, "set blacs_context");
  } else {
    expect(h, tseig_set_comm(h, MPI_COMM_WORLD), TSEIG_OK, "set_comm");
    if (mode == BY_POSITION) {
      expect(h, tseig_set_int(h, "process_row", l->myrow), TSEIG_OK, "set process_row");
      expect(h, tseig_set_int(h, "process_col", l->mycol), TSEIG_OK, "set process_col");
    } else {
      MPI_Comm_split(MPI_COMM_WORLD, l->mycol, l->myrow, &rows);
      MPI_Comm_split(MPI_COMM_WORLD, l->myrow, l->mycol, &cols);
      expect(h, tseig_set_int(h, "mpi_comm_rows", MPI_Comm_c2f(rows)), TSEIG_OK, "rows");
      expect(h, tseig_set_int(h, "mpi_comm_cols", MPI_Comm_c2f(cols)), TSEIG_OK, "cols");
    }
  }
  expect(h, tseig_setup(h), TSEIG_OK, "setup");
  if (rows != MPI_COMM_NULL) MPI_Comm_free(&rows);
  if (cols != MPI_COMM_NULL) MPI_Comm_free(&cols);
  /* The BLACS context stays open: the handle's grid uses it until the handle is gone. */
  return h;
}

static void check_solution(char t, const char* what, const void* ev, const void* q,
                           const layout_t* l, int generalized, double shift) {
  int cplx = is_complex(t);
  double complex* H = full_matrix(N, h_entry, cplx);
  for (int i = 0; i < N; ++i) H[i + (size_t)i * N] += shift;
  double complex* S = generalized ? full_matrix(N, s_entry, cplx) : NULL;
  double w[N], wref[N];
  to_double(ev, t, NEV, w);
  lapack_eigenvalues(H, S, N, wref);
  double scale = fabs(wref[0]) > fabs(wref[N - 1]) ? fabs(wref[0]) : fabs(wref[N - 1]);
  for (int k = 0; k < NEV; ++k)
    CHECK(fabs(w[k] - wref[k]) <= tolerance(t) * scale, "%s %c: eigenvalue %d: %.10g vs %.10g",
          what, t, k, w[k], wref[k]);
  if (q) {
    double complex* Z = gather_full(q, t, l, MPI_COMM_WORLD);
    double res = residual(H, S, Z, w, N, NEV), orth = orthogonality(S, Z, N, NEV);
    CHECK(res <= tolerance(t), "%s %c: residual %.3g > %.3g", what, t, res, tolerance(t));
    CHECK(orth <= tolerance(t), "%s %c: orthogonality %.3g > %.3g", what, t, orth, tolerance(t));
    free(Z);
  }
  free(H);
  free(S);
}

static void test_standard(char t, int mode, const char* solver) {
  layout_t l = grid_layout(mode, N, N);
  tseig_handle_t* h = make_handle(mode, &l);
  expect(h, tseig_set_int(h, "nev", NEV), TSEIG_OK, "set nev");
  expect(h, tseig_set_string(h, "solver", solver), TSEIG_OK, "set solver");
  void *a = alloc_local(t, &l), *q = alloc_local(t, &l), *ev = calloc(N, sizeof(double));
  fill_local(a, t, &l, h_entry);
  expect(h, eigenvectors(h, t, a, ev, q), TSEIG_OK, "eigenvectors");
  char what[64];
  snprintf(what, sizeof what, "standard %s mode %d", solver, mode);
  check_solution(t, what, ev, q, &l, 0, 0.0);
  fill_local(a, t, &l, h_entry);
  expect(h, eigenvalues(h, t, a, ev), TSEIG_OK, "eigenvalues");
  check_solution(t, what, ev, NULL, &l, 0, 0.0);
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(a);
  free(q);
  free(ev);
}

static double complex shifted_h(int i, int j, int cplx) {
  return h_entry(i, j, cplx) + (i == j);
}

static void test_generalized(char t) {
  layout_t l = grid_layout(BY_POSITION, N, N);
  tseig_handle_t* h = make_handle(BY_POSITION, &l);
  expect(h, tseig_set_int(h, "nev", NEV), TSEIG_OK, "set nev");
  void *a = alloc_local(t, &l), *b = alloc_local(t, &l), *q = alloc_local(t, &l);
  void* ev = calloc(N, sizeof(double));
  fill_local(a, t, &l, h_entry);
  fill_local(b, t, &l, s_entry);
  expect(h, gen_vectors(h, t, a, b, ev, q, 0), TSEIG_OK, "generalized");
  check_solution(t, "generalized", ev, q, &l, 1, 0.0);
  /* SCF-style: a new H with the same S reuses the kept factor. */
  fill_local(a, t, &l, shifted_h);
  expect(h, gen_vectors(h, t, a, b, ev, q, 1), TSEIG_OK, "generalized, reused factor");
  check_solution(t, "generalized reuse", ev, q, &l, 1, 1.0);
  fill_local(a, t, &l, shifted_h);
  expect(h, gen_values(h, t, a, b, ev, 1), TSEIG_OK, "generalized values, reused factor");
  check_solution(t, "generalized values", ev, NULL, &l, 1, 1.0);
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(a);
  free(b);
  free(q);
  free(ev);
}

/* validate = 1: figures after correct solves (standard, eigenvalues only, generalized),
 * TSEIG_ERROR_ACCURACY with the figures kept, and the parameters' own errors. */
static void test_validate(char t) {
  layout_t l = grid_layout(BY_POSITION, N, N);
  tseig_handle_t* h = make_handle(BY_POSITION, &l);
  void *a = alloc_local(t, &l), *b = alloc_local(t, &l), *q = alloc_local(t, &l);
  void* ev = calloc(N, sizeof(double));
  double x = -1, tol = 0;
  int passed = -1;
  expect(h, tseig_get_int(h, "validation_passed", &passed), TSEIG_ERROR_PARAMETER_NOT_SET,
         "validation result before a validated solve");
  expect(h, tseig_set_int(h, "nev", NEV), TSEIG_OK, "set nev");
  expect(h, tseig_set_int(h, "validate", 1), TSEIG_OK, "set validate");
  expect(h, tseig_get_double(h, "validation_tolerance", &x), TSEIG_OK, "get tolerance");
  CHECK(x == 0, "default validation_tolerance %g", x);
  fill_local(b, t, &l, s_entry);
  for (int call = 0; call < 3; ++call) {
    fill_local(a, t, &l, h_entry);
    int err = call == 0   ? eigenvectors(h, t, a, ev, q)
              : call == 1 ? eigenvalues(h, t, a, ev)
                          : gen_vectors(h, t, a, b, ev, q, 0);
    expect(h, err, TSEIG_OK, "validated solve");
    expect(h, tseig_get_int(h, "validation_passed", &passed), TSEIG_OK, "get passed");
    expect(h, tseig_get_double(h, "validation_residual", &x), TSEIG_OK, "get residual");
    expect(h, tseig_get_double(h, "validation_tolerance_used", &tol), TSEIG_OK, "get tol used");
    CHECK(passed == 1 && x <= tol && fabs(tol / (1e3 * N * type_eps(t)) - 1) < 1e-6,
          "%c call %d: passed %d, residual %.3g, tolerance %.3g", t, call, passed, x, tol);
    expect(h, tseig_get_double(h, "validation_seconds", &x), TSEIG_OK, "get seconds");
    CHECK(x > 0, "validation_seconds %g", x);
  }
  expect(h, tseig_set_double(h, "validation_tolerance", 1e-300), TSEIG_OK, "set tolerance");
  fill_local(a, t, &l, h_entry);
  expect(h, eigenvectors(h, t, a, ev, q), TSEIG_ERROR_ACCURACY, "unreachable tolerance");
  CHECK(strstr(tseig_last_error_message(h), "self-validation failed") != NULL, "message: %s",
        tseig_last_error_message(h));
  expect(h, tseig_get_int(h, "validation_passed", &passed), TSEIG_OK, "passed after failure");
  expect(h, tseig_get_double(h, "validation_tolerance_used", &tol), TSEIG_OK, "tol after failure");
  CHECK(passed == 0 && tol == 1e-300, "after failure: passed %d, tolerance %g", passed, tol);
  expect(h, tseig_set_double(h, "validation_tolerance", -1), TSEIG_ERROR_INVALID_ARGUMENT,
         "negative tolerance");
  expect(h, tseig_set_int(h, "validation_passed", 1), TSEIG_ERROR_INVALID_ARGUMENT,
         "results are read-only");
  expect(h, tseig_set_double(h, "nev", 1), TSEIG_ERROR_WRONG_TYPE, "set_double of an int");
  expect(h, tseig_get_int(h, "validation_residual", &passed), TSEIG_ERROR_WRONG_TYPE,
         "get_int of a double");
  expect(h, tseig_set_int(h, "validate", 0), TSEIG_OK, "validate off");
  fill_local(a, t, &l, h_entry);
  expect(h, eigenvalues(h, t, a, ev), TSEIG_OK, "unvalidated solve");
  expect(h, tseig_get_double(h, "validation_residual", &x), TSEIG_ERROR_PARAMETER_NOT_SET,
         "no figures after an unvalidated solve");
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(a);
  free(b);
  free(q);
  free(ev);
}

/* ELPA's utilities: S = U^H U, U^-1, and C = U^H S. */
static void test_linalg(char t) {
  layout_t l = grid_layout(BY_POSITION, N, N);
  tseig_handle_t* h = make_handle(BY_POSITION, &l);
  int cplx = is_complex(t);
  void *u = alloc_local(t, &l), *uinv = alloc_local(t, &l), *s = alloc_local(t, &l);
  void* c = alloc_local(t, &l);
  fill_local(u, t, &l, s_entry);
  expect(h, cholesky(h, t, u), TSEIG_OK, "cholesky");
  double complex* U = gather_full(u, t, &l, MPI_COMM_WORLD);
  double complex* S = full_matrix(N, s_entry, cplx);
  double worst = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      double complex d = 0;
      for (int k = 0; k < N; ++k) d += conj(U[k + (size_t)i * N]) * U[k + (size_t)j * N];
      worst = fmax(worst, cabs(d - S[i + (size_t)j * N]));
      if (i > j) worst = fmax(worst, cabs(U[i + (size_t)j * N]));
    }
  CHECK(worst <= tolerance(t), "cholesky %c: |U^H U - S| = %.3g", t, worst);

  memcpy(uinv, u, (size_t)l.lld * (l.cols > 0 ? l.cols : 1) * type_size(t));
  expect(h, invert(h, t, uinv), TSEIG_OK, "invert_triangular");
  double complex* V = gather_full(uinv, t, &l, MPI_COMM_WORLD);
  worst = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      double complex d = 0;
      for (int k = 0; k < N; ++k) d += U[i + (size_t)k * N] * V[k + (size_t)j * N];
      worst = fmax(worst, cabs(d - (i == j)));
    }
  CHECK(worst <= tolerance(t), "invert_triangular %c: |U U^-1 - I| = %.3g", t, worst);

  fill_local(s, t, &l, s_entry);
  expect(h, multiply(h, t, 'U', 'F', u, s, l.lld, l.cols, c, l.lld, l.cols), TSEIG_OK,
         "hermitian_multiply");
  double complex* C = gather_full(c, t, &l, MPI_COMM_WORLD);
  worst = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      double complex d = 0;
      for (int k = 0; k < N; ++k) d += conj(U[k + (size_t)i * N]) * S[k + (size_t)j * N];
      worst = fmax(worst, cabs(d - C[i + (size_t)j * N]));
    }
  CHECK(worst <= tolerance(t) * N, "hermitian_multiply %c: |C - U^H S| = %.3g", t, worst);
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(U);
  free(S);
  free(V);
  free(C);
  free(u);
  free(uinv);
  free(s);
  free(c);
}

/* Only the lower triangle is read: NaN in the strict upper one must not matter. */
static double complex lower_only(int i, int j, int cplx) {
  return i >= j ? h_entry(i, j, cplx) : NAN;
}

static void test_triangle(void) {
  layout_t l = grid_layout(BY_POSITION, N, N);
  tseig_handle_t* h = make_handle(BY_POSITION, &l);
  expect(h, tseig_set_int(h, "nev", NEV), TSEIG_OK, "set nev");
  expect(h, tseig_set_string(h, "triangle", "L"), TSEIG_OK, "set triangle");
  char value[16];
  expect(h, tseig_get_string(h, "triangle", value, sizeof value), TSEIG_OK, "get triangle");
  CHECK(strcmp(value, "L") == 0, "triangle reads back as '%s'", value);
  double *a = alloc_local('d', &l), *q = alloc_local('d', &l), ev[N];
  fill_local(a, 'd', &l, lower_only);
  expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_OK, "lower triangle only");
  check_solution('d', "triangle L", ev, q, &l, 0, 0.0);
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(a);
  free(q);
}

/* Both grid choices solve correctly; a moved solve (small N on several ranks) too. */
static void test_grid_choice(void) {
  for (int k = 0; k < 2; ++k) {
    const char* choice = k ? "as_given" : "auto";
    layout_t l = grid_layout(BY_POSITION, N, N);
    tseig_handle_t* h = make_handle(BY_POSITION, &l);
    expect(h, tseig_set_string(h, "grid_choice", choice), TSEIG_OK, "set grid_choice");
    char value[16];
    expect(h, tseig_get_string(h, "grid_choice", value, sizeof value), TSEIG_OK, "get grid_choice");
    CHECK(strcmp(value, choice) == 0, "grid_choice reads back as '%s'", value);
    expect(h, tseig_set_string(h, "grid_choice", "square"), TSEIG_ERROR_INVALID_ARGUMENT,
           "grid_choice square");
    double *a = alloc_local('d', &l), *q = alloc_local('d', &l), ev[N];
    fill_local(a, 'd', &l, h_entry);
    expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_OK, choice);
    check_solution('d', choice, ev, q, &l, 0, 0.0);
    expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
    free(a);
    free(q);
  }
}

static double complex minus_identity(int i, int j, int cplx) {
  return i == j ? -1.0 : 0.0;
}
static double complex other_s(int i, int j, int cplx) {
  return s_entry(i, j, cplx) + (i == j);
}
static double complex not_symmetric(int i, int j, int cplx) {
  return h_entry(i, j, cplx) + i;
}
static double complex zero_diagonal(int i, int j, int cplx) {
  return i == j && i == N / 2 ? 0.0 : (i <= j ? 1.0 : 0.0);
}
static double complex with_nan(int i, int j, int cplx) {
  return i == 7 && j == 3 ? NAN : h_entry(i, j, cplx);
}

static void test_errors(void) {
  /* Codes in order of the enum; every one has its own text. */
  const int codes[] = {TSEIG_OK,
                       TSEIG_ERROR_INVALID_ARGUMENT,
                       TSEIG_ERROR_INVALID_DESCRIPTOR,
                       TSEIG_ERROR_GRID_MISMATCH,
                       TSEIG_ERROR_NOT_HERMITIAN,
                       TSEIG_ERROR_NOT_FINITE,
                       TSEIG_ERROR_NOT_POSITIVE_DEFINITE,
                       TSEIG_ERROR_IO,
                       TSEIG_ERROR_NUMERICAL_FAILURE,
                       TSEIG_ERROR_MPI,
                       TSEIG_ERROR_OUT_OF_MEMORY,
                       TSEIG_ERROR_UNSUPPORTED,
                       TSEIG_ERROR_NOT_CONVERGED,
                       TSEIG_ERROR_ACCURACY,
                       TSEIG_ERROR_UNKNOWN_PARAMETER,
                       TSEIG_ERROR_WRONG_TYPE,
                       TSEIG_ERROR_PARAMETER_NOT_SET,
                       TSEIG_ERROR_SETUP_MISSING,
                       TSEIG_ERROR_ALREADY_SETUP,
                       TSEIG_ERROR_NULL_HANDLE,
                       TSEIG_ERROR_NO_FACTOR,
                       TSEIG_ERROR_FACTOR_MISMATCH,
                       TSEIG_ERROR_INTERNAL};
  const int ncodes = sizeof codes / sizeof codes[0];
  for (int i = 0; i < ncodes; ++i)
    for (int j = 0; j < i; ++j)
      CHECK(strcmp(tseig_strerror(codes[i]), tseig_strerror(codes[j])) != 0,
            "codes %d and %d share a text", codes[i], codes[j]);
  CHECK(strstr(tseig_strerror(12345), "unknown") != NULL, "unknown code text");

  /* Handle and parameters. */
  expect(NULL, tseig_create(NULL), TSEIG_ERROR_NULL_HANDLE, "create(NULL)");
  expect(NULL, tseig_set_int(NULL, "na", 1), TSEIG_ERROR_NULL_HANDLE, "set on NULL");
  expect(NULL, tseig_destroy(NULL), TSEIG_OK, "destroy(NULL)");
  tseig_handle_t* h = NULL;
  expect(NULL, tseig_create(&h), TSEIG_OK, "create");
  int value = 0;
  char text[8];
  expect(h, tseig_set_int(h, "no_such_parameter", 1), TSEIG_ERROR_UNKNOWN_PARAMETER, "unknown");
  expect(h, tseig_get_int(h, "no_such_parameter", &value), TSEIG_ERROR_UNKNOWN_PARAMETER,
         "get unknown");
  expect(h, tseig_set_int(h, "solver", 1), TSEIG_ERROR_WRONG_TYPE, "int for a string");
  expect(h, tseig_set_string(h, "na", "10"), TSEIG_ERROR_WRONG_TYPE, "string for an int");
  expect(h, tseig_get_int(h, "process_row", &value), TSEIG_ERROR_PARAMETER_NOT_SET, "unset");
  expect(h, tseig_get_int(h, "nev", &value), TSEIG_OK, "default nev");
  CHECK(value == -1, "default nev %d", value);
  expect(h, tseig_set_int(h, "nblk", 0), TSEIG_ERROR_INVALID_ARGUMENT, "nblk 0");
  expect(h, tseig_set_int(h, "nev", 0), TSEIG_ERROR_INVALID_ARGUMENT, "nev 0");
  expect(h, tseig_set_int(h, "check_input", 2), TSEIG_ERROR_INVALID_ARGUMENT, "check_input 2");
  expect(h, tseig_get_int(h, "wy_width", &value), TSEIG_OK, "default wy_width");
  CHECK(value == 256, "default wy_width %d", value);
  expect(h, tseig_set_int(h, "dc_min_leaf", 0), TSEIG_ERROR_INVALID_ARGUMENT, "dc_min_leaf 0");
  expect(h, tseig_set_int(h, "dc_min_leaf", 16), TSEIG_OK, "dc_min_leaf 16");
  expect(h, tseig_set_string(h, "wy_width", "64"), TSEIG_ERROR_WRONG_TYPE, "string for a knob");
  expect(h, tseig_set_string(h, "solver", "fastest"), TSEIG_ERROR_INVALID_ARGUMENT, "solver");
  expect(h, tseig_set_string(h, "triangle", "both"), TSEIG_ERROR_INVALID_ARGUMENT, "triangle");
  expect(h, tseig_set_string(h, "solver", "two_stage"), TSEIG_OK, "solver two_stage");
  expect(h, tseig_get_string(h, "solver", text, 4), TSEIG_ERROR_INVALID_ARGUMENT, "short buf");
  expect(h, tseig_set_int(h, "gpu", 3), TSEIG_ERROR_INVALID_ARGUMENT, "gpu 3");
  expect(h, tseig_set_int(h, "gpu", 1), TSEIG_OK, "gpu 1");
  expect(h, tseig_get_int(h, "gpu", &value), TSEIG_OK, "get gpu");
  CHECK(value == 1, "gpu %d", value);
  expect(h, tseig_set_int(h, "gpu", 0), TSEIG_OK, "gpu 0");
  double dummy[1] = {0};
  expect(h, tseig_eigenvectors_d(h, dummy, dummy, dummy), TSEIG_ERROR_SETUP_MISSING, "no setup");
  expect(h, tseig_setup(h), TSEIG_ERROR_PARAMETER_NOT_SET, "setup without na");
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");

  /* Process positions that do not tile a grid (two processes on (0, 0)). */
  if (size > 1) {
    layout_t l = grid_layout(BY_POSITION, N, N);
    expect(NULL, tseig_create(&h), TSEIG_OK, "create");
    tseig_set_int(h, "na", N);
    tseig_set_int(h, "nblk", NB);
    tseig_set_int(h, "local_nrows", N);
    tseig_set_int(h, "local_ncols", N);
    tseig_set_comm(h, MPI_COMM_WORLD);
    tseig_set_int(h, "process_row", 0);
    tseig_set_int(h, "process_col", 0);
    expect(h, tseig_setup(h), TSEIG_ERROR_INVALID_ARGUMENT, "overlapping grid positions");
    expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
    (void)l;
  }
  /* Local arrays too small for the distribution (one column short on rank 0). */
  {
    layout_t l = grid_layout(BY_POSITION, N, N);
    expect(NULL, tseig_create(&h), TSEIG_OK, "create");
    tseig_set_int(h, "na", N);
    tseig_set_int(h, "nblk", NB);
    tseig_set_int(h, "local_nrows", l.lld);
    tseig_set_int(h, "local_ncols", rank == 0 ? l.cols - 1 : l.cols);
    tseig_set_comm(h, MPI_COMM_WORLD);
    tseig_set_int(h, "process_row", l.myrow);
    tseig_set_int(h, "process_col", l.mycol);
    expect(h, tseig_setup(h), TSEIG_ERROR_INVALID_ARGUMENT, "local_ncols too small");
    expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  }

  layout_t l = grid_layout(BY_POSITION, N, N);
  h = make_handle(BY_POSITION, &l);
  expect(h, tseig_setup(h), TSEIG_ERROR_ALREADY_SETUP, "setup twice");
  expect(h, tseig_set_int(h, "na", N + 1), TSEIG_ERROR_ALREADY_SETUP, "na after setup");
  expect(h, tseig_set_comm(h, MPI_COMM_WORLD), TSEIG_ERROR_ALREADY_SETUP, "comm after setup");
  expect(h, tseig_get_int(h, "mpi_comm_parent", &value), TSEIG_OK, "get mpi_comm_parent");
  CHECK(value == MPI_Comm_c2f(MPI_COMM_WORLD), "mpi_comm_parent %d", value);
  double *a = alloc_local('d', &l), *b = alloc_local('d', &l), *q = alloc_local('d', &l);
  double ev[N];

  expect(h, tseig_set_int(h, "nev", N + 1), TSEIG_OK, "set nev > na");
  fill_local(a, 'd', &l, h_entry);
  expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_ERROR_INVALID_ARGUMENT, "nev > na");
  expect(h, tseig_set_int(h, "nev", NEV), TSEIG_OK, "set nev");

  fill_local(a, 'd', &l, with_nan);
  expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_ERROR_NOT_FINITE, "NaN in A");
  fill_local(a, 'd', &l, not_symmetric);
  expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_ERROR_NOT_HERMITIAN, "A not symmetric");

  /* Generalized: no factor yet, a non-PD S, then reuse with another S. */
  fill_local(a, 'd', &l, h_entry);
  fill_local(b, 'd', &l, s_entry);
  expect(h, tseig_generalized_eigenvectors_d(h, a, b, ev, q, 1), TSEIG_ERROR_NO_FACTOR,
         "reuse before any factor");
  fill_local(b, 'd', &l, minus_identity);
  expect(h, tseig_generalized_eigenvectors_d(h, a, b, ev, q, 0), TSEIG_ERROR_NOT_POSITIVE_DEFINITE,
         "S not positive definite");
  expect(h, tseig_generalized_eigenvectors_d(h, a, b, ev, q, 1), TSEIG_ERROR_NO_FACTOR,
         "reuse after a failed factorization");
  fill_local(a, 'd', &l, h_entry);
  fill_local(b, 'd', &l, s_entry);
  expect(h, tseig_generalized_eigenvectors_d(h, a, b, ev, q, 0), TSEIG_OK, "factor S");
  fill_local(a, 'd', &l, h_entry);
  fill_local(b, 'd', &l, other_s);
  expect(h, tseig_generalized_eigenvectors_d(h, a, b, ev, q, 1), TSEIG_ERROR_FACTOR_MISMATCH,
         "reuse with another S");
  {
    float *af = alloc_local('f', &l), evf[N];
    fill_local(af, 'f', &l, s_entry);
    expect(h, tseig_generalized_eigenvalues_f(h, af, af, evf, 1), TSEIG_ERROR_NO_FACTOR,
           "reuse of a double factor for float");
    free(af);
  }
  /* A one-element change on the last rank only must be caught on every rank. */
  fill_local(b, 'd', &l, s_entry);
  if (rank == size - 1 && l.rows > 0 && l.cols > 0) b[0] += 1e-15;
  expect(h, tseig_generalized_eigenvalues_d(h, a, b, ev, 1), TSEIG_ERROR_FACTOR_MISMATCH,
         "reuse with S changed in one element");

  /* Utilities. */
  fill_local(a, 'd', &l, zero_diagonal);
  expect(h, tseig_invert_triangular_d(h, a), TSEIG_ERROR_NUMERICAL_FAILURE, "singular U");
  fill_local(a, 'd', &l, minus_identity);
  expect(h, tseig_cholesky_d(h, a), TSEIG_ERROR_NOT_POSITIVE_DEFINITE, "cholesky of -I");
  expect(h, tseig_hermitian_multiply_d(h, 'X', 'F', N, a, b, l.lld, l.cols, q, l.lld, l.cols),
         TSEIG_ERROR_INVALID_ARGUMENT, "uplo 'X'");
  /* A leading dimension below the local row count of some rank: descriptor error. */
  int bad_lld = l.rows > 1 ? l.rows - 1 : l.lld;
  expect(h, tseig_hermitian_multiply_d(h, 'F', 'F', N, a, b, bad_lld, l.cols, q, l.lld, l.cols),
         TSEIG_ERROR_INVALID_DESCRIPTOR, "lld of B too small");
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(a);
  free(b);
  free(q);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  grid_shape(size, &nprow, &npcol);

  test_errors();
  const char types[] = {'d', 'f', 'z', 'c'};
  for (int k = 0; k < 4; ++k) {
    test_standard(types[k], BY_POSITION, "auto");
    test_generalized(types[k]);
    test_linalg(types[k]);
    test_validate(types[k]);
  }
  const char* solvers[] = {"one_stage", "two_stage", "scalapack"};
  for (int k = 0; k < 3; ++k) test_standard('d', BY_POSITION, solvers[k]);
  test_standard('z', BY_ROW_COL_COMMS, "auto");
  test_standard('d', BY_BLACS, "auto");
  test_triangle();
  test_grid_choice();

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_capi on %d ranks: %s (%d failed checks)\n", size, total == 0 ? "OK" : "FAILED",
           total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
