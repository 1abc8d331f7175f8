#pragma once
// tseig-solve --out-vectors: a distributed block of eigenvectors as one Matrix Market
// array file (n × k, column-major; "real" or "complex"), written by rank 0.
#include <string>

#include "tseig/sparse/multivector.hpp"

namespace tseig::cli {

/// Collective: gathers the rows on rank 0 and writes them; a file that cannot be
/// written is Error(io_error) on every rank.
template <class T>
void write_vectors(const sparse::MultiVector<T>& x, const std::string& path);

}  // namespace tseig::cli
