/* C API subset test: the index range (il, iu) and the value range (vl, vu) through the
 * handle for d, f, z, c and each solver, eigenvalues against LAPACK, the residual and
 * orthogonality of the returned vectors, the result "found", validation_count_checked, and
 * the errors of a mixed selection on every rank. Exit status 0 iff all checks pass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_capi_util.h"
#include "tseig/tseig.h"

enum { N = 47, NB = 4 };
static int size, nprow, npcol;

static double tolerance(char t) {
  return 100.0 * sqrt((double)N) * type_eps(t);
}

static void expect(tseig_handle_t* h, int err, int want, const char* what) {
  CHECK(err == want, "%s: got %d (%s) want %d; message: %s", what, err, tseig_strerror(err), want,
        tseig_last_error_message(h));
  if (want != TSEIG_OK) CHECK(strlen(tseig_last_error_message(h)) > 0, "%s: no message", what);
}

static int solve(tseig_handle_t* h, char t, void* a, void* ev, void* q) {
  switch (t) {
    case 'd':
      return q ? tseig_eigenvectors_d(h, a, ev, q) : tseig_eigenvalues_d(h, a, ev);
    case 'f':
      return q ? tseig_eigenvectors_f(h, a, ev, q) : tseig_eigenvalues_f(h, a, ev);
    case 'z':
      return q ? tseig_eigenvectors_z(h, a, ev, q) : tseig_eigenvalues_z(h, a, ev);
    default:
      return q ? tseig_eigenvectors_c(h, a, ev, q) : tseig_eigenvalues_c(h, a, ev);
  }
}

/* A set-up handle on an nprow x npcol grid of MPI_COMM_WORLD (row-major positions). */
static tseig_handle_t* make_handle(const layout_t* l) {
  tseig_handle_t* h = NULL;
  CHECK(tseig_create(&h) == TSEIG_OK, "create");
  expect(h, tseig_set_int(h, "na", N), TSEIG_OK, "set na");
  expect(h, tseig_set_int(h, "nblk", NB), TSEIG_OK, "set nblk");
  expect(h, tseig_set_int(h, "local_nrows", l->lld), TSEIG_OK, "set local_nrows");
  expect(h, tseig_set_int(h, "local_ncols", l->cols), TSEIG_OK, "set local_ncols");
  expect(h, tseig_set_comm(h, MPI_COMM_WORLD), TSEIG_OK, "set_comm");
  expect(h, tseig_set_int(h, "process_row", l->myrow), TSEIG_OK, "set process_row");
  expect(h, tseig_set_int(h, "process_col", l->mycol), TSEIG_OK, "set process_col");
  expect(h, tseig_setup(h), TSEIG_OK, "setup");
  return h;
}

/* Solves with the handle's selection, with and without vectors; the result must be the
 * `want` eigenpairs from `first` (0-based) of LAPACK's spectrum ref. */
static void check_subset(tseig_handle_t* h, char t, const layout_t* l, const double* ref, int first,
                         int want, const char* what) {
  void *a = alloc_local(t, l), *q = alloc_local(t, l), *ev = calloc(N, sizeof(double));
  const double scale = fmax(fabs(ref[0]), fabs(ref[N - 1]));
  for (int vectors = 1; vectors >= 0; --vectors) {
    fill_local(a, t, l, h_entry);
    int found = -1;
    expect(h, solve(h, t, a, ev, vectors ? q : NULL), TSEIG_OK, what);
    expect(h, tseig_get_int(h, "found", &found), TSEIG_OK, "get found");
    CHECK(found == want, "%c %s: found %d, want %d", t, what, found, want);
    double w[N];
    to_double(ev, t, found > 0 && found <= N ? found : 0, w);
    for (int k = 0; k < found && k < want; ++k)
      CHECK(fabs(w[k] - ref[first + k]) <= tolerance(t) * scale,
            "%c %s: eigenvalue %d: %.12g vs LAPACK %.12g", t, what, k, w[k], ref[first + k]);
    if (vectors && found > 0 && found == want) {
      double complex* H = full_matrix(N, h_entry, is_complex(t));
      double complex* Z = gather_full(q, t, l, MPI_COMM_WORLD);
      double res = residual(H, NULL, Z, w, N, found), orth = orthogonality(NULL, Z, N, found);
      CHECK(res <= tolerance(t), "%c %s: residual %.3g", t, what, res);
      CHECK(orth <= tolerance(t), "%c %s: orthogonality %.3g", t, what, orth);
      free(H);
      free(Z);
    }
  }
  free(a);
  free(q);
  free(ev);
}

static void reference(char t, double* ref) {
  double complex* H = full_matrix(N, h_entry, is_complex(t));
  lapack_eigenvalues(H, NULL, N, ref);
  free(H);
}

static void test_ranges(char t, const char* solver, const layout_t* l) {
  double ref[N];
  reference(t, ref);
  tseig_handle_t* h = make_handle(l);
  expect(h, tseig_set_string(h, "solver", solver), TSEIG_OK, "set solver");
  char what[96];
  const int windows[][2] = {{1, 1}, {N, N}, {7, 30}, {1, N}};
  for (int k = 0; k < 4; ++k) {
    expect(h, tseig_set_int(h, "il", windows[k][0]), TSEIG_OK, "set il");
    expect(h, tseig_set_int(h, "iu", windows[k][1]), TSEIG_OK, "set iu");
    snprintf(what, sizeof what, "%s il..iu = %d..%d", solver, windows[k][0], windows[k][1]);
    check_subset(h, t, l, ref, windows[k][0] - 1, windows[k][1] - windows[k][0] + 1, what);
  }
  /* Back to all eigenpairs, then a value range (bounds halfway between eigenvalues). */
  expect(h, tseig_set_int(h, "il", 0), TSEIG_OK, "unset il");
  expect(h, tseig_set_int(h, "iu", 0), TSEIG_OK, "unset iu");
  snprintf(what, sizeof what, "%s all after il = iu = 0", solver);
  check_subset(h, t, l, ref, 0, N, what);
  expect(h, tseig_set_double(h, "vl", 0.5 * (ref[2] + ref[3])), TSEIG_OK, "set vl");
  expect(h, tseig_set_double(h, "vu", 0.5 * (ref[19] + ref[20])), TSEIG_OK, "set vu");
  snprintf(what, sizeof what, "%s (vl, vu] around 4..20", solver);
  check_subset(h, t, l, ref, 3, 17, what);
  const double gap = ref[3] - ref[2], mid = 0.5 * (ref[2] + ref[3]);
  expect(h, tseig_set_double(h, "vl", mid - 0.1 * gap), TSEIG_OK, "set vl");
  expect(h, tseig_set_double(h, "vu", mid + 0.1 * gap), TSEIG_OK, "set vu");
  snprintf(what, sizeof what, "%s empty (vl, vu]", solver);
  check_subset(h, t, l, ref, 0, 0, what);
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
}

/* The generalized problem H z = lambda S z with an index range: found, the pencil's
 * eigenvalues il..iu, residuals and S-orthogonality of the returned vectors. */
static void test_generalized(char t, const layout_t* l) {
  const int il = 3, iu = 8, want = iu - il + 1;
  double complex* H = full_matrix(N, h_entry, is_complex(t));
  double complex* S = full_matrix(N, s_entry, is_complex(t));
  double ref[N], w[N];
  lapack_eigenvalues(H, S, N, ref);
  tseig_handle_t* h = make_handle(l);
  void *a = alloc_local(t, l), *b = alloc_local(t, l), *q = alloc_local(t, l);
  void* ev = calloc(N, sizeof(double));
  fill_local(a, t, l, h_entry);
  fill_local(b, t, l, s_entry);
  expect(h, tseig_set_int(h, "il", il), TSEIG_OK, "set il");
  expect(h, tseig_set_int(h, "iu", iu), TSEIG_OK, "set iu");
  int err = t == 'd' ? tseig_generalized_eigenvectors_d(h, a, b, ev, q, 0)
                     : tseig_generalized_eigenvectors_z(h, a, b, ev, q, 0);
  expect(h, err, TSEIG_OK, "generalized index range");
  int found = -1;
  expect(h, tseig_get_int(h, "found", &found), TSEIG_OK, "get found");
  CHECK(found == want, "%c generalized: found %d, want %d", t, found, want);
  if (found == want) {
    to_double(ev, t, found, w);
    const double scale = fmax(fabs(ref[0]), fabs(ref[N - 1]));
    for (int k = 0; k < found; ++k)
      CHECK(fabs(w[k] - ref[il - 1 + k]) <= tolerance(t) * scale,
            "%c generalized: eigenvalue %d: %.12g vs %.12g", t, k, w[k], ref[il - 1 + k]);
    double complex* Z = gather_full(q, t, l, MPI_COMM_WORLD);
    double res = residual(H, S, Z, w, N, found), orth = orthogonality(S, Z, N, found);
    CHECK(res <= tolerance(t), "%c generalized: residual %.3g", t, res);
    CHECK(orth <= tolerance(t), "%c generalized: S-orthogonality %.3g", t, orth);
    free(Z);
  }
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(H);
  free(S);
  free(a);
  free(b);
  free(q);
  free(ev);
}

/* validation_count_checked: 1 for a range from the lowest eigenvalue, 0 above it. */
static void test_count_checked(const layout_t* l) {
  tseig_handle_t* h = make_handle(l);
  double *a = alloc_local('d', l), *q = alloc_local('d', l), ev[N];
  int checked = -1, passed = -1;
  expect(h, tseig_set_int(h, "validate", 1), TSEIG_OK, "set validate");
  for (int il = 1; il <= 5; il += 4) {
    expect(h, tseig_set_int(h, "il", il), TSEIG_OK, "set il");
    expect(h, tseig_set_int(h, "iu", 9), TSEIG_OK, "set iu");
    fill_local(a, 'd', l, h_entry);
    expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_OK, "validated subset");
    expect(h, tseig_get_int(h, "validation_count_checked", &checked), TSEIG_OK, "count_checked");
    expect(h, tseig_get_int(h, "validation_passed", &passed), TSEIG_OK, "passed");
    CHECK(checked == (il == 1) && passed == 1, "il = %d: count_checked %d, passed %d", il, checked,
          passed);
  }
  expect(h, tseig_set_int(h, "validation_count_checked", 1), TSEIG_ERROR_INVALID_ARGUMENT,
         "count_checked is read-only");
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(a);
  free(q);
}

/* A mixed or incomplete selection fails at the solve on every rank, also when only one
 * rank's handle is wrong; so does a range outside the matrix. found is then unset. */
static void test_errors(const layout_t* l) {
  double *a = alloc_local('d', l), *q = alloc_local('d', l), ev[N], x = 0;
  int found = 0;
  struct {
    int nev, il, iu, vl_set, vu_set, last_rank_only;
    double vl, vu;
    const char* what;
  } cases[] = {
      {5, 2, 4, 0, 0, 0, 0, 0, "nev with il/iu"},
      {5, 0, 0, 1, 1, 0, -1, 1, "nev with vl/vu"},
      {-1, 2, 4, 1, 1, 0, -1, 1, "both ranges"},
      {-1, 2, 0, 0, 0, 0, 0, 0, "il without iu"},
      {-1, 0, 0, 0, 1, 0, 0, 1, "vu without vl"},
      {-1, 4, 2, 0, 0, 0, 0, 0, "il > iu"},
      {-1, 1, N + 1, 0, 0, 0, 0, 0, "iu > na"},
      {-1, 0, 0, 1, 1, 0, 1, 1, "vl = vu"},
      {-1, 0, 0, 1, 1, 0, 2, 1, "vl > vu"},
      {5, 2, 4, 0, 0, 1, 0, 0, "nev with il/iu on the last rank only"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    tseig_handle_t* h = make_handle(l);
    expect(h, tseig_get_int(h, "found", &found), TSEIG_ERROR_PARAMETER_NOT_SET, "found unset");
    const int mine = !cases[k].last_rank_only || rank == size - 1;
    if (mine && cases[k].nev > 0) expect(h, tseig_set_int(h, "nev", cases[k].nev), TSEIG_OK, "nev");
    if (cases[k].last_rank_only || mine) {
      expect(h, tseig_set_int(h, "il", cases[k].il), TSEIG_OK, "set il");
      expect(h, tseig_set_int(h, "iu", cases[k].iu), TSEIG_OK, "set iu");
    }
    if (mine && cases[k].vl_set) expect(h, tseig_set_double(h, "vl", cases[k].vl), TSEIG_OK, "vl");
    if (mine && cases[k].vu_set) expect(h, tseig_set_double(h, "vu", cases[k].vu), TSEIG_OK, "vu");
    fill_local(a, 'd', l, h_entry);
    expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_ERROR_INVALID_ARGUMENT, cases[k].what);
    expect(h, tseig_get_int(h, "found", &found), TSEIG_ERROR_PARAMETER_NOT_SET,
           "found after a failed solve");
    expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  }
  tseig_handle_t* h = make_handle(l);
  expect(h, tseig_get_double(h, "vl", &x), TSEIG_ERROR_PARAMETER_NOT_SET, "vl unset");
  expect(h, tseig_set_double(h, "vl", INFINITY), TSEIG_ERROR_INVALID_ARGUMENT, "vl = Inf");
  expect(h, tseig_set_double(h, "vu", NAN), TSEIG_ERROR_INVALID_ARGUMENT, "vu = NaN");
  expect(h, tseig_set_double(h, "vl", -2.5), TSEIG_OK, "negative vl");
  expect(h, tseig_get_double(h, "vl", &x), TSEIG_OK, "get vl");
  CHECK(x == -2.5, "vl = %g", x);
  expect(h, tseig_set_int(h, "il", -1), TSEIG_ERROR_INVALID_ARGUMENT, "il = -1");
  expect(h, tseig_set_int(h, "found", 3), TSEIG_ERROR_INVALID_ARGUMENT, "found is read-only");
  expect(h, tseig_set_double(h, "il", 3), TSEIG_ERROR_WRONG_TYPE, "il is an int");
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  /* found of a successful solve is dropped by a later failed one. */
  h = make_handle(l);
  fill_local(a, 'd', l, h_entry);
  expect(h, tseig_eigenvalues_d(h, a, ev), TSEIG_OK, "all eigenvalues");
  expect(h, tseig_get_int(h, "found", &found), TSEIG_OK, "found after a solve");
  CHECK(found == N, "found %d after a full solve", found);
  expect(h, tseig_set_int(h, "nev", 3), TSEIG_OK, "set nev");
  expect(h, tseig_set_int(h, "il", 1), TSEIG_OK, "set il");
  expect(h, tseig_set_int(h, "iu", 2), TSEIG_OK, "set iu");
  fill_local(a, 'd', l, h_entry);
  expect(h, tseig_eigenvalues_d(h, a, ev), TSEIG_ERROR_INVALID_ARGUMENT, "nev with il/iu");
  CHECK(tseig_get_int(h, "found", &found) == TSEIG_ERROR_PARAMETER_NOT_SET,
        "found kept after a failed solve");
  expect(h, tseig_destroy(h), TSEIG_OK, "destroy");
  free(a);
  free(q);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  grid_shape(size, &nprow, &npcol);
  layout_t l = make_layout(N, N, NB, NB, nprow, npcol, rank / npcol, rank % npcol);

  test_errors(&l);
  for (int k = 0; k < 4; ++k) test_ranges("dfzc"[k], "auto", &l);
  const char* solvers[] = {"one_stage", "two_stage", "scalapack"};
  for (int k = 0; k < 3; ++k) test_ranges(k == 1 ? 'z' : 'd', solvers[k], &l);
  test_generalized('d', &l);
  test_generalized('z', &l);
  test_count_checked(&l);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_capi_subset on %d ranks: %s (%d failed checks)\n", size,
           total == 0 ? "OK" : "FAILED", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
