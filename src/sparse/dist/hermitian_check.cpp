// require_hermitian: the entries in global indices, each mirror image sent to the owner of
// its column and compared there (O(nonzeros) exchange and sort, once per matrix).
#include "sparse/dist/hermitian_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "sparse/dist/entry_exchange.hpp"
#include "sparse/formats/sell.hpp"
#include "sparse/matrix_data.hpp"
#include "tseig/error.hpp"

namespace tseig::sparse {

namespace {

/// This rank's entries with global indices, sorted by (row, col).
template <class T>
std::vector<Entry<T>> global_entries(const MatrixData<T>& d) {
  const CrsStorage<T> converted = d.format == SparseFormat::crs ? CrsStorage<T>{} : to_crs(d.sell);
  const CrsStorage<T>& crs = d.format == SparseFormat::crs ? d.crs : converted;
  std::vector<Entry<T>> e;
  e.reserve(crs.val.size());
  for (int i = 0; i < crs.rows(); ++i)
    for (std::int64_t k = crs.row_ptr[i]; k < crs.row_ptr[i + 1]; ++k) {
      const std::int32_t c = crs.col[k];
      const std::int64_t col =
          c < d.local_rows ? d.first_row + c : d.halo_columns[c - d.local_rows];
      e.push_back({d.first_row + i, col, crs.val[k]});
    }
  sort_and_merge(e);
  return e;
}

}  // namespace

template <class T>
void require_hermitian(const Matrix<T>& a, const std::string& who) {
  const MatrixData<T>& d = a.data();
  if (d.hermitian == 0)  // the same verdict on every rank: no agreement needed
    throw Error(ErrorCode::not_hermitian,
                who + ": the sparse matrix is not Hermitian (a(i, j) != conj(a(j, i)))");
  if (d.hermitian == 1) return;
  using R = real_t<T>;
  std::vector<Entry<T>> mine;
  collectively(d.comm, [&] { mine = global_entries(d); });
  double biggest = 0;
  for (const Entry<T>& e : mine) biggest = std::max(biggest, double(std::abs(e.value)));
  MPI_Allreduce(MPI_IN_PLACE, &biggest, 1, MPI_DOUBLE, MPI_MAX, d.comm);
  const double tol = std::sqrt(double(std::numeric_limits<R>::epsilon())) * biggest;
  // The first position on the first rank that finds one, for the message.
  std::int64_t where[2] = {std::numeric_limits<std::int64_t>::max(), 0};
  double gap = 0;
  find_mirror_mismatch(d.comm, d.partition, mine, [&](std::int64_t i, std::int64_t j, T x, T y) {
    gap = std::abs(x - y);
    if (!(gap <= tol)) {  // NaN too
      where[0] = i;
      where[1] = j;
      return true;
    }
    return false;
  });
  std::int64_t first = where[0];
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT64_T, MPI_MIN, d.comm);
  d.hermitian = first == std::numeric_limits<std::int64_t>::max() ? 1 : 0;
  if (d.hermitian) return;
  int me = 0, owner = 0;
  MPI_Comm_rank(d.comm, &me);
  owner = where[0] == first ? me : std::numeric_limits<int>::max();
  MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MIN, d.comm);
  double report[2] = {double(where[1]), gap};
  MPI_Bcast(report, 2, MPI_DOUBLE, owner, d.comm);
  char text[192];
  std::snprintf(text, sizeof text,
                ": the sparse matrix is not Hermitian: |a(i, j) - conj(a(j, i))| = %.3e at "
                "0-based (i, j) = (%lld, %lld) > sqrt(eps)*max|a| = %.3e",
                report[1], static_cast<long long>(first), static_cast<long long>(report[0]), tol);
  throw Error(ErrorCode::not_hermitian, who + text);
}

#define TSEIG_INSTANTIATE(T) template void require_hermitian(const Matrix<T>&, const std::string&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
