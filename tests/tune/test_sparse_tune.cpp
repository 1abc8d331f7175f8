// The sparse tuner at 1, 2 and 4 ranks: a change of storage format keeps the matrix
// (the kernels give the same block), the measured knobs go to the cache and come back
// the same on every rank, what the user set is kept, and a bad cache entry or bad
// options give a warning or an error on every rank, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "sparse/matrix_data.hpp"
#include "temp_file.hpp"
#include "test_util.hpp"
#include "tseig/sparse/autotune.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tune/json_value.hpp"
#include "tune/sparse_choice.hpp"

namespace tseig::test {
namespace {

using namespace tseig::sparse;

SparseTuneParameters sell(int c, int sigma) {
  SparseTuneParameters t;
  t.format = SparseFormat::sell_c_sigma;
  t.sell_chunk = c;
  t.sell_sigma = sigma;
  return t;
}

// max |A·X − B·X| over the ranks' rows for the same random X, relative to max |A·X|.
template <class T>
double product_difference(const Matrix<T>& a, const Matrix<T>& b, int nb) {
  MultiVector<T> x(a.vector_layout(), nb), ya(a.vector_layout(), nb), yb(b.vector_layout(), nb);
  x.fill_random(3);
  spmmv(a, x, ya);
  spmmv(b, x, yb);
  double diff = 0, size = 0;
  for (int i = 0; i < a.local_rows(); ++i)
    for (int j = 0; j < nb; ++j) {
      diff = std::max(diff, static_cast<double>(std::abs(ya(i, j) - yb(i, j))));
      size = std::max(size, static_cast<double>(std::abs(ya(i, j))));
    }
  MPI_Allreduce(MPI_IN_PLACE, &diff, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &size, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return diff / size;
}

// Every rank holds the same value.
bool agreed(int v) {
  int lo = v, hi = v;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

TEST(SparseTune, WithFormatKeepsTheMatrix) {
  // Odd sizes: chunks and sorting windows end mid-way, some ranks have few rows.
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 7, 6, 5);
  for (const SparseTuneParameters& t : {sell(4, 8), sell(3, 9), sell(32, 256), sell(1, 1)}) {
    const Matrix<double> s = a.with_format(t);
    EXPECT_EQ(s.format(), SparseFormat::sell_c_sigma);
    EXPECT_EQ(s.nonzeros(), a.nonzeros());
    EXPECT_LE(product_difference(a, s, 5), 1e-15) << format_label(t);
    // And back: SELL → CRS drops the padding.
    const Matrix<double> back = s.with_format({});
    EXPECT_EQ(back.format(), SparseFormat::crs);
    EXPECT_LE(product_difference(a, back, 1), 1e-15);
    EXPECT_LE(product_difference(s, s.with_format(sell(8, 16)), 4), 1e-15);
  }
  TopologicalInsulator m;
  m.nx = 3, m.ny = 4, m.nz = 3, m.disorder = 1;
  const auto ti = topological_insulator<std::complex<double>>(MPI_COMM_WORLD, m);
  EXPECT_LE(product_difference(ti, ti.with_format(sell(8, 32)), 3), 1e-15);
}

TEST(SparseTune, WithFormatChangesTheSweepKnobs) {
  // A CRS matrix asked for CRS with another prefetch or halo overlap must get them: the
  // tuner times its candidates through with_format.
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 9, 7, 5);
  EXPECT_EQ(&a.with_format({}).data(), &a.data());  // nothing to change: storage shared
  for (int prefetch : {0, 1, 2})
    for (int overlap : {0, 1}) {
      SparseTuneParameters t;
      t.prefetch_x = prefetch;
      t.overlap_halo = overlap;
      const Matrix<double> s = a.with_format(t);
      EXPECT_NE(&s.data(), &a.data());
      EXPECT_EQ(s.data().prefetch_x, prefetch);
      EXPECT_EQ(s.data().overlap_halo, overlap);
      // Without overlap every row waits for the halo.
      if (overlap == 0) {
        EXPECT_TRUE(s.data().interior.empty());
      }
      EXPECT_EQ(&s.with_format(t).data(), &s.data());
      for (int nb : {1, 8}) EXPECT_LE(product_difference(a, s, nb), 1e-15);
    }
}

TEST(SparseTune, WithFormatRejectsBadKnobsOnEveryRank) {
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 4, 4, 4);
  SparseTuneParameters low, high;
  low.prefetch_x = -2;
  high.prefetch_x = 3;
  for (const SparseTuneParameters& t : {sell(0, 8), sell(8, 4), sell(8, 12), low, high})
    EXPECT_EQ(error_of([&] { (void)a.with_format(t); }).code(), ErrorCode::invalid_argument);
}

TEST(SparseTune, MeasuresStoresAndReadsBack) {
  TempFile file;
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 12, 11, 10);
  SparseAutotuneOptions o;
  o.seconds = 0;
  o.block_width = 4;
  o.kernel = TunedKernel::chebfd_op;
  o.sell_candidates = {{4, 8}, {8, 8}};
  o.rr_orders = {24, 48};
  o.tune_file = file.path;
  const SparseAutotuneResult r = autotune(a, o);
  EXPECT_EQ(r.stored_in, file.path);
  // CRS with its prefetch as by default, X rows forced on, off, X rows and streams, two
  // SELL, the filter's series on one block and two in turn, two orders on one rank and the
  // grid.
  ASSERT_EQ(r.trials.size(), 4u + 2u + 2u + 4u);
  const std::size_t f = 6;
  EXPECT_EQ(r.trials[1].what, "crs, X rows prefetched");
  EXPECT_EQ(r.trials[2].what, "crs, no prefetch");
  EXPECT_EQ(r.trials[3].what, "crs, X rows and row streams prefetched");
  EXPECT_EQ(r.trials[4].what, "sell-4-8");
  // A forced prefetch replaces the one chosen so far (the default first) only when 3 %
  // faster, and only while CRS stays.
  const int setting[] = {-1, 1, 0, 2};
  int prefetch = 0;
  for (int c = 1; c < 4; ++c)
    if (r.trials[c].seconds < 0.97 * r.trials[prefetch].seconds) prefetch = c;
  EXPECT_EQ(r.best.prefetch_x, r.best.format == SparseFormat::crs ? setting[prefetch] : -1);
  EXPECT_TRUE(agreed(r.best.prefetch_x));
  EXPECT_EQ(r.trials[f].what, "filter, 1 block at a time");
  EXPECT_EQ(r.trials[f + 1].what, "filter, 2 blocks in turn");
  EXPECT_TRUE(r.best.pipeline_blocks == 1 || r.best.pipeline_blocks == 2);
  EXPECT_EQ(r.best.pipeline_blocks == 2, r.trials[f + 1].seconds < 0.97 * r.trials[f].seconds);
  EXPECT_TRUE(agreed(r.best.pipeline_blocks));
  EXPECT_EQ(r.trials[0].what, "crs");
  for (const auto& t : r.trials) EXPECT_GT(t.seconds, 0) << t.what;
  // A threshold among the orders timed, or twice the largest when the grid never won.
  EXPECT_TRUE(r.best.rr_distributed_min == 24 || r.best.rr_distributed_min == 48 ||
              r.best.rr_distributed_min == 96);
  EXPECT_TRUE(agreed(static_cast<int>(r.best.format)));
  EXPECT_TRUE(agreed(r.best.sell_chunk));
  EXPECT_TRUE(agreed(r.best.rr_distributed_min));

  const SparseTuneParameters back = tuned_parameters(a, TunedKernel::chebfd_op, {}, file.path);
  EXPECT_EQ(back.format, r.best.format);
  EXPECT_EQ(back.sell_chunk, r.best.sell_chunk);
  EXPECT_EQ(back.sell_sigma, r.best.sell_sigma);
  EXPECT_EQ(back.rr_distributed_min, r.best.rr_distributed_min);
  EXPECT_EQ(back.block_width, 4);  // ChebFD's kernel: the width it was timed at
  EXPECT_EQ(back.pipeline_blocks, r.best.pipeline_blocks);
  EXPECT_EQ(back.prefetch_x, r.best.prefetch_x);
  // The entry is ChebFD's: LOBPCG's kernel has none.
  EXPECT_FALSE(cached_tuning(a, TunedKernel::spmmv, file.path).has_value());

  // Another matrix shape (other nonzeros per row) has no entry: the user's values.
  const auto g = graphene<double>(MPI_COMM_WORLD, 30, 20);
  SparseTuneParameters user;
  user.block_width = 3;
  EXPECT_EQ(tuned_parameters(g, TunedKernel::chebfd_op, user, file.path), user);
}

TEST(SparseTune, UserValuesAreKept) {
  TempFile file;
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 9, 9, 9);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto sig = tune::make_sparse_signature('d', a.rows(), a.nonzeros(), ranks, "spmmv");
  SparseTuneParameters cached = sell(8, 64);
  cached.rr_distributed_min = 300;
  cached.block_width = 4;
  cached.pipeline_blocks = 3;
  cached.prefetch_x = 2;
  file.write("{\"tseig_tune_format\":1,\"entries\":{\"" + sig.key() +
             "\":{\"choice\":" + tune::sparse_choice_json(cached) + "}}}");
  const SparseTuneParameters all = tuned_parameters(a, TunedKernel::spmmv, {}, file.path);
  EXPECT_EQ(all.format, SparseFormat::sell_c_sigma);
  EXPECT_EQ(all.sell_chunk, 8);
  EXPECT_EQ(all.sell_sigma, 64);
  EXPECT_EQ(all.rr_distributed_min, 300);
  EXPECT_EQ(all.block_width, 4);
  EXPECT_EQ(all.pipeline_blocks, 3);
  EXPECT_EQ(all.prefetch_x, 2);

  SparseTuneParameters user = sell(4, 4);
  user.rr_distributed_min = 77;
  user.block_width = 16;
  user.pipeline_blocks = 2;
  user.prefetch_x = 1;
  EXPECT_EQ(tuned_parameters(a, TunedKernel::spmmv, user, file.path), user);
  SparseTuneParameters crs_user;
  crs_user.rr_distributed_min = 50;
  const SparseTuneParameters mixed = tuned_parameters(a, TunedKernel::spmmv, crs_user, file.path);
  EXPECT_EQ(mixed.format, SparseFormat::sell_c_sigma);
  EXPECT_EQ(mixed.rr_distributed_min, 50);
  EXPECT_EQ(mixed.block_width, 4);
}

TEST(SparseTune, BadEntriesAndOptions) {
  TempFile file;
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 5, 5, 5);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::string key =
      tune::make_sparse_signature('d', a.rows(), a.nonzeros(), ranks, "spmmv").key();
  SparseTuneParameters user;
  user.block_width = 5;
  for (const std::string& choice :
       {std::string("{\"format\":\"ell\",\"sell_chunk\":8,\"sell_sigma\":8,\"rr_distributed_min\":"
                    "10}"),
        std::string("{\"format\":\"sell_c_sigma\",\"sell_chunk\":8,\"sell_sigma\":12,"
                    "\"rr_distributed_min\":10}"),
        std::string("{\"format\":\"crs\",\"sell_chunk\":8,\"sell_sigma\":8}"),
        std::string("{\"format\":\"crs\",\"sell_chunk\":0,\"sell_sigma\":8,"
                    "\"rr_distributed_min\":10}"),
        std::string("{\"format\":\"crs\",\"sell_chunk\":8,\"sell_sigma\":8,"
                    "\"rr_distributed_min\":10,\"prefetch_x\":3}")}) {
    file.write("{\"tseig_tune_format\":1,\"entries\":{\"" + key + "\":{\"choice\":" + choice +
               "}}}");
    EXPECT_EQ(tuned_parameters(a, TunedKernel::spmmv, user, file.path), user) << choice;
  }
  file.write("not json");
  EXPECT_EQ(tuned_parameters(a, TunedKernel::spmmv, user, file.path), user);

  for (auto bad : {+[](SparseAutotuneOptions& o) { o.block_width = 0; },
                   +[](SparseAutotuneOptions& o) {
                     o.sell_candidates = {{8, 12}};
                   },
                   +[](SparseAutotuneOptions& o) {
                     o.rr_orders = {64, 32};
                   },
                   +[](SparseAutotuneOptions& o) { o.seconds = -1; }}) {
    SparseAutotuneOptions o;
    o.rr_orders = {};
    bad(o);
    EXPECT_EQ(error_of([&] { (void)autotune(a, o); }).code(), ErrorCode::invalid_argument);
  }
}

TEST(SparseTune, SignatureBuckets) {
  const auto s7 = tune::make_sparse_signature('d', 1000000, 7000000, 2, "spmmv");
  const auto s13 = tune::make_sparse_signature('d', 1000000, 13000000, 2, "spmmv");
  const auto s7b = tune::make_sparse_signature('d', 1050000, 7500000, 2, "spmmv");
  EXPECT_NE(s7.key(), s13.key());
  EXPECT_EQ(s7.key(), s7b.key());
  EXPECT_NE(s7.key(), tune::make_sparse_signature('z', 1000000, 7000000, 2, "spmmv").key());
  EXPECT_NE(s7.key(), tune::make_sparse_signature('d', 1000000, 7000000, 4, "spmmv").key());
  EXPECT_NE(s7.key(), tune::make_sparse_signature('d', 1000000, 7000000, 2, "chebfd_op").key());
  EXPECT_EQ(s7.key().rfind("sparse/", 0), 0u);
  const auto v = tune::JsonValue::parse(tune::sparse_choice_json(sell(16, 128)));
  EXPECT_EQ(tune::sparse_choice_from_json(v), sell(16, 128));
}

}  // namespace
}  // namespace tseig::test
