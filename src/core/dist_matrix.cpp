// DistMatrix<T>: layout, descriptor checks, gather/scatter and redistribution.
#include "tseig/matrix.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "core/redistribute.hpp"
#include "tseig/error.hpp"

namespace tseig {

Descriptor Descriptor::from_array(const int* d) {
  return Descriptor{d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]};
}

void validate_descriptor(const Descriptor& d, const Grid& grid) {
  auto fail = [](const std::string& field, int value, const std::string& why) {
    throw Error(ErrorCode::invalid_descriptor,
                "descriptor field " + field + " = " + std::to_string(value) + ": " + why);
  };
  if (d.dtype != 1) fail("DTYPE (desc[0])", d.dtype, "only dense descriptors (1) are supported");
  if (d.ctxt != grid.blacs_context())
    fail("CTXT (desc[1])", d.ctxt,
         "not the BLACS context of the grid (" + std::to_string(grid.blacs_context()) +
             "); build the Grid with Grid::from_blacs(ctxt)");
  if (d.m < 0) fail("M (desc[2])", d.m, "must be >= 0");
  if (d.n < 0) fail("N (desc[3])", d.n, "must be >= 0");
  if (d.mb < 1) fail("MB (desc[4])", d.mb, "must be >= 1");
  if (d.nb < 1) fail("NB (desc[5])", d.nb, "must be >= 1");
  if (d.rsrc < 0 || d.rsrc >= grid.nprow())
    fail("RSRC (desc[6])", d.rsrc, "must be in [0, " + std::to_string(grid.nprow()) + ")");
  if (d.csrc < 0 || d.csrc >= grid.npcol())
    fail("CSRC (desc[7])", d.csrc, "must be in [0, " + std::to_string(grid.npcol()) + ")");
  int rows = block_cyclic::local_count(d.m, d.mb, grid.myrow(), d.rsrc, grid.nprow());
  if (d.lld < std::max(1, rows))
    fail("LLD (desc[8])", d.lld,
         "must be >= max(1, local rows) = " + std::to_string(std::max(1, rows)) + " on rank " +
             std::to_string(grid.rank()));
}

template <class T>
void DistMatrix<T>::init_layout(const Grid& grid, const Descriptor& desc) {
  collectively(grid.comm(), [&] { validate_descriptor(desc, grid); });
  grid_ = grid;
  desc_ = desc;
  local_rows_ = block_cyclic::local_count(desc.m, desc.mb, grid.myrow(), desc.rsrc, grid.nprow());
  local_cols_ = block_cyclic::local_count(desc.n, desc.nb, grid.mycol(), desc.csrc, grid.npcol());
}

template <class T>
DistMatrix<T>::DistMatrix(const Grid& grid, int m, int n, int mb, int nb, int rsrc, int csrc) {
  int rows = mb >= 1 ? block_cyclic::local_count(m, mb, grid.myrow(), rsrc, grid.nprow()) : 0;
  init_layout(grid,
              Descriptor{1, grid.blacs_context(), m, n, mb, nb, rsrc, csrc, std::max(1, rows)});
  // 256 bytes beyond the last column: some of Debian's OpenBLAS kernels (gemv for some
  // CPU types) read a few elements past the end of the last column of a local matrix,
  // harmless in a normal heap but a SEGV where the allocation ends a mapping (seen under
  // ASan: cgemv inside ScaLAPACK's pcheevd, now and then).
  const std::size_t count = static_cast<std::size_t>(desc_.lld) * std::max(1, local_cols_) +
                            (256 + sizeof(T) - 1) / sizeof(T);
  allocate_collectively(grid.comm(), [&] { storage_.assign(count, T{}); });
  data_ = storage_.data();
  owning_ = true;
}

template <class T>
DistMatrix<T> DistMatrix<T>::view(const Grid& grid, const Descriptor& desc, T* local) {
  DistMatrix v;
  v.init_layout(grid, desc);
  v.data_ = local;
  v.owning_ = false;
  return v;
}

template <class T>
DistMatrix<T> DistMatrix<T>::clone() const {
  DistMatrix c = like(*this);
  for (int j = 0; j < local_cols_; ++j)
    std::copy_n(data_ + static_cast<long>(j) * lld(), local_rows_, &c.local(0, j));
  return c;
}

template <class T>
std::vector<T> DistMatrix<T>::gather(int root) const {
  const Grid& g = grid_;
  std::vector<T> full;
  std::vector<T> packed(static_cast<std::size_t>(local_rows_) * local_cols_);
  for (int j = 0; j < local_cols_; ++j)
    std::copy_n(data_ + static_cast<long>(j) * lld(), local_rows_,
                packed.data() + static_cast<long>(j) * local_rows_);
  if (g.rank() != root) {
    // Column by column so no message exceeds INT_MAX elements.
    for (int j = 0; j < local_cols_; ++j)
      MPI_Send(packed.data() + static_cast<long>(j) * local_rows_, local_rows_, mpi_type<T>(), root,
               0, g.comm());
    return full;
  }
  full.assign(static_cast<std::size_t>(m()) * n(), T{});
  for (int pr = 0; pr < g.nprow(); ++pr)
    for (int pc = 0; pc < g.npcol(); ++pc) {
      int rank = g.rank_of(pr, pc);
      int rows = block_cyclic::local_count(m(), mb(), pr, rsrc(), g.nprow());
      int cols = block_cyclic::local_count(n(), nb(), pc, csrc(), g.npcol());
      std::vector<T> buffer;
      const T* src = packed.data();
      if (rank != root) {
        buffer.resize(static_cast<std::size_t>(rows) * cols);
        for (int j = 0; j < cols; ++j)
          MPI_Recv(buffer.data() + static_cast<long>(j) * rows, rows, mpi_type<T>(), rank, 0,
                   g.comm(), MPI_STATUS_IGNORE);
        src = buffer.data();
      }
      for (int lj = 0; lj < cols; ++lj) {
        long gj = block_cyclic::global_index(lj, nb(), pc, csrc(), g.npcol());
        for (int li = 0; li < rows; ++li)
          full[block_cyclic::global_index(li, mb(), pr, rsrc(), g.nprow()) + gj * m()] =
              src[li + static_cast<long>(lj) * rows];
      }
    }
  return full;
}

template <class T>
void DistMatrix<T>::scatter(const T* full, int root) {
  const Grid& g = grid_;
  if (g.rank() == root) {
    std::vector<T> buffer;
    for (int pr = 0; pr < g.nprow(); ++pr)
      for (int pc = 0; pc < g.npcol(); ++pc) {
        int rank = g.rank_of(pr, pc);
        int rows = block_cyclic::local_count(m(), mb(), pr, rsrc(), g.nprow());
        int cols = block_cyclic::local_count(n(), nb(), pc, csrc(), g.npcol());
        buffer.resize(static_cast<std::size_t>(rows) * cols);
        for (int lj = 0; lj < cols; ++lj) {
          long gj = block_cyclic::global_index(lj, nb(), pc, csrc(), g.npcol());
          for (int li = 0; li < rows; ++li)
            buffer[li + static_cast<long>(lj) * rows] =
                full[block_cyclic::global_index(li, mb(), pr, rsrc(), g.nprow()) + gj * m()];
        }
        if (rank == root) {
          for (int j = 0; j < cols; ++j)
            std::copy_n(buffer.data() + static_cast<long>(j) * rows, rows, &local(0, j));
        } else {
          for (int j = 0; j < cols; ++j)
            MPI_Send(buffer.data() + static_cast<long>(j) * rows, rows, mpi_type<T>(), rank, 1,
                     g.comm());
        }
      }
  } else {
    for (int j = 0; j < local_cols_; ++j)
      MPI_Recv(&local(0, j), local_rows_, mpi_type<T>(), root, 1, g.comm(), MPI_STATUS_IGNORE);
  }
}

template <class T>
void DistMatrix<T>::copy_from(const DistMatrix& src, int ncols) {
  // First, so that a rank passing another size, blocking or grid fails every rank
  // instead of exchanging mismatched pieces.
  std::vector<int> arguments{ncols};
  append_layout(arguments, *this);
  append_layout(arguments, src);
  raise_if_any(grid_.comm(), !ranks_agree(grid_.comm(), arguments), ErrorCode::invalid_argument,
               "copy_from/redistribute: ranks passed different sizes, blockings, grids or ncols");
  const bool same_processes = grid_.same_processes(src.grid());
  const bool fits = ncols < 0 ? src.m() == m() && src.n() == n()
                              : src.m() == m() && ncols <= src.n() && ncols <= n();
  raise_if_any(grid_.comm(), !same_processes || !fits,
               same_processes ? ErrorCode::invalid_argument : ErrorCode::grid_mismatch,
               same_processes ? "copy_from: matrices differ in size (" + std::to_string(src.m()) +
                                    "x" + std::to_string(src.n()) + " vs " + std::to_string(m()) +
                                    "x" + std::to_string(n()) + ")"
                              : "copy_from: the grids are not over the same processes");
  if (ncols < 0) ncols = n();
  if (m() == 0 || ncols == 0) return;
  detail::redistribute_columns(src, *this, ncols);
}

template <class T>
DistMatrix<T> DistMatrix<T>::redistribute(const Grid& grid, int mb, int nb, int rsrc,
                                          int csrc) const {
  DistMatrix out(grid, m(), n(), mb, nb, rsrc, csrc);
  out.copy_from(*this);
  return out;
}

#define TSEIG_INSTANTIATE(T) template class DistMatrix<T>;
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig
