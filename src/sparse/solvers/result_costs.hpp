#pragma once
// The work of a solver run that led to another (a hand-over, a widened rerun) stays in
// the result the caller gets.
#include "tseig/sparse/linear_operator.hpp"

namespace tseig::sparse::detail {

/// r's iterations, operator applications and times plus those of `before`.
template <class T>
void add_costs(EigenResult<T>& r, const EigenResult<T>& before) {
  r.iterations += before.iterations;
  r.operator_applications += before.operator_applications;
  for (auto field : {&SolverTimes::spmmv, &SolverTimes::orthogonalization,
                     &SolverTimes::rayleigh_ritz, &SolverTimes::communication, &SolverTimes::total})
    r.times.*field += before.times.*field;
}

}  // namespace tseig::sparse::detail
