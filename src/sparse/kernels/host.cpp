// Host kernels: spmmv, aug_spmmv and chebfd_op as row finishers of one sweep, so each
// reads the matrix and every block once. Dot accumulators are per column and live in
// the finisher, so the compiler keeps the width loop free of dependences.
#include <string>

#include "core/instantiate.hpp"
#include "sparse/kernels/sweep.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/kernels.hpp"

namespace tseig::sparse {

namespace {

template <class T>
void require_operand(const Matrix<T>& a, const MultiVector<T>& x, const char* what) {
  // Only values equal on every rank are compared, so every rank throws or none does.
  const VectorLayout& l = x.layout();
  if (l.partition_key != a.partition().key() || l.halo_rows < a.data().max_halo_rows)
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": operand block does not have the matrix's vector layout");
}

template <class T>
void require_rows(const Matrix<T>& a, const MultiVector<T>& y, int cols, const char* what) {
  if (y.layout().partition_key != a.partition().key() || y.cols() != cols)
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": blocks differ in rows or width");
}

template <class T>
void require_dots(std::span<T> d, int cols, const char* what) {
  if (static_cast<int>(d.size()) < cols)
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": dot-product arrays need one entry per column");
}

template <class T>
struct Store {
  T* __restrict y;
  int ldy;
  template <int NB>
  void row(int i, const T* __restrict acc, int w) {
    T* __restrict yi = y + static_cast<std::size_t>(i) * ldy;
    for (int k = 0; k < (NB > 0 ? NB : w); ++k) yi[k] = acc[k];
  }
};

template <class T, bool ReadY>
struct Augmented {
  T alpha, beta, gamma;
  const T* __restrict x;
  int ldx;
  T* __restrict y;
  int ldy;
  T* __restrict xx;
  T* __restrict yx;
  template <int NB>
  void row(int i, const T* __restrict acc, int w) {
    const T* __restrict xi = x + static_cast<std::size_t>(i) * ldx;
    T* __restrict yi = y + static_cast<std::size_t>(i) * ldy;
    for (int k = 0; k < (NB > 0 ? NB : w); ++k) {
      T v = alpha * (acc[k] - beta * xi[k]);
      if constexpr (ReadY) v += gamma * yi[k];
      yi[k] = v;
      xx[k] += conj_if_complex(xi[k]) * xi[k];
      yx[k] += conj_if_complex(v) * xi[k];
    }
  }
};

template <class T>
struct ChebyshevStep {
  T two_alpha, beta, c;
  const T* __restrict u;
  int ldu;
  T* __restrict w;
  int ldw;
  T* __restrict x;
  int ldx;
  T* __restrict eta;
  T* __restrict mu;
  template <int NB>
  void row(int i, const T* __restrict acc, int width) {
    const T* __restrict ui = u + static_cast<std::size_t>(i) * ldu;
    T* __restrict wi = w + static_cast<std::size_t>(i) * ldw;
    T* __restrict xi = x + static_cast<std::size_t>(i) * ldx;
    for (int k = 0; k < (NB > 0 ? NB : width); ++k) {
      const T v = two_alpha * (acc[k] - beta * ui[k]) - wi[k];
      wi[k] = v;
      eta[k] += conj_if_complex(v) * ui[k];
      mu[k] += conj_if_complex(ui[k]) * ui[k];
      xi[k] += c * v;
    }
  }
};

}  // namespace

template <class T>
void spmmv(const Matrix<T>& a, const MultiVector<T>& x, const MultiVector<T>& y) {
  require_operand(a, x, "spmmv");
  require_rows(a, y, x.cols(), "spmmv");
  Store<T> op{y.data(), y.ld()};
  sweep_with_halo(a.data(), x.data(), x.ld(), x.cols(), op);
}

template <class T>
void aug_spmmv(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& x, T gamma,
               const MultiVector<T>& y, std::span<T> xx, std::span<T> yx) {
  require_operand(a, x, "aug_spmmv");
  require_rows(a, y, x.cols(), "aug_spmmv");
  require_dots(xx, x.cols(), "aug_spmmv");
  require_dots(yx, x.cols(), "aug_spmmv");
  std::fill_n(xx.begin(), x.cols(), T(0));
  std::fill_n(yx.begin(), x.cols(), T(0));
  auto run = [&](auto op) { sweep_with_halo(a.data(), x.data(), x.ld(), x.cols(), op); };
  if (gamma == T(0))
    run(Augmented<T, false>{alpha, beta, gamma, x.data(), x.ld(), y.data(), y.ld(), xx.data(),
                            yx.data()});
  else
    run(Augmented<T, true>{alpha, beta, gamma, x.data(), x.ld(), y.data(), y.ld(), xx.data(),
                           yx.data()});
}

template <class T>
void chebfd_op(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& u,
               const MultiVector<T>& w, T c, const MultiVector<T>& x, std::span<T> eta,
               std::span<T> mu) {
  require_operand(a, u, "chebfd_op");
  require_rows(a, w, u.cols(), "chebfd_op");
  require_rows(a, x, u.cols(), "chebfd_op");
  require_dots(eta, u.cols(), "chebfd_op");
  require_dots(mu, u.cols(), "chebfd_op");
  std::fill_n(eta.begin(), u.cols(), T(0));
  std::fill_n(mu.begin(), u.cols(), T(0));
  ChebyshevStep<T> op{T(2) * alpha, beta,     c,      u.data(),   u.ld(),   w.data(),
                      w.ld(),       x.data(), x.ld(), eta.data(), mu.data()};
  sweep_with_halo(a.data(), u.data(), u.ld(), u.cols(), op);
}

#define TSEIG_INSTANTIATE(T)                                                                       \
  template TSEIG_API void spmmv(const Matrix<T>&, const MultiVector<T>&, const MultiVector<T>&);   \
  template TSEIG_API void aug_spmmv(const Matrix<T>&, T, T, const MultiVector<T>&, T,              \
                                    const MultiVector<T>&, std::span<T>, std::span<T>);            \
  template TSEIG_API void chebfd_op(const Matrix<T>&, T, T, const MultiVector<T>&,                 \
                                    const MultiVector<T>&, T, const MultiVector<T>&, std::span<T>, \
                                    std::span<T>);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
