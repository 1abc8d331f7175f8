#pragma once
// LAPACK's workspace protocol, written once: call with lwork = liwork = lrwork = −1 so
// the routine reports the sizes it needs in the first element of each array, size the
// arrays from those answers, call again.
#include <vector>

namespace tseig::blas {

/// Lengths of the three work arrays a LAPACK-style routine may take.
struct WorkSizes {
  int work = 0, rwork = 0, iwork = 0;
};

/// `call(work, lwork, rwork, lrwork, iwork, liwork)` runs the routine and returns its
/// info; `size(work_query, rwork_query, iwork_query)` turns the query's answers into the
/// WorkSizes to allocate (routines without rwork ignore it and ask for 0). Vec is the
/// container the arrays live in (std::vector or the cached one). Returns the info of the
/// second call.
template <template <class> class Vec, class T, class R, class Call, class Size>
int query_then_run(Call&& call, Size&& size) {
  T work_query{};
  R rwork_query{};
  int iwork_query = 0;
  call(&work_query, -1, &rwork_query, -1, &iwork_query, -1);
  const WorkSizes n = size(work_query, rwork_query, iwork_query);
  Vec<T> work(n.work);
  Vec<R> rwork(n.rwork);
  Vec<int> iwork(n.iwork);
  return call(work.data(), n.work, rwork.data(), n.rwork, iwork.data(), n.iwork);
}

/// std::vector with one template parameter, for query_then_run.
template <class T>
using plain_vector = std::vector<T>;

}  // namespace tseig::blas
