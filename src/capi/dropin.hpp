#pragma once
// Shared machinery of the ScaLAPACK-signature drop-ins (dropin.cpp: standard problem,
// generalized.cpp: generalized problem): argument checks with ScaLAPACK's INFO codes,
// agreed over the grid, and the run of one call.
#include <algorithm>
#include <cctype>
#include <climits>
#include <string>
#include <vector>

#include "capi/boundary.hpp"
#include "core/blas/scalapack.hpp"
#include "tseig/eigensolver.hpp"
#include "tseig/index_map.hpp"

namespace tseig::capi {

// Positions (1-based) of the arguments a drop-in checks, for INFO = -pos or -(100 pos + field).
struct Positions {
  int jobz, uplo, n, ia, ja, desca, iz, jz, descz;
  int ibtype = 0, ib = 0, jb = 0, descb = 0;  // generalized only
};
inline constexpr Positions syevd_pos{1, 2, 3, 5, 6, 7, 10, 11, 12};
inline constexpr Positions sygvd_pos{2, 3, 4, 6, 7, 8, 15, 16, 17, 1, 10, 11, 12};

// The first wrong argument on this process: returns the positive INFO code (0 if none)
// and says why in `why`.
struct ArgCheck {
  int code = 0;
  std::string why;
  void fail(int c, const std::string& text) {
    if (code == 0) {
      code = c;
      why = text;
    }
  }
  void scalar(bool ok, int pos, const std::string& text) {
    if (!ok) fail(pos, "argument " + std::to_string(pos) + ": " + text);
  }
  // An argument every rank must pass alike (JOBZ, RANGE, UPLO, N): ranks that differ
  // would run different collectives. Called in the same order on every rank.
  void same(int pos, int value) {
    alike.push_back(pos);
    alike.push_back(value);
  }
  std::vector<int> alike;  // position, value, position, value, ...
  // A descriptor of an N x N (or larger) matrix starting at (1, 1) on grid g.
  void descriptor(const int* d, int pos, int n, int ctxt, const Grid& g) {
    auto field = [&](bool ok, int f, const char* name, const std::string& text) {
      if (!ok)
        fail(100 * pos + f, "argument " + std::to_string(pos) + " (descriptor) field " +
                                std::to_string(f) + " " + name + " = " + std::to_string(d[f - 1]) +
                                ": " + text);
    };
    field(d[0] == 1, 1, "DTYPE", "only dense descriptors (1)");
    field(d[1] == ctxt, 2, "CTXT", "must be the context of DESCA");
    field(d[2] >= n, 3, "M", "must be >= N = " + std::to_string(n));
    field(d[3] >= n, 4, "N", "must be >= N = " + std::to_string(n));
    field(d[4] >= 1, 5, "MB", "must be >= 1");
    field(d[5] >= 1, 6, "NB", "must be >= 1");
    field(d[6] >= 0 && d[6] < g.nprow(), 7, "RSRC", "must be in [0, nprow)");
    field(d[7] >= 0 && d[7] < g.npcol(), 8, "CSRC", "must be in [0, npcol)");
    if (d[4] >= 1 && d[6] >= 0 && d[6] < g.nprow()) {
      const int rows = block_cyclic::local_count(d[2], d[4], g.myrow(), d[6], g.nprow());
      field(d[8] >= std::max(1, rows), 9, "LLD",
            "must be >= max(1, local rows) = " + std::to_string(std::max(1, rows)));
    }
  }
};

// Collective: the smallest INFO code over all ranks, with its message, as a CError.
inline void agree(const Grid& g, const ArgCheck& check) {
  // The first argument that differs between ranks (max(x) ≠ ~max(~x)), the same on all.
  std::vector<int> v;
  for (std::size_t k = 1; k < check.alike.size(); k += 2)
    v.insert(v.end(), {check.alike[k], ~check.alike[k]});
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_INT, MPI_MAX, g.comm());
  int differs = INT_MAX;
  for (std::size_t k = 0; k < v.size(); k += 2)
    if (v[k] != ~v[k + 1]) differs = std::min(differs, check.alike[k]);
  if (differs != INT_MAX)
    raise_c_if_any(
        g.comm(), true, -differs,
        "argument " + std::to_string(differs) + " differs between the ranks of the grid");
  int mine = check.code ? check.code : INT_MAX, first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, g.comm());
  if (first != INT_MAX) raise_c_if_any(g.comm(), check.code == first, -first, check.why);
}

// The leading n x n part of a caller's matrix (ia = ja = 1), on grid g.
template <class T>
DistMatrix<T> leading_view(const Grid& g, const int* d, int n, const T* a) {
  Descriptor desc{1, g.blacs_context(), n, n, d[4], d[5], d[6], d[7], d[8]};
  return DistMatrix<T>::view(g, desc, const_cast<T*>(a));
}

inline char upper(const char* c) {
  return c ? static_cast<char>(std::toupper(*c)) : '\0';
}

// INFO from an exception: negative codes of argument checks pass through, B not positive
// definite is p?sygvx's 16, any other failure 1. The text goes to dropin_message().
inline int info_of(int code, const std::string& message, bool generalized) {
  dropin_message() = message;
  if (code < 0) return code;
  if (generalized && code == TSEIG_ERROR_NOT_POSITIVE_DEFINITE) return 16;
  return 1;
}

// Checks of the arguments p?syevd and p?sygvd share (descriptors of A and, for JOBZ = 'V', Z).
inline void check_common(ArgCheck& check, const Positions& pos, const Grid& g, const char* jobz,
                         const char* uplo, const int* n, const int* ia, const int* ja,
                         const int* desca, const int* iz, const int* jz, const int* descz) {
  const char jz_ = upper(jobz), ul = upper(uplo);
  check.same(pos.jobz, jz_);
  check.same(pos.uplo, ul);
  check.same(pos.n, *n);
  check.scalar(jz_ == 'V' || jz_ == 'N', pos.jobz, "JOBZ must be 'V' or 'N'");
  check.scalar(ul == 'L' || ul == 'U', pos.uplo, "UPLO must be 'L' or 'U'");
  check.scalar(*n >= 0, pos.n, "N must be >= 0");
  check.scalar(*ia == 1, pos.ia, "IA must be 1 (tseig works on whole matrices)");
  check.scalar(*ja == 1, pos.ja, "JA must be 1 (tseig works on whole matrices)");
  if (*n >= 0) check.descriptor(desca, pos.desca, *n, desca[1], g);
  if (jz_ == 'V') {
    check.scalar(*iz == 1, pos.iz, "IZ must be 1 (tseig works on whole matrices)");
    check.scalar(*jz == 1, pos.jz, "JZ must be 1 (tseig works on whole matrices)");
    if (*n >= 0) check.descriptor(descz, pos.descz, *n, desca[1], g);
  }
}

// One drop-in call: returns INFO. A process outside the grid returns at once, as in
// ScaLAPACK; the others run check(g, ArgCheck&), agree on its outcome, then solve(g).
template <class Check, class Solve>
int run_dropin(const Positions& pos, const int* desca, bool generalized, Check&& check,
               Solve&& solve) {
  // BLACS stops the program on an invalid context; gridinfo is the one safe query.
  int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  scalapack::Cblacs_gridinfo(desca[1], &nprow, &npcol, &myrow, &mycol);
  if (nprow < 1 || myrow < 0)
    return info_of(
        -(100 * pos.desca + 2),
        "DESCA CTXT = " + std::to_string(desca[1]) + " is not a BLACS grid this process belongs to",
        generalized);
  std::string message;
  const int code = guarded(message, [&] {
    Grid g = Grid::from_blacs(desca[1]);
    ArgCheck args;
    check(g, args);
    agree(g, args);
    solve(g);
  });
  if (code == TSEIG_OK) return 0;
  return info_of(code, message, generalized);
}

// A workspace query of the ScaLAPACK interface: minimal sizes, nothing computed.
template <class W>
void minimal_workspace(W* work, int* iwork, real_t<W>* rwork = nullptr) {
  if (work) work[0] = W(1);
  if (iwork) iwork[0] = 1;
  if (rwork) rwork[0] = 1;
}

inline bool is_query(const int* l1, const int* l2, const int* l3 = nullptr) {
  return (l1 && *l1 == -1) || (l2 && *l2 == -1) || (l3 && *l3 == -1);
}

}  // namespace tseig::capi

// The Fortran external name of drop-in `name` (gfortran and most compilers: lowercase +
// underscore), for programs without tseig's module. Exported: the library builds with
// hidden visibility, and an alias does not inherit its target's.
#define TSEIG_FORTRAN_ALIAS(name, ...) \
  TSEIG_API void name##_(__VA_ARGS__) __attribute__((alias(#name)));
