// The tall-skinny kernels of the block solvers (sparse/solvers/tall_skinny.hpp) against a
// plain triple loop: every tile width and tail, views narrower than their rows, row
// counts that are not whole chunks or row groups, the in-place product, beta; the
// complex forms through them.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "sparse/solvers/tall_skinny.hpp"

namespace tseig::test {
namespace {

#if TSEIG_TALL_SKINNY_KERNELS

using sparse::detail::GramTarget;

std::vector<double> random_block(std::size_t size, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(size);
  for (double& x : v) x = u(gen);
  return v;
}

/// Largest |a − b| relative to the scale of a sum of n products of entries ≤ 1.
double error(const std::vector<double>& a, const std::vector<double>& b, int n) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e / (std::max(n, 1) * std::numeric_limits<double>::epsilon());
}

TEST(TallSkinny, GramMatchesTripleLoopForEveryTileShape) {
  for (int n : {0, 1, 13, 1000, 3001})
    for (int k : {1, 3, 8, 9, 20, 60, 128})
      for (int l : {1, 4, 7, 8, 20, 24, 25, 40, 128}) {
        // Views: x's k columns at offset 3 in rows of k + 5, y's at offset 1 of l + 2, so
        // a tile reads neither the columns before nor those after (they hold NaN).
        const std::size_t ldx = k + 5, ldy = l + 2;
        std::vector<double> x = random_block(n * ldx, 1), y = random_block(n * ldy, 2);
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j < 3; ++j) x[i * ldx + j] = NAN;
          for (int j = 3 + k; j < static_cast<int>(ldx); ++j) x[i * ldx + j] = NAN;
          y[i * ldy] = NAN;
          y[i * ldy + l + 1] = NAN;
        }
        std::vector<double> c(static_cast<std::size_t>(k) * l, NAN), expect(c.size(), 0.0);
        for (int i = 0; i < n; ++i)
          for (int b = 0; b < l; ++b)
            for (int a = 0; a < k; ++a)
              expect[a + b * k] += x[i * ldx + 3 + a] * y[i * ldy + 1 + b];
        const GramTarget target{l, y.data() + 1, ldy, c.data()};
        sparse::detail::tall_gram(n, k, x.data() + 3, ldx, std::span(&target, 1));
        EXPECT_LE(error(c, expect, n), 4) << "n " << n << " k " << k << " l " << l;
      }
}

TEST(TallSkinny, GramWithTwoTargetsMatchesTwoGrams) {
  const int n = 2049, k = 60, l1 = 20, l2 = 12;
  const std::vector<double> x = random_block(n * 64, 3), y = random_block(n * 64, 4);
  std::vector<double> c1(k * l1), c2(k * l2), d1(k * l1), d2(k * l2);
  const GramTarget both[2] = {{l1, y.data() + 40, 64, c1.data()},
                              {l2, y.data() + 3, 64, c2.data()}};
  sparse::detail::tall_gram(n, k, x.data(), 64, std::span(both));
  const GramTarget one[2] = {{l1, y.data() + 40, 64, d1.data()}, {l2, y.data() + 3, 64, d2.data()}};
  sparse::detail::tall_gram(n, k, x.data(), 64, std::span(one).subspan(0, 1));
  sparse::detail::tall_gram(n, k, x.data(), 64, std::span(one).subspan(1, 1));
  EXPECT_LE(error(c1, d1, n), 4);  // the chunks differ, so the order of the sums
  EXPECT_LE(error(c2, d2, n), 4);
}

/// y_expect ← x·S + beta·y by a triple loop (y's old values as given).
std::vector<double> transformed(int n, int k, int l, const std::vector<double>& x, std::size_t ldx,
                                const std::vector<double>& s, double beta,
                                const std::vector<double>& y, std::size_t ldy) {
  std::vector<double> out = y;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < l; ++j) {
      double sum = 0;
      for (int a = 0; a < k; ++a) sum += x[i * ldx + a] * s[a + j * k];
      out[i * ldy + j] = sum + (beta == 0 ? 0 : beta * y[i * ldy + j]);
    }
  return out;
}

TEST(TallSkinny, TransformMatchesTripleLoopWithAndWithoutBeta) {
  for (int n : {0, 1, 7, 9, 1001})
    for (int k : {1, 5, 20, 60})
      for (int l : {1, 3, 8, 20, 25, 49}) {
        const std::size_t ldx = k + 3, ldy = l + 1;
        const std::vector<double> x = random_block(n * ldx, 5), s = random_block(k * l, 6);
        std::vector<double> y = random_block(n * ldy, 7);
        for (double beta : {0.0, 1.0, -0.5}) {
          std::vector<double> z = y;
          if (beta == 0)
            for (int i = 0; i < n; ++i)
              for (int j = 0; j < l; ++j) z[i * ldy + j] = NAN;  // never read
          const std::vector<double> expect = transformed(n, k, l, x, ldx, s, beta, z, ldy);
          sparse::detail::tall_transform(n, k, l, x.data(), ldx, s.data(), beta, z.data(), ldy);
          EXPECT_LE(error(z, expect, k), 4) << "n " << n << " k " << k << " l " << l;
        }
      }
}

TEST(TallSkinny, TransformInPlaceKeepsTheColumnsBeyond) {
  const int n = 515, k = 60, l = 40;
  const std::size_t ld = 64;
  std::vector<double> x = random_block(n * ld, 8);
  const std::vector<double> s = random_block(k * l, 9);
  const std::vector<double> expect = transformed(n, k, l, x, ld, s, 0, x, ld);
  sparse::detail::tall_transform(n, k, l, x.data(), ld, s.data(), 0, x.data(), ld);
  EXPECT_LE(error(x, expect, k), 4);
}

using cd = std::complex<double>;

std::vector<cd> random_complex(std::size_t size, unsigned seed) {
  const std::vector<double> v = random_block(2 * size, seed);
  std::vector<cd> c(size);
  for (std::size_t i = 0; i < size; ++i) c[i] = cd(v[2 * i], v[2 * i + 1]);
  return c;
}

/// error() of complex entries, on the scale of a sum of n complex products.
double error(const std::vector<cd>& a, const std::vector<cd>& b, int n) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e / (4 * std::max(n, 1) * std::numeric_limits<double>::epsilon());
}

// The complex forms: XᴴY (conjugated x) with one and two targets, X·S with beta 0 (Y
// NaN, never read) and real beta, and in place; views inside wider rows.
TEST(TallSkinny, ComplexGramMatchesTripleLoop) {
  for (int n : {0, 7, 1001})
    for (int k : {1, 3, 8, 20, 64})
      for (int l : {1, 4, 13, 64}) {
        const std::size_t ldx = k + 2, ldy = l + 3;
        const std::vector<cd> x = random_complex(n * ldx, 10), y = random_complex(n * ldy, 11);
        std::vector<cd> c(static_cast<std::size_t>(k) * l, cd(NAN, NAN)), expect(c.size());
        for (int i = 0; i < n; ++i)
          for (int b = 0; b < l; ++b)
            for (int a = 0; a < k; ++a)
              expect[a + b * k] += std::conj(x[i * ldx + 1 + a]) * y[i * ldy + 2 + b];
        const sparse::detail::ComplexGramTarget target{l, y.data() + 2, ldy, c.data()};
        sparse::detail::tall_gram(n, k, x.data() + 1, ldx, std::span(&target, 1));
        EXPECT_LE(error(c, expect, n), 4) << "n " << n << " k " << k << " l " << l;
        std::vector<cd> c1(c.size()), c2(static_cast<std::size_t>(k) * 2);
        const sparse::detail::ComplexGramTarget both[2] = {{l, y.data() + 2, ldy, c1.data()},
                                                           {2, y.data(), ldy, c2.data()}};
        sparse::detail::tall_gram(n, k, x.data() + 1, ldx, std::span(both));
        EXPECT_LE(error(c1, expect, n), 4) << "two targets, n " << n << " k " << k << " l " << l;
      }
}

TEST(TallSkinny, ComplexTransformMatchesTripleLoop) {
  for (int n : {0, 9, 1001})
    for (int k : {1, 5, 20, 64})
      for (int l : {1, 3, 8, 25, 64}) {
        const std::size_t ldx = k + 1, ldy = l + 2;
        const std::vector<cd> x = random_complex(n * ldx, 12), s = random_complex(k * l, 13);
        const std::vector<cd> y = random_complex(n * ldy, 14);
        for (double beta : {0.0, -0.5}) {
          std::vector<cd> z = y, expect = y;
          for (int i = 0; i < n; ++i)
            for (int j = 0; j < l; ++j) {
              cd sum = 0;
              for (int a = 0; a < k; ++a) sum += x[i * ldx + a] * s[a + j * k];
              expect[i * ldy + j] = sum + beta * y[i * ldy + j];
              if (beta == 0) z[i * ldy + j] = cd(NAN, NAN);
            }
          sparse::detail::tall_transform(n, k, l, x.data(), ldx, s.data(), beta, z.data(), ldy);
          EXPECT_LE(error(z, expect, k), 4) << "n " << n << " k " << k << " l " << l;
        }
        if (l > k) continue;
        std::vector<cd> in_place = x, expect = x;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < l; ++j) {
            cd sum = 0;
            for (int a = 0; a < k; ++a) sum += x[i * ldx + a] * s[a + j * k];
            expect[i * ldx + j] = sum;
          }
        sparse::detail::tall_transform(n, k, l, in_place.data(), ldx, s.data(), 0.0,
                                       in_place.data(), ldx);
        EXPECT_LE(error(in_place, expect, k), 4) << "in place, n " << n << " k " << k << " l " << l;
      }
}

#else

TEST(TallSkinny, NotInThisBuild) {
  GTEST_SKIP() << "this build has no tall-skinny kernels (no AVX2 + FMA): BLAS does the "
                  "products, as the solver tests check";
}

#endif

}  // namespace
}  // namespace tseig::test
