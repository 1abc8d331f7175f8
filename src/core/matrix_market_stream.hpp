#pragma once
// The streaming entry points behind matrix_market::read and write, with the bound on
// what rank 0 holds at a time as a parameter, so that tests can run many rounds and
// panels on small files.
#include <string>

#include "tseig/matrix.hpp"

namespace tseig::matrix_market {

/// What rank 0 holds at a time: the entries a read round buffers (mirror images
/// included), and the elements of a write panel (at least one column).
inline constexpr long stream_entries = 1L << 20;

/// read(grid, path, nb) with rounds of about `round_entries` (≥ 1) entries.
template <class T>
DistMatrix<T> read_in_rounds(const Grid& grid, const std::string& path, int nb, long round_entries);

/// write(A, path, symmetric) with panels of at most max(m, `panel_entries`) elements.
template <class T>
void write_in_panels(const DistMatrix<T>& A, const std::string& path, bool symmetric,
                     long panel_entries);

}  // namespace tseig::matrix_market
