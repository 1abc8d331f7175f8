#pragma once
// Typed C++ overloads of the BLACS, PBLAS and ScaLAPACK routines tseig calls.
// Global indices ia, ja are 1-based as in ScaLAPACK; descriptors are int[9].
#include <mpi.h>

#include "core/blas/fortran.hpp"
#include "tseig/types.hpp"

namespace tseig::scalapack {

extern "C" {
// BLACS (C interface).
int Csys2blacs_handle(MPI_Comm comm);
MPI_Comm Cblacs2sys_handle(int ctxt);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ctxt);
int Cblacs_pnum(int ctxt, int prow, int pcol);
void Cblacs_pinfo(int* mypnum, int* nprocs);
void Cblacs_get(int ctxt, int what, int* val);
// BLACS global max of integers (rdest = -1: the result on every process of the scope).
void Cigamx2d(int ctxt, const char* scope, const char* top, int m, int n, int* a, int lda, int* ra,
              int* ca, int ldia, int rdest, int cdest);
// ScaLAPACK TOOLS index maps (1-based; tseig has its own in index_map.hpp, the tests
// compare the two).
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
int indxg2p_(const int* g, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
int indxg2l_(const int* g, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
int indxl2g_(const int* l, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
}

// Redistribution between any two block-cyclic layouts (p?gemr2d).
template <class T>
TSEIG_HIDDEN void gemr2d(int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib,
                         int jb, const int* descb, int ctxt);

// sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C).
template <class T>
TSEIG_HIDDEN void pgemm(char ta, char tb, int m, int n, int k, T alpha, const T* a, int ia, int ja,
                        const int* desca, const T* b, int ib, int jb, const int* descb, T beta,
                        T* c, int ic, int jc, const int* descc);

// The `uplo` triangle of sub(C) = alpha·op(sub(A))·op(sub(A))ᴴ + beta·sub(C), op = 'N' or 'C'
// ('T' for real): p?syrk / p?herk; C is n×n, the other triangle is not touched.
template <class T>
TSEIG_HIDDEN void pherk(char uplo, char trans, int n, int k, real_t<T> alpha, const T* a, int ia,
                        int ja, const int* desca, real_t<T> beta, T* c, int ic, int jc,
                        const int* descc);

// sub(C) = beta·sub(C) + alpha·sub(A)ᴴ (conjugate transpose for complex).
template <class T>
TSEIG_HIDDEN void ptranc(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca,
                         T beta, T* c, int ic, int jc, const int* descc);

// Norms: 'M' max abs, 'O'/'1' one-norm, 'I' inf-norm, 'F' Frobenius.
template <class T>
TSEIG_HIDDEN real_t<T> plange(char norm, int m, int n, const T* a, int ia, int ja,
                              const int* desca);

// QR factorization and explicit Q (p?geqrf, p?orgqr / p?ungqr).
template <class T>
TSEIG_HIDDEN int pgeqrf(int m, int n, T* a, int ia, int ja, const int* desca, T* tau);
template <class T>
TSEIG_HIDDEN int pungqr(int m, int n, int k, T* a, int ia, int ja, const int* desca, const T* tau);

// Hermitian eigensolvers. range 'A' (all) or 'I' (indices il..iu, 1-based) for evr.
// Return ScaLAPACK's info. w has n entries; z's descriptor as ScaLAPACK requires.
template <class T>
TSEIG_HIDDEN int pheevd(char jobz, char uplo, int n, T* a, const int* desca, real_t<T>* w, T* z,
                        const int* descz);
template <class T>
TSEIG_HIDDEN int pheevr(char jobz, char range, char uplo, int n, T* a, const int* desca, int il,
                        int iu, int& m, real_t<T>* w, T* z, const int* descz);

// Distributed divide & conquer for a real symmetric tridiagonal matrix (p?stedc,
// compz = 'I'): d (in: diagonal, out: eigenvalues ascending), e (off-diagonal, destroyed),
// q: the eigenvectors, n×n with square blocks.
template <class R>
TSEIG_HIDDEN int pstedc(int n, R* d, R* e, R* q,
                        const int* descq);  // q must be zero on entry (else wrong λ)

// Generalized eigenproblem pieces (all return ScaLAPACK's info where it has one).
// Cholesky factor of the Hermitian positive definite sub(A) (p?potrf).
template <class T>
TSEIG_HIDDEN int ppotrf(char uplo, int n, T* a, int ia, int ja, const int* desca);
// sub(A) ← inv(Uᴴ)·sub(A)·inv(U) or inv(L)·sub(A)·inv(Lᴴ) (p?sygst / p?hegst, ibtype 1);
// `scale` receives ScaLAPACK's scaling factor of the eigenvalues (1 in practice).
template <class T>
TSEIG_HIDDEN int psygst(char uplo, int n, T* a, int ia, int ja, const int* desca, const T* b,
                        int ib, int jb, const int* descb, real_t<T>& scale);
// Triangular solve sub(B) ← alpha·op(sub(A))⁻¹·sub(B) (side 'L') or sub(B)·op(sub(A))⁻¹.
template <class T>
TSEIG_HIDDEN void ptrsm(char side, char uplo, char transa, char diag, int m, int n, T alpha,
                        const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb,
                        const int* descb);

}  // namespace tseig::scalapack
