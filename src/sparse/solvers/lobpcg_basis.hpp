#pragma once
// LOBPCG's block vectors: the basis [X P W], H times it and S times it.
#include <algorithm>

#include "sparse/solvers/block_ops.hpp"
#include "tseig/sparse/linear_operator.hpp"

namespace tseig::sparse::detail {

/// Block vectors of `cols` columns on H's rows, with room for the wider of H's and S's
/// halos: S may read rows of other ranks that H does not (its spmmv refused blocks with
/// H's room only).
template <class T>
struct Basis {
  MultiVector<T> v, hv, sv;  // sv is empty for S = I
  Basis(const LinearOperator<T>& h, const LinearOperator<T>* s, int cols)
      : v(line_aligned<T>(layout(h, s), cols)),
        hv(line_aligned<T>(v.layout(), cols)),
        sv(line_aligned<T>(v.layout(), s ? cols : 0)) {}
  MultiVector<T> s_view(int first, int count) const {
    return sv.cols() ? sv.view(first, count) : v.view(first, count);
  }

 private:
  static VectorLayout layout(const LinearOperator<T>& h, const LinearOperator<T>* s) {
    VectorLayout l = h.layout();
    if (s) l.halo_rows = std::max(l.halo_rows, s->layout().halo_rows);
    return l;
  }
};

}  // namespace tseig::sparse::detail
