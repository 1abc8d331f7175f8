#pragma once
// The memory-bound kernel of the one-stage tridiagonalization: both products of a
// tile of the lower triangle in one pass over its elements.
namespace tseig::dense {

/// For the column-major m×n tile `a`: yrow += a·xcol and ycol += aᴴ·xrow.
/// Reads every element of `a` once; the vectors stay in cache.
template <class T>
void hermitian_tile_product(int m, int n, const T* a, int lda, const T* xcol, const T* xrow,
                            T* yrow, T* ycol);

}  // namespace tseig::dense
