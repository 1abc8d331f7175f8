// Conversion CRS → SELL-C-σ. Padding slots repeat a column the chunk already reads
// (the row's own diagonal position) with value 0, so they touch no new cache lines.
#include "sparse/formats/sell.hpp"

#include <algorithm>
#include <numeric>

#include "core/instantiate.hpp"

namespace tseig::sparse {

template <class T>
SellStorage<T> make_sell(const CrsStorage<T>& crs, int chunk, int sigma) {
  const int n = crs.rows();
  auto length = [&](int i) { return static_cast<int>(crs.row_ptr[i + 1] - crs.row_ptr[i]); };
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int w = 0; w < n; w += sigma) {
    const int e = std::min(n, w + sigma);
    std::stable_sort(order.begin() + w, order.begin() + e,
                     [&](int a, int b) { return length(a) > length(b); });
  }
  SellStorage<T> s;
  s.chunk = chunk;
  s.sigma = sigma;
  s.length.resize(n);
  for (int i = 0; i < n; ++i) s.length[i] = length(i);
  const int chunks = (n + chunk - 1) / chunk;
  s.chunk_ptr.assign(chunks + 1, 0);
  s.width.assign(chunks, 0);
  s.row.assign(static_cast<std::size_t>(chunks) * chunk, -1);
  for (int c = 0; c < chunks; ++c) {
    for (int r = 0; r < chunk && c * chunk + r < n; ++r) {
      const int i = order[c * chunk + r];
      s.row[c * chunk + r] = i;
      s.width[c] = std::max(s.width[c], length(i));
    }
    s.chunk_ptr[c + 1] = s.chunk_ptr[c] + static_cast<std::int64_t>(s.width[c]) * chunk;
  }
  s.col.assign(s.chunk_ptr[chunks], 0);
  s.val.assign(s.chunk_ptr[chunks], T(0));
  for (int c = 0; c < chunks; ++c) {
    for (int r = 0; r < chunk; ++r) {
      const int i = s.row[c * chunk + r];
      const int len = i >= 0 ? length(i) : 0;
      for (int j = 0; j < s.width[c]; ++j) {
        const std::int64_t slot = s.chunk_ptr[c] + static_cast<std::int64_t>(j) * chunk + r;
        if (j < len) {
          s.col[slot] = crs.col[crs.row_ptr[i] + j];
          s.val[slot] = crs.val[crs.row_ptr[i] + j];
        } else {
          s.col[slot] = i >= 0 ? i : 0;
        }
      }
    }
  }
  return s;
}

template <class T>
CrsStorage<T> to_crs(const SellStorage<T>& sell) {
  const int n = static_cast<int>(sell.length.size()), c = sell.chunk;
  CrsStorage<T> crs;
  crs.row_ptr.assign(n + 1, 0);
  for (int i = 0; i < n; ++i) crs.row_ptr[i + 1] = crs.row_ptr[i] + sell.length[i];
  crs.col.resize(crs.row_ptr[n]);
  crs.val.resize(crs.row_ptr[n]);
  for (int k = 0; k < sell.chunks(); ++k)
    for (int r = 0; r < c; ++r) {
      const int i = sell.row[static_cast<std::size_t>(k) * c + r];
      if (i < 0) continue;
      for (int j = 0; j < sell.length[i]; ++j) {
        const std::int64_t slot = sell.chunk_ptr[k] + static_cast<std::int64_t>(j) * c + r;
        crs.col[crs.row_ptr[i] + j] = sell.col[slot];
        crs.val[crs.row_ptr[i] + j] = sell.val[slot];
      }
    }
  return crs;
}

#define TSEIG_INSTANTIATE(T)                                         \
  template SellStorage<T> make_sell(const CrsStorage<T>&, int, int); \
  template CrsStorage<T> to_crs(const SellStorage<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
