// The CUDA binding layer (core/blas/cuda.hpp) against the host one (core/blas/host.hpp) on
// the same random data: every routine, all four scalar types, transposed and triangular
// variants, and LAPACK's info for a matrix that is not positive definite. Skips without
// a usable GPU (TSEIG_TEST_REQUIRE_GPU=1: a failure).
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/blas/cuda.hpp"
#include "core/blas/host.hpp"
#include "device/runtime.hpp"
#include "test_util.hpp"
#include "tseig/device.hpp"

namespace tseig::test {
namespace {

template <class T>
class GpuBlas : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu::device_count() == 0) {
      const char* need = std::getenv("TSEIG_TEST_REQUIRE_GPU");
      if (need && std::string(need) == "1") FAIL() << "no GPU: " << gpu::status();
      GTEST_SKIP() << gpu::status();
    }
    ctx_ = &device::context(MPI_COMM_WORLD);
  }
  // Host data → device array.
  device::Array<T> up(const std::vector<T>& h) {
    device::Array<T> d(h.size());
    device::to_device(*ctx_, d.data(), h.data(), h.size() * sizeof(T));
    return d;
  }
  std::vector<T> down(const device::Array<T>& d) {
    std::vector<T> h(d.size());
    device::to_host(*ctx_, h.data(), d.data(), h.size() * sizeof(T));
    return h;
  }
  cuda::Context* ctx_ = nullptr;
};
using ScalarTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(GpuBlas, ScalarTypes);

template <class T>
std::vector<T> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (is_complex_v<T>)
      x = T(u(gen), u(gen));
    else
      x = T(u(gen));
  }
  return v;
}

template <class T>
double max_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double d = 0, scale = 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, static_cast<double>(std::abs(a[i] - b[i])));
    scale = std::max(scale, static_cast<double>(std::abs(b[i])));
  }
  return d / scale;
}

// A well-conditioned triangular or Hermitian positive definite n×n matrix: a random one
// with n added to the diagonal.
template <class T>
std::vector<T> dominant(int n, unsigned seed) {
  std::vector<T> a = random_vector<T>(static_cast<std::size_t>(n) * n, seed);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) a[j + i * n] = conj_if_complex(a[i + j * n]);
  for (int i = 0; i < n; ++i) a[i + i * n] = T(n + 1);
  return a;
}

TYPED_TEST(GpuBlas, Level3AndGemvMatchTheHost) {
  using T = TypeParam;
  const double tol = 100 * 64 * eps<T>();
  const int m = 37, n = 29, k = 41;
  for (char ta : {'N', 'C'})
    for (char tb : {'N', 'T'}) {
      const int lda = ta == 'N' ? m : k, ldb = tb == 'N' ? k : n;
      auto a = random_vector<T>(static_cast<std::size_t>(lda) * (ta == 'N' ? k : m), 1);
      auto b = random_vector<T>(static_cast<std::size_t>(ldb) * (tb == 'N' ? n : k), 2);
      auto c = random_vector<T>(static_cast<std::size_t>(m) * n, 3);
      auto da = this->up(a), db = this->up(b), dc = this->up(c);
      cuda::blas::gemm(*this->ctx_, ta, tb, m, n, k, T(2), da.data(), lda, db.data(), ldb, T(-1),
                       dc.data(), m);
      blas::gemm(ta, tb, m, n, k, T(2), a.data(), lda, b.data(), ldb, T(-1), c.data(), m);
      EXPECT_LE(max_difference(this->down(dc), c), tol) << ta << tb;
    }
  for (char t : {'N', 'C'}) {
    auto a = random_vector<T>(static_cast<std::size_t>(m) * n, 4);
    auto x = random_vector<T>(t == 'N' ? n : m, 5), y = random_vector<T>(t == 'N' ? m : n, 6);
    auto da = this->up(a), dx = this->up(x), dy = this->up(y);
    cuda::blas::gemv(*this->ctx_, t, m, n, T(1), da.data(), m, dx.data(), 1, T(1), dy.data(), 1);
    blas::gemv(t, m, n, T(1), a.data(), m, x.data(), 1, T(1), y.data(), 1);
    EXPECT_LE(max_difference(this->down(dy), y), tol) << t;
  }
  for (char side : {'L', 'R'})
    for (char uplo : {'U', 'L'})
      for (char ta : {'N', 'C'}) {
        const int na = side == 'L' ? m : n;
        auto a = dominant<T>(na, 7);
        auto b = random_vector<T>(static_cast<std::size_t>(m) * n, 8), b2 = b;
        auto da = this->up(a), db = this->up(b), db2 = this->up(b);
        cuda::blas::trmm(*this->ctx_, side, uplo, ta, 'N', m, n, T(1), da.data(), na, db.data(), m);
        blas::trmm(side, uplo, ta, 'N', m, n, T(1), a.data(), na, b.data(), m);
        EXPECT_LE(max_difference(this->down(db), b), tol) << "trmm " << side << uplo << ta;
        cuda::blas::trsm(*this->ctx_, side, uplo, ta, 'N', m, n, T(1), da.data(), na, db2.data(),
                         m);
        blas::trsm(side, uplo, ta, 'N', m, n, T(1), a.data(), na, b2.data(), m);
        EXPECT_LE(max_difference(this->down(db2), b2), tol) << "trsm " << side << uplo << ta;
      }
}

TYPED_TEST(GpuBlas, FactorizationsMatchTheHost) {
  using T = TypeParam;
  const double tol = 100 * 64 * eps<T>();
  const int n = 45;
  for (char uplo : {'U', 'L'}) {
    auto a = dominant<T>(n, 9), t = a;
    auto da = this->up(a);
    EXPECT_EQ(cuda::lapack::potrf(*this->ctx_, uplo, n, da.data(), n), 0);
    EXPECT_EQ(lapack::potrf(uplo, n, a.data(), n), 0);
    // Only the referenced triangle is compared (the other holds the input on both).
    auto da2 = this->down(da);
    EXPECT_LE(max_difference(da2, a), tol) << "potrf " << uplo;
    auto dt = this->up(t);
    EXPECT_EQ(cuda::lapack::trtri(*this->ctx_, uplo, n, dt.data(), n), 0);
    EXPECT_EQ(lapack::trtri(uplo, n, t.data(), n), 0);
    EXPECT_LE(max_difference(this->down(dt), t), tol) << "trtri " << uplo;
  }
  // Not positive definite: info = the order of the first failing minor, as LAPACK.
  auto bad = dominant<T>(n, 10);
  bad[7 + 7 * n] = T(-1000);
  auto host = bad;
  auto dbad = this->up(bad);
  const int info = lapack::potrf('L', n, host.data(), n);
  EXPECT_GT(info, 0);
  EXPECT_EQ(cuda::lapack::potrf(*this->ctx_, 'L', n, dbad.data(), n), info);
}

TYPED_TEST(GpuBlas, TriangularFactorMatchesLarft) {
  using T = TypeParam;
  const double tol = 100 * 64 * eps<T>();
  const int n = 50, k = 13;
  // V's upper triangle and diagonal hold other data: larft must not read them.
  auto v = random_vector<T>(static_cast<std::size_t>(n) * k, 11);
  auto tau = random_vector<T>(k, 12);
  std::vector<T> t(static_cast<std::size_t>(k) * k, T(0)), dt_host(t.size());
  auto dv = this->up(v), dtau = this->up(tau), dtm = this->up(t);
  cuda::lapack::larft(*this->ctx_, n, k, dv.data(), n, dtau.data(), dtm.data(), k);
  lapack::larft(n, k, v.data(), n, tau.data(), t.data(), k);
  dt_host = this->down(dtm);
  // Compare the upper triangle (the factor); the strictly lower part is not defined.
  for (int j = 0; j < k; ++j)
    for (int i = j + 1; i < k; ++i) dt_host[i + j * k] = t[i + j * k];
  EXPECT_LE(max_difference(dt_host, t), tol);
}

}  // namespace
}  // namespace tseig::test
