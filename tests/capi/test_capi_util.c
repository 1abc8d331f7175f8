#include "test_capi_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int failures = 0;
int rank = 0;

void zheev_(const char* jobz, const char* uplo, const int* n, double complex* a, const int* lda,
            double* w, double complex* work, const int* lwork, double* rwork, int* info, size_t,
            size_t);
void zhegv_(const int* itype, const char* jobz, const char* uplo, const int* n, double complex* a,
            const int* lda, double complex* b, const int* ldb, double* w, double complex* work,
            const int* lwork, double* rwork, int* info, size_t, size_t);

int local_count(int n, int nb, int p, int np) {
  int nblocks = n / nb, count = (nblocks / np) * nb, extra = nblocks % np;
  if (p < extra)
    count += nb;
  else if (p == extra)
    count += n % nb;
  return count;
}

layout_t make_layout_src(int m, int n, int mb, int nb, int rsrc, int csrc, int nprow, int npcol,
                         int myrow, int mycol) {
  layout_t l = {m, n, mb, nb, rsrc, csrc, nprow, npcol, myrow, mycol, 0, 0, 0};
  l.rows = local_count(m, mb, (myrow - rsrc + nprow) % nprow, nprow);
  l.cols = local_count(n, nb, (mycol - csrc + npcol) % npcol, npcol);
  l.lld = l.rows > 1 ? l.rows : 1;
  return l;
}

layout_t make_layout(int m, int n, int mb, int nb, int nprow, int npcol, int myrow, int mycol) {
  return make_layout_src(m, n, mb, nb, 0, 0, nprow, npcol, myrow, mycol);
}

void grid_shape(int size, int* nprow, int* npcol) {
  int p = (int)sqrt((double)size);
  while (size % p) --p;
  *nprow = p;
  *npcol = size / p;
}

size_t type_size(char type) {
  switch (type) {
    case 'f':
      return sizeof(float);
    case 'd':
      return sizeof(double);
    case 'c':
      return sizeof(float complex);
    default:
      return sizeof(double complex);
  }
}

int is_complex(char type) {
  return type == 'c' || type == 'z';
}
double type_eps(char type) {
  return type == 'f' || type == 'c' ? 1.1920929e-7 : 2.220446e-16;
}

void* alloc_local(char type, const layout_t* l) {
  return calloc((size_t)l->lld * (size_t)(l->cols > 1 ? l->cols : 1), type_size(type));
}

double complex h_entry(int i, int j, int cplx) {
  int d = abs(i - j);
  double re = 1.0 / (1 + d) + (i == j ? 0.25 * i : 0.0);
  double im = cplx && i != j ? (i > j ? 0.3 : -0.3) / (1 + d) : 0.0;
  return re + im * I;
}

double complex s_entry(int i, int j, int cplx) {
  int d = abs(i - j);
  if (i == j) return 2.0;
  double re = 0.2 / ((1.0 + d) * (1.0 + d));
  double im = cplx ? (i > j ? 0.1 : -0.1) / ((1.0 + d) * (1.0 + d)) : 0.0;
  return re + im * I;
}

static int global_index(int local, int nb, int p, int src, int np) {
  return (local / nb * np + (p - src + np) % np) * nb + local % nb;
}

void fill_local(void* a, char type, const layout_t* l, double complex (*f)(int, int, int)) {
  for (int lj = 0; lj < l->cols; ++lj)
    for (int li = 0; li < l->rows; ++li) {
      int gi = global_index(li, l->mb, l->myrow, l->rsrc, l->nprow);
      int gj = global_index(lj, l->nb, l->mycol, l->csrc, l->npcol);
      double complex v = f(gi, gj, is_complex(type));
      size_t k = li + (size_t)lj * l->lld;
      switch (type) {
        case 'f':
          ((float*)a)[k] = (float)creal(v);
          break;
        case 'd':
          ((double*)a)[k] = creal(v);
          break;
        case 'c':
          ((float complex*)a)[k] = (float complex)v;
          break;
        default:
          ((double complex*)a)[k] = v;
      }
    }
}

double complex* gather_full(const void* a, char type, const layout_t* l, MPI_Comm comm) {
  double complex* full = calloc((size_t)l->m * l->n + 1, sizeof(double complex));
  for (int lj = 0; lj < l->cols; ++lj)
    for (int li = 0; li < l->rows; ++li) {
      int gi = global_index(li, l->mb, l->myrow, l->rsrc, l->nprow);
      int gj = global_index(lj, l->nb, l->mycol, l->csrc, l->npcol);
      size_t k = li + (size_t)lj * l->lld;
      double complex v;
      switch (type) {
        case 'f':
          v = ((const float*)a)[k];
          break;
        case 'd':
          v = ((const double*)a)[k];
          break;
        case 'c':
          v = ((const float complex*)a)[k];
          break;
        default:
          v = ((const double complex*)a)[k];
      }
      full[gi + (size_t)gj * l->m] = v;
    }
  MPI_Allreduce(MPI_IN_PLACE, full, l->m * l->n, MPI_C_DOUBLE_COMPLEX, MPI_SUM, comm);
  return full;
}

double complex* full_matrix(int n, double complex (*f)(int, int, int), int cplx) {
  double complex* a = malloc(((size_t)n * n + 1) * sizeof(double complex));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[i + (size_t)j * n] = f(i, j, cplx);
  return a;
}

/* y = M x for the full n x n M (M = NULL: identity). */
static void matvec(const double complex* M, const double complex* x, int n, double complex* y) {
  for (int i = 0; i < n; ++i) y[i] = M ? 0 : x[i];
  if (!M) return;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) y[i] += M[i + (size_t)j * n] * x[j];
}

double residual(const double complex* H, const double complex* S, const double complex* Z,
                const double* w, int n, int nev) {
  double normh = 0, worst = 0;
  for (size_t k = 0; k < (size_t)n * n; ++k) normh += creal(H[k] * conj(H[k]));
  normh = sqrt(normh);
  double complex* hz = malloc(n * sizeof(double complex));
  double complex* sz = malloc(n * sizeof(double complex));
  for (int k = 0; k < nev; ++k) {
    const double complex* z = Z + (size_t)k * n;
    matvec(H, z, n, hz);
    matvec(S, z, n, sz);
    double r = 0;
    for (int i = 0; i < n; ++i) r += pow(cabs(hz[i] - w[k] * sz[i]), 2);
    if (sqrt(r) / normh > worst) worst = sqrt(r) / normh;
  }
  free(hz);
  free(sz);
  return worst;
}

double orthogonality(const double complex* S, const double complex* Z, int n, int nev) {
  double worst = 0;
  double complex* sz = malloc(n * sizeof(double complex));
  for (int k = 0; k < nev; ++k) {
    matvec(S, Z + (size_t)k * n, n, sz);
    for (int j = 0; j < nev; ++j) {
      double complex d = 0;
      for (int i = 0; i < n; ++i) d += conj(Z[i + (size_t)j * n]) * sz[i];
      double e = cabs(d - (j == k ? 1.0 : 0.0));
      if (e > worst) worst = e;
    }
  }
  free(sz);
  return worst;
}

void lapack_eigenvalues(const double complex* H, const double complex* S, int n, double* w) {
  size_t nn = (size_t)n * n;
  double complex* a = malloc((nn + 1) * sizeof(double complex));
  double complex* b = malloc((nn + 1) * sizeof(double complex));
  memcpy(a, H, nn * sizeof(double complex));
  if (S) memcpy(b, S, nn * sizeof(double complex));
  int lwork = 4 * n + 64, info = 0, one = 1, lda = n > 1 ? n : 1;
  double complex* work = malloc(lwork * sizeof(double complex));
  double* rwork = malloc((3 * n + 1) * sizeof(double));
  if (S)
    zhegv_(&one, "N", "U", &n, a, &lda, b, &lda, w, work, &lwork, rwork, &info, 1, 1);
  else
    zheev_("N", "U", &n, a, &lda, w, work, &lwork, rwork, &info, 1, 1);
  CHECK(info == 0, "LAPACK reference failed, info %d", info);
  free(a);
  free(b);
  free(work);
  free(rwork);
}

void to_double(const void* w, char type, int n, double* out) {
  for (int k = 0; k < n; ++k)
    out[k] = type == 'f' || type == 'c' ? ((const float*)w)[k] : ((const double*)w)[k];
}
