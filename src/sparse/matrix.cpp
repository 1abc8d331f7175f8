// Matrix<T> construction: check the caller's rows, sort and merge each row, split the
// columns into own and halo, build the halo plan, then the local storage format.
#include "tseig/sparse/matrix.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/instantiate.hpp"
#include "sparse/matrix_data.hpp"
#include "tseig/error.hpp"

namespace tseig::sparse {

namespace {

template <class T>
bool finite(T v) {
  if constexpr (std::is_arithmetic_v<T>)
    return std::isfinite(v);
  else
    return std::isfinite(v.real()) && std::isfinite(v.imag());
}

/// What is wrong with this rank's CSR arrays (empty: nothing).
template <class T>
std::string check_rows(std::int64_t n, std::span<const std::int64_t> row_ptr,
                       std::span<const std::int64_t> cols, std::span<const T> values) {
  if (n < 0) return "sparse matrix: negative order";
  if (row_ptr.empty() || row_ptr.front() != 0)
    return "sparse matrix: row_ptr needs local rows + 1 entries, starting at 0";
  if (!std::is_sorted(row_ptr.begin(), row_ptr.end())) return "sparse matrix: row_ptr decreases";
  const auto nnz = static_cast<std::size_t>(row_ptr.back());
  if (cols.size() != nnz || values.size() != nnz)
    return "sparse matrix: cols and values need row_ptr.back() = " + std::to_string(nnz) +
           " entries, got " + std::to_string(cols.size()) + " and " + std::to_string(values.size());
  for (std::int64_t c : cols)
    if (c < 0 || c >= n)
      return "sparse matrix: column index " + std::to_string(c) + " outside [0, " +
             std::to_string(n) + ")";
  for (const T& v : values)
    if (!finite(v)) return "sparse matrix: NaN or Inf among the values";
  if (row_ptr.size() - 1 > static_cast<std::size_t>(INT32_MAX))
    return "sparse matrix: more than 2^31 - 1 rows on one rank";
  return {};
}

/// Global columns and values of local row i, sorted by column, repeats summed.
template <class T>
void merged_row(std::span<const std::int64_t> row_ptr, std::span<const std::int64_t> cols,
                std::span<const T> values, std::size_t i,
                std::vector<std::pair<std::int64_t, T>>& row) {
  row.clear();
  for (auto k = row_ptr[i]; k < row_ptr[i + 1]; ++k) row.emplace_back(cols[k], values[k]);
  std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t out = 0;
  for (std::size_t k = 0; k < row.size(); ++k) {
    if (out > 0 && row[out - 1].first == row[k].first)
      row[out - 1].second += row[k].second;
    else
      row[out++] = row[k];
  }
  row.resize(out);
}

/// Ranges of consecutive units for which `reads_halo` is false (interior) or true.
template <class F>
void split_units(int units, F reads_halo, UnitRanges& interior, UnitRanges& boundary) {
  for (int u = 0; u < units;) {
    const bool halo = reads_halo(u);
    int e = u + 1;
    while (e < units && reads_halo(e) == halo) ++e;
    (halo ? boundary : interior).emplace_back(u, e);
    u = e;
  }
}

/// The storage knobs of tune, checked on every rank (a bad one raises on all of them).
void check_storage_knobs(MPI_Comm comm, const SparseTuneParameters& tune) {
  raise_if_any(comm,
               tune.format == SparseFormat::sell_c_sigma &&
                   (tune.sell_chunk < 1 || tune.sell_sigma < tune.sell_chunk ||
                    tune.sell_sigma % tune.sell_chunk != 0),
               ErrorCode::invalid_argument,
               "sparse matrix: SELL-C-σ needs C >= 1 and σ a positive multiple of C");
  raise_if_any(comm, tune.prefetch_x < -1 || tune.prefetch_x > 2, ErrorCode::invalid_argument,
               "sparse matrix: prefetch_x must be -1, 0, 1 or 2");
}

/// d's local storage in tune's format from `crs` (local column indices), with the
/// units split by whether they read the halo; without overlap (tune.overlap_halo) every
/// unit counts as boundary, so the sweep waits for the halo and runs the rows in order.
template <class T>
void store_rows(MatrixData<T>& d, CrsStorage<T>&& crs, const SparseTuneParameters& tune) {
  const int rows = crs.rows();
  d.format = tune.format;
  d.prefetch_x = tune.prefetch_x;
  d.overlap_halo = tune.overlap_halo;
  d.crs = {};
  d.sell = {};
  d.interior.clear();
  d.boundary.clear();
  const bool overlap = tune.overlap_halo < 0 ? !d.halo.peers_on_node : tune.overlap_halo > 0;
  std::vector<char> reads_halo(rows, overlap ? 0 : 1);
  for (int i = 0; i < rows; ++i)
    for (auto k = crs.row_ptr[i]; k < crs.row_ptr[i + 1]; ++k)
      if (crs.col[k] >= d.local_rows) reads_halo[i] = 1;
  if (d.format == SparseFormat::crs) {
    split_units(
        rows, [&](int i) { return reads_halo[i] != 0; }, d.interior, d.boundary);
    d.crs = std::move(crs);
    return;
  }
  d.sell = make_sell(crs, tune.sell_chunk, tune.sell_sigma);
  const int c = tune.sell_chunk;
  split_units(
      d.sell.chunks(),
      [&](int chunk) {
        for (int r = 0; r < c; ++r) {
          const int i = d.sell.row[chunk * c + r];
          if (i >= 0 && reads_halo[i]) return true;
        }
        return false;
      },
      d.interior, d.boundary);
}

}  // namespace

template <class T>
Matrix<T>::Matrix(MPI_Comm comm, std::int64_t n, std::span<const std::int64_t> row_ptr,
                  std::span<const std::int64_t> cols, std::span<const T> values,
                  const SparseTuneParameters& tune) {
  const std::string problem = check_rows(n, row_ptr, cols, values);
  raise_if_any(comm, !problem.empty(),
               problem.find("NaN") != std::string::npos ? ErrorCode::not_finite
                                                        : ErrorCode::invalid_argument,
               problem);
  check_storage_knobs(comm, tune);

  auto d = std::make_shared<MatrixData<T>>();
  int me = 0;
  MPI_Comm_rank(comm, &me);
  d->comm = comm;
  const std::size_t rows = row_ptr.size() - 1;
  d->partition = partition_from_counts(comm, static_cast<std::int64_t>(rows));
  raise_if_any(comm, d->partition.rows() != n, ErrorCode::invalid_argument,
               "sparse matrix: the ranks' rows add up to " + std::to_string(d->partition.rows()) +
                   ", not to the order " + std::to_string(n));
  d->first_row = d->partition.first(me);
  d->local_rows = static_cast<int>(rows);
  const std::int64_t first = d->first_row, last = first + d->local_rows;

  // Sorted, merged rows; the remote columns they read.
  std::vector<std::pair<std::int64_t, T>> row;
  std::vector<std::int64_t> global_col, halo;
  std::vector<T> val;
  std::vector<std::int64_t> local_ptr{0};
  for (std::size_t i = 0; i < rows; ++i) {
    merged_row(row_ptr, cols, values, i, row);
    for (const auto& [c, v] : row) {
      global_col.push_back(c);
      val.push_back(v);
      if (c < first || c >= last) halo.push_back(c);
    }
    local_ptr.push_back(static_cast<std::int64_t>(global_col.size()));
  }
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  d->halo = make_halo_plan(comm, d->partition, halo);
  d->halo_columns = halo;
  d->max_halo_rows = d->halo.halo_rows();
  MPI_Allreduce(MPI_IN_PLACE, &d->max_halo_rows, 1, MPI_INT, MPI_MAX, comm);

  CrsStorage<T> crs;
  crs.row_ptr = std::move(local_ptr);
  crs.val = std::move(val);
  crs.col.resize(global_col.size());
  for (std::size_t k = 0; k < global_col.size(); ++k) {
    const std::int64_t c = global_col[k];
    crs.col[k] = static_cast<std::int32_t>(
        c >= first && c < last
            ? c - first
            : d->local_rows + (std::lower_bound(halo.begin(), halo.end(), c) - halo.begin()));
  }
  d->local_nonzeros = static_cast<std::int64_t>(crs.col.size());
  MPI_Allreduce(&d->local_nonzeros, &d->nonzeros, 1, MPI_INT64_T, MPI_SUM, comm);

  store_rows(*d, std::move(crs), tune);
  data_ = std::move(d);
}

template <class T>
Matrix<T> Matrix<T>::with_format(const SparseTuneParameters& tune) const {
  check_storage_knobs(comm(), tune);
  const MatrixData<T>& old = *data_;
  // The sweep's knobs count too: a CRS matrix asked for another prefetch or halo overlap
  // was once returned as it was, so the tuner timed the default three times over.
  const bool same = tune.format == old.format &&
                    (tune.format == SparseFormat::crs ||
                     (tune.sell_chunk == old.sell.chunk && tune.sell_sigma == old.sell.sigma)) &&
                    tune.prefetch_x == old.prefetch_x && tune.overlap_halo == old.overlap_halo;
  if (same) return *this;  // the storage is immutable: share it
  auto d = std::make_shared<MatrixData<T>>(old);
  store_rows(*d, d->format == SparseFormat::crs ? std::move(d->crs) : to_crs(d->sell), tune);
  Matrix<T> out = *this;
  out.data_ = std::move(d);
  return out;
}

template <class T>
MPI_Comm Matrix<T>::comm() const {
  return data_->comm;
}
template <class T>
std::int64_t Matrix<T>::rows() const {
  return data_->partition.rows();
}
template <class T>
std::int64_t Matrix<T>::nonzeros() const {
  return data_->nonzeros;
}
template <class T>
const RowPartition& Matrix<T>::partition() const {
  return data_->partition;
}
template <class T>
std::int64_t Matrix<T>::first_row() const {
  return data_->first_row;
}
template <class T>
int Matrix<T>::local_rows() const {
  return data_->local_rows;
}
template <class T>
int Matrix<T>::halo_rows() const {
  return data_->halo.halo_rows();
}
template <class T>
std::int64_t Matrix<T>::local_nonzeros() const {
  return data_->local_nonzeros;
}
template <class T>
SparseFormat Matrix<T>::format() const {
  return data_->format;
}
template <class T>
VectorLayout Matrix<T>::vector_layout() const {
  return VectorLayout{comm(),      rows(),       partition().key(),
                      first_row(), local_rows(), data_->max_halo_rows};
}

#define TSEIG_INSTANTIATE(T) template class TSEIG_API Matrix<T>;
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
