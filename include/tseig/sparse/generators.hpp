#pragma once
// Test and benchmark matrices, generated in parallel: every rank makes only its own rows.
// Rows are balanced by nonzeros over the ranks, in proportion to `weights` (one per rank;
// empty: equal). Collective.
#include <mpi.h>

#include <cstdint>
#include <span>

#include "tseig/export.hpp"
#include "tseig/sparse/matrix.hpp"

namespace tseig::sparse {

/// The 7-point Laplacian's lattice and the numbering of its rows. Rows are numbered in
/// tiles of tile_x × tile_y points in (x, y), each spanning all of z (the last tile along x
/// or y narrower where the size does not divide): tiles along x within a row of tiles
/// along y, and within a tile of width w and height h row x' + w·(y' + h·z), (x', y') the
/// point's place in the tile. A row's ±z neighbours then lie w·h rows away instead of
/// nx·ny, at the price of a share 2/w + 2/h of the rows reading one neighbour from the
/// next tile. tile_x = 0 (tile_y = 0) is the whole axis; both 0, the default, is the plain
/// numbering x + nx·(y + ny·z). On 100³ (Zen 5, one core) tiles of 16 × 16 made aug_spmmv
/// and chebfd_op 15–25 % faster at nb = 64 and 40–80 % slower at nb = 8 and 16 (likely: the
/// plain numbering's long runs suit the hardware prefetchers; README "Sparse kernels").
struct Laplacian3d {
  std::int64_t nx = 8, ny = 8, nz = 8;
  std::int64_t tile_x = 0;
  std::int64_t tile_y = 0;
};

/// 7-point Laplacian with Dirichlet boundaries: 6 on the diagonal, −1 per neighbour.
/// Eigenvalues Σ_d 2 − 2cos(π k_d/(n_d+1)).
template <class T>
TSEIG_API Matrix<T> laplacian_3d(MPI_Comm comm, const Laplacian3d& lattice,
                                 const SparseTuneParameters& tune = {},
                                 std::span<const double> weights = {});

/// The same on an nx × ny × nz lattice, plain numbering.
template <class T>
TSEIG_API Matrix<T> laplacian_3d(MPI_Comm comm, std::int64_t nx, std::int64_t ny, std::int64_t nz,
                                 const SparseTuneParameters& tune = {},
                                 std::span<const double> weights = {});

/// 5-point Laplacian on a periodic nx × ny grid: eigenvalues Σ_d 2 − 2cos(2π k_d/n_d).
template <class T>
TSEIG_API Matrix<T> laplacian_2d_periodic(MPI_Comm comm, std::int64_t nx, std::int64_t ny,
                                          const SparseTuneParameters& tune = {},
                                          std::span<const double> weights = {});

/// Nearest-neighbour hopping (−1) on a periodic honeycomb lattice of nx × ny cells with
/// two sites each (row 2·(x + nx·y) + sublattice): eigenvalues
/// ±|1 + e^{2πi a/nx} + e^{2πi b/ny}|.
template <class T>
TSEIG_API Matrix<T> graphene(MPI_Comm comm, std::int64_t nx, std::int64_t ny,
                             const SparseTuneParameters& tune = {},
                             std::span<const double> weights = {});

/// The 3D topological-insulator model of the KPM and ChebFD papers (Kreutzer et al.,
/// Pieper et al.): 4 orbitals per site of an nx × ny × nz lattice, periodic in x and y,
/// open in z,
///   H = −t Σ_{n, j=1..3} [ψ†_{n+e_j} (Γ¹ − iΓ^{j+1})/2 ψ_n + h.c.] + Σ_n ψ†_n (V_n + 2Γ¹) ψ_n
/// with Γ¹ = τ_z ⊗ 1, Γ^{j+1} = τ_x ⊗ σ_j, and on-site disorder V_n uniform in
/// [−disorder/2, disorder/2] (a function of (seed, n) only, n = x + nx·(y + ny·z)). 13
/// entries per bulk row.
///
/// Rows are numbered in tiles of tile_x × tile_z sites in (x, z), each spanning all of y
/// (the last tile along x or z narrower where the size does not divide): tiles along z
/// within a column of tiles along x, and within a tile of width w and depth d row
/// 4·(z' + d·(x' + w·y)) + orbital, (x', z') the site's place in the tile. z runs
/// fastest, a row's farthest neighbours within its tile (±y) lie 4·d·w rows away: that is
/// how long a block row of X must stay in cache during a sweep of the kernels, and small
/// tiles keep it in the core's own cache. The neighbours across a tile's edge come from
/// farther out, a share 2/w + 2/d of the rows (2/w for an untiled z): tiles 8 × 16
/// beat the 2 × nz columns of before at nb ≥ 16 (aug_spmmv on TI 64³, README "Sparse
/// kernels"). tile_x = 0: one tile where 4·nz·nx ≤ 1024, else 8; tile_z = 0: 16 where
/// tile_x is also 0 and the lattice is not one tile, else nz; tile_x ≥ nx and tile_z ≥ nz:
/// one tile, row 4·(z + nz·(x + nx·y)) + orbital.
struct TopologicalInsulator {
  std::int64_t nx = 8, ny = 8, nz = 8;
  double hopping = 1.0;  // t
  double disorder = 0.0;
  std::uint64_t seed = 0;
  std::int64_t tile_x = 0;
  std::int64_t tile_z = 0;
};

/// The topological-insulator Hamiltonian (complex Hermitian; T complex).
template <class T>
TSEIG_API Matrix<T> topological_insulator(MPI_Comm comm, const TopologicalInsulator& model,
                                          const SparseTuneParameters& tune = {},
                                          std::span<const double> weights = {});

}  // namespace tseig::sparse
