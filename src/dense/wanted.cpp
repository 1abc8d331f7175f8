#include "dense/wanted.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace tseig::dense {

Wanted wanted_of(const EigensolverOptions& o, int n) {
  if (o.index_range)
    return Wanted{o.index_range->il - 1, o.index_range->iu - o.index_range->il + 1, std::nullopt};
  if (o.value_range) return Wanted{0, 0, o.value_range};
  return Wanted::lowest(o.nev < 0 ? n : o.nev);
}

std::string check_selection(const EigensolverOptions& o, int n) {
  const std::string N = std::to_string(n);
  if (o.index_range && o.value_range) return "index_range and value_range are both set";
  if ((o.index_range || o.value_range) && o.nev >= 0)
    return "nev = " + std::to_string(o.nev) + " is set together with a range (nev must be -1)";
  if (o.index_range) {
    const auto [il, iu] = *o.index_range;
    if (il < 1 || iu > n || il > iu)
      return "index_range il = " + std::to_string(il) + ", iu = " + std::to_string(iu) +
             " must satisfy 1 <= il <= iu <= N = " + N;
    return "";
  }
  if (o.value_range) {
    if (!(o.value_range->vl < o.value_range->vu))
      return "value_range (vl, vu] = (" + std::to_string(o.value_range->vl) + ", " +
             std::to_string(o.value_range->vu) + "] must have vl < vu";
    return "";
  }
  const int nev = o.nev < 0 ? n : o.nev;
  if (nev > n || (nev < 1 && n > 0))
    return "nev = " + std::to_string(nev) + " is outside [1, N = " + N + "]";
  return "";
}

template <class R>
int eigenvalues_below(const std::vector<R>& d, const std::vector<R>& e, R x) {
  // A pivot this close to zero is replaced by −pivmin (?laebz): it counts as negative, and
  // the next step cannot overflow.
  const R pivmin = std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon();
  int below = 0;
  R q = 1;
  for (std::size_t i = 0; i < d.size(); ++i) {
    q = d[i] - x - (i > 0 ? e[i - 1] * (e[i - 1] / q) : R(0));
    if (std::abs(q) < pivmin) q = -pivmin;
    if (q < 0) ++below;
  }
  return below;
}

template <class R>
void resolve_interval(Wanted& wanted, const std::vector<R>& d, const std::vector<R>& e, R scale) {
  if (!wanted.interval) return;
  // (vl, vu] on T/scale; a boundary beyond R's range counts as ±infinity.
  const R lo = static_cast<R>(wanted.interval->vl / scale);
  const R hi = static_cast<R>(wanted.interval->vu / scale);
  wanted.first = eigenvalues_below(d, e, lo);
  wanted.count = std::max(0, eigenvalues_below(d, e, hi) - wanted.first);
}

#define TSEIG_INSTANTIATE(R)                                                       \
  template int eigenvalues_below(const std::vector<R>&, const std::vector<R>&, R); \
  template void resolve_interval(Wanted&, const std::vector<R>&, const std::vector<R>&, R);
TSEIG_INSTANTIATE(float)
TSEIG_INSTANTIATE(double)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
