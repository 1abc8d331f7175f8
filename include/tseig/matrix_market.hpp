#pragma once
// Matrix Market I/O for distributed dense matrices (array and coordinate formats;
// real/complex; general/symmetric/hermitian). Rank 0 does the file access but never
// holds the whole matrix: read() sends the parsed entries to their owners in rounds of
// bounded size and write() gathers bounded column panels, so that the largest matrix is
// set by the memory of the grid, not of rank 0.
#include <string>

#include "tseig/export.hpp"
#include "tseig/matrix.hpp"

namespace tseig::matrix_market {

struct Header {
  bool coordinate = false;  ///< coordinate (sparse listing) vs array (dense)
  bool complex = false;
  enum class Symmetry {
    general,
    symmetric,
    hermitian,
    skew_symmetric
  } symmetry = Symmetry::general;
  int rows = 0, cols = 0;
  long entries = 0;  ///< coordinate only
};

/// Collective: reads the header on rank 0 and broadcasts it. Throws Error(io_error)
/// on every rank when the file is missing or malformed.
TSEIG_API Header read_header(const Grid& grid, const std::string& path);

/// Collective: reads `path` into a new matrix with nb×nb blocks on `grid`. Symmetric
/// and Hermitian files are expanded to the full matrix (a coordinate file of these kinds
/// lists no entry above the diagonal); entries a coordinate file lists more than once
/// are summed, as the sparse reader does. Reading a complex file into
/// a real T is an io_error; a real file into complex T is fine. So are an empty size
/// other than 0x0 and a header declaring more entries than the file's length can hold.
template <class T>
TSEIG_API DistMatrix<T> read(const Grid& grid, const std::string& path, int nb);

/// Collective: writes A in array format (general, or `symmetric`/`hermitian` storing
/// the lower triangle) with 17 (double) / 9 (float) significant digits.
template <class T>
TSEIG_API void write(const DistMatrix<T>& A, const std::string& path, bool symmetric = false);

}  // namespace tseig::matrix_market
