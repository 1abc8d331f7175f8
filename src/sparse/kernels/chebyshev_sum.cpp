// A block's Chebyshev series with the sum touched every third step (chebyshev_sum.hpp).
#include "sparse/kernels/chebyshev_sum.hpp"

#include <utility>
#include <vector>

#include "core/instantiate.hpp"
#include "tseig/sparse/kernels.hpp"

namespace tseig::sparse::detail {

template <class T>
int chebyshev_sum(const Matrix<T>& a, std::span<const double> c, double center, double half,
                  const MultiVector<T>& t0, const MultiVector<T>& t1, const MultiVector<T>& sum) {
  const int degree = static_cast<int>(c.size()) - 1;
  const T alpha = T(1 / half), beta = T(center);
  MultiVector<T> out = sum;  // a view of the same storage
  if (degree <= 0) {
    out.assign(t0);
    axpby(T(0), t0, T(degree == 0 ? c[0] : 0.0), sum);
    return 0;
  }
  std::vector<T> eta(t0.cols()), mu(t0.cols());
  aug_spmmv(a, alpha, beta, t0, T(0), t1, std::span<T>(eta), std::span<T>(mu));  // T_1
  if (degree == 1) {
    out.assign(t0);
    axpby(T(c[1]), t1, T(c[0]), sum);
    return 1;
  }
  // Step k turns (T_{k−2}, T_{k−1}) into (T_k, T_{k−1}) and adds the terms k−2 … k not
  // yet in the sum when all three are new or k is the last step.
  MultiVector<T> previous = t0, current = t1;
  int done = -1;  // terms 0 … done are in the sum
  for (int k = 2; k <= degree; ++k) {
    StepSum mode = StepSum::none;
    std::array<T, 3> terms{};
    if (k - done == 3 || k == degree) {
      mode = done < 0 ? StepSum::assign : StepSum::add;
      for (int j = done + 1; j <= k; ++j) terms[j - (k - 2)] = T(c[j]);
      done = k;
    }
    chebyshev_step(a, alpha, beta, current, previous, mode, terms, sum);
    std::swap(previous, current);
  }
  return degree;
}

#define TSEIG_INSTANTIATE(T)                                                            \
  template int chebyshev_sum(const Matrix<T>&, std::span<const double>, double, double, \
                             const MultiVector<T>&, const MultiVector<T>&, const MultiVector<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse::detail
