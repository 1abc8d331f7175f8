#pragma once
// What both ChebFD iterations (subspace and Krylov–Schur) know of their window: the
// interval, the KPM map of the spectrum onto [−1, 1], the norm and tolerances of the
// convergence test, the block width; and their not-converged error.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "sparse/solvers/chebfd_window.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/chebfd.hpp"

namespace tseig::sparse::detail {

template <class R>
struct WindowSetup {
  WindowSetup(const KpmMoments& kpm, double a, double b, const ChebfdOptions& o)
      : lower(a),
        upper(b),
        center(kpm.center),
        half(kpm.half_width),
        norm_h(std::max(std::abs(kpm.bounds.lower), std::abs(kpm.bounds.upper))),
        tol(o.tol > 0 ? o.tol : std::sqrt(std::numeric_limits<R>::epsilon())),
        drop(1e3 * std::numeric_limits<R>::epsilon()),
        nb(std::max(1, o.tune.block_width)) {
    // An eigenvalue on an edge (0 of a periodic Laplacian in [0, b]) computes as
    // ±ε‖H‖; the rounding must not decide whether it is returned.
    const double slack = 8 * std::numeric_limits<R>::epsilon() * norm_h;
    lower -= slack;
    upper += slack;
  }
  /// What to add to a not-converged error when the planned degree was capped below the
  /// one that resolves the window.
  std::string degree_note(int degree, const ChebfdOptions& o) const {
    const double width = (upper - lower) / half, needed = resolving_degree(width);
    if (o.degree > 0 || degree < o.max_degree || needed <= o.max_degree) return {};
    char buffer[200];
    std::snprintf(buffer, sizeof buffer,
                  "; the window is %.2g of the spectrum's width and needs a filter degree of "
                  "about %.2g, capped at max_degree %d (raise it, widen the window, or use a "
                  "shift-invert or dense solver)",
                  width / 2, needed, o.max_degree);
    return buffer;
  }
  /// What rounding may leave in a converged Ritz value (chebfd_edges.hpp): 64ε‖H‖.
  double rounding() const { return 64 * std::numeric_limits<R>::epsilon() * norm_h; }
  double lower, upper;  ///< the window, widened by 8ε‖H‖
  double center, half;  ///< H̃ = (H − center)/half has its spectrum in [−1, 1]
  double norm_h;        ///< ‖H‖ of the convergence test
  double tol, drop;     ///< convergence; SVQB's drop tolerance
  int nb;               ///< block width
};

/// Collective: Error(not_converged) on every rank, `head` then the residuals reached
/// inside the window (or why none are left).
inline void raise_not_converged(MPI_Comm comm, std::string head, double tol,
                                const std::vector<double>& residuals) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, " (tol %.3g", tol);
  head += buffer;
  head += "); relative residuals reached inside the interval:";
  for (double r : residuals) {
    std::snprintf(buffer, sizeof buffer, " %.3e", r);
    head += buffer;
  }
  if (residuals.empty()) head += " none left, but the count was still changing";
  raise_if_any(comm, true, ErrorCode::not_converged, head);
}

}  // namespace tseig::sparse::detail
