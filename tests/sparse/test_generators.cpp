// The generators against their known spectra (dense LAPACK solve of the gathered
// matrix), and the structure of the topological-insulator Hamiltonian.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <numbers>
#include <vector>

#include "sparse_reference.hpp"
#include "test_util.hpp"
#include "tseig/sparse/generators.hpp"

namespace tseig::sparse::test {
namespace {

void expect_spectrum(std::vector<double> want, const std::vector<double>& got, double tol) {
  std::sort(want.begin(), want.end());
  ASSERT_EQ(want.size(), got.size());
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(got[k], want[k], tol) << "k = " << k;
}

/// `permuted` is `a` with its rows and columns renumbered, row r of `permuted` being row
/// perm[r] of `a`: checked as permuted·(P x) = P·(a·x) for a block x of distinct rows.
template <class T>
void expect_rows_permuted(const Matrix<T>& permuted, const Matrix<T>& a,
                          const std::vector<std::int64_t>& perm) {
  ASSERT_EQ(permuted.rows(), a.rows());
  EXPECT_EQ(permuted.nonzeros(), a.nonzeros());
  const int nb = 3;
  auto value = [](std::int64_t row, int j) {
    if constexpr (is_complex_v<T>)
      return T(std::sin(row + 0.5 * j), std::cos(3 * row));
    else
      return T(std::sin(row + 0.5 * j));
  };
  MultiVector<T> xp(permuted.vector_layout(), nb), yp(permuted.vector_layout(), nb);
  MultiVector<T> xa(a.vector_layout(), nb), ya(a.vector_layout(), nb);
  for (int i = 0; i < permuted.local_rows(); ++i)
    for (int j = 0; j < nb; ++j) xp(i, j) = value(perm[permuted.first_row() + i], j);
  for (int i = 0; i < a.local_rows(); ++i)
    for (int j = 0; j < nb; ++j) xa(i, j) = value(a.first_row() + i, j);
  spmmv(permuted, xp, yp);
  spmmv(a, xa, ya);
  const std::vector<T> got = gather_rows(yp), want = gather_rows(ya);
  for (std::int64_t r = 0; r < a.rows(); ++r)
    for (int j = 0; j < nb; ++j)
      ASSERT_NEAR(std::abs(got[r * nb + j] - want[perm[r] * nb + j]), 0.0, 1e-13)
          << "row " << r << " column " << j;
}

/// 2 − 2cos(π k/(n+1)), k = 1..n (Dirichlet) or 2 − 2cos(2π k/n), k = 0..n−1 (periodic).
std::vector<double> chain_spectrum(int n, bool periodic) {
  std::vector<double> s;
  for (int k = 0; k < n; ++k)
    s.push_back(2 - 2 * std::cos(periodic ? 2 * std::numbers::pi * k / n
                                          : std::numbers::pi * (k + 1) / (n + 1)));
  return s;
}

template <class T>
class SparseGenerators : public ::testing::Test {};
TYPED_TEST_SUITE(SparseGenerators, tseig::test::ScalarTypes);

TYPED_TEST(SparseGenerators, KnownSpectra) {
  using T = TypeParam;
  const double tol = 200 * tseig::test::eps<T>();
  {
    const auto a = laplacian_3d<T>(MPI_COMM_WORLD, 3, 4, 5);
    std::vector<double> want;
    for (double x : chain_spectrum(3, false))
      for (double y : chain_spectrum(4, false))
        for (double z : chain_spectrum(5, false)) want.push_back(x + y + z);
    expect_spectrum(want, dense_spectrum(a), tol);
  }
  for (auto [nx, ny] : {std::pair{5, 6}, std::pair{2, 3}, std::pair{1, 4}}) {
    const auto a = laplacian_2d_periodic<T>(MPI_COMM_WORLD, nx, ny);
    std::vector<double> want;
    for (double x : chain_spectrum(nx, true))
      for (double y : chain_spectrum(ny, true)) want.push_back(x + y);
    expect_spectrum(want, dense_spectrum(a), tol);
  }
  {
    const int nx = 4, ny = 3;
    const auto a = graphene<T>(MPI_COMM_WORLD, nx, ny);
    std::vector<double> want;
    for (int p = 0; p < nx; ++p)
      for (int q = 0; q < ny; ++q) {
        const double e = std::abs(1.0 + std::polar(1.0, 2 * std::numbers::pi * p / nx) +
                                  std::polar(1.0, 2 * std::numbers::pi * q / ny));
        want.push_back(e);
        want.push_back(-e);
      }
    expect_spectrum(want, dense_spectrum(a), tol);
  }
}

TEST(SparseGenerators, TopologicalInsulatorIsHermitianWith13EntriesPerBulkRow) {
  using T = std::complex<double>;
  TopologicalInsulator model;
  model.nx = 4;
  model.ny = 3;
  model.nz = 3;
  model.disorder = 1.5;
  model.seed = 9;
  const auto a = topological_insulator<T>(MPI_COMM_WORLD, model);
  const std::int64_t n = a.rows(), sites = model.nx * model.ny * model.nz;
  ASSERT_EQ(n, 4 * sites);
  // Bulk rows 13 entries; rows of the two open z faces miss one z hop (2 entries).
  EXPECT_EQ(a.nonzeros(), 52 * sites - 16 * model.nx * model.ny);
  const std::vector<T> h = dense_of(a);
  double asym = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      asym = std::max(asym, std::abs(h[i * n + j] - std::conj(h[j * n + i])));
  EXPECT_LE(asym, 1e-15);
  // Without disorder the spectrum is symmetric about 0 (particle–hole symmetry of the model).
  model.disorder = 0;
  auto w = dense_spectrum(topological_insulator<T>(MPI_COMM_WORLD, model));
  for (std::size_t k = 0; k < w.size(); ++k) EXPECT_NEAR(w[k], -w[w.size() - 1 - k], 1e-12);
  // The same matrix for any rank weights (disorder depends on the site only).
  model.disorder = 1.5;
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<double> weights(p, 1.0);
  weights[0] = 3.0;
  EXPECT_EQ(dense_of(topological_insulator<T>(MPI_COMM_WORLD, model, {}, weights)), h);
}

// Where each row lies on the lattice, by the numbering of generators.hpp, built by
// walking the tiles in order: tiles of tile × tile_z sites in (x, z), along z within each
// column of tiles along x; within a tile y slowest, then x, z fastest.
struct Site {
  std::int64_t x, y, z;
};
std::vector<Site> ti_sites(const TopologicalInsulator& m, std::int64_t tile, std::int64_t tile_z) {
  std::vector<Site> sites;
  for (std::int64_t x0 = 0; x0 < m.nx; x0 += tile)
    for (std::int64_t z0 = 0; z0 < m.nz; z0 += tile_z)
      for (std::int64_t y = 0; y < m.ny; ++y)
        for (std::int64_t x = x0; x < std::min(x0 + tile, m.nx); ++x)
          for (std::int64_t z = z0; z < std::min(z0 + tile_z, m.nz); ++z)
            sites.push_back({x, y, z});
  return sites;
}

/// Row (site, orbital) of the one-tile numbering, 4·(z + nz·(x + nx·y)) + orbital.
std::int64_t untiled_row(const TopologicalInsulator& m, const Site& a, std::int64_t orbital) {
  return 4 * (a.z + m.nz * (a.x + m.nx * a.y)) + orbital;
}

TEST(SparseGenerators, TopologicalInsulatorNumbersRowsInTilesZFastest) {
  // Every entry couples a site to itself or to a lattice neighbour (periodic in x and y,
  // open in z), every neighbour is coupled, and each numbering is the same operator with
  // its rows permuted (disorder included). nx = 5 in tiles of 2 ends with a narrow tile,
  // as does nz = 3 in tiles of 2.
  using T = std::complex<double>;
  TopologicalInsulator model;
  model.nx = 5;
  model.ny = 4;
  model.nz = 3;
  model.disorder = 1.0;
  model.seed = 3;
  const std::int64_t n = 4 * model.nx * model.ny * model.nz;
  std::vector<T> whole;
  // (tile_x, tile_z) asked for → the tiles used. 0 on this small lattice (4·nz·nx = 60 rows
  // between ±y neighbours) is one tile.
  struct Case {
    std::int64_t tile_x, tile_z, tile, depth;
  };
  for (const auto& c : {Case{0, 0, 5, 3}, Case{5, 0, 5, 3}, Case{9, 0, 5, 3}, Case{2, 0, 2, 3},
                        Case{1, 0, 1, 3}, Case{2, 2, 2, 2}, Case{0, 2, 5, 2}, Case{3, 1, 3, 1}}) {
    SCOPED_TRACE("tile_x " + std::to_string(c.tile_x) + ", tile_z " + std::to_string(c.tile_z));
    model.tile_x = c.tile_x;
    model.tile_z = c.tile_z;
    const std::vector<T> h = dense_of(topological_insulator<T>(MPI_COMM_WORLD, model));
    const std::vector<Site> site = ti_sites(model, c.tile, c.depth);
    auto ring = [](std::int64_t d, std::int64_t len) {
      return std::min((d + len) % len, (len - d) % len);
    };
    // Per site: the neighbour sites its orbital 0 couples to (through their orbital 0).
    std::vector<int> hops(n / 4, 0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        if (h[i * n + j] == T(0)) continue;
        const Site a = site[i / 4], b = site[j / 4];
        const std::int64_t dist =
            ring(a.x - b.x, model.nx) + ring(a.y - b.y, model.ny) + std::abs(a.z - b.z);
        ASSERT_LE(dist, 1) << "row " << i << " column " << j;
        if (dist == 1 && i % 4 == 0 && j % 4 == 0) ++hops[i / 4];
      }
    // Each of a site's neighbours is coupled (orbital 0 to 0 through Γ¹'s diagonal): six
    // in the bulk of z, five on the open faces.
    for (std::int64_t s = 0; s < n / 4; ++s)
      EXPECT_EQ(hops[s], site[s].z == 0 || site[s].z == model.nz - 1 ? 5 : 6) << "site " << s;
    auto whole_row = [&](std::int64_t row) { return untiled_row(model, site[row / 4], row % 4); };
    if (whole.empty()) whole = h;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        ASSERT_EQ(h[i * n + j], whole[whole_row(i) * n + whole_row(j)])
            << "row " << i << " column " << j;
  }
  model.tile_x = -1;
  EXPECT_THROW(topological_insulator<T>(MPI_COMM_WORLD, model), Error);
  model.tile_x = 0;
  model.tile_z = -1;
  EXPECT_THROW(topological_insulator<T>(MPI_COMM_WORLD, model), Error);
}

TEST(SparseGenerators, TopologicalInsulatorDefaultTilesOnALargeLattice) {
  // 4·nz·nx = 1080 > 1024: the default tiles are 8 × 16, here with narrow last tiles
  // (x: 8 + 1, z: 16 + 14). The operator must be the untiled one with its rows permuted:
  // A_tiled·(P x) = P·(A_untiled·x) for a block x of distinct rows.
  using T = std::complex<double>;
  TopologicalInsulator model;
  model.nx = 9;
  model.ny = 3;
  model.nz = 30;
  model.disorder = 2.0;
  const Matrix<T> tiled = topological_insulator<T>(MPI_COMM_WORLD, model);
  model.tile_x = model.nx;
  const Matrix<T> untiled = topological_insulator<T>(MPI_COMM_WORLD, model);
  const std::vector<Site> site = ti_sites(model, 8, 16);
  const std::int64_t n = tiled.rows();
  std::vector<std::int64_t> perm(n);  // tiled row → untiled row
  for (std::int64_t r = 0; r < n; ++r) perm[r] = untiled_row(model, site[r / 4], r % 4);
  expect_rows_permuted(tiled, untiled, perm);
}

// The Laplacian's rows numbered by the walk of generators.hpp: rows of tiles along y,
// tiles along x within them, within a tile z slowest, then y, x fastest; the row of
// (x, y, z) in the one-tile numbering is x + nx·(y + ny·z).
std::vector<std::int64_t> laplacian_tile_walk(const Laplacian3d& g, std::int64_t tile_x,
                                              std::int64_t tile_y) {
  std::vector<std::int64_t> plain_row;
  for (std::int64_t y0 = 0; y0 < g.ny; y0 += tile_y)
    for (std::int64_t x0 = 0; x0 < g.nx; x0 += tile_x)
      for (std::int64_t z = 0; z < g.nz; ++z)
        for (std::int64_t y = y0; y < std::min(y0 + tile_y, g.ny); ++y)
          for (std::int64_t x = x0; x < std::min(x0 + tile_x, g.nx); ++x)
            plain_row.push_back(x + g.nx * (y + g.ny * z));
  return plain_row;
}

TEST(SparseGenerators, LaplacianNumbersRowsInTiles) {
  // Each numbering is the one-tile Laplacian with its rows permuted. 7 × 5 in tiles of
  // 3 × 2 ends with narrow tiles along x and y; 70 × 65 in 32 × 32 with last tiles 6 and
  // 1 wide; a 0 is the whole axis.
  struct Case {
    Laplacian3d lattice;
    std::int64_t tile_x, tile_y;  // the tiles used
  };
  for (const auto& c :
       {Case{{7, 5, 4, 3, 2}, 3, 2}, Case{{7, 5, 4, 1, 9}, 1, 5}, Case{{7, 5, 4, 0, 0}, 7, 5},
        Case{{70, 65, 3, 32, 32}, 32, 32}, Case{{70, 65, 3, 0, 16}, 70, 16}}) {
    const Laplacian3d& g = c.lattice;
    SCOPED_TRACE(std::to_string(g.nx) + " x " + std::to_string(g.ny) + ", tiles " +
                 std::to_string(g.tile_x) + " x " + std::to_string(g.tile_y));
    const Matrix<double> plain = laplacian_3d<double>(MPI_COMM_WORLD, g.nx, g.ny, g.nz);
    expect_rows_permuted(laplacian_3d<double>(MPI_COMM_WORLD, g), plain,
                         laplacian_tile_walk(g, c.tile_x, c.tile_y));
  }
  // The one-tile numbering is row x + nx·(y + ny·z): x's neighbours at ±1, y's at ±nx.
  const std::vector<double> a = dense_of(laplacian_3d<double>(
      MPI_COMM_WORLD, Laplacian3d{.nx = 3, .ny = 2, .nz = 2, .tile_x = 3, .tile_y = 2}));
  const int n = 12;
  EXPECT_EQ(a[0 * n + 1], -1.0);
  EXPECT_EQ(a[0 * n + 3], -1.0);
  EXPECT_EQ(a[0 * n + 6], -1.0);
  EXPECT_EQ(a[2 * n + 3], 0.0);
  for (const Laplacian3d& bad : {Laplacian3d{.tile_x = -1}, Laplacian3d{.tile_y = -2}})
    EXPECT_EQ(
        tseig::test::error_of([&] { (void)laplacian_3d<double>(MPI_COMM_WORLD, bad); }).code(),
        ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace tseig::sparse::test
