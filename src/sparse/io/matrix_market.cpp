// Distributed Matrix Market reader: each rank parses one byte range of the entries,
// the entries travel to equal row slices (where per-row counts give the balanced
// partition), then to their final owners, where the CSR rows are assembled. The
// Hermitian check sends each entry's mirror image to the owner of its column.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/instantiate.hpp"
#include "sparse/io/coordinate_file.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/matrix_market.hpp"
#include "tseig/types.hpp"

namespace tseig::sparse {

namespace {

/// Runs f(); an Error on any rank becomes the same Error on every rank.
template <class F>
auto on_every_rank(MPI_Comm comm, F&& f) {
  decltype(f()) result{};
  collectively(comm, [&] { result = f(); });
  return result;
}

/// True when some mirror image (j, i, conj v) of a local entry (i, j, v) differs from
/// the entry stored at (j, i) by more than rounding. `mine` is sorted and merged.
template <class T>
bool breaks_hermitian_symmetry(MPI_Comm comm, const RowPartition& p,
                               const std::vector<Entry<T>>& mine) {
  const double tol = 64 * std::numeric_limits<real_t<T>>::epsilon();
  return find_mirror_mismatch(comm, p, mine, [&](std::int64_t, std::int64_t, T x, T y) {
    return std::abs(x - y) > tol * std::max(std::abs(x), std::abs(y));
  });
}

}  // namespace

template <class T>
Matrix<T> read_matrix_market(MPI_Comm comm, const std::string& path, bool require_hermitian,
                             const SparseTuneParameters& tune, std::span<const double> weights) {
  using Symmetry = CoordinateHeader::Symmetry;
  int ranks = 0, me = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &me);
  const CoordinateHeader h = on_every_rank(comm, [&] {
    CoordinateHeader header = read_coordinate_header(path);
    if (header.rows != header.cols)
      throw Error(ErrorCode::io_error, "Matrix Market " + path + ": the matrix is not square");
    if (header.field == CoordinateHeader::Field::complex && !is_complex_v<T>)
      throw Error(ErrorCode::io_error,
                  "Matrix Market " + path + ": complex entries cannot be read into a real type");
    return header;
  });

  const std::int64_t span = h.file_size - h.data_offset;
  const std::int64_t first = h.data_offset + span * me / ranks;
  const std::int64_t last = h.data_offset + span * (me + 1) / ranks;
  std::int64_t lines = 0;
  std::vector<Entry<T>> listed =
      on_every_rank(comm, [&] { return read_coordinate_entries<T>(path, h, first, last, &lines); });
  MPI_Allreduce(MPI_IN_PLACE, &lines, 1, MPI_INT64_T, MPI_SUM, comm);
  raise_if_any(comm, lines != h.entries, ErrorCode::io_error,
               "Matrix Market " + path + ": the header announces " + std::to_string(h.entries) +
                   " entries, the file lists " + std::to_string(lines));

  // Symmetric and Hermitian files list the lower triangle; add the upper one.
  std::vector<Entry<T>> entries;
  bool upper = false;
  for (const Entry<T>& e : listed) {
    entries.push_back(e);
    if (h.symmetry == Symmetry::general || e.row == e.col) continue;
    upper = upper || e.col > e.row;
    entries.push_back(
        {e.col, e.row, h.symmetry == Symmetry::hermitian ? conj_if_complex(e.value) : e.value});
  }
  raise_if_any(comm, upper, ErrorCode::io_error,
               "Matrix Market " + path +
                   ": a symmetric or hermitian file lists an entry above "
                   "the diagonal");

  // Equal row slices first: there the per-row counts are known and give the partition
  // (partition_by_nonzeros asks each rank about exactly this slice, rows·r/P onwards).
  RowPartition slices;
  for (int r = 0; r <= ranks; ++r) slices.offsets.push_back(h.rows * r / ranks);
  // The Matrix constructor's limit, checked here before any array of one entry per row.
  raise_if_any(comm, slices.count(me) > INT32_MAX, ErrorCode::invalid_argument,
               "Matrix Market " + path + ": " + std::to_string(h.rows) +
                   " rows are more than 2^31 - 1 per rank on " + std::to_string(ranks) + " ranks");
  std::vector<Entry<T>> sliced = send_to_row_owners(comm, slices, std::move(entries));
  // Arrays of one entry per row: where a rank cannot have them, out_of_memory on every
  // rank (collectively), not one rank gone from the exchanges that follow.
  std::vector<int> per_row;
  collectively(comm, [&] {
    per_row.assign(slices.count(me), 0);
    for (const Entry<T>& e : sliced) ++per_row[e.row - slices.first(me)];
  });
  const RowPartition p = partition_by_nonzeros(
      comm, h.rows, [&](std::int64_t row) { return per_row[row - slices.first(me)]; }, weights);
  std::vector<Entry<T>> mine = send_to_row_owners(comm, p, std::move(sliced));
  sort_and_merge(mine);
  if (require_hermitian)
    raise_if_any(comm, breaks_hermitian_symmetry(comm, p, mine), ErrorCode::not_hermitian,
                 "Matrix Market " + path + ": the matrix is not Hermitian");

  std::vector<std::int64_t> ptr{0}, cols;
  std::vector<T> vals;
  collectively(comm, [&] {
    std::size_t k = 0;
    for (std::int64_t row = p.first(me); row < p.first(me + 1); ++row) {
      for (; k < mine.size() && mine[k].row == row; ++k) {
        cols.push_back(mine[k].col);
        vals.push_back(mine[k].value);
      }
      ptr.push_back(static_cast<std::int64_t>(cols.size()));
    }
  });
  return Matrix<T>(comm, h.rows, ptr, cols, vals, tune);
}

#define TSEIG_INSTANTIATE(T)                       \
  template TSEIG_API Matrix<T> read_matrix_market( \
      MPI_Comm, const std::string&, bool, const SparseTuneParameters&, std::span<const double>);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
