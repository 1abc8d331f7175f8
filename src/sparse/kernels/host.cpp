// Host kernels: spmmv, aug_spmmv and chebfd_op as row finishers of one sweep, so each
// reads the matrix and every block once. Dot accumulators are per column, kept in SIMD
// lanes until the end of the sweep: a finisher's State, which the sweep holds in
// registers where they fit (SweepState in sweep.hpp).
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "core/instantiate.hpp"
#include "sparse/kernels/chebyshev_sum.hpp"
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

/// Calls f(S{}) with S = real_t<T> when every scalar is real (one multiply per lane
/// instead of a complex product), S = T otherwise.
template <class T, class F>
void with_scalar_type(std::initializer_list<T> scalars, F&& f) {
  if constexpr (is_complex_v<T>) {
    if (std::any_of(scalars.begin(), scalars.end(), [](T s) { return s.imag() != 0; }))
      return f(T{});
  }
  f(real_t<T>{});
}

template <class S, class T>
S as_scalar(T v) {
  if constexpr (is_complex_v<T> && !is_complex_v<S>)
    return v.real();
  else
    return v;
}

/// The row finishers below see a block row of NB columns one part of W columns at a
/// time (sweep.hpp); their dot accumulators are kept per part.
template <class T, int NB>
struct RowParts {
  static constexpr int W = row_part_width<T, NB>();
  static constexpr int parts = NB / W;
  using L = Lanes<T, W>;
  using Row = typename L::Row;
  /// Element (i, part's first column) of a row-major block.
  static std::size_t at(int i, int ld, int part) {
    return static_cast<std::size_t>(i) * ld + static_cast<std::size_t>(part) * W;
  }
  template <bool Imaginary = true>
  struct Dots {
    /// The registers the accumulators take (imaginary parts only where kept).
    static constexpr int registers = parts * L::count * (Imaginary && L::complex ? 2 : 1);
    std::array<ColumnDots<T, W, Imaginary>, parts> part{};
    void add_to(T* out) const {
      for (int p = 0; p < parts; ++p) part[p].add_to(out + p * W);
    }
  };
};

/// The State of a finisher without dot products.
struct NoDots {
  static constexpr int registers = 0;
};

// spmmv writes Y without reading it. Plain stores first read every line of Y into the
// cache (write-allocate): a third more traffic at nb ≥ 8. Stores past the cache skip that
// read (3D Laplacian 100³, nb = 8 / 16 / 64, one core: 6.4 / 7.0 / 8.0 → 7.3 / 8.3 / 9.8
// GFlop/s, median of 8 interleaved calls; two ranks: 12.1 / 13.0 / 15.2 → 14.3 / 15.6 /
// 18.7), but leave Y in memory, where the caller's next use must fetch it: only blocks
// larger than the caches a core has to itself go past them.
constexpr double stream_min_bytes = 8.0 * (1 << 20);

// A finisher's row() is inlined into the sweep whatever its size: called, it takes the
// block row through memory, and g++ copied that array in 16-byte halves and reloaded it
// as whole registers, a failed store-to-load forwarding per register (chebfd_op on the
// 3D Laplacian at nb = 16 ran 4.6× slower than aug_spmmv, AVX2).
#define TSEIG_FINISHER [[gnu::always_inline]] inline

template <class T, int NB>
struct Store {
  using P = RowParts<T, NB>;
  T* __restrict y;
  int ldy;
  bool stream;
  using State = NoDots;
  State state{};
  void prefetch(int) const {}  // Y is only written
  TSEIG_FINISHER void row(int i, int part, const typename P::Row& acc, State&) {
    if (stream)
      P::L::stream(y + P::at(i, ldy, part), acc);
    else
      P::L::store(y + P::at(i, ldy, part), acc);
  }
  void finish() {
    if (stream) _mm_sfence();
  }
};

template <class T, class S, int NB, bool ReadY>
struct Augmented {
  using P = RowParts<T, NB>;
  using L = typename P::L;
  using Row = typename P::Row;
  S alpha, beta, gamma;
  const T* __restrict x;
  int ldx;
  T* __restrict y;
  int ldy;
  T* xx;
  T* yx;
  struct State {
    static constexpr int registers =
        P::template Dots<false>::registers + P::template Dots<>::registers;
    typename P::template Dots<false> x_x{};
    typename P::template Dots<> y_x{};
  } state{};

  // Y's row i (read, or written: its line is fetched either way).
  TSEIG_FINISHER void prefetch(int i) const {
    prefetch_bytes(y + P::at(i, ldy, 0), NB * sizeof(T));
  }
  TSEIG_FINISHER void row(int i, int part, const Row& acc, State& d) {
    const Row xi = L::load(x + P::at(i, ldx, part));
    T* yi = y + P::at(i, ldy, part);
    Row v = L::scale(alpha, L::minus(acc, L::scale(beta, xi)));
    if constexpr (ReadY) v = L::plus(v, L::scale(gamma, L::load(yi)));
    L::store(yi, v);
    d.x_x.part[part].add(xi, xi);
    d.y_x.part[part].add(v, xi);
  }
  void finish() {
    state.x_x.add_to(xx);
    state.y_x.add_to(yx);
  }
};

/// W ← 2α(A − βI)U − W; Sum ≠ none: X ← [X +] c_old·W_old + c_u·U + c_new·W (the old and
/// new W and U are all in registers here, so a series can touch its sum every third step:
/// detail::chebyshev_sum); Dots: KPM's ⟨W,U⟩ and ⟨U,U⟩.
template <class T, class S, int NB, detail::StepSum Sum, bool Dots>
struct ChebyshevStep {
  using P = RowParts<T, NB>;
  using L = typename P::L;
  using Row = typename P::Row;
  S two_alpha, beta, c_old, c_u, c_new;
  const T* __restrict u;
  int ldu;
  T* __restrict w;
  int ldw;
  T* __restrict x;
  int ldx;
  T* eta;
  T* mu;
  struct DotState {
    static constexpr int registers =
        P::template Dots<>::registers + P::template Dots<false>::registers;
    typename P::template Dots<> w_u{};
    typename P::template Dots<false> u_u{};
  };
  using State = std::conditional_t<Dots, DotState, NoDots>;
  State state{};

  // W's and X's rows i (U's is the sweep's own X row).
  TSEIG_FINISHER void prefetch(int i) const {
    prefetch_bytes(w + P::at(i, ldw, 0), NB * sizeof(T));
    if constexpr (Sum != detail::StepSum::none)
      prefetch_bytes(x + P::at(i, ldx, 0), NB * sizeof(T));
  }
  TSEIG_FINISHER void row(int i, int part, const Row& acc, State& d) {
    const Row ui = L::load(u + P::at(i, ldu, part));
    T* wi = w + P::at(i, ldw, part);
    const Row old = L::load(wi);
    const Row v = L::minus(L::scale(two_alpha, L::minus(acc, L::scale(beta, ui))), old);
    L::store(wi, v);
    if constexpr (Sum != detail::StepSum::none) {
      T* xi = x + P::at(i, ldx, part);
      Row s = L::scale(c_new, v);
      if constexpr (Sum == detail::StepSum::add) s = L::plus(L::load(xi), s);
      L::store(xi, L::plus(s, L::plus(L::scale(c_old, old), L::scale(c_u, ui))));
    }
    if constexpr (Dots) {
      d.w_u.part[part].add(v, ui);
      d.u_u.part[part].add(ui, ui);
    }
  }
  void finish() {
    if constexpr (Dots) {
      state.w_u.add_to(eta);
      state.u_u.add_to(mu);
    }
  }
};

/// One ChebyshevStep sweep; T* eta, mu may be null without Dots. `posted`: U's halo
/// exchange, begun by the caller; null: begun here.
template <detail::StepSum Sum, bool Dots, class T>
void chebyshev_sweep(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& u,
                     const MultiVector<T>& w, const std::array<T, 3>& c,
                     const MultiVector<std::type_identity_t<T>>* x, std::type_identity_t<T>* eta,
                     std::type_identity_t<T>* mu, HaloExchange<T>* posted = nullptr) {
  with_scalar_type({alpha, beta, c[0], c[1], c[2]}, [&](auto scalar) {
    using S = decltype(scalar);
    auto make_op = [&](auto width, int first) {
      return ChebyshevStep<T, S, decltype(width)::value, Sum, Dots>{as_scalar<S>(T(2) * alpha),
                                                                    as_scalar<S>(beta),
                                                                    as_scalar<S>(c[0]),
                                                                    as_scalar<S>(c[1]),
                                                                    as_scalar<S>(c[2]),
                                                                    u.data() + first,
                                                                    u.ld(),
                                                                    w.data() + first,
                                                                    w.ld(),
                                                                    x ? x->data() + first : nullptr,
                                                                    x ? x->ld() : 0,
                                                                    eta ? eta + first : nullptr,
                                                                    mu ? mu + first : nullptr};
    };
    if (posted)
      sweep_posted(a.data(), *posted, u.data(), u.ld(), u.cols(), make_op);
    else
      sweep_with_halo(a.data(), u.data(), u.ld(), u.cols(), make_op);
  });
}

}  // namespace

template <class T>
void spmmv(const Matrix<T>& a, const MultiVector<T>& x, const MultiVector<T>& y) {
  require_operand(a, x, "spmmv");
  require_rows(a, y, x.cols(), "spmmv");
  sweep_with_halo(a.data(), x.data(), x.ld(), x.cols(), [&](auto width, int first) {
    constexpr int NB = decltype(width)::value;
    using L = typename RowParts<T, NB>::L;
    const T* p = y.data() + first;
    // Whole registers and whole cache lines: a part of a row is a multiple of 64 bytes,
    // and so are its address and the row stride.
    const bool stream =
        L::bytes == simd_bytes && L::bytes >= 32 && L::count * L::bytes % 64 == 0 &&
        reinterpret_cast<std::uintptr_t>(p) % 64 == 0 && y.ld() * sizeof(T) % 64 == 0 &&
        static_cast<double>(y.local_rows()) * y.cols() * sizeof(T) >= stream_min_bytes;
    return Store<T, NB>{y.data() + first, y.ld(), stream};
  });
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
  with_scalar_type({alpha, beta, gamma}, [&](auto scalar) {
    using S = decltype(scalar);
    auto sweep = [&](auto read_y) {
      sweep_with_halo(a.data(), x.data(), x.ld(), x.cols(), [&](auto width, int first) {
        return Augmented<T, S, decltype(width)::value, decltype(read_y)::value>{as_scalar<S>(alpha),
                                                                                as_scalar<S>(beta),
                                                                                as_scalar<S>(gamma),
                                                                                x.data() + first,
                                                                                x.ld(),
                                                                                y.data() + first,
                                                                                y.ld(),
                                                                                xx.data() + first,
                                                                                yx.data() + first};
      });
    };
    // γ = 0 does not read Y, which may hold anything (even NaN).
    if (gamma == T(0))
      sweep(std::false_type{});
    else
      sweep(std::true_type{});
  });
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
  chebyshev_sweep<detail::StepSum::add, true>(a, alpha, beta, u, w, {T(0), T(0), c}, &x, eta.data(),
                                              mu.data());
}

namespace detail {

template <class T>
void chebyshev_step(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& u,
                    const MultiVector<T>& w, StepSum sum, const std::array<T, 3>& c,
                    const MultiVector<T>& x, HaloExchange<T>* posted) {
  require_operand(a, u, "chebyshev_step");
  require_rows(a, w, u.cols(), "chebyshev_step");
  if (sum != StepSum::none) require_rows(a, x, u.cols(), "chebyshev_step");
  if (posted && posted->block() != u.data())
    throw Error(ErrorCode::invalid_argument,
                "chebyshev_step: the posted halo exchange is not the operand block's");
  switch (sum) {
    case StepSum::none:
      return chebyshev_sweep<StepSum::none, false>(a, alpha, beta, u, w, c, nullptr, nullptr,
                                                   nullptr, posted);
    case StepSum::assign:
      return chebyshev_sweep<StepSum::assign, false>(a, alpha, beta, u, w, c, &x, nullptr, nullptr,
                                                     posted);
    case StepSum::add:
      return chebyshev_sweep<StepSum::add, false>(a, alpha, beta, u, w, c, &x, nullptr, nullptr,
                                                  posted);
  }
}

}  // namespace detail

#define TSEIG_INSTANTIATE(T)                                                                       \
  template TSEIG_API void spmmv(const Matrix<T>&, const MultiVector<T>&, const MultiVector<T>&);   \
  template TSEIG_API void aug_spmmv(const Matrix<T>&, T, T, const MultiVector<T>&, T,              \
                                    const MultiVector<T>&, std::span<T>, std::span<T>);            \
  template TSEIG_API void chebfd_op(const Matrix<T>&, T, T, const MultiVector<T>&,                 \
                                    const MultiVector<T>&, T, const MultiVector<T>&, std::span<T>, \
                                    std::span<T>);                                                 \
  template void detail::chebyshev_step(                                                            \
      const Matrix<T>&, T, T, const MultiVector<T>&, const MultiVector<T>&, detail::StepSum,       \
      const std::array<T, 3>&, const MultiVector<T>&, HaloExchange<T>*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
