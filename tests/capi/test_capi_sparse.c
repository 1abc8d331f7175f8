/* C API of the sparse layer on the 1D Laplacian tridiag(-1, 2, -1) of order N, whose
 * eigenvalues 2 - 2cos(pi k / (N + 1)) are known: CSR rows from each rank (unequal
 * counts, rank 0 may own none), KPM count, LOBPCG and ChebFD against the exact values,
 * and collective errors (bad column on one rank, NULL output, too small capacity). */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tseig/tseig.h"

#define N 200
static int failures = 0, rank = 0, size = 1;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (!(cond)) {                                                         \
      ++failures;                                                          \
      fprintf(stderr, "rank %d: line %d: check failed: ", rank, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                        \
      fprintf(stderr, "\n");                                               \
    }                                                                      \
  } while (0)

static double exact(int k) {
  return 2 - 2 * cos(M_PI * (k + 1) / (N + 1));
}

/* Rows [first, first + count) of this rank: rank r gets a share growing with r (rank 0
 * none when there are several ranks). */
static void my_rows(int* first, int* count) {
  int total = 0, before = 0;
  for (int r = 0; r < size; ++r) total += size > 1 ? r : 1;
  for (int r = 0; r < rank; ++r) before += size > 1 ? r : 1;
  *first = (int)((long)N * before / total);
  *count = (int)((long)N * (before + (size > 1 ? rank : 1)) / total) - *first;
}

/* The CSR rows; bad_column puts an out-of-range column into this rank's first row. */
static int build(int bad_column, tseig_sparse_t** a) {
  int first = 0, count = 0;
  my_rows(&first, &count);
  int64_t* ptr = malloc((count + 1) * sizeof *ptr);
  int64_t* col = malloc((3 * count + 1) * sizeof *col);
  double* val = malloc((3 * count + 1) * sizeof *val);
  int64_t k = 0;
  ptr[0] = 0;
  for (int i = 0; i < count; ++i) {
    const int64_t row = first + i;
    if (row > 0) col[k] = row - 1, val[k++] = -1;
    col[k] = row, val[k++] = 2;
    if (row + 1 < N) col[k] = row + 1, val[k++] = -1;
    ptr[i + 1] = k;
  }
  if (bad_column && count > 0) col[0] = N + 5;
  const int err = tseig_sparse_from_csr_d(MPI_COMM_WORLD, N, count, ptr, col, val, a);
  free(ptr);
  free(col);
  free(val);
  return err;
}

/* The same code on every rank. */
static void check_same_everywhere(int err, const char* what) {
  int lo = err, hi = err;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo == hi, "%s: codes differ between ranks (%d, %d)", what, lo, hi);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  tseig_sparse_t* a = NULL;
  CHECK(build(0, &a) == TSEIG_OK, "from_csr: %s", tseig_sparse_error_message());
  int64_t n = 0, nnz = 0, first = 0;
  int rows = 0;
  CHECK(tseig_sparse_size(a, &n, &nnz, &rows, &first) == TSEIG_OK, "size");
  CHECK(n == N && nnz == 3 * N - 2, "size: n %ld, nonzeros %ld", (long)n, (long)nnz);

  /* KPM: eigenvalues in [0, 1]. */
  int want = 0;
  for (int k = 0; k < N; ++k) want += exact(k) <= 1;
  double count = 0, error = 0, energy[50], density[50];
  CHECK(tseig_sparse_kpm(a, 512, 32, 0, 1, &count, &error, 50, energy, density) == TSEIG_OK,
        "kpm: %s", tseig_sparse_error_message());
  CHECK(fabs(count - want) <= 4 * error + 0.5, "kpm count %g +- %g, exact %d", count, error, want);

  /* LOBPCG: 4 smallest, vectors returned with this rank's rows (ldv = 0 where it has
   * none, as the header allows). */
  enum { capacity = 8 };
  double w[capacity], res[capacity];
  double* v = malloc(sizeof(double) * (rows > 0 ? rows : 1) * capacity);
  int found = 0, its = 0;
  int err = tseig_sparse_lobpcg(a, 4, 1e-9, 0, 0, capacity, &found, w, v, rows, res, &its);
  CHECK(err == TSEIG_OK && found >= 4, "lobpcg: %d %s", err, tseig_sparse_error_message());
  for (int k = 0; k < 4 && k < found; ++k)
    CHECK(fabs(w[k] - exact(k)) < 1e-8 && res[k] <= 1e-9, "lobpcg %d: %.15g vs %.15g (res %g)", k,
          w[k], exact(k), res[k]);

  /* ChebFD: all in [0.5, 0.95] (lambda_67 = 1 exactly would sit on an edge). */
  int inside = 0, lo_k = -1;
  for (int k = 0; k < N; ++k)
    if (exact(k) >= 0.5 && exact(k) <= 0.95) inside += 1, lo_k = lo_k < 0 ? k : lo_k;
  double wc[64], rc[64];
  err = tseig_sparse_chebfd(a, 0.5, 0.95, 1e-9, 64, &found, wc, NULL, 1, rc, &its);
  CHECK(err == TSEIG_OK && found == inside, "chebfd: %d, %d found, %d exact: %s", err, found,
        inside, tseig_sparse_error_message());
  for (int k = 0; k < found && err == TSEIG_OK; ++k)
    CHECK(fabs(wc[k] - exact(lo_k + k)) < 1e-8, "chebfd %d: %.15g vs %.15g", k, wc[k],
          exact(lo_k + k));

  /* The same window by the subspace iteration with blocks of 4 and a fixed degree (a set
   * degree is kept above max_degree). */
  CHECK(tseig_sparse_set_int(a, "block_width", 4) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_degree", 40) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_max_degree", 20) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_subspace", 1) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_pipeline_blocks", 3) == TSEIG_OK,
        "set_int: %s", tseig_sparse_error_message());
  double ws[64], rs[64];
  err = tseig_sparse_chebfd(a, 0.5, 0.95, 1e-9, 64, &found, ws, NULL, 1, rs, &its);
  CHECK(err == TSEIG_OK && found == inside, "chebfd, subspace: %d, %d found, %d exact: %s", err,
        found, inside, tseig_sparse_error_message());
  for (int k = 0; k < found && err == TSEIG_OK; ++k)
    CHECK(fabs(ws[k] - exact(lo_k + k)) < 1e-8, "chebfd subspace %d: %.15g", k, ws[k]);
  CHECK(tseig_sparse_set_int(a, "block_width", 0) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_degree", 0) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_max_degree", 0) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_subspace", 0) == TSEIG_OK &&
            tseig_sparse_set_int(a, "chebfd_pipeline_blocks", 0) == TSEIG_OK,
        "set_int back: %s", tseig_sparse_error_message());
  /* Tuning: measured, stored in a file, found again by use_tuning; solves stay right. */
  int pid = (int)getpid(), tuned = -1;
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char tune_file[96];
  snprintf(tune_file, sizeof tune_file, "/tmp/tseig_capi_sparse_tune_%d.json", pid);
  err = tseig_sparse_autotune(a, 0, 4, tune_file);
  CHECK(err == TSEIG_OK, "autotune: %d %s", err, tseig_sparse_error_message());
  err = tseig_sparse_use_tuning(a, 0, tune_file, &tuned);
  CHECK(err == TSEIG_OK && tuned == 1, "use_tuning: %d, found %d", err, tuned);
  err = tseig_sparse_use_tuning(a, 2, tune_file, &tuned);
  CHECK(err == TSEIG_OK && tuned == 0, "use_tuning, no ChebFD entry: %d, found %d", err, tuned);
  err = tseig_sparse_use_tuning(a, 0, "/tmp/tseig_no_such_tuning_file.json", &tuned);
  CHECK(err == TSEIG_OK && tuned == 0, "use_tuning without a file: %d, found %d", err, tuned);
  err = tseig_sparse_chebfd(a, 0.5, 0.95, 1e-9, 64, &found, ws, NULL, 1, rs, &its);
  CHECK(err == TSEIG_OK && found == inside, "chebfd after tuning: %d, %d found", err, found);
  err = tseig_sparse_autotune(a, 3, 4, tune_file);
  CHECK(err == TSEIG_ERROR_INVALID_ARGUMENT, "kernel 3 accepted: %d", err);
  check_same_everywhere(err, "bad kernel");
  CHECK(tseig_sparse_use_tuning(a, 0, tune_file, NULL) == TSEIG_ERROR_INVALID_ARGUMENT,
        "NULL found accepted");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) remove(tune_file);

  CHECK(tseig_sparse_set_int(a, "block_size", 4) == TSEIG_ERROR_INVALID_ARGUMENT &&
            strstr(tseig_sparse_error_message(), "block_size") != NULL,
        "unknown setting: %s", tseig_sparse_error_message());
  CHECK(tseig_sparse_set_int(a, "chebfd_subspace", 2) == TSEIG_ERROR_INVALID_ARGUMENT,
        "chebfd_subspace 2 accepted");
  CHECK(tseig_sparse_set_int(a, "block_width", -1) == TSEIG_ERROR_INVALID_ARGUMENT,
        "block_width -1 accepted");
  CHECK(tseig_sparse_set_int(a, "chebfd_max_degree", -1) == TSEIG_ERROR_INVALID_ARGUMENT,
        "chebfd_max_degree -1 accepted");
  CHECK(tseig_sparse_set_int(a, "chebfd_pipeline_blocks", -1) == TSEIG_ERROR_INVALID_ARGUMENT,
        "chebfd_pipeline_blocks -1 accepted");
  CHECK(tseig_sparse_set_int(NULL, "block_width", 4) == TSEIG_ERROR_NULL_HANDLE, "NULL handle");

  /* Errors, the same on every rank: capacity below the pairs found, a NULL output on
   * the last rank only, an out-of-range column on the last rank only, a NULL handle. */
  err = tseig_sparse_chebfd(a, 0.5, 0.95, 1e-9, 1, &found, wc, NULL, 1, rc, &its);
  CHECK(err == TSEIG_ERROR_INVALID_ARGUMENT, "small capacity: %d", err);
  check_same_everywhere(err, "small capacity");
  err = tseig_sparse_lobpcg(a, 2, 1e-8, 0, 0, capacity, rank == size - 1 ? NULL : &found, w, NULL,
                            1, NULL, NULL);
  CHECK(err == TSEIG_ERROR_INVALID_ARGUMENT, "NULL found on one rank: %d", err);
  check_same_everywhere(err, "NULL found");
  /* The message names the argument and the rank, the same on every rank. */
  char expected[96];
  snprintf(expected, sizeof expected, "found, not NULL on rank %d", size - 1);
  CHECK(strstr(tseig_sparse_error_message(), expected) != NULL, "NULL found: '%s'",
        tseig_sparse_error_message());
  /* A capacity below nev fails before the solve, naming what it needs. */
  err = tseig_sparse_lobpcg(a, 4, 1e-8, 0, 0, 2, &found, w, NULL, 1, NULL, &its);
  CHECK(err == TSEIG_ERROR_INVALID_ARGUMENT && found == 0 && its == 0,
        "capacity 2 < nev 4: %d, found %d", err, found);
  CHECK(strstr(tseig_sparse_error_message(), "capacity >= 4, not 2") != NULL,
        "capacity 2 < nev 4: '%s'", tseig_sparse_error_message());
  err = tseig_sparse_kpm(a, 1, 4, 0, 1, &count, &error, 0, NULL, NULL);
  CHECK(err == TSEIG_ERROR_INVALID_ARGUMENT &&
            strstr(tseig_sparse_error_message(), "moments >= 2, not 1") != NULL,
        "kpm with 1 moment: %d '%s'", err, tseig_sparse_error_message());
  tseig_sparse_t* bad = NULL;
  err = build(rank == size - 1, &bad);
  CHECK(err == TSEIG_ERROR_INVALID_ARGUMENT && bad == NULL, "bad column: %d", err);
  check_same_everywhere(err, "bad column");
  CHECK(tseig_sparse_size(NULL, &n, NULL, NULL, NULL) == TSEIG_ERROR_NULL_HANDLE, "NULL handle");
  err = tseig_sparse_lobpcg(a, 3, 1e-14, 2, 0, capacity, &found, w, NULL, 1, NULL, NULL);
  CHECK(err == TSEIG_ERROR_NOT_CONVERGED, "2 iterations at tol 1e-14: %d", err);
  check_same_everywhere(err, "not converged");

  free(v);
  CHECK(tseig_sparse_destroy(a) == TSEIG_OK, "destroy");
  CHECK(strstr(tseig_capabilities(), "\"lobpcg\"") != NULL, "capabilities: %s",
        tseig_capabilities());
  int total = failures;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("test_capi_sparse: %d failed checks\n", total);
  MPI_Finalize();
  return total != 0;
}
