// The parameter table below is laid out by hand: keep clang-format away from it.
// clang-format off
/* tseig C API: an ELPA-style handle over the C++ Eigensolver, plus ScaLAPACK-signature
 * drop-in replacements. Usable from C (C99) and C++; it is the base of the Fortran
 * module `tseig` (fortran_interface/).
 *
 * Conventions
 * - Every function returns an int error code (TSEIG_OK = 0), except tseig_strerror and
 *   tseig_last_error_message, which return text, and the drop-ins, which return their
 *   status in INFO as ScaLAPACK does. No function exits, aborts or lets an exception out.
 * - Local arrays are column-major with leading dimension local_nrows, distributed
 *   2D block-cyclically in nblk x nblk blocks with the first block on process (0, 0):
 *   exactly ELPA's layout (and ScaLAPACK's with MB = NB = nblk, RSRC = CSRC = 0).
 * - "Collective" below means: every process of the handle's grid calls it with the same
 *   scalar arguments; an error found on one rank is then returned on every rank, with the
 *   same code and message, so no rank is left waiting. Non-collective calls are local.
 *
 * Typical use (all ranks):
 *   tseig_handle_t* h;
 *   tseig_create(&h);
 *   tseig_set_int(h, "na", na);                tseig_set_int(h, "nev", nev);
 *   tseig_set_int(h, "local_nrows", nrows);    tseig_set_int(h, "local_ncols", ncols);
 *   tseig_set_int(h, "nblk", nblk);            tseig_set_comm(h, MPI_COMM_WORLD);
 *   tseig_set_int(h, "process_row", myrow);    tseig_set_int(h, "process_col", mycol);
 *   if (tseig_setup(h) != TSEIG_OK) puts(tseig_last_error_message(h));
 *   tseig_set_string(h, "solver", "one_stage");
 *   int err = tseig_eigenvectors_d(h, a, ev, q);
 *   tseig_destroy(h);
 *
 * Parameters (tseig_set_int / tseig_set_string / tseig_set_double; "layout" ones only before
 * tseig_setup):
 *   int    na              layout  global order N (required)
 *   int    nblk            layout  block size of the block-cyclic distribution (required)
 *   int    local_nrows     layout  local rows = leading dimension of the local arrays (required)
 *   int    local_ncols     layout  local columns of the local arrays (required)
 *   int    mpi_comm_parent layout  Fortran handle of the communicator of all processes
 *                                  (MPI_Comm_c2f; from C use tseig_set_comm)
 *   int    process_row     layout  this process's grid row    } with mpi_comm_parent
 *   int    process_col     layout  this process's grid column }
 *   int    mpi_comm_rows   layout  Fortran handle: the processes of my grid column, ranked by
 *                                  process row (ELPA's mpi_comm_rows); with mpi_comm_cols and
 *                                  mpi_comm_parent, instead of process_row/process_col
 *   int    mpi_comm_cols   layout  Fortran handle: the processes of my grid row, ranked by
 *                                  process column (ELPA's mpi_comm_cols)
 *   int    blacs_context   layout  an existing BLACS grid: replaces the four above
 *   int    nev             any     number of lowest eigenpairs, 1..na (default -1: all na,
 *                                  or the range below)
 *   int    il, iu          any     index range: eigenpairs il..iu of the ascending spectrum,
 *                                  1 <= il <= iu <= na (ScaLAPACK p?syevr RANGE = 'I'); set
 *                                  both; 0 (default) for both: no index range
 *   double vl, vu          any     value range: every eigenpair with vl < lambda <= vu
 *                                  (RANGE = 'V'; vl < vu, finite); set both (tseig_set_double);
 *                                  unset by default, and once set they stay set on the handle
 *                                  At most one of nev (other than -1), il/iu and vl/vu: a mix
 *                                  (or only one of a pair) makes the next solve return
 *                                  TSEIG_ERROR_INVALID_ARGUMENT on every rank, as does a range
 *                                  outside the matrix. With a range, ev's first `found` entries
 *                                  get the selected eigenvalues (ascending) and q's first
 *                                  `found` columns their vectors; q stays na x na.
 *   int    bandwidth       any     two_stage semi-bandwidth, a multiple of nblk (0: default)
 *   int    check_input     any     1 (default): reject NaN/Inf and non-Hermitian input; 0: trust it
 *   int    gpu             any     0 (default): host only; 1: the stages with a CUDA variant
 *                                  run on each rank's GPU (the solve fails with
 *                                  TSEIG_ERROR_UNSUPPORTED and the reason where a rank has
 *                                  none); 2: the GPU when every rank has one, else the host
 *   string solver          any     "auto" (default: the tuning cache's measured choice, else
 *                                  the machine model's, else one_stage), "one_stage",
 *                                  "two_stage", "scalapack"
 *   string grid_choice     any     "as_given" (default): solve on the grid given; "auto": the
 *                                  solve may run on a better grid of the first ranks (P-1 for
 *                                  a prime P, fewer for a small na or more ranks than cores;
 *                                  README "Working grid")
 *   string tune_file       any     tuning cache (JSON) for "auto" and the SCF mode (default "":
 *                                  the environment variable TSEIG_TUNE_FILE, if set)
 *   string triangle        any     which part of a (and b) is read: "full" (default, checked
 *                                  to be Hermitian), "lower", "upper"; "F", "L", "U" also
 *                                  accepted
 *   int    validate        any     0 (default); 1: check every solve on this handle
 *                                  (tseig/validation.hpp): residual, orthogonality, no
 *                                  eigenvalue missed. A result out of tolerance returns
 *                                  TSEIG_ERROR_ACCURACY (the eigenvalues are then not copied to
 *                                  ev; q holds the computed vectors). Costs a copy of a (and of
 *                                  b) and up to a Cholesky factorization per solve.
 *   double validation_tolerance any (tseig_set_double) 0 (default): 1e3*na*epsilon
 * Result of the last solve (tseig_get_int, read-only; TSEIG_ERROR_PARAMETER_NOT_SET before
 * the first successful solve and after a failed one):
 *   int    found                     eigenpairs the last solve returned: nev, iu-il+1, or the
 *                                    number in (vl, vu] (possibly 0)
 * Results of the last validated solve (tseig_get_int / tseig_get_double, read-only; also
 * after TSEIG_ERROR_ACCURACY; TSEIG_ERROR_PARAMETER_NOT_SET if the last solve was not
 * validated):
 *   int    validation_passed         1 if every check passed
 *   int    validation_count_ok       1 if no eigenvalue below validation_count_bound is missing
 *   int    validation_count_checked  1 if that count was checked; 0 for a range that does not
 *                                    start at the lowest eigenvalue (il > 1, a value range
 *                                    above it) or an empty one: validation_count_ok is then
 *                                    vacuous
 *   double validation_residual       max |A q_i - ev_i q_i| / (na |A|_1) (generalized: the
 *                                    largest backward error); 0 for eigenvalues only
 *   double validation_orthogonality  max |Q^H Q - I| (generalized max |Q^H B Q - I|)
 *   double validation_trace_error    nev = na, standard problem: eigenvalues vs trace and
 *                                    Frobenius norm of A, relative to |A|_1; else 0
 *   double validation_count_bound    see validation_count_ok
 *   double validation_tolerance_used the tolerance the figures were held to
 *   double validation_seconds        time the validation took
 * Performance knobs (tseig/tune.hpp's TuneParameters; any time, results change only by
 * rounding), int, defaults as measured:
 *          bandwidth_target      64  two_stage band width when bandwidth = 0 (rounded up to nblk)
 *          band_sweeps_per_pass 256  two_stage band back-transform: sweeps per column pass
 *          wy_width             256  Householder back-transforms: reflectors per WY block
 *          multiply_depth       256  generalized problems: block rows per hermitian_multiply pass
 *          dc_min_leaf           32  divide & conquer: smallest leaf (≥ 1)
 *          dc_max_panel         256  divide & conquer merges: widest panel of roots
 *          dc_chunk_cols        512  divide & conquer: columns per round into the block-cyclic Z
 *          cache_limit_mb        -1  work-array cache limit in MiB (-1: keep the process's)
 * Getting a parameter that was never set and has no default gives
 * TSEIG_ERROR_PARAMETER_NOT_SET. tseig_get_int(h, "mpi_comm_parent") returns the Fortran
 * handle also when the communicator was given by tseig_set_comm.
 */
// clang-format on
#ifndef TSEIG_TSEIG_H
#define TSEIG_TSEIG_H

#include <mpi.h>

#include "tseig/export.hpp"

#ifdef __cplusplus
#include <complex>
typedef std::complex<float> tseig_complex_float;
typedef std::complex<double> tseig_complex_double;
extern "C" {
#else
#include <complex.h>
typedef float _Complex tseig_complex_float;
typedef double _Complex tseig_complex_double;
#endif

/* Error codes. 1..14 are those of tseig::ErrorCode (include/tseig/error.hpp). */
enum tseig_error_code {
  TSEIG_OK = 0,
  TSEIG_ERROR_INVALID_ARGUMENT = 1,      /* a value is out of range or inconsistent */
  TSEIG_ERROR_INVALID_DESCRIPTOR = 2,    /* a ScaLAPACK descriptor field is wrong */
  TSEIG_ERROR_GRID_MISMATCH = 3,         /* objects on different process grids */
  TSEIG_ERROR_NOT_HERMITIAN = 4,         /* input matrix not symmetric/Hermitian */
  TSEIG_ERROR_NOT_FINITE = 5,            /* input contains NaN or Inf */
  TSEIG_ERROR_NOT_POSITIVE_DEFINITE = 6, /* B (or the matrix to factor) is not PD */
  TSEIG_ERROR_IO = 7,                    /* file I/O failed */
  TSEIG_ERROR_NUMERICAL_FAILURE = 8,     /* an internal LAPACK/ScaLAPACK call failed */
  TSEIG_ERROR_MPI = 9,                   /* an MPI call failed */
  TSEIG_ERROR_OUT_OF_MEMORY = 10,        /* an allocation failed */
  TSEIG_ERROR_UNSUPPORTED = 11,          /* valid request this build cannot serve */
  TSEIG_ERROR_NOT_CONVERGED = 12,        /* an iterative solver stopped at its limits */
  TSEIG_ERROR_ACCURACY = 13,             /* validate = 1 found the result out of tolerance */
  TSEIG_ERROR_DEVICE = 14,               /* a CUDA call or kernel failed */
  TSEIG_ERROR_UNKNOWN_PARAMETER = 100,   /* no parameter of that name */
  TSEIG_ERROR_WRONG_TYPE = 101,          /* set_int on a string parameter or vice versa */
  TSEIG_ERROR_PARAMETER_NOT_SET = 102,   /* get of an unset parameter; setup without one */
  TSEIG_ERROR_SETUP_MISSING = 103,       /* a computation before tseig_setup */
  TSEIG_ERROR_ALREADY_SETUP = 104,       /* tseig_setup twice, or a layout parameter after it */
  TSEIG_ERROR_NULL_HANDLE = 105,         /* the handle (or its address) is NULL */
  TSEIG_ERROR_NO_FACTOR = 106,           /* is_already_decomposed = 1 but no factor is kept */
  TSEIG_ERROR_FACTOR_MISMATCH = 107,     /* is_already_decomposed = 1 with another B */
  TSEIG_ERROR_INTERNAL = 199             /* an unexpected exception (a bug: please report) */
};

typedef struct tseig_handle tseig_handle_t;

/* Name of an error code, e.g. "TSEIG_ERROR_WRONG_TYPE: parameter has another type". */
TSEIG_API const char* tseig_strerror(int code);

/* What this build can do on this machine, as a JSON object (version, scalar types,
 * solvers, sparse kernels, CUDA devices, CUDA-aware MPI). Local; the text stays valid
 * until the thread's next call. */
TSEIG_API const char* tseig_capabilities(void);
/* Detailed message of the last call on h ("" if it succeeded). h = NULL: the last failed
 * drop-in call (tseig_p?syevd, tseig_p?syevr, tseig_p?sygvd) of this thread. The text stays valid
 * until the next call on h (or drop-in call). */
TSEIG_API const char* tseig_last_error_message(const tseig_handle_t* h);

/* Local. *h receives a new handle with no parameters set. */
TSEIG_API int tseig_create(tseig_handle_t** h);
/* Collective after tseig_setup (frees the grid's communicators), local before. NULL: no-op.
 * The handle is freed: any later use of h (tseig_last_error_message included) is
 * undefined, as with free(). */
TSEIG_API int tseig_destroy(tseig_handle_t* h);

/* Local. See the parameter list above. */
TSEIG_API int tseig_set_int(tseig_handle_t* h, const char* name, int value);
TSEIG_API int tseig_get_int(const tseig_handle_t* h, const char* name, int* value);
TSEIG_API int tseig_set_string(tseig_handle_t* h, const char* name, const char* value);
/* Copies the value with its terminating NUL into value[0..length-1];
 * TSEIG_ERROR_INVALID_ARGUMENT if it does not fit. */
TSEIG_API int tseig_get_string(const tseig_handle_t* h, const char* name, char* value, int length);
/* Local. The double parameters and results above (validation_tolerance, validation_*). */
TSEIG_API int tseig_set_double(tseig_handle_t* h, const char* name, double value);
TSEIG_API int tseig_get_double(const tseig_handle_t* h, const char* name, double* value);
/* Local. Sets mpi_comm_parent from a C communicator (not duplicated until tseig_setup);
 * MPI_COMM_NULL is TSEIG_ERROR_INVALID_ARGUMENT. tseig_setup refuses an invalid or inter-
 * communicator handle in mpi_comm_parent, mpi_comm_rows or mpi_comm_cols the same way. */
TSEIG_API int tseig_set_comm(tseig_handle_t* h, MPI_Comm comm);

/* Collective over the parent communicator (or the BLACS context's processes): builds the
 * process grid and checks the layout. Layout parameters are fixed from then on. */
TSEIG_API int tseig_setup(tseig_handle_t* h);

/* SCF-mode autotuning (ELPA's autotune_setup/autotune_step). After tseig_autotune_setup
 * each solve on the handle runs the next candidate of a pruned search (solver, block size,
 * bandwidth, WY width) and times it; when the search ends the best is kept, and stored in
 * the tuning cache (string parameter "tune_file", or TSEIG_TUNE_FILE) when there is one.
 * Every solve stays correct. Parameters the user set (solver other than "auto", knobs
 * other than their defaults) are not searched. tseig_autotune_tuning sets *tuning = 1
 * while candidates remain. Save/load (collective; rank 0 writes/reads) carry the search
 * to a later run. */
TSEIG_API int tseig_autotune_setup(tseig_handle_t* h);
TSEIG_API int tseig_autotune_tuning(const tseig_handle_t* h, int* tuning);
TSEIG_API int tseig_autotune_save(tseig_handle_t* h, const char* path);
TSEIG_API int tseig_autotune_load(tseig_handle_t* h, const char* path);

/* Collective. Standard problem A q = lambda q for the nev lowest eigenpairs, or the
 * selected subset (il/iu, vl/vu): "found" of them, m below.
 * a: local part of A (overwritten); ev: na entries, the first m set (ascending);
 * q: local part of an na x na matrix (local_nrows x local_ncols), the first m columns set. */
TSEIG_API int tseig_eigenvectors_d(tseig_handle_t* h, double* a, double* ev, double* q);
TSEIG_API int tseig_eigenvectors_f(tseig_handle_t* h, float* a, float* ev, float* q);
TSEIG_API int tseig_eigenvectors_z(tseig_handle_t* h, tseig_complex_double* a, double* ev,
                                   tseig_complex_double* q);
TSEIG_API int tseig_eigenvectors_c(tseig_handle_t* h, tseig_complex_float* a, float* ev,
                                   tseig_complex_float* q);
TSEIG_API int tseig_eigenvalues_d(tseig_handle_t* h, double* a, double* ev);
TSEIG_API int tseig_eigenvalues_f(tseig_handle_t* h, float* a, float* ev);
TSEIG_API int tseig_eigenvalues_z(tseig_handle_t* h, tseig_complex_double* a, double* ev);
TSEIG_API int tseig_eigenvalues_c(tseig_handle_t* h, tseig_complex_float* a, float* ev);

/* Collective. Generalized problem A q = lambda B q, B Hermitian positive definite.
 * The handle keeps the Cholesky factor of B: is_already_decomposed = 1 reuses the factor
 * of the previous call (an SCF loop with a fixed overlap matrix) instead of factoring b
 * again. b is read, never written (unlike ELPA, which overwrites it with the factor); on
 * reuse it must be the same B, and a different one gives TSEIG_ERROR_FACTOR_MISMATCH
 * (checked with an exact fingerprint of the part of b that "triangle" names). q is
 * B-orthonormal: Q^H B Q = I. */
TSEIG_API int tseig_generalized_eigenvectors_d(tseig_handle_t* h, double* a, const double* b,
                                               double* ev, double* q, int is_already_decomposed);
TSEIG_API int tseig_generalized_eigenvectors_f(tseig_handle_t* h, float* a, const float* b,
                                               float* ev, float* q, int is_already_decomposed);
TSEIG_API int tseig_generalized_eigenvectors_z(tseig_handle_t* h, tseig_complex_double* a,
                                               const tseig_complex_double* b, double* ev,
                                               tseig_complex_double* q, int is_already_decomposed);
TSEIG_API int tseig_generalized_eigenvectors_c(tseig_handle_t* h, tseig_complex_float* a,
                                               const tseig_complex_float* b, float* ev,
                                               tseig_complex_float* q, int is_already_decomposed);
TSEIG_API int tseig_generalized_eigenvalues_d(tseig_handle_t* h, double* a, const double* b,
                                              double* ev, int is_already_decomposed);
TSEIG_API int tseig_generalized_eigenvalues_f(tseig_handle_t* h, float* a, const float* b,
                                              float* ev, int is_already_decomposed);
TSEIG_API int tseig_generalized_eigenvalues_z(tseig_handle_t* h, tseig_complex_double* a,
                                              const tseig_complex_double* b, double* ev,
                                              int is_already_decomposed);
TSEIG_API int tseig_generalized_eigenvalues_c(tseig_handle_t* h, tseig_complex_float* a,
                                              const tseig_complex_float* b, float* ev,
                                              int is_already_decomposed);

/* Collective. In place Cholesky factorization of the na x na matrix a: A = U^H U with U
 * upper triangular ("triangle" = "full" or "upper"; the upper triangle is read), or
 * A = L L^H ("lower"). The other triangle is set to zero. */
TSEIG_API int tseig_cholesky_d(tseig_handle_t* h, double* a);
TSEIG_API int tseig_cholesky_f(tseig_handle_t* h, float* a);
TSEIG_API int tseig_cholesky_z(tseig_handle_t* h, tseig_complex_double* a);
TSEIG_API int tseig_cholesky_c(tseig_handle_t* h, tseig_complex_float* a);
/* Collective. In place inverse of the triangular na x na matrix a, upper triangular unless
 * "triangle" is "lower". */
TSEIG_API int tseig_invert_triangular_d(tseig_handle_t* h, double* a);
TSEIG_API int tseig_invert_triangular_f(tseig_handle_t* h, float* a);
TSEIG_API int tseig_invert_triangular_z(tseig_handle_t* h, tseig_complex_double* a);
TSEIG_API int tseig_invert_triangular_c(tseig_handle_t* h, tseig_complex_float* a);
/* Collective. C = A^H B as ELPA's hermitian_multiply: A is na x na (handle layout), B and C
 * are na x ncb with the handle's nblk blocks and local sizes nrows_b x ncols_b,
 * nrows_c x ncols_c (nrows = leading dimension). uplo_a / uplo_c: 'U', 'L' or 'F': A is
 * upper / lower triangular / full; only that triangle of C is needed. */
TSEIG_API int tseig_hermitian_multiply_d(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb,
                                         const double* a, const double* b, int nrows_b, int ncols_b,
                                         double* c, int nrows_c, int ncols_c);
TSEIG_API int tseig_hermitian_multiply_f(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb,
                                         const float* a, const float* b, int nrows_b, int ncols_b,
                                         float* c, int nrows_c, int ncols_c);
TSEIG_API int tseig_hermitian_multiply_z(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb,
                                         const tseig_complex_double* a,
                                         const tseig_complex_double* b, int nrows_b, int ncols_b,
                                         tseig_complex_double* c, int nrows_c, int ncols_c);
TSEIG_API int tseig_hermitian_multiply_c(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb,
                                         const tseig_complex_float* a, const tseig_complex_float* b,
                                         int nrows_b, int ncols_b, tseig_complex_float* c,
                                         int nrows_c, int ncols_c);

/* ScaLAPACK drop-ins. Same arguments as ScaLAPACK's p?syevd / p?heevd, all by pointer so
 * that Fortran can call them (a trailing-underscore alias, e.g. tseig_pdsyevd_, is the
 * Fortran external name; hidden CHARACTER lengths are ignored). Collective over the
 * processes of the BLACS grid of DESCA; a process outside it (context -1) may call too and
 * gets INFO = -702 at once, as in ScaLAPACK. The solver is tseig's automatic choice.
 * - IA = JA = IZ = JZ = 1 only; DESCA/DESCZ M, N >= N (the leading N x N part is used), any
 *   MB, NB, RSRC, CSRC (no square-block requirement).
 * - JOBZ = 'V' or 'N' (eigenvalues only; Z, IZ, JZ, DESCZ not referenced).
 * - UPLO = 'L' / 'U': the triangle of A that is read. A is destroyed.
 * - WORK/RWORK/IWORK are not needed and not referenced; they are accepted for signature
 *   compatibility. A workspace query (LWORK, LRWORK or LIWORK = -1) returns minimal sizes
 *   (WORK(1) = RWORK(1) = IWORK(1) = 1) and computes nothing.
 * - INFO = 0 success; -i: argument i is wrong; -(100 i + j): field j of descriptor argument
 *   i is wrong (ScaLAPACK convention; same INFO on every rank); 1: the computation failed;
 *   tseig_last_error_message(NULL) says why. */
TSEIG_API void tseig_pdsyevd(const char* jobz, const char* uplo, const int* n, double* a,
                             const int* ia, const int* ja, const int* desca, double* w, double* z,
                             const int* iz, const int* jz, const int* descz, double* work,
                             const int* lwork, int* iwork, const int* liwork, int* info);
TSEIG_API void tseig_pssyevd(const char* jobz, const char* uplo, const int* n, float* a,
                             const int* ia, const int* ja, const int* desca, float* w, float* z,
                             const int* iz, const int* jz, const int* descz, float* work,
                             const int* lwork, int* iwork, const int* liwork, int* info);
TSEIG_API void tseig_pzheevd(const char* jobz, const char* uplo, const int* n,
                             tseig_complex_double* a, const int* ia, const int* ja,
                             const int* desca, double* w, tseig_complex_double* z, const int* iz,
                             const int* jz, const int* descz, tseig_complex_double* work,
                             const int* lwork, double* rwork, const int* lrwork, int* iwork,
                             const int* liwork, int* info);
TSEIG_API void tseig_pcheevd(const char* jobz, const char* uplo, const int* n,
                             tseig_complex_float* a, const int* ia, const int* ja, const int* desca,
                             float* w, tseig_complex_float* z, const int* iz, const int* jz,
                             const int* descz, tseig_complex_float* work, const int* lwork,
                             float* rwork, const int* lrwork, int* iwork, const int* liwork,
                             int* info);

/* Subset drop-ins: ScaLAPACK's p?syevr / p?heevr with the same arguments, all by pointer
 * (Fortran aliases tseig_pdsyevr_, ...), collective and with the restrictions of the
 * p?syevd drop-ins above (IA = JA = IZ = JZ = 1, DESCZ at least N x N, any MB/NB).
 * - RANGE = 'A': all eigenpairs; 'V': those with VL < lambda <= VU (VL, VU may be -/+Inf);
 *   'I': eigenpairs IL..IU of the ascending spectrum (1 <= IL <= IU <= N; IL = 1, IU = 0
 *   for N = 0). VL, VU, IL, IU are read only for the RANGE that names them.
 * - M: the number of eigenvalues found, in W(1..M) ascending (M = 0 for an interval with
 *   none); JOBZ = 'V': NZ = M and Z's first M columns hold the eigenvectors (NZ is not
 *   referenced for JOBZ = 'N').
 * - WORK/RWORK/IWORK are not needed and not referenced. A workspace query (LWORK, LRWORK
 *   or LIWORK = -1) sets WORK(1) = RWORK(1) = IWORK(1) = 1, valid minima, and computes
 *   nothing (ScaLAPACK would ask for its own, larger, workspace).
 * - INFO as for p?syevd, with p?syevr's codes for the selection: -2 RANGE, -10 VU <= VL
 *   (N > 0), -11 IL outside [1, max(1, N)], -12 IU outside [min(N, IL), N]; DESCZ is
 *   argument 19 (-(1900 + field)). */
TSEIG_API void tseig_pdsyevr(const char* jobz, const char* range, const char* uplo, const int* n,
                             double* a, const int* ia, const int* ja, const int* desca,
                             const double* vl, const double* vu, const int* il, const int* iu,
                             int* m, int* nz, double* w, double* z, const int* iz, const int* jz,
                             const int* descz, double* work, const int* lwork, int* iwork,
                             const int* liwork, int* info);
TSEIG_API void tseig_pssyevr(const char* jobz, const char* range, const char* uplo, const int* n,
                             float* a, const int* ia, const int* ja, const int* desca,
                             const float* vl, const float* vu, const int* il, const int* iu, int* m,
                             int* nz, float* w, float* z, const int* iz, const int* jz,
                             const int* descz, float* work, const int* lwork, int* iwork,
                             const int* liwork, int* info);
TSEIG_API void tseig_pzheevr(const char* jobz, const char* range, const char* uplo, const int* n,
                             tseig_complex_double* a, const int* ia, const int* ja,
                             const int* desca, const double* vl, const double* vu, const int* il,
                             const int* iu, int* m, int* nz, double* w, tseig_complex_double* z,
                             const int* iz, const int* jz, const int* descz,
                             tseig_complex_double* work, const int* lwork, double* rwork,
                             const int* lrwork, int* iwork, const int* liwork, int* info);
TSEIG_API void tseig_pcheevr(const char* jobz, const char* range, const char* uplo, const int* n,
                             tseig_complex_float* a, const int* ia, const int* ja, const int* desca,
                             const float* vl, const float* vu, const int* il, const int* iu, int* m,
                             int* nz, float* w, tseig_complex_float* z, const int* iz,
                             const int* jz, const int* descz, tseig_complex_float* work,
                             const int* lwork, float* rwork, const int* lrwork, int* iwork,
                             const int* liwork, int* info);

/* Generalized drop-ins (ScaLAPACK has no p?sygvd): the arguments of p?sygvx / p?hegvx
 * without the selection (RANGE, VL, VU, IL, IU, ABSTOL, M, NZ, ORFAC), workspace and
 * IFAIL/ICLUSTR/GAP arguments:
 *   (IBTYPE, JOBZ, UPLO, N, A, IA, JA, DESCA, B, IB, JB, DESCB, W, Z, IZ, JZ, DESCZ, INFO)
 * IBTYPE = 1 only (A x = lambda B x). A is destroyed; B is only read (p?sygvx overwrites
 * it with its Cholesky factor). All eigenpairs; Z is B-orthonormal. INFO as for p?syevd
 * with these argument positions (a process outside the grid gets -802, DESCA being
 * argument 8), plus 16: B is not positive definite (p?sygvx's code). */
TSEIG_API void tseig_pdsygvd(const int* ibtype, const char* jobz, const char* uplo, const int* n,
                             double* a, const int* ia, const int* ja, const int* desca,
                             const double* b, const int* ib, const int* jb, const int* descb,
                             double* w, double* z, const int* iz, const int* jz, const int* descz,
                             int* info);
TSEIG_API void tseig_pssygvd(const int* ibtype, const char* jobz, const char* uplo, const int* n,
                             float* a, const int* ia, const int* ja, const int* desca,
                             const float* b, const int* ib, const int* jb, const int* descb,
                             float* w, float* z, const int* iz, const int* jz, const int* descz,
                             int* info);
TSEIG_API void tseig_pzhegvd(const int* ibtype, const char* jobz, const char* uplo, const int* n,
                             tseig_complex_double* a, const int* ia, const int* ja,
                             const int* desca, const tseig_complex_double* b, const int* ib,
                             const int* jb, const int* descb, double* w, tseig_complex_double* z,
                             const int* iz, const int* jz, const int* descz, int* info);
TSEIG_API void tseig_pchegvd(const int* ibtype, const char* jobz, const char* uplo, const int* n,
                             tseig_complex_float* a, const int* ia, const int* ja, const int* desca,
                             const tseig_complex_float* b, const int* ib, const int* jb,
                             const int* descb, float* w, tseig_complex_float* z, const int* iz,
                             const int* jz, const int* descz, int* info);

#ifdef __cplusplus
}
#endif

#include "tseig/tseig_sparse.h"

#endif /* TSEIG_TSEIG_H */
