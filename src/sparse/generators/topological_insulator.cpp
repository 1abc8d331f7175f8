// The topological-insulator Hamiltonian. Row (n, a) holds, for each direction j, row a
// of M_j = −t(Γ¹ − iΓ^{j+1})/2 towards site n − e_j and row a of M_jᴴ towards n + e_j
// (the hopping term and its Hermitian conjugate), plus the on-site V_n + 2Γ¹_aa.
#include <algorithm>
#include <array>
#include <complex>

#include "sparse/generators/generate_rows.hpp"
#include "sparse/generators/tiled_grid.hpp"
#include "sparse/random.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/generators.hpp"

namespace tseig::sparse {

namespace {

using Block = std::array<std::array<std::complex<double>, 4>, 4>;

/// M_j for j = 0, 1, 2 (x, y, z): Γ¹ = τ_z ⊗ 1 = diag(1, 1, −1, −1), Γ^{j+1} = τ_x ⊗ σ_j.
std::array<Block, 3> hopping_blocks(double t) {
  using C = std::complex<double>;
  const C i(0, 1);
  const std::array<std::array<std::array<C, 2>, 2>, 3> sigma{{
      {{{0, 1}, {1, 0}}},
      {{{0, -i}, {i, 0}}},
      {{{1, 0}, {0, -1}}},
  }};
  std::array<Block, 3> m{};
  for (int j = 0; j < 3; ++j)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const C gamma1 = a == b ? C(a < 2 ? 1 : -1) : C(0);
        const C gamma_j = (a < 2) != (b < 2) ? sigma[j][a % 2][b % 2] : C(0);
        m[j][a][b] = -t * (gamma1 - i * gamma_j) / 2.0;
      }
  return m;
}

}  // namespace

template <class T>
Matrix<T> topological_insulator(MPI_Comm comm, const TopologicalInsulator& model,
                                const SparseTuneParameters& tune, std::span<const double> weights) {
  const std::int64_t nx = model.nx, ny = model.ny, nz = model.nz;
  raise_if_any(comm, nx < 1 || ny < 1 || nz < 1, ErrorCode::invalid_argument,
               "topological_insulator: every lattice dimension must be at least 1");
  raise_if_any(comm, model.tile_x < 0 || model.tile_z < 0, ErrorCode::invalid_argument,
               "topological_insulator: tile_x and tile_z must be 0 (automatic) or positive");
  const std::array<Block, 3> m = hopping_blocks(model.hopping);
  // Tiles of tile_x × tile_z sites in (x, z) keep a row's ±y neighbours 4·w·d rows away
  // and make few neighbours cross a tile's edge (generators.hpp).
  const bool small = 4 * nz * nx <= 1024;
  const std::int64_t tile_x = model.tile_x > 0 ? model.tile_x : small ? nx : 8;
  const std::int64_t tile_z = model.tile_z > 0              ? model.tile_z
                              : model.tile_x == 0 && !small ? 16
                                                            : nz;
  const TiledGrid grid(nz, nx, ny, tile_z, tile_x);  // z fastest, then x, y streaming
  auto site = [=](std::int64_t cx, std::int64_t cy, std::int64_t cz) {
    return grid.index(cz, (cx + nx) % nx, (cy + ny) % ny) * 4;
  };
  const RowGenerator<T> row = [=](std::int64_t r, auto& e) {
    const auto [z, x, y] = grid.point(r / 4);
    const int a = static_cast<int>(r % 4);
    const std::array<std::array<std::int64_t, 3>, 3> step{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    for (int j = 0; j < 3; ++j) {
      const bool open = j == 2;
      const std::int64_t zb = z - step[j][2], zf = z + step[j][2];
      for (int b = 0; b < 4; ++b) {
        const auto back = m[j][a][b], forward = std::conj(m[j][b][a]);
        if (back != 0.0 && (!open || zb >= 0))
          e.emplace_back(site(x - step[j][0], y - step[j][1], zb) + b, T(back));
        if (forward != 0.0 && (!open || zf < nz))
          e.emplace_back(site(x + step[j][0], y + step[j][1], zf) + b, T(forward));
      }
    }
    const std::uint64_t n = static_cast<std::uint64_t>(x + nx * (y + ny * z));  // the lattice's n
    const double v = model.disorder * (random_unit(random_bits(model.seed, n)) - 0.5);
    e.emplace_back(r, T(v + (a < 2 ? 2.0 : -2.0)));
  };
  return generate_rows(comm, 4 * nx * ny * nz, row, tune, weights);
}

template TSEIG_API Matrix<std::complex<float>> topological_insulator(MPI_Comm,
                                                                     const TopologicalInsulator&,
                                                                     const SparseTuneParameters&,
                                                                     std::span<const double>);
template TSEIG_API Matrix<std::complex<double>> topological_insulator(MPI_Comm,
                                                                      const TopologicalInsulator&,
                                                                      const SparseTuneParameters&,
                                                                      std::span<const double>);

}  // namespace tseig::sparse
