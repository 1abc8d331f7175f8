#pragma once
// Local compressed row storage: 64-bit row pointers (a rank may hold more than 2³¹
// entries), 32-bit local column indices. Each row holds its columns in ascending global
// order without repeats (Matrix's constructor sorts and merges them, and SELL-C-σ keeps
// each row's order), so its own columns form one ascending run of local indices: the
// Hermitian check relies on this.
#include <cstdint>
#include <vector>

namespace tseig::sparse {

template <class T>
struct CrsStorage {
  std::vector<std::int64_t> row_ptr;  // local rows + 1
  std::vector<std::int32_t> col;
  std::vector<T> val;

  int rows() const { return static_cast<int>(row_ptr.size()) - 1; }
};

}  // namespace tseig::sparse
