// Laplacians and graphene: nearest-neighbour lattices with known spectra.
#include "core/instantiate.hpp"
#include "sparse/generators/generate_rows.hpp"
#include "sparse/generators/tiled_grid.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/generators.hpp"

namespace tseig::sparse {

namespace {

std::int64_t wrap(std::int64_t i, std::int64_t n) {
  return (i % n + n) % n;
}

void require_sizes(MPI_Comm comm, std::initializer_list<std::int64_t> sizes, const char* what) {
  bool bad = false;
  for (std::int64_t s : sizes) bad = bad || s < 1;
  raise_if_any(comm, bad, ErrorCode::invalid_argument,
               std::string(what) + ": every lattice dimension must be at least 1");
}

}  // namespace

template <class T>
Matrix<T> laplacian_3d(MPI_Comm comm, const Laplacian3d& lattice, const SparseTuneParameters& tune,
                       std::span<const double> weights) {
  const std::int64_t nx = lattice.nx, ny = lattice.ny, nz = lattice.nz;
  require_sizes(comm, {nx, ny, nz}, "laplacian_3d");
  raise_if_any(comm, lattice.tile_x < 0 || lattice.tile_y < 0, ErrorCode::invalid_argument,
               "laplacian_3d: tile_x and tile_y must be 0 (the whole axis) or positive");
  // 0: the whole axis, so the default is the plain numbering (generators.hpp).
  const std::int64_t tile_x = lattice.tile_x > 0 ? lattice.tile_x : nx;
  const std::int64_t tile_y = lattice.tile_y > 0 ? lattice.tile_y : ny;
  const TiledGrid grid(nx, ny, nz, tile_x, tile_y);
  const RowGenerator<T> row = [=](std::int64_t i, auto& e) {
    const auto [x, y, z] = grid.point(i);
    if (z > 0) e.emplace_back(grid.index(x, y, z - 1), T(-1));
    if (y > 0) e.emplace_back(grid.index(x, y - 1, z), T(-1));
    if (x > 0) e.emplace_back(grid.index(x - 1, y, z), T(-1));
    e.emplace_back(i, T(6));
    if (x + 1 < nx) e.emplace_back(grid.index(x + 1, y, z), T(-1));
    if (y + 1 < ny) e.emplace_back(grid.index(x, y + 1, z), T(-1));
    if (z + 1 < nz) e.emplace_back(grid.index(x, y, z + 1), T(-1));
  };
  return generate_rows(comm, nx * ny * nz, row, tune, weights);
}

template <class T>
Matrix<T> laplacian_3d(MPI_Comm comm, std::int64_t nx, std::int64_t ny, std::int64_t nz,
                       const SparseTuneParameters& tune, std::span<const double> weights) {
  return laplacian_3d<T>(comm, Laplacian3d{.nx = nx, .ny = ny, .nz = nz}, tune, weights);
}

template <class T>
Matrix<T> laplacian_2d_periodic(MPI_Comm comm, std::int64_t nx, std::int64_t ny,
                                const SparseTuneParameters& tune, std::span<const double> weights) {
  require_sizes(comm, {nx, ny}, "laplacian_2d_periodic");
  const RowGenerator<T> row = [=](std::int64_t i, auto& e) {
    const std::int64_t x = i % nx, y = i / nx;
    e.emplace_back(i, T(4));
    e.emplace_back(wrap(x - 1, nx) + nx * y, T(-1));
    e.emplace_back(wrap(x + 1, nx) + nx * y, T(-1));
    e.emplace_back(x + nx * wrap(y - 1, ny), T(-1));
    e.emplace_back(x + nx * wrap(y + 1, ny), T(-1));
  };
  return generate_rows(comm, nx * ny, row, tune, weights);
}

template <class T>
Matrix<T> graphene(MPI_Comm comm, std::int64_t nx, std::int64_t ny,
                   const SparseTuneParameters& tune, std::span<const double> weights) {
  require_sizes(comm, {nx, ny}, "graphene");
  // Site A of cell (x, y) bonds to B of cells (x, y), (x−1, y), (x, y−1); B the reverse.
  const RowGenerator<T> row = [=](std::int64_t i, auto& e) {
    const std::int64_t cell = i / 2, x = cell % nx, y = cell / nx;
    const int step = i % 2 == 0 ? -1 : 1, other = 1 - static_cast<int>(i % 2);
    auto site = [&](std::int64_t cx, std::int64_t cy) {
      return 2 * (wrap(cx, nx) + nx * wrap(cy, ny)) + other;
    };
    e.emplace_back(site(x, y), T(-1));
    e.emplace_back(site(x + step, y), T(-1));
    e.emplace_back(site(x, y + step), T(-1));
  };
  return generate_rows(comm, 2 * nx * ny, row, tune, weights);
}

#define TSEIG_INSTANTIATE(T)                                                                       \
  template TSEIG_API Matrix<T> laplacian_3d(MPI_Comm, const Laplacian3d&,                          \
                                            const SparseTuneParameters&, std::span<const double>); \
  template TSEIG_API Matrix<T> laplacian_3d(MPI_Comm, std::int64_t, std::int64_t, std::int64_t,    \
                                            const SparseTuneParameters&, std::span<const double>); \
  template TSEIG_API Matrix<T> laplacian_2d_periodic(                                              \
      MPI_Comm, std::int64_t, std::int64_t, const SparseTuneParameters&, std::span<const double>); \
  template TSEIG_API Matrix<T> graphene(MPI_Comm, std::int64_t, std::int64_t,                      \
                                        const SparseTuneParameters&, std::span<const double>);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
