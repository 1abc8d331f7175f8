// A block's Chebyshev series with the sum touched every third step (chebyshev_sum.hpp).
#include "sparse/kernels/chebyshev_sum.hpp"

#include <memory>
#include <utility>
#include <vector>

#include "core/instantiate.hpp"
#include "sparse/matrix_data.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/kernels.hpp"

namespace tseig::sparse::detail {

template <class T>
ChebyshevSeries<T>::ChebyshevSeries(const Matrix<T>& a, std::span<const double> c, double center,
                                    double half, const MultiVector<T>& t0, const MultiVector<T>& t1,
                                    const MultiVector<T>& sum)
    : a_(a),
      c_(c),
      alpha_(T(1 / half)),
      beta_(T(center)),
      degree_(static_cast<int>(c.size()) - 1),
      previous_(t1),
      current_(t0),
      sum_(sum) {
  if (degree_ <= 0) {
    MultiVector<T> out = sum;  // a view of the same storage
    out.assign(t0);
    axpby(T(0), t0, T(degree_ == 0 ? c[0] : 0.0), sum);
    degree_ = 0;
    return;
  }
  // Step 1 is a step from T_{−1} = 0 with half the scale: W ← 2(α/2)(A − βI)T_0 − 0 is
  // α(A − βI)T_0 exactly.
  previous_.set_zero();
}

template <class T>
void ChebyshevSeries<T>::step(HaloExchange<T>* posted) {
  if (finished()) throw Error(ErrorCode::invalid_argument, "ChebyshevSeries: no step left");
  // Step k turns (T_{k−2}, T_{k−1}) into (T_k, T_{k−1}) and adds the terms k−2 … k not
  // yet in the sum when all three are new or k is the last step.
  StepSum mode = StepSum::none;
  std::array<T, 3> terms{};
  if (k_ - done_ == 3 || k_ == degree_) {
    mode = done_ < 0 ? StepSum::assign : StepSum::add;
    for (int j = done_ + 1; j <= k_; ++j) terms[j - (k_ - 2)] = T(c_[j]);
    done_ = k_;
  }
  const T alpha = k_ == 1 ? alpha_ / T(2) : alpha_;
  chebyshev_step(a_, alpha, beta_, current_, previous_, mode, terms, sum_, posted);
  std::swap(previous_, current_);
  ++k_;
}

template <class T>
int chebyshev_sum(const Matrix<T>& a, std::span<const double> c, double center, double half,
                  const MultiVector<T>& t0, const MultiVector<T>& t1, const MultiVector<T>& sum) {
  ChebyshevSeries<T> series(a, c, center, half, t0, t1, sum);
  while (!series.finished()) series.step();
  return series.degree();
}

template <class T>
void chebyshev_sums(std::span<ChebyshevSeries<T>> series) {
  const int blocks = static_cast<int>(series.size());
  if (blocks == 0) return;
  const int degree = series[0].degree();
  for (const ChebyshevSeries<T>& s : series)
    if (s.degree() != degree || &s.matrix() != &series[0].matrix())
      throw Error(ErrorCode::invalid_argument,
                  "chebyshev_sums: series of different degrees or matrices");
  const MatrixData<T>& d = series[0].matrix().data();
  std::vector<std::unique_ptr<HaloExchange<T>>> posted(blocks);
  auto post = [&](int b) {
    const MultiVector<T>& u = series[b].input();
    posted[b] =
        std::make_unique<HaloExchange<T>>(d.comm, d.halo, u.data(), d.local_rows, u.ld(), u.cols());
    posted[b]->begin();
  };
  for (int k = 1; k <= degree; ++k)
    for (int b = 0; b < blocks; ++b) {
      // The next in turn has taken its previous step, so its input is final; the last
      // block's next is the first one's step k + 1.
      const int next = (b + 1) % blocks;
      if (!posted[b]) post(b);
      if (next != b && (next > b || k < degree)) post(next);
      series[b].step(posted[b].get());
      posted[b].reset();
    }
}

#define TSEIG_INSTANTIATE(T)                                                                       \
  template class ChebyshevSeries<T>;                                                               \
  template int chebyshev_sum(const Matrix<T>&, std::span<const double>, double, double,            \
                             const MultiVector<T>&, const MultiVector<T>&, const MultiVector<T>&); \
  template void chebyshev_sums(std::span<ChebyshevSeries<T>>);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse::detail
