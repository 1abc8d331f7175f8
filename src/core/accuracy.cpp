// Accuracy measures: scaled residual, loss of orthogonality, eigenvalue error.
#include "tseig/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/blas/scalapack.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "tseig/error.hpp"

namespace tseig::accuracy {

namespace {

// NaN-propagating max: a NaN anywhere must show up in the measure, not vanish.
template <class R>
R nan_max(R a, R b) {
  return (std::isnan(a) || a >= b) ? a : b;
}

template <class R>
R global_max(R local, MPI_Comm comm) {
  // MPI_MAX drops NaNs on some implementations; count them separately.
  int nan = std::isnan(local) ? 1 : 0, any_nan = 0;
  MPI_Allreduce(&nan, &any_nan, 1, MPI_INT, MPI_MAX, comm);
  if (any_nan) return std::numeric_limits<R>::quiet_NaN();
  R result{};
  MPI_Allreduce(&local, &result, 1, mpi_type<R>(), MPI_MAX, comm);
  return result;
}

// max |G − I| over the distributed square matrix G, on every rank.
template <class T>
real_t<T> distance_to_identity(const DistMatrix<T>& G) {
  using R = real_t<T>;
  R worst = 0;
  for (int lj = 0; lj < G.local_cols(); ++lj) {
    const int gj = G.global_col(lj);
    for (int li = 0; li < G.local_rows(); ++li) {
      T g = G.local(li, lj);
      if (G.global_row(li) == gj) g -= T(1);
      worst = nan_max(worst, std::abs(g));
    }
  }
  return global_max(worst, G.grid().comm());
}

}  // namespace

template <class T>
real_t<T> residual(const DistMatrix<T>& A, const std::vector<real_t<T>>& w,
                   const DistMatrix<T>& Z) {
  using R = real_t<T>;
  const Grid& grid = A.grid();
  const int n = A.n();
  const int nev = static_cast<int>(w.size());
  raise_if_any(grid.comm(), A.m() != n || Z.m() != n || Z.n() < nev, ErrorCode::invalid_argument,
               "accuracy::residual: need a square A, Z with as many rows and at least w.size() "
               "columns (A " +
                   std::to_string(A.m()) + "x" + std::to_string(n) + ", Z " +
                   std::to_string(Z.m()) + "x" + std::to_string(Z.n()) + ", " +
                   std::to_string(nev) + " eigenvalues)");
  if (n == 0 || nev == 0) return R(0);

  // pgemm wants Z on A's grid with its rows blocked like A's columns; copy Z only if not.
  const bool aligned = Z.grid().same_as(grid) && Z.mb() == A.nb();
  DistMatrix<T> copy;
  if (!aligned) copy = Z.redistribute(grid, A.nb(), Z.nb());
  const DistMatrix<T>& Zw = aligned ? Z : copy;

  // AZ has Zw's layout, so AZ(i,k) − λ_k·Zw(i,k) is a local operation.
  DistMatrix<T> AZ(grid, n, nev, Zw.mb(), Zw.nb(), Zw.rsrc(), Zw.csrc());
  scalapack::pgemm<T>('N', 'N', n, nev, n, T(1), A.data(), 1, 1, A.desc(), Zw.data(), 1, 1,
                      Zw.desc(), T(0), AZ.data(), 1, 1, AZ.desc());

  const R anorm = scalapack::plange<T>('O', n, n, A.data(), 1, 1, A.desc());
  // Dividing by ‖A‖ before squaring keeps huge and tiny matrices from over- or underflowing.
  // ‖A‖ = 0 (a zero matrix): the unscaled residual is the only meaningful number.
  const R scale = anorm > 0 ? anorm : R(1);

  // Squared column norms: local partial sums, then summed over the process column.
  std::vector<R> norms(AZ.local_cols(), R(0));
  for (int lj = 0; lj < AZ.local_cols(); ++lj) {
    const R lambda = w[AZ.global_col(lj)];
    R sum = 0;
    for (int li = 0; li < AZ.local_rows(); ++li)
      sum += std::norm((AZ.local(li, lj) - lambda * Zw.local(li, lj)) / scale);
    norms[lj] = sum;
  }
  MPI_Allreduce(MPI_IN_PLACE, norms.data(), static_cast<int>(norms.size()), mpi_type<R>(), MPI_SUM,
                grid.col_comm());
  R worst = 0;
  for (R s : norms) worst = nan_max(worst, std::sqrt(s));
  worst = global_max(worst, grid.comm());
  return anorm > 0 ? worst / static_cast<R>(n) : worst;
}

template <class T>
real_t<T> orthogonality(const DistMatrix<T>& Z, int nev) {
  using R = real_t<T>;
  const Grid& grid = Z.grid();
  raise_if_any(grid.comm(), nev < 0 || nev > Z.n(), ErrorCode::invalid_argument,
               "accuracy::orthogonality: nev = " + std::to_string(nev) + " is outside [0, " +
                   std::to_string(Z.n()) + "]");
  if (nev == 0) return R(0);
  // The upper triangle of G = ZᴴZ (half the flops of a full product), blocked like Z's
  // columns on both sides; the strict lower triangle stays 0 and adds nothing to the max.
  DistMatrix<T> G(grid, nev, nev, Z.nb());
  const char op = is_complex_v<T> ? 'C' : 'T';
  scalapack::pherk<T>('U', op, nev, Z.m(), R(1), Z.data(), 1, 1, Z.desc(), R(0), G.data(), 1, 1,
                      G.desc());
  return distance_to_identity(G);
}

namespace {

// M·Zw for the first nev columns, in Zw's layout. M is N×N on Zw's grid; a copy blocked
// like Zw's rows is made only when M's blocking differs.
template <class T>
DistMatrix<T> times(const DistMatrix<T>& M, const DistMatrix<T>& Zw, int nev) {
  const int n = M.n();
  DistMatrix<T> copy;
  const bool aligned = M.grid().same_as(Zw.grid()) && M.nb() == Zw.mb() && M.csrc() == Zw.rsrc();
  if (!aligned) copy = M.redistribute(Zw.grid(), Zw.mb(), Zw.mb(), Zw.rsrc(), Zw.rsrc());
  const DistMatrix<T>& Mw = aligned ? M : copy;
  DistMatrix<T> P(Zw.grid(), n, nev, Zw.mb(), Zw.nb(), Zw.rsrc(), Zw.csrc());
  scalapack::pgemm<T>('N', 'N', n, nev, n, T(1), Mw.data(), 1, 1, Mw.desc(), Zw.data(), 1, 1,
                      Zw.desc(), T(0), P.data(), 1, 1, P.desc());
  return P;
}

}  // namespace

template <class T>
real_t<T> generalized_residual(const DistMatrix<T>& H, const DistMatrix<T>& S,
                               const std::vector<real_t<T>>& w, const DistMatrix<T>& Z) {
  using R = real_t<T>;
  const Grid& grid = H.grid();
  const int n = H.n();
  const int nev = static_cast<int>(w.size());
  raise_if_any(grid.comm(),
               H.m() != n || S.m() != n || S.n() != n || Z.m() != n || Z.n() < nev ||
                   !grid.same_processes(S.grid()) || !grid.same_processes(Z.grid()),
               ErrorCode::invalid_argument,
               "accuracy::generalized_residual: need N×N H and S and Z with N rows and at least "
               "w.size() columns, all over the same processes");
  if (n == 0 || nev == 0) return R(0);
  const DistMatrix<T> Zw = Z.redistribute(grid, H.nb(), H.nb());
  const DistMatrix<T> HZ = times(H, Zw, nev), SZ = times(S, Zw, nev);
  const R hnorm = scalapack::plange<T>('O', n, n, H.data(), 1, 1, H.desc());
  const R snorm = scalapack::plange<T>('O', n, n, S.data(), 1, 1, S.desc());
  // Per column, every entry is divided by the column's largest |z_i| before squaring: z is
  // S-normalized, so a large S (‖S‖ = 1e30 in single precision) makes its entries so small
  // that the squares of the residual's underflowed (a residual of 0), a tiny S so large
  // that those of z overflowed.
  std::vector<R> zmax(static_cast<std::size_t>(HZ.local_cols()), R(0));
  for (int lj = 0; lj < HZ.local_cols(); ++lj)
    for (int li = 0; li < HZ.local_rows(); ++li)
      zmax[lj] = nan_max(zmax[lj], std::abs(Zw.local(li, lj)));
  MPI_Allreduce(MPI_IN_PLACE, zmax.data(), static_cast<int>(zmax.size()), mpi_type<R>(), MPI_MAX,
                grid.col_comm());
  // Squared norms of the scaled residual and of z, summed over the process column.
  std::vector<R> sums(2 * static_cast<std::size_t>(HZ.local_cols()), R(0));
  for (int lj = 0; lj < HZ.local_cols(); ++lj) {
    const R lambda = w[HZ.global_col(lj)];
    R scale = hnorm + std::abs(lambda) * snorm;
    if (!(scale > 0)) scale = 1;
    const R z = zmax[lj] > 0 ? zmax[lj] : R(1);
    for (int li = 0; li < HZ.local_rows(); ++li) {
      sums[2 * lj] += std::norm((HZ.local(li, lj) - lambda * SZ.local(li, lj)) / scale / z);
      sums[2 * lj + 1] += std::norm(Zw.local(li, lj) / z);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), mpi_type<R>(), MPI_SUM,
                grid.col_comm());
  R worst = 0;
  for (std::size_t k = 0; k < sums.size(); k += 2)
    worst = nan_max(worst, std::sqrt(sums[k]) / std::sqrt(sums[k + 1] > 0 ? sums[k + 1] : R(1)));
  return global_max(worst, grid.comm());
}

template <class T>
real_t<T> s_orthogonality(const DistMatrix<T>& S, const DistMatrix<T>& Z, int nev) {
  using R = real_t<T>;
  const Grid& grid = Z.grid();
  raise_if_any(
      grid.comm(),
      nev < 0 || nev > Z.n() || S.m() != Z.m() || S.n() != Z.m() || !grid.same_processes(S.grid()),
      ErrorCode::invalid_argument,
      "accuracy::s_orthogonality: need an N×N S over Z's processes and 0 <= nev = " +
          std::to_string(nev) + " <= " + std::to_string(Z.n()));
  if (nev == 0 || Z.m() == 0) return R(0);
  const DistMatrix<T> SZ = times(S, Z, nev);
  DistMatrix<T> G(grid, nev, nev, Z.nb());
  scalapack::pgemm<T>('C', 'N', nev, nev, Z.m(), T(1), Z.data(), 1, 1, Z.desc(), SZ.data(), 1, 1,
                      SZ.desc(), T(0), G.data(), 1, 1, G.desc());
  return distance_to_identity(G);
}

template <class R>
R eigenvalue_error(const std::vector<R>& w, const std::vector<R>& ref) {
  // Scaled by the whole reference spectrum: it stands for ‖A‖ even when only a few
  // eigenvalues are compared.
  R scale = std::numeric_limits<R>::min();
  for (R r : ref) scale = nan_max(scale, std::abs(r));
  R worst = 0;
  const std::size_t count = std::min(w.size(), ref.size());
  for (std::size_t i = 0; i < count; ++i) worst = nan_max(worst, std::abs(w[i] - ref[i]));
  return worst / scale;
}

#define TSEIG_INSTANTIATE(T)                                                                    \
  template real_t<T> residual(const DistMatrix<T>&, const std::vector<real_t<T>>&,              \
                              const DistMatrix<T>&);                                            \
  template real_t<T> orthogonality(const DistMatrix<T>&, int);                                  \
  template real_t<T> generalized_residual(const DistMatrix<T>&, const DistMatrix<T>&,           \
                                          const std::vector<real_t<T>>&, const DistMatrix<T>&); \
  template real_t<T> s_orthogonality(const DistMatrix<T>&, const DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE
template float eigenvalue_error(const std::vector<float>&, const std::vector<float>&);
template double eigenvalue_error(const std::vector<double>&, const std::vector<double>&);

}  // namespace tseig::accuracy
