// The generators against their known spectra (dense LAPACK solve of the gathered
// matrix), and the structure of the topological-insulator Hamiltonian.
#include <gtest/gtest.h>

#include <algorithm>
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

// Where row `row` lies on the lattice, by the numbering of generators.hpp: column tiles of
// `tile` sites along x, z fastest within a tile, then x, then y.
struct Site {
  std::int64_t x, y, z;
};
Site ti_site(const TopologicalInsulator& m, std::int64_t tile, std::int64_t row) {
  const std::int64_t s = row / 4, t = s / (m.nz * m.ny * tile), in = s % (m.nz * m.ny * tile);
  const std::int64_t w = std::min(tile, m.nx - t * tile);
  return {t * tile + in / m.nz % w, in / (m.nz * w), in % m.nz};
}

TEST(SparseGenerators, TopologicalInsulatorNumbersRowsInColumnTilesZFastest) {
  // Every entry couples a site to itself or to a lattice neighbour (periodic in x and y,
  // open in z), every neighbour is coupled, and each numbering is the same operator with
  // its rows permuted (disorder included). nx = 5 in tiles of 2 ends with a narrow tile.
  using T = std::complex<double>;
  TopologicalInsulator model;
  model.nx = 5;
  model.ny = 4;
  model.nz = 3;
  model.disorder = 1.0;
  model.seed = 3;
  const std::int64_t n = 4 * model.nx * model.ny * model.nz;
  std::vector<T> whole;
  // tile_x = 0 on this small lattice (4·nz·nx = 60 rows between ±y neighbours) is one tile.
  for (const auto& [tile_x, tile] : {std::pair{0L, 5L}, {5L, 5L}, {9L, 5L}, {2L, 2L}, {1L, 1L}}) {
    SCOPED_TRACE("tile_x " + std::to_string(tile_x));
    model.tile_x = tile_x;
    const std::vector<T> h = dense_of(topological_insulator<T>(MPI_COMM_WORLD, model));
    auto ring = [](std::int64_t d, std::int64_t len) {
      return std::min((d + len) % len, (len - d) % len);
    };
    // Per site: the neighbour sites its orbital 0 couples to (through their orbital 0).
    std::vector<int> hops(n / 4, 0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        if (h[i * n + j] == T(0)) continue;
        const Site a = ti_site(model, tile, i), b = ti_site(model, tile, j);
        const std::int64_t dist =
            ring(a.x - b.x, model.nx) + ring(a.y - b.y, model.ny) + std::abs(a.z - b.z);
        ASSERT_LE(dist, 1) << "row " << i << " column " << j;
        if (dist == 1 && i % 4 == 0 && j % 4 == 0) ++hops[i / 4];
      }
    // Each of a site's neighbours is coupled (orbital 0 to 0 through Γ¹'s diagonal): six
    // in the bulk of z, five on the open faces.
    for (std::int64_t s = 0; s < n / 4; ++s)
      EXPECT_EQ(hops[s], s % model.nz == 0 || s % model.nz == model.nz - 1 ? 5 : 6) << "site " << s;
    // The row of (site, orbital) in the one-tile numbering.
    auto whole_row = [&](std::int64_t row) {
      const Site a = ti_site(model, tile, row);
      return 4 * (a.z + model.nz * (a.x + model.nx * a.y)) + row % 4;
    };
    if (whole.empty()) whole = h;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        ASSERT_EQ(h[i * n + j], whole[whole_row(i) * n + whole_row(j)])
            << "row " << i << " column " << j;
  }
  model.tile_x = -1;
  EXPECT_THROW(topological_insulator<T>(MPI_COMM_WORLD, model), Error);
}

}  // namespace
}  // namespace tseig::sparse::test
