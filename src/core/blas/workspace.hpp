#pragma once
// LAPACK's workspace protocol, written once: call with lwork = liwork = lrwork = −1 so
// the routine reports the sizes it needs in the first element of each array, size the
// arrays from those answers, call again.
#include <new>
#include <stdexcept>
#include <vector>

namespace tseig::blas {

/// Lengths of the three work arrays a LAPACK-style routine may take.
struct WorkSizes {
  int work = 0, rwork = 0, iwork = 0;
};

/// `call(work, lwork, rwork, lrwork, iwork, liwork)` runs the routine and returns its
/// info; `size(work_query, rwork_query, iwork_query)` turns the query's answers into the
/// WorkSizes to allocate (routines without rwork ignore it and ask for 0). Vec is the
/// container the arrays live in (std::vector or the cached one). `agree(short_of_memory)`
/// is called after the allocation, also when it failed: a distributed routine's ranks
/// decide there together (throw on all of them or on none). Returns the info of the
/// second call.
template <template <class> class Vec, class T, class R, class Call, class Size, class Agree>
int query_then_run(Call&& call, Size&& size, Agree&& agree) {
  T work_query{};
  R rwork_query{};
  int iwork_query = 0;
  call(&work_query, -1, &rwork_query, -1, &iwork_query, -1);
  const WorkSizes n = size(work_query, rwork_query, iwork_query);
  Vec<T> work;
  Vec<R> rwork;
  Vec<int> iwork;
  bool short_of_memory = false;
  try {
    work.resize(n.work);
    rwork.resize(n.rwork);
    iwork.resize(n.iwork);
  } catch (const std::bad_alloc&) {
    short_of_memory = true;
  } catch (const std::length_error&) {
    // A size the query could not express (an int that overflowed to < 0): no such memory.
    short_of_memory = true;
  }
  agree(short_of_memory);
  return call(work.data(), n.work, rwork.data(), n.rwork, iwork.data(), n.iwork);
}

/// The same for a routine of this rank alone: a failed allocation throws std::bad_alloc.
template <template <class> class Vec, class T, class R, class Call, class Size>
int query_then_run(Call&& call, Size&& size) {
  return query_then_run<Vec, T, R>(call, size, [](bool short_of_memory) {
    if (short_of_memory) throw std::bad_alloc();
  });
}

/// std::vector with one template parameter, for query_then_run.
template <class T>
using plain_vector = std::vector<T>;

}  // namespace tseig::blas
