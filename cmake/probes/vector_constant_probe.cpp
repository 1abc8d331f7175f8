// Does this compiler, with the flags it is given, build vectors of constants correctly?
// g++ 12.2 with AVX-512 enabled (-march=native on AVX-512 CPUs, -mavx512f,
// -march=x86-64-v4) and its SLP vectorizer on stores std::vector<double>{1, 1, 1, 0} as
// {1, 1, 1, 1}: the same defect can give wrong numbers anywhere in the library.
// Run at configure time (cmake/tseigMiscompileCheck.cmake) and as the ctest
// toolchain_probe; exits 1 and names the wrong case when the code is wrong.
#include <complex>
#include <cstdint>
#include <cstdio>
#include <vector>

// External linkage on purpose: in an anonymous namespace, interprocedural constant
// propagation hides the defect and the probe would pass on a broken compiler.
namespace probe {

template <class T>
__attribute__((noinline)) bool equals(const std::vector<T>& got, const T* want, int n) {
  if (static_cast<int>(got.size()) != n) return false;
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) return false;
  return true;
}

// Each case is a brace-initialised vector whose last elements differ from the first:
// the shapes that came out wrong (all elements set to the first) with 64-bit types.
template <class T>
int wrong_cases(const char* type) {
  int wrong = 0;
  auto expect = [&](bool ok, const char* what) {
    if (!ok) {
      std::printf("wrong code: std::vector<%s>%s\n", type, what);
      ++wrong;
    }
  };
  const T a[] = {T(1), T(1), T(1), T(0)};
  expect(equals<T>({T(1), T(1), T(1), 0}, a, 4), "{1, 1, 1, 0}");
  const T b[] = {T(3), T(3), T(0), T(0)};
  expect(equals<T>({T(3), T(3), 0, 0}, b, 4), "{3, 3, 0, 0}");
  const T c[] = {T(2), T(2), T(2), T(2), T(2), T(2), T(2), T(0)};
  expect(equals<T>({T(2), T(2), T(2), T(2), T(2), T(2), T(2), 0}, c, 8),
         "{2, 2, 2, 2, 2, 2, 2, 0}");
  const T d[] = {T(0), T(1), T(1), T(1)};
  expect(equals<T>({0, T(1), T(1), T(1)}, d, 4), "{0, 1, 1, 1}");
  return wrong;
}

}  // namespace probe

int main() {
  const int wrong = probe::wrong_cases<double>("double") + probe::wrong_cases<float>("float") +
                    probe::wrong_cases<std::int64_t>("int64_t") +
                    probe::wrong_cases<std::int32_t>("int32_t") +
                    probe::wrong_cases<std::complex<double>>("complex<double>");
  if (wrong == 0) {
    std::printf("vector constants compiled correctly\n");
    return 0;
  }
  std::printf(
      "%d case(s) miscompiled by this compiler (%s) with these flags. Known cause: g++ 12 with "
      "AVX-512 and the SLP vectorizer; configure with TSEIG_MISCOMPILE_WORKAROUND=AUTO or ON "
      "(adds -fno-tree-slp-vectorize), or turn TSEIG_NATIVE off.\n",
      wrong, __VERSION__);
  return 1;
}
