#pragma once
// Which eigenpairs a solve computes: a window of the ascending spectrum (the nev lowest,
// or EigensolverOptions::index_range), or the eigenvalues in an interval
// (EigensolverOptions::value_range), which becomes a window once the tridiagonal matrix
// is known.
#include <optional>
#include <string>
#include <vector>

#include "tseig/eigensolver.hpp"

namespace tseig::dense {

struct Wanted {
  int first = 0;  ///< 0-based index of the lowest wanted eigenvalue
  int count = 0;  ///< how many from there
  /// (vl, vu]: first and count are set from it by resolve_interval.
  std::optional<ValueRange> interval{};

  int end() const { return first + count; }
  /// The first `nev` eigenpairs.
  static Wanted lowest(int nev) { return Wanted{0, nev, std::nullopt}; }
};

/// The wanted entries of w (all eigenvalues, ascending).
template <class R>
std::vector<R> selected(std::vector<R> w, const Wanted& wanted) {
  w.erase(w.begin(), w.begin() + wanted.first);
  w.resize(wanted.count);
  return w;
}

/// The selection of `o` for an order-n problem (nev -1 = all). Assumes o was checked
/// (check_selection); an interval is left for resolve_interval.
Wanted wanted_of(const EigensolverOptions& o, int n);

/// Why o's selection is invalid for order n, or "" when it is fine.
std::string check_selection(const EigensolverOptions& o, int n);

/// The number of eigenvalues of the symmetric tridiagonal matrix tridiag(e, d, e) that
/// are below x (Sturm count of the LDLᵀ factorization of T − xI, with ?laebz's guard
/// against a zero pivot). d and e should be scaled to max-norm about 1.
template <class R>
int eigenvalues_below(const std::vector<R>& d, const std::vector<R>& e, R x);

/// Sets first and count of an interval selection from Sturm counts on tridiag(e, d, e)
/// scaled by 1/scale (d, e are the scaled entries); other selections are left as they are.
template <class R>
void resolve_interval(Wanted& wanted, const std::vector<R>& d, const std::vector<R>& e, R scale);

}  // namespace tseig::dense
