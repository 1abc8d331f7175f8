#pragma once
// Scalar-type traits shared by the whole library.
#include <complex>
#include <type_traits>

namespace tseig {

template <class T>
struct real_type {
  using type = T;
};
template <class T>
struct real_type<std::complex<T>> {
  using type = T;
};
/// The real type underlying a scalar (double for std::complex<double>).
template <class T>
using real_t = typename real_type<T>::type;

template <class T>
inline constexpr bool is_complex_v = !std::is_same_v<T, real_t<T>>;

/// One-letter LAPACK prefix of a scalar type: 's', 'd', 'c' or 'z'.
template <class T>
constexpr char type_letter() {
  if constexpr (std::is_same_v<T, float>) return 's';
  if constexpr (std::is_same_v<T, double>) return 'd';
  if constexpr (std::is_same_v<T, std::complex<float>>) return 'c';
  return 'z';
}

template <class T>
inline T conj_if_complex(T x) {
  if constexpr (is_complex_v<T>)
    return std::conj(x);
  else
    return x;
}

}  // namespace tseig
