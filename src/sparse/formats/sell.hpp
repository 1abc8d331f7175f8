#pragma once
// SELL-C-σ local storage (Kreutzer et al.): rows sorted by length inside windows of σ
// rows, cut into chunks of C rows; each chunk is stored column by column, padded with
// zeros to its longest row, so C rows advance in lock step.
#include <cstdint>
#include <vector>

#include "sparse/formats/crs.hpp"

namespace tseig::sparse {

template <class T>
struct SellStorage {
  int chunk = 1;                        // C
  int sigma = 1;                        // σ
  std::vector<std::int64_t> chunk_ptr;  // first entry of each chunk; chunks + 1
  std::vector<std::int32_t> width;      // entries per row of each chunk
  std::vector<std::int32_t> row;        // local row of each chunk slot, −1 for padding
  std::vector<std::int32_t> col;        // entry (chunk, j, r) at chunk_ptr[c] + j·C + r
  std::vector<T> val;
  std::vector<std::int32_t> length;  // entries of each local row (the rest is padding)

  int chunks() const { return static_cast<int>(width.size()); }
};

/// SELL-C-σ copy of `crs` with chunk height C and sorting window σ (a multiple of C).
template <class T>
SellStorage<T> make_sell(const CrsStorage<T>& crs, int chunk, int sigma);

/// The CRS rows back (without padding), for a change of format.
template <class T>
CrsStorage<T> to_crs(const SellStorage<T>& sell);

}  // namespace tseig::sparse
