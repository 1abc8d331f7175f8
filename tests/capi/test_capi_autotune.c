/* C API test of the SCF-mode autotuning: every call during the search is a correct solve
 * (residual and orthogonality checked, also after a failing call), the search ends, the
 * tuning cache is written, save/load carries the state, and misuse gets error codes.
 * Exit status 0 iff all checks pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_capi_util.h"
#include "tseig/tseig.h"

enum { N = 60, NB = 8 };
static int size, nprow, npcol;

static void expect(tseig_handle_t* h, int err, int want, const char* what) {
  CHECK(err == want, "%s: got %d (%s) want %d; message: %s", what, err, tseig_strerror(err), want,
        h ? tseig_last_error_message(h) : "");
}

static double complex not_symmetric(int i, int j, int cplx) {
  return i == 0 && j == 1 ? 5.0 : h_entry(i, j, cplx);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  grid_shape(size, &nprow, &npcol);
  layout_t l = make_layout(N, N, NB, NB, nprow, npcol, rank % nprow, rank / nprow);

  /* One path on every rank: rank 0's pid. */
  int pid = (int)getpid();
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char cache[128], state[128];
  snprintf(cache, sizeof cache, "/tmp/tseig_capi_tune_%d.json", pid);
  snprintf(state, sizeof state, "/tmp/tseig_capi_state_%d.json", pid);

  tseig_handle_t* h = NULL;
  expect(NULL, tseig_create(&h), TSEIG_OK, "create");
  expect(h, tseig_autotune_setup(h), TSEIG_ERROR_SETUP_MISSING, "autotune before setup");
  tseig_set_int(h, "na", N);
  tseig_set_int(h, "nblk", NB);
  tseig_set_int(h, "local_nrows", l.lld);
  tseig_set_int(h, "local_ncols", l.cols);
  tseig_set_comm(h, MPI_COMM_WORLD);
  tseig_set_int(h, "process_row", l.myrow);
  tseig_set_int(h, "process_col", l.mycol);
  expect(h, tseig_setup(h), TSEIG_OK, "setup");
  expect(h, tseig_set_string(h, "tune_file", cache), TSEIG_OK, "set tune_file");
  int tuning = -1;
  expect(h, tseig_autotune_tuning(h, &tuning), TSEIG_OK, "tuning before setup");
  CHECK(tuning == 0, "tuning = %d before autotune_setup", tuning);
  expect(h, tseig_autotune_save(h, state), TSEIG_ERROR_INVALID_ARGUMENT, "save without search");
  expect(h, tseig_autotune_setup(h), TSEIG_OK, "autotune_setup");
  /* Saved before the first solve, the state loads back as a search not yet started (the
   * saved text was refused as malformed JSON). */
  expect(h, tseig_autotune_save(h, state), TSEIG_OK, "save before the first solve");
  expect(h, tseig_autotune_load(h, state), TSEIG_OK, "load a search not yet started");
  expect(h, tseig_autotune_tuning(h, &tuning), TSEIG_OK, "tuning after that load");
  CHECK(tuning == 1, "a search not yet started says tuning = %d", tuning);

  double *a = alloc_local('d', &l), *q = alloc_local('d', &l), ev[N];
  double complex* H = full_matrix(N, h_entry, 0);
  int calls = 0;
  for (; calls < 20; ++calls) {
    expect(h, tseig_autotune_tuning(h, &tuning), TSEIG_OK, "tuning");
    if (!tuning) break;
    if (calls == 1) {
      fill_local(a, 'd', &l, not_symmetric);
      expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_ERROR_NOT_HERMITIAN, "bad input");
    }
    fill_local(a, 'd', &l, h_entry);
    expect(h, tseig_eigenvectors_d(h, a, ev, q), TSEIG_OK, "eigenvectors while tuning");
    double complex* Z = gather_full(q, 'd', &l, MPI_COMM_WORLD);
    const double res = residual(H, NULL, Z, ev, N, N), orth = orthogonality(NULL, Z, N, N);
    CHECK(res < 1e-12 && orth < 1e-12, "call %d: residual %.3g orthogonality %.3g", calls, res,
          orth);
    free(Z);
  }
  CHECK(calls >= 3 && calls <= 13, "the search took %d calls", calls);

  /* The finished search is in the cache; save and load carry the state. */
  if (rank == 0) {
    FILE* f = fopen(cache, "r");
    CHECK(f != NULL, "no tuning cache written at %s", cache);
    if (f) fclose(f);
  }
  expect(h, tseig_autotune_save(h, state), TSEIG_OK, "save");
  tseig_handle_t* h2 = NULL;
  tseig_create(&h2);
  tseig_set_int(h2, "na", N);
  tseig_set_int(h2, "nblk", NB);
  tseig_set_int(h2, "local_nrows", l.lld);
  tseig_set_int(h2, "local_ncols", l.cols);
  tseig_set_comm(h2, MPI_COMM_WORLD);
  tseig_set_int(h2, "process_row", l.myrow);
  tseig_set_int(h2, "process_col", l.mycol);
  expect(h2, tseig_setup(h2), TSEIG_OK, "setup 2");
  expect(h2, tseig_autotune_load(h2, state), TSEIG_OK, "load");
  expect(h2, tseig_autotune_tuning(h2, &tuning), TSEIG_OK, "tuning after load");
  CHECK(tuning == 0, "a loaded finished search says tuning = %d", tuning);
  expect(h2, tseig_autotune_load(h2, cache), TSEIG_ERROR_INVALID_ARGUMENT, "load a non-state");
  expect(h2, tseig_autotune_load(h2, "/nonexistent/state.json"), TSEIG_ERROR_IO, "load missing");
  expect(h2, tseig_autotune_tuning(h2, NULL), TSEIG_ERROR_INVALID_ARGUMENT, "NULL tuning");
  tseig_destroy(h2);
  tseig_destroy(h);
  free(a);
  free(q);
  free(H);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    remove(cache);
    remove(state);
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_capi_autotune on %d ranks: %s (%d failed checks)\n", size,
           total == 0 ? "OK" : "FAILED", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
