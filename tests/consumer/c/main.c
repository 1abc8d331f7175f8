/* Uses an installed tseig from C: all eigenpairs of the 1D Laplacian tridiag(-1, 2, -1)
 * of order 40, columns distributed 1D block-cyclically over the ranks (blocks of 4),
 * against 2 - 2cos(k pi / 41). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tseig/tseig.h"
#include "tseig/version.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, np = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const int n = 40, nb = 4;
  int ncols = 0;
  for (int j = 0; j < n; ++j) ncols += (j / nb) % np == rank;
  double* a = calloc((size_t)n * (ncols > 0 ? ncols : 1), sizeof(double));
  double* q = calloc((size_t)n * (ncols > 0 ? ncols : 1), sizeof(double));
  double* ev = calloc(n, sizeof(double));
  for (int j = 0, local = 0; j < n; ++j) {
    if ((j / nb) % np != rank) continue;
    for (int i = 0; i < n; ++i)
      a[i + (size_t)local * n] = i == j ? 2.0 : abs(i - j) == 1 ? -1.0 : 0.0;
    ++local;
  }
  tseig_handle_t* h = NULL;
  int err = tseig_create(&h);
  err |= tseig_set_int(h, "na", n);
  err |= tseig_set_int(h, "nblk", nb);
  err |= tseig_set_int(h, "local_nrows", n);
  err |= tseig_set_int(h, "local_ncols", ncols);
  err |= tseig_set_comm(h, MPI_COMM_WORLD);
  err |= tseig_set_int(h, "process_row", 0);
  err |= tseig_set_int(h, "process_col", rank);
  if (err == TSEIG_OK) err = tseig_setup(h);
  if (err == TSEIG_OK) err = tseig_eigenvectors_d(h, a, ev, q);
  int failures = err != TSEIG_OK;
  for (int k = 0; k < n && !failures; ++k)
    failures += fabs(ev[k] - (2.0 - 2.0 * cos((k + 1) * acos(-1.0) / (n + 1)))) > 1e-12;
  if (rank == 0) {
    if (err != TSEIG_OK) printf("error %d: %s\n", err, tseig_last_error_message(h));
    printf("tseig %s on %d ranks (C): consumer %s\n", TSEIG_VERSION_STRING, np,
           failures == 0 ? "OK" : "FAILED");
  }
  tseig_destroy(h);
  free(a);
  free(q);
  free(ev);
  MPI_Finalize();
  return failures != 0;
}
