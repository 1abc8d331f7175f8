// C API of the generalized problem: handle-based generalized solves with a kept Cholesky
// factor, ELPA's cholesky / invert_triangular / hermitian_multiply, and the generalized
// ScaLAPACK-signature drop-ins tseig_p?sygvd / tseig_p?hegvd.
#include <cstring>
#include <vector>

#include "capi/dropin.hpp"
#include "capi/handle.hpp"
#include "capi/solve_into.hpp"
#include "tseig/linalg.hpp"

namespace tseig::capi {
namespace {

// Exact fingerprint of the part of B that `t` names, on this rank: FNV-1a over the
// elements' bytes. Any changed bit of that part changes it (up to hash collisions);
// the other triangle, which the factorization does not read, may differ freely.
template <class T>
std::uint64_t fingerprint(const DistMatrix<T>& B, Triangle t) {
  std::uint64_t h = 14695981039346656037ull ^ static_cast<std::uint64_t>(t);
  unsigned char bytes[sizeof(T)];
  for (int lj = 0; lj < B.local_cols(); ++lj) {
    const int gj = B.global_col(lj);
    for (int li = 0; li < B.local_rows(); ++li) {
      const int gi = B.global_row(li);
      if ((t == Triangle::lower && gi < gj) || (t == Triangle::upper && gi > gj)) continue;
      std::memcpy(bytes, &B.local(li, lj), sizeof(T));
      for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    }
  }
  return h;
}

// The kept factor for B: a new one, or (is_already_decomposed) the previous one after
// checking on every rank that B is the matrix it was computed from.
template <class T>
const CholeskyFactor<T>& factor_for(tseig_handle& h, const DistMatrix<T>& B, bool reuse) {
  const Triangle t = triangle(h);
  const MPI_Comm comm = h.grid.comm();
  if (!reuse) {
    h.kept = std::monostate{};  // a failed factorization leaves no stale factor behind
    const std::uint64_t print = fingerprint(B, t);
    h.kept = KeptFactor<T>{CholeskyFactor<T>(B, t, h.get("check_input") != 0), print};
    return std::get<KeptFactor<T>>(h.kept).factor;
  }
  const auto* kept = std::get_if<KeptFactor<T>>(&h.kept);
  raise_c_if_any(comm, !kept, TSEIG_ERROR_NO_FACTOR,
                 "is_already_decomposed = 1, but this handle keeps no factor of this scalar "
                 "type (the previous generalized call failed, used another type, or none "
                 "happened)");
  raise_c_if_any(comm, kept->fingerprint != fingerprint(B, t), TSEIG_ERROR_FACTOR_MISMATCH,
                 "is_already_decomposed = 1, but b differs on rank " +
                     std::to_string(h.grid.rank()) +
                     " from the b the kept factor was computed from (or triangle changed); "
                     "call with is_already_decomposed = 0 to factor the new b");
  return kept->factor;
}

template <class T>
int generalized(tseig_handle_t* h, T* a, const T* b, real_t<T>* ev, T* q, bool vectors,
                int is_already_decomposed) {
  return on_handle(h, [&] {
    require_setup(*h);
    h->found.reset();  // also when the solve fails before it starts
    require_same_request(*h, vectors, sizeof(T), is_complex_v<T>, 1 + (is_already_decomposed != 0));
    // Every array is checked before the work starts (q's view is made only then).
    DistMatrix<T> A = square_view(*h, a, "a");
    const DistMatrix<T> B = square_view(*h, b, "b");
    require_values(*h, ev, "ev");
    if (vectors) require_local(*h, q, h->get("na"), "q");
    const CholeskyFactor<T>& factor = factor_for(*h, B, is_already_decomposed != 0);
    Eigensolver<T> solver = handle_solver<T>(*h);
    keeping_validation(*h, solver, [&] {
      return solve_into<T>(
          solver, A, &factor, vectors,
          [&] { return square_view(*h, static_cast<const T*>(q), "q"); }, ev);
    });
  });
}

// ELPA's cholesky and invert_triangular work on the upper triangle; "triangle" = "lower"
// selects the lower one.
Triangle factor_triangle(const tseig_handle& h) {
  return triangle(h) == Triangle::lower ? Triangle::lower : Triangle::upper;
}

template <class T>
int cholesky_c(tseig_handle_t* h, T* a) {
  return on_handle(h, [&] {
    require_setup(*h);
    DistMatrix<T> A = square_view(*h, a, "a");
    cholesky(A, factor_triangle(*h));
  });
}

template <class T>
int invert_triangular_c(tseig_handle_t* h, T* a) {
  return on_handle(h, [&] {
    require_setup(*h);
    DistMatrix<T> A = square_view(*h, a, "a");
    invert_triangular(A, factor_triangle(*h));
  });
}

Triangle uplo_of(char c, const char* which) {
  switch (c) {
    case 'U':
    case 'u':
      return Triangle::upper;
    case 'L':
    case 'l':
      return Triangle::lower;
    case 'F':
    case 'f':
      return Triangle::full;
  }
  throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
               std::string(which) + " = '" + std::string(1, c) + "' (expected 'U', 'L' or 'F')");
}

template <class T>
int hermitian_multiply_c(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb, const T* a,
                         const T* b, int nrows_b, int ncols_b, T* c, int nrows_c, int ncols_c) {
  return on_handle(h, [&] {
    require_setup(*h);
    const Triangle ta = uplo_of(uplo_a, "uplo_a"), tc = uplo_of(uplo_c, "uplo_c");
    raise_c_if_any(h->grid.comm(), ncb < 0, TSEIG_ERROR_INVALID_ARGUMENT,
                   "ncb = " + std::to_string(ncb) + " must be >= 0");
    const DistMatrix<T> A = square_view(*h, a, "a");
    const DistMatrix<T> B = view(*h, b, ncb, nrows_b, ncols_b, "b");
    DistMatrix<T> C = view(*h, static_cast<const T*>(c), ncb, nrows_c, ncols_c, "c");
    hermitian_multiply(ta, tc, A, B, C, ncb);
  });
}

template <class T>
void sygvd(const int* ibtype, const char* jobz, const char* uplo, const int* n, T* a, const int* ia,
           const int* ja, const int* desca, const T* b, const int* ib, const int* jb,
           const int* descb, real_t<T>* w, T* z, const int* iz, const int* jz, const int* descz,
           int* info) {
  *info = run_dropin(
      sygvd_pos, desca, true,
      [&](const Grid& g, ArgCheck& check) {
        check.scalar(*ibtype == 1, sygvd_pos.ibtype,
                     "IBTYPE must be 1 (A x = lambda B x; 2 and 3 are not implemented)");
        check_common(check, sygvd_pos, g, jobz, uplo, n, ia, ja, desca, iz, jz, descz);
        check.scalar(*ib == 1, sygvd_pos.ib, "IB must be 1 (tseig works on whole matrices)");
        check.scalar(*jb == 1, sygvd_pos.jb, "JB must be 1 (tseig works on whole matrices)");
        if (*n >= 0) check.descriptor(descb, sygvd_pos.descb, *n, desca[1], g);
        // The A, B, W and Z of p?sygvd's arguments: 5, 9, 13 and 14.
        check_local_array(check, g, a, 5, "A", desca, *n);
        check_local_array(check, g, b, 9, "B", descb, *n);
        check_output_array(check, w, 13, "W", *n);
        if (upper(jobz) == 'V') check_local_array(check, g, z, 14, "Z", descz, *n);
      },
      [&](const Grid& g) {
        EigensolverOptions options;
        options.triangle = upper(uplo) == 'L' ? Triangle::lower : Triangle::upper;
        Eigensolver<T> solver(options);
        DistMatrix<T> A = leading_view(g, desca, *n, a);
        const CholeskyFactor<T> factor(leading_view(g, descb, *n, b), options.triangle);
        solve_into<T>(
            solver, A, &factor, upper(jobz) == 'V', [&] { return leading_view(g, descz, *n, z); },
            w);
      });
}

}  // namespace
}  // namespace tseig::capi

using tseig::capi::cholesky_c;
using tseig::capi::generalized;
using tseig::capi::hermitian_multiply_c;
using tseig::capi::invert_triangular_c;
using tseig::capi::sygvd;

extern "C" {

int tseig_generalized_eigenvectors_d(tseig_handle_t* h, double* a, const double* b, double* ev,
                                     double* q, int is_already_decomposed) {
  return generalized(h, a, b, ev, q, true, is_already_decomposed);
}
int tseig_generalized_eigenvectors_f(tseig_handle_t* h, float* a, const float* b, float* ev,
                                     float* q, int is_already_decomposed) {
  return generalized(h, a, b, ev, q, true, is_already_decomposed);
}
int tseig_generalized_eigenvectors_z(tseig_handle_t* h, tseig_complex_double* a,
                                     const tseig_complex_double* b, double* ev,
                                     tseig_complex_double* q, int is_already_decomposed) {
  return generalized(h, a, b, ev, q, true, is_already_decomposed);
}
int tseig_generalized_eigenvectors_c(tseig_handle_t* h, tseig_complex_float* a,
                                     const tseig_complex_float* b, float* ev,
                                     tseig_complex_float* q, int is_already_decomposed) {
  return generalized(h, a, b, ev, q, true, is_already_decomposed);
}
int tseig_generalized_eigenvalues_d(tseig_handle_t* h, double* a, const double* b, double* ev,
                                    int is_already_decomposed) {
  return generalized<double>(h, a, b, ev, nullptr, false, is_already_decomposed);
}
int tseig_generalized_eigenvalues_f(tseig_handle_t* h, float* a, const float* b, float* ev,
                                    int is_already_decomposed) {
  return generalized<float>(h, a, b, ev, nullptr, false, is_already_decomposed);
}
int tseig_generalized_eigenvalues_z(tseig_handle_t* h, tseig_complex_double* a,
                                    const tseig_complex_double* b, double* ev,
                                    int is_already_decomposed) {
  return generalized<tseig_complex_double>(h, a, b, ev, nullptr, false, is_already_decomposed);
}
int tseig_generalized_eigenvalues_c(tseig_handle_t* h, tseig_complex_float* a,
                                    const tseig_complex_float* b, float* ev,
                                    int is_already_decomposed) {
  return generalized<tseig_complex_float>(h, a, b, ev, nullptr, false, is_already_decomposed);
}

int tseig_cholesky_d(tseig_handle_t* h, double* a) {
  return cholesky_c(h, a);
}
int tseig_cholesky_f(tseig_handle_t* h, float* a) {
  return cholesky_c(h, a);
}
int tseig_cholesky_z(tseig_handle_t* h, tseig_complex_double* a) {
  return cholesky_c(h, a);
}
int tseig_cholesky_c(tseig_handle_t* h, tseig_complex_float* a) {
  return cholesky_c(h, a);
}

int tseig_invert_triangular_d(tseig_handle_t* h, double* a) {
  return invert_triangular_c(h, a);
}
int tseig_invert_triangular_f(tseig_handle_t* h, float* a) {
  return invert_triangular_c(h, a);
}
int tseig_invert_triangular_z(tseig_handle_t* h, tseig_complex_double* a) {
  return invert_triangular_c(h, a);
}
int tseig_invert_triangular_c(tseig_handle_t* h, tseig_complex_float* a) {
  return invert_triangular_c(h, a);
}

int tseig_hermitian_multiply_d(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb,
                               const double* a, const double* b, int nrows_b, int ncols_b,
                               double* c, int nrows_c, int ncols_c) {
  return hermitian_multiply_c(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, c, nrows_c, ncols_c);
}
int tseig_hermitian_multiply_f(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb, const float* a,
                               const float* b, int nrows_b, int ncols_b, float* c, int nrows_c,
                               int ncols_c) {
  return hermitian_multiply_c(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, c, nrows_c, ncols_c);
}
int tseig_hermitian_multiply_z(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb,
                               const tseig_complex_double* a, const tseig_complex_double* b,
                               int nrows_b, int ncols_b, tseig_complex_double* c, int nrows_c,
                               int ncols_c) {
  return hermitian_multiply_c(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, c, nrows_c, ncols_c);
}
int tseig_hermitian_multiply_c(tseig_handle_t* h, char uplo_a, char uplo_c, int ncb,
                               const tseig_complex_float* a, const tseig_complex_float* b,
                               int nrows_b, int ncols_b, tseig_complex_float* c, int nrows_c,
                               int ncols_c) {
  return hermitian_multiply_c(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, c, nrows_c, ncols_c);
}

void tseig_pdsygvd(const int* ibtype, const char* jobz, const char* uplo, const int* n, double* a,
                   const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
                   const int* jb, const int* descb, double* w, double* z, const int* iz,
                   const int* jz, const int* descz, int* info) {
  sygvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, iz, jz, descz, info);
}
void tseig_pssygvd(const int* ibtype, const char* jobz, const char* uplo, const int* n, float* a,
                   const int* ia, const int* ja, const int* desca, const float* b, const int* ib,
                   const int* jb, const int* descb, float* w, float* z, const int* iz,
                   const int* jz, const int* descz, int* info) {
  sygvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, iz, jz, descz, info);
}
void tseig_pzhegvd(const int* ibtype, const char* jobz, const char* uplo, const int* n,
                   tseig_complex_double* a, const int* ia, const int* ja, const int* desca,
                   const tseig_complex_double* b, const int* ib, const int* jb, const int* descb,
                   double* w, tseig_complex_double* z, const int* iz, const int* jz,
                   const int* descz, int* info) {
  sygvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, iz, jz, descz, info);
}
void tseig_pchegvd(const int* ibtype, const char* jobz, const char* uplo, const int* n,
                   tseig_complex_float* a, const int* ia, const int* ja, const int* desca,
                   const tseig_complex_float* b, const int* ib, const int* jb, const int* descb,
                   float* w, tseig_complex_float* z, const int* iz, const int* jz, const int* descz,
                   int* info) {
  sygvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, iz, jz, descz, info);
}

// Fortran external names (gfortran and most compilers: lowercase + underscore).
#define TSEIG_SYGVD_ALIAS(name, T, R)                                                           \
  TSEIG_FORTRAN_ALIAS(name, const int*, const char*, const char*, const int*, T*, const int*,   \
                      const int*, const int*, const T*, const int*, const int*, const int*, R*, \
                      T*, const int*, const int*, const int*, int*)
TSEIG_SYGVD_ALIAS(tseig_pdsygvd, double, double)
TSEIG_SYGVD_ALIAS(tseig_pssygvd, float, float)
TSEIG_SYGVD_ALIAS(tseig_pzhegvd, tseig_complex_double, double)
TSEIG_SYGVD_ALIAS(tseig_pchegvd, tseig_complex_float, float)
#undef TSEIG_SYGVD_ALIAS

}  // extern "C"
