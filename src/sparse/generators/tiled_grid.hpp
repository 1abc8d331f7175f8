#pragma once
// The numbering of a 3D lattice in tiles (the topological insulator's; the Laplacian's on request):
// the lattice has axes a, b, c; tiles of tile_a × tile_b points in (a, b) each span all of c (the
// last tile along a or b narrower where the size does not divide). Tiles follow each other along a
// within a row of tiles along b; within a tile of w × h points the point (a', b', c) is number a' +
// w·(b' + h·c). So a row's neighbours along c lie w·h apart: that is how long a block row of X
// stays in use during a sweep of the kernels, and a small tile keeps it in the core's own cache.
// Only the points on a tile's edge have neighbours far away (in the next tile).
#include <algorithm>
#include <array>
#include <cstdint>

namespace tseig::sparse {

struct TiledGrid {
  std::int64_t na, nb, nc;      // lattice size
  std::int64_t tile_a, tile_b;  // tile size, ≥ 1 (clamped to the lattice)

  TiledGrid(std::int64_t na_, std::int64_t nb_, std::int64_t nc_, std::int64_t ta, std::int64_t tb)
      : na(na_), nb(nb_), nc(nc_), tile_a(std::min(ta, na_)), tile_b(std::min(tb, nb_)) {}

  /// The number of lattice point (a, b, c), all within the lattice.
  std::int64_t index(std::int64_t a, std::int64_t b, std::int64_t c) const {
    const std::int64_t ta = a / tile_a, tb = b / tile_b, w = width(ta), h = height(tb);
    const std::int64_t first = tb * tile_b * na * nc + ta * tile_a * h * nc;  // the tile's
    return first + (a - ta * tile_a) + w * (b - tb * tile_b + h * c);
  }

  /// The point numbered i: (a, b, c).
  std::array<std::int64_t, 3> point(std::int64_t i) const {
    const std::int64_t row_points = tile_b * na * nc;  // one full row of tiles along a
    const std::int64_t tb = i / row_points, h = height(tb);
    const std::int64_t in_row = i - tb * row_points, ta = in_row / (tile_a * h * nc);
    const std::int64_t w = width(ta), in_tile = in_row - ta * tile_a * h * nc;
    return {ta * tile_a + in_tile % w, tb * tile_b + in_tile / w % h, in_tile / (w * h)};
  }

 private:
  std::int64_t width(std::int64_t ta) const { return std::min(tile_a, na - ta * tile_a); }
  std::int64_t height(std::int64_t tb) const { return std::min(tile_b, nb - tb * tile_b); }
};

}  // namespace tseig::sparse
