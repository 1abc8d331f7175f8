// The Jacobi preconditioner: the inverse magnitude of the matrix diagonal, read once
// from the local storage (CRS or SELL-C-σ; a row's own column c is local column
// c − first_row, which is < local_rows).
#include <cmath>
#include <memory>
#include <vector>

#include "core/instantiate.hpp"
#include "sparse/matrix_data.hpp"
#include "tseig/sparse/linear_operator.hpp"

namespace tseig::sparse {

namespace {

template <class T>
std::vector<T> local_diagonal(const MatrixData<T>& d) {
  std::vector<T> diag(d.local_rows, T(0));
  if (d.format == SparseFormat::crs) {
    for (int i = 0; i < d.local_rows; ++i)
      for (std::int64_t j = d.crs.row_ptr[i]; j < d.crs.row_ptr[i + 1]; ++j)
        if (d.crs.col[j] == i) diag[i] += d.crs.val[j];
    return diag;
  }
  const SellStorage<T>& s = d.sell;
  for (int chunk = 0; chunk < s.chunks(); ++chunk)
    for (int r = 0; r < s.chunk; ++r) {
      const int row = s.row[static_cast<std::size_t>(chunk) * s.chunk + r];
      if (row < 0) continue;
      for (int j = 0; j < s.width[chunk]; ++j) {
        const std::int64_t slot = s.chunk_ptr[chunk] + static_cast<std::int64_t>(j) * s.chunk + r;
        if (s.col[slot] == row) diag[row] += s.val[slot];
      }
    }
  return diag;
}

}  // namespace

template <class T>
Preconditioner<T> jacobi_preconditioner(const Matrix<T>& a) {
  auto scale = std::make_shared<std::vector<T>>(local_diagonal(a.data()));
  for (T& v : *scale) v = std::abs(v) > 0 ? T(1 / std::abs(v)) : T(1);
  return Preconditioner<T>([scale](const MultiVector<T>& x, const MultiVector<T>& y) {
    for (int i = 0; i < x.local_rows(); ++i)
      for (int j = 0; j < x.cols(); ++j) y(i, j) = (*scale)[i] * x(i, j);
  });
}

#define TSEIG_INSTANTIATE(T) \
  template TSEIG_API Preconditioner<T> jacobi_preconditioner(const Matrix<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
