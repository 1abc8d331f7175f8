/* Helpers of the C API tests: block-cyclic layouts, test matrices defined entry by entry
 * (so every rank can fill its part), gathering to a full double complex copy, accuracy
 * checks against LAPACK, and failure counting. Type letters: 'd', 'f', 'z', 'c'. */
#ifndef TSEIG_TEST_CAPI_UTIL_H
#define TSEIG_TEST_CAPI_UTIL_H

#include <complex.h>
#include <mpi.h>
#include <stddef.h>

typedef struct {
  int m, n, mb, nb; /* global size, block sizes */
  int rsrc, csrc;   /* process of the first block */
  int nprow, npcol, myrow, mycol;
  int rows, cols, lld; /* local rows and columns, leading dimension max(1, rows) */
} layout_t;

extern int failures; /* checks that failed on this rank */
extern int rank;     /* in MPI_COMM_WORLD */

/* Counts and reports (with the rank) a failed check. */
#define CHECK(cond, ...)                                                           \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      ++failures;                                                                  \
      fprintf(stderr, "rank %d: %s:%d: check failed: ", rank, __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                                \
      fprintf(stderr, "\n");                                                       \
    }                                                                              \
  } while (0)

int local_count(int n, int nb, int p, int np); /* first block on process 0 */
layout_t make_layout(int m, int n, int mb, int nb, int nprow, int npcol, int myrow, int mycol);
/* The same with the first block on process (rsrc, csrc). */
layout_t make_layout_src(int m, int n, int mb, int nb, int rsrc, int csrc, int nprow, int npcol,
                         int myrow, int mycol);
/* The most square nprow x npcol = size with nprow <= npcol. */
void grid_shape(int size, int* nprow, int* npcol);

size_t type_size(char type);
int is_complex(char type);
double type_eps(char type);
/* Zeroed local array of the layout (free with free()). */
void* alloc_local(char type, const layout_t* l);

/* Entries of the test matrices: a Hermitian H with spread eigenvalues and a Hermitian
 * positive definite S (diagonally dominant). cplx = 0 gives real symmetric ones. */
double complex h_entry(int i, int j, int cplx);
double complex s_entry(int i, int j, int cplx);
/* Sets the local part of a to f(i, j, is_complex(type)). */
void fill_local(void* a, char type, const layout_t* l, double complex (*f)(int, int, int));
/* The full m x n matrix (column-major) on every rank of comm. */
double complex* gather_full(const void* a, char type, const layout_t* l, MPI_Comm comm);
double complex* full_matrix(int n, double complex (*f)(int, int, int), int cplx);

/* max_k ||H z_k - w_k S z_k|| / ||H||_F over the first nev columns (S = NULL: identity). */
double residual(const double complex* H, const double complex* S, const double complex* Z,
                const double* w, int n, int nev);
/* max |Z^H S Z - I| over the first nev columns (S = NULL: identity). */
double orthogonality(const double complex* S, const double complex* Z, int n, int nev);
/* Eigenvalues of H (S = NULL) or of the pencil (H, S) by LAPACK zheev/zhegv. */
void lapack_eigenvalues(const double complex* H, const double complex* S, int n, double* w);
/* Eigenvalues from a solver as doubles (float or double array). */
void to_double(const void* w, char type, int n, double* out);

#endif
