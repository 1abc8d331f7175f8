/* tseig C API, sparse layer: a distributed sparse Hermitian matrix from each rank's CSR
 * rows or a Matrix Market file, the KPM density of states and eigenvalue count, LOBPCG
 * and Chebyshev filter diagonalization. Included by tseig/tseig.h.
 *
 * Every call is collective over the matrix's communicator and returns TSEIG_OK or the
 * same error code on every rank; tseig_sparse_error_message() is the text of the calling
 * thread's last failed sparse call. Index arrays are 0-based (the Fortran module
 * tseig_sparse takes 1-based ones).
 *
 *   tseig_sparse_t* a;
 *   tseig_sparse_from_csr_d(MPI_COMM_WORLD, n, my_rows, row_ptr, cols, values, &a);
 *   tseig_sparse_lobpcg(a, 8, 1e-8, 0, 0, 16, &found, w, v, my_rows, res, &its);
 *   tseig_sparse_destroy(a);
 */
#ifndef TSEIG_TSEIG_SPARSE_H
#define TSEIG_TSEIG_SPARSE_H

#include <mpi.h>
#include <stdint.h>

#include "tseig/export.hpp"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tseig_sparse tseig_sparse_t;

/* This rank's local_rows consecutive rows (ranks in rank order) of an n × n matrix:
 * row_ptr[local_rows + 1] from 0, cols (global, 0 <= col < n) and values of each row.
 * Repeated columns are summed. values: double (_d) or double complex (_z). */
TSEIG_API int tseig_sparse_from_csr_d(MPI_Comm comm, int64_t n, int local_rows,
                                      const int64_t* row_ptr, const int64_t* cols,
                                      const double* values, tseig_sparse_t** a);
TSEIG_API int tseig_sparse_from_csr_z(MPI_Comm comm, int64_t n, int local_rows,
                                      const int64_t* row_ptr, const int64_t* cols,
                                      const void* values, tseig_sparse_t** a);
/* A Matrix Market coordinate file read in parallel; type 'd' or 'z'. */
TSEIG_API int tseig_sparse_read(MPI_Comm comm, const char* path, char type, tseig_sparse_t** a);
/* Fortran communicators (MPI_Fint) for the two constructors above. */
TSEIG_API int tseig_sparse_from_csr_d_f(MPI_Fint comm, int64_t n, int local_rows,
                                        const int64_t* row_ptr, const int64_t* cols,
                                        const double* values, tseig_sparse_t** a);
TSEIG_API int tseig_sparse_from_csr_z_f(MPI_Fint comm, int64_t n, int local_rows,
                                        const int64_t* row_ptr, const int64_t* cols,
                                        const void* values, tseig_sparse_t** a);
TSEIG_API int tseig_sparse_destroy(tseig_sparse_t* a);

/* Global order and nonzeros; this rank's rows [first_row, first_row + local_rows). */
TSEIG_API int tseig_sparse_size(const tseig_sparse_t* a, int64_t* n, int64_t* nonzeros,
                                int* local_rows, int64_t* first_row);

/* KPM with `moments` moments and `vectors` random vectors: the number of eigenvalues in
 * [lower, upper] and its stochastic standard error; with points > 0 also the density of
 * states at `points` energies (energy and density arrays of that length; may be NULL
 * when points = 0). */
TSEIG_API int tseig_sparse_kpm(tseig_sparse_t* a, int moments, int vectors, double lower,
                               double upper, double* count, double* error, int points,
                               double* energy, double* density);

/* The nev smallest (largest != 0: largest) eigenpairs by LOBPCG, tol 0: sqrt(eps),
 * max_iterations 0: default. A degenerate level crossing the nev-th pair comes back
 * whole, so up to `capacity` pairs fit into eigenvalues[capacity], residuals[capacity]
 * and vectors (this rank's rows, column-major, leading dimension ldv >= local rows, the
 * matrix's scalar type; NULL: not returned); *found says how many came (0 after any
 * error, as is *iterations). Not converged:
 * TSEIG_ERROR_NOT_CONVERGED with the residuals reached in the message. */
TSEIG_API int tseig_sparse_lobpcg(tseig_sparse_t* a, int nev, double tol, int max_iterations,
                                  int largest, int capacity, int* found, double* eigenvalues,
                                  void* vectors, int ldv, double* residuals, int* iterations);

/* Every eigenpair in [lower, upper] by Chebyshev filter diagonalization; outputs as for
 * tseig_sparse_lobpcg (capacity too small for the pairs found: an error saying how many). */
TSEIG_API int tseig_sparse_chebfd(tseig_sparse_t* a, double lower, double upper, double tol,
                                  int capacity, int* found, double* eigenvalues, void* vectors,
                                  int ldv, double* residuals, int* iterations);

/* Settings of this handle for its later tseig_sparse_lobpcg and tseig_sparse_chebfd
 * calls; not collective, but every rank must set the same (those calls check it):
 *   "block_width"      ChebFD's vectors filtered together, >= 0 (0: the default 8 or
 *                      the tuned width; LOBPCG's block is nev plus guard vectors)
 *   "chebfd_degree"    ChebFD's filter degree, >= 0 (0: planned from the window)
 *   "chebfd_max_degree"  the most a planned degree may reach, >= 0 (0: 10000); a
 *                      narrower window fails with TSEIG_ERROR_NOT_CONVERGED naming it
 *   "chebfd_subspace"  1: ChebFD iterates its filter on a subspace (Pieper et al.)
 *                      instead of a Krylov-Schur space; 0: Krylov-Schur (default)
 *   "chebfd_pipeline_blocks"  the subspace iteration's blocks filtered taking turns,
 *                      each one's halo exchange in flight during the sweep of the one
 *                      before, >= 0 (0: the default 1 or the tuned value; 1: one
 *                      block at a time)
 * An unknown name or a value out of range: TSEIG_ERROR_INVALID_ARGUMENT on this rank. */
TSEIG_API int tseig_sparse_set_int(tseig_sparse_t* a, const char* name, int value);

/* Tuning (collective; the same result on every rank). `kernel` names the solver the
 * tuning is for: 0 spmmv (LOBPCG), 1 aug_spmmv (KPM), 2 chebfd_op (ChebFD).
 * tseig_sparse_autotune times the storage formats (CRS, SELL-C-sigma) with that kernel
 * on blocks of block_width columns (for ChebFD also the block width it then uses and
 * whether its subspace iteration's blocks take turns, "chebfd_pipeline_blocks"), and
 * the projected eigenproblems of orders 200..1600 (up to the matrix's order) on one rank
 * against the grid (a few seconds), stores the best in tune_file (NULL or "":
 * $TSEIG_TUNE_FILE; neither: not stored) and adopts it for this handle: the matrix moves
 * to the best format, later calls use the measured Rayleigh-Ritz threshold.
 * tseig_sparse_use_tuning adopts what a cache holds for `kernel` on a matrix like this
 * one on this many ranks (tseig-tune, or an earlier autotune), ChebFD's block width
 * included unless "block_width" is set; *found says whether it had an entry (0: nothing
 * changes; a corrupt cache warns once). */
TSEIG_API int tseig_sparse_autotune(tseig_sparse_t* a, int kernel, int block_width,
                                    const char* tune_file);
TSEIG_API int tseig_sparse_use_tuning(tseig_sparse_t* a, int kernel, const char* tune_file,
                                      int* found);

TSEIG_API const char* tseig_sparse_error_message(void);

#ifdef __cplusplus
}
#endif

#endif
