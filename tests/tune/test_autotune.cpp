// Solver::automatic and the SCF mode through Eigensolver, at 1, 2 and 4 ranks: the same
// choice on every rank, the cache read, written and survived when corrupt, user values
// kept, every SCF call a correct solve (also around a failing one), state save and load.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "core/json.hpp"
#include "temp_file.hpp"
#include "test_util.hpp"
#include "tune/automatic_choice.hpp"
#include "tune/candidate.hpp"
#include "tune/rates_cache.hpp"
#include "tune/scf_search.hpp"
#include "tune/signature.hpp"
#include "tune/tune_cache.hpp"

namespace tseig::test {
namespace {

// The same value on every rank.
void expect_agreed(int value, const std::string& what) {
  int lo = value, hi = value;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(lo, hi) << what;
}

Grid world_grid() {
  return test_grids().back();
}

template <class T>
std::vector<real_t<T>> solve_with(Eigensolver<T>& es, const Grid& g, int n, int nb, int seed,
                                  bool vectors = true) {
  DistMatrix<T> A(g, n, n, nb);
  generate::random_hermitian(A, seed);
  if (!vectors) return es.eigenvalues(A);
  DistMatrix<T> Z(g, n, n, nb);
  return es.eigenvectors(A, Z);
}

TEST(Autotune, ModelChoiceIsTheSameOnEveryRank) {
  const Grid g = world_grid();
  EigensolverOptions o;
  o.eigenvalues_only = true;
  Eigensolver<double> es(o);
  solve_with(es, g, 1000, 32, 1, false);
  EXPECT_EQ(es.last_choice().source, ChoiceSource::model);
  expect_agreed(static_cast<int>(es.last_choice().solver), "model solver");
  // Below the model's threshold: the defaults.
  solve_with(es, g, 100, 16, 1, false);
  EXPECT_EQ(es.last_choice().source, ChoiceSource::defaults);
  EXPECT_EQ(es.last_choice().solver, Solver::one_stage);
}

TEST(Autotune, CacheEntryIsUsedAndUserValuesKept) {
  const Grid g = world_grid();
  const int n = 120, nb = 16;
  TempFile file;
  TuneChoice stored{Solver::scalapack, 32};
  stored.seconds = 0.5;
  ASSERT_TRUE(tune::cache_store(g.comm(), file.path,
                                tune::make_signature('d', n, n, g.nprow(), g.npcol(), true), stored,
                                "test"));
  EigensolverOptions o;
  o.tune_file = file.path;
  Eigensolver<double> es(o);
  const auto w = solve_with(es, g, n, nb, 2);
  EXPECT_EQ(es.last_choice().source, ChoiceSource::cache);
  EXPECT_EQ(es.last_choice().solver, Solver::scalapack);
  EXPECT_EQ(es.last_choice().block_size, 32);
  Eigensolver<double> reference(EigensolverOptions{Solver::one_stage});
  const auto w_ref = solve_with(reference, g, n, nb, 2);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(w[i], w_ref[i], 1e-12 * n) << i;

  // The user's solver and block size win over the cache.
  o.solver = Solver::two_stage;
  o.block_size = 8;
  Eigensolver<double> user(o);
  solve_with(user, g, n, nb, 2);
  EXPECT_EQ(user.last_choice().source, ChoiceSource::user);
  EXPECT_EQ(user.last_choice().solver, Solver::two_stage);
  EXPECT_EQ(user.last_choice().block_size, 8);
  // Another signature (complex) is not in the cache.
  Eigensolver<std::complex<double>> other(EigensolverOptions{.tune_file = file.path});
  solve_with(other, g, n, nb, 2);
  EXPECT_EQ(other.last_choice().source, ChoiceSource::defaults);
}

// Storing into an existing file keeps its other entries and replaces the same one (the
// merge once read the old file's tree after it was freed: tseig-tune crashed on its
// second signature).
TEST(Autotune, StoresAccumulateInOneFile) {
  const Grid g = world_grid();
  TempFile file;
  const auto sig_d = tune::make_signature('d', 400, 400, g.nprow(), g.npcol(), true);
  const auto sig_z = tune::make_signature('z', 400, 80, g.nprow(), g.npcol(), true);
  TuneChoice first{Solver::scalapack, 32}, second{Solver::two_stage, 16},
      third{Solver::one_stage, 8};
  ASSERT_TRUE(tune::cache_store(g.comm(), file.path, sig_d, first, "test"));
  ASSERT_TRUE(tune::cache_store(g.comm(), file.path, sig_z, second, "test"));
  ASSERT_TRUE(tune::cache_store(g.comm(), file.path, sig_d, third, "test"));
  const auto d = tune::cache_lookup(g.comm(), file.path, sig_d);
  const auto z = tune::cache_lookup(g.comm(), file.path, sig_z);
  ASSERT_TRUE(d && z);
  EXPECT_EQ(d->solver, Solver::one_stage);
  EXPECT_EQ(d->block_size, 8);
  EXPECT_EQ(z->solver, Solver::two_stage);
  EXPECT_EQ(z->block_size, 16);
}

TEST(Autotune, CorruptForeignOrMissingCacheFallsBack) {
  const Grid g = world_grid();
  TempFile file;
  for (const std::string& text :
       {std::string("{\"tseig_tune_format\":1,\"entries\":{"), std::string("\x01\x02garbage"),
        std::string("{\"tseig_tune_format\":7,\"entries\":{}}"), std::string("[]"),
        std::string("{\"tseig_tune_format\":1,\"entries\":{\"") +
            tune::make_signature('d', 64, 64, g.nprow(), g.npcol(), true).key() +
            "\":{\"choice\":{\"solver\":\"warp\"}}}}"}) {
    file.write(text);
    EigensolverOptions o;
    o.tune_file = file.path;
    Eigensolver<double> es(o);
    const auto w = solve_with(es, g, 64, 16, 3);
    EXPECT_EQ(es.last_choice().source, ChoiceSource::defaults);
    EXPECT_EQ(w.size(), 64u);
  }
  EigensolverOptions missing;
  missing.tune_file = "/nonexistent/dir/tune.json";
  Eigensolver<double> es(missing);
  solve_with(es, g, 64, 16, 3);
  EXPECT_EQ(es.last_choice().source, ChoiceSource::defaults);
}

// The model's rates with a tuning cache: measured once, kept in the file, read back from it
// by later processes (not measured again), an unusable entry measured again, and a file
// that is not a cache of this format left as it was.
TEST(Autotune, ModelRatesAreKeptInTheCache) {
  const Grid g = world_grid();
  const auto sig = tune::make_signature('d', 4000, 4000, g.nprow(), g.npcol(), true);
  const std::string key = tune::rates_key(g.comm());
  auto stored_rates = [&](const std::string& path) {
    const auto entry = tune::cache_lookup_entry(g.comm(), path, key, [](const tune::JsonValue& e) {
      (void)tune::rates_from_json(*e.find("rates"));
    });
    EXPECT_TRUE(entry) << path;
    return entry ? tune::rates_from_json(*entry->find("rates")) : tune::MachineRates{};
  };
  TempFile file;
  EXPECT_EQ(tune::automatic_choice(g.comm(), sig, 64, file.path).source, ChoiceSource::model);
  const tune::MachineRates kept = stored_rates(file.path);
  EXPECT_GT(kept.gemm_gflops, 0);
  expect_agreed(static_cast<int>(kept.gemm_gflops * 1000), "stored dgemm rate");

  // Rates under which one solver's stage crawls: the choice follows the file's rates.
  tune::MachineRates slow_chase = kept, slow_tiles = kept;
  slow_chase.bulge_chase_gflops = slow_chase.band_backtransform_gflops = 1e-6;
  slow_tiles.symv_gbs = slow_tiles.symv_cache_gbs = slow_tiles.symv_reach_gbs = 1e-6;
  for (const auto& [rates, winner] :
       {std::pair(slow_chase, Solver::one_stage), std::pair(slow_tiles, Solver::two_stage)}) {
    TempFile f;
    ASSERT_TRUE(tune::cache_store_entry(g.comm(), f.path, key,
                                        "{\"rates\":" + tune::rates_json(rates) + "}"));
    const TuneChoice c = tune::automatic_choice(g.comm(), sig, 64, f.path);
    EXPECT_EQ(c.source, ChoiceSource::model);
    EXPECT_EQ(c.solver, winner);
  }

  TempFile bad;
  bad.write("{\"tseig_tune_format\":1,\"entries\":{" + json::string(key) +
            ":{\"rates\":{\"gemm_gflops\":-1}}}}");
  EXPECT_EQ(tune::automatic_choice(g.comm(), sig, 64, bad.path).source, ChoiceSource::model);
  EXPECT_GT(stored_rates(bad.path).gemm_gflops, 0);

  TempFile foreign;
  const std::string text = "{\"tseig_tune_format\":7,\"entries\":{}}";
  foreign.write(text);
  EXPECT_EQ(tune::automatic_choice(g.comm(), sig, 64, foreign.path).source, ChoiceSource::model);
  int same = 1;
  if (g.rank() == 0) {
    std::ifstream in(foreign.path);
    const std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    same = now == text;
  }
  MPI_Bcast(&same, 1, MPI_INT, 0, g.comm());
  EXPECT_TRUE(same) << "a file of another format was rewritten";
}

// An SCF loop alternating two kinds of call: each signature keeps its own search, so both
// finish (before, every change of signature started a new search: the loop tuned
// forever), and a saved state carries both.
TEST(Autotune, ScfModeResumesTheSearchOfEachSignature) {
  const Grid g = world_grid();
  const int sizes[2] = {96, 200}, nb = 16;  // N an octave apart: two signatures
  Eigensolver<double> es;
  es.start_autotune();
  bool tuning[2] = {true, true};
  int calls = 0;
  for (; (tuning[0] || tuning[1]) && calls < 60; ++calls) {
    solve_with(es, g, sizes[calls % 2], nb, 5);
    tuning[calls % 2] = es.autotuning();
  }
  EXPECT_LE(calls, 2 * tune::ScfSearch::max_trials + 2);
  Eigensolver<double> resumed;
  resumed.load_autotune_state(es.autotune_state(), g.comm());
  for (int n : sizes) {
    solve_with(resumed, g, n, nb, 5);
    EXPECT_EQ(resumed.last_choice().source, ChoiceSource::scf_best) << "N = " << n;
    EXPECT_FALSE(resumed.autotuning()) << "N = " << n;
  }
}

TEST(Autotune, ScfModeStaysCorrectSurvivesAFailureAndFillsTheCache) {
  const Grid g = world_grid();
  const int n = 150, nb = 16;
  TempFile file;
  EigensolverOptions o;
  o.tune_file = file.path;
  o.validate = true;  // every call is checked: residual, orthogonality, count
  Eigensolver<double> es(o);
  Eigensolver<double> reference(EigensolverOptions{Solver::one_stage});
  const auto w_ref = solve_with(reference, g, n, nb, 4);
  es.start_autotune();
  EXPECT_TRUE(es.autotuning());
  int calls = 0;
  bool failed_once = false;
  while (es.autotuning() && calls < 20) {
    if (calls == 2 && !failed_once) {
      // A non-Hermitian input mid-tuning: an error on every rank, the search goes on.
      DistMatrix<double> bad(g, n, n, nb);
      generate::random_hermitian(bad, 4);
      if (bad.is_local(0, 1)) bad.local(bad.local_row(0), bad.local_col(1)) += 1;
      DistMatrix<double> Z(g, n, n, nb);
      EXPECT_EQ(error_of([&] { es.eigenvectors(bad, Z); }).code(), ErrorCode::not_hermitian);
      failed_once = true;
      continue;
    }
    const auto w = solve_with(es, g, n, nb, 4);
    EXPECT_EQ(es.last_choice().source, ChoiceSource::scf);
    expect_agreed(static_cast<int>(es.last_choice().solver), "trial solver");
    expect_agreed(es.last_choice().block_size, "trial block size");
    ASSERT_TRUE(es.validation() && es.validation()->passed());
    for (int i = 0; i < n; ++i) ASSERT_NEAR(w[i], w_ref[i], 1e-12 * n) << "call " << calls;
    ++calls;
  }
  EXPECT_FALSE(es.autotuning());
  EXPECT_LE(calls, 13);  // at most 12 trials, plus the failed one's retry
  solve_with(es, g, n, nb, 4);
  EXPECT_EQ(es.last_choice().source, ChoiceSource::scf_best);
  const TuneChoice best = es.last_choice();

  // The finished search wrote the cache: a new solver picks the best from it.
  EigensolverOptions fresh;
  fresh.tune_file = file.path;
  Eigensolver<double> later(fresh);
  solve_with(later, g, n, nb, 4);
  EXPECT_EQ(later.last_choice().source, ChoiceSource::cache);
  EXPECT_TRUE(tune::same_point(later.last_choice(), best));

  // State: saved and loaded, the search is where it was; junk is refused on every rank.
  Eigensolver<double> resumed;
  resumed.load_autotune_state(es.autotune_state(), g.comm());
  EXPECT_FALSE(resumed.autotuning());
  solve_with(resumed, g, n, nb, 4);
  EXPECT_EQ(resumed.last_choice().source, ChoiceSource::scf_best);
  EXPECT_EQ(error_of([&] { resumed.load_autotune_state("{\"x\":1}", g.comm()); }).code(),
            ErrorCode::invalid_argument);
}

// Inputs the search and the cache must survive: a user-set two_stage in SCF mode (its
// search began before the block size was known and divided by it), states that differ
// between ranks only in content (they loaded, then the ranks ran different solvers and
// hung), a cached block size beyond N (ScaLAPACK's workspace query overflowed).
TEST(Autotune, HardInputsOfTheSearchAndTheCache) {
  const Grid g = world_grid();
  const int n = 150, nb = 16;
  Eigensolver<double> reference(EigensolverOptions{Solver::one_stage});
  const auto w_ref = solve_with(reference, g, n, nb, 5);
  EigensolverOptions two;
  two.solver = Solver::two_stage;
  two.validate = true;
  Eigensolver<double> scf(two);
  scf.start_autotune();
  for (int calls = 0; scf.autotuning() && calls < 13; ++calls) {
    const auto w = solve_with(scf, g, n, nb, 5);
    EXPECT_EQ(scf.last_choice().solver, Solver::two_stage);
    ASSERT_TRUE(scf.validation() && scf.validation()->passed());
    for (int i = 0; i < n; ++i) ASSERT_NEAR(w[i], w_ref[i], 1e-12 * n) << "call " << calls;
  }
  EXPECT_FALSE(scf.autotuning());

  // The same length, another trial time on rank 1.
  tune::ScfSearch search("key", n, nb, EigensolverOptions{}, {});
  search.record(search.next(), g.rank() == 1 ? 2.5 : 1.5);
  Eigensolver<double> loaded;
  if (g.size() > 1) {
    EXPECT_EQ(error_of([&] { loaded.load_autotune_state(search.state(), g.comm()); }).code(),
              ErrorCode::invalid_argument);
  }

  TempFile file;
  for (Solver s : {Solver::scalapack, Solver::one_stage, Solver::two_stage}) {
    ASSERT_TRUE(tune::cache_store(g.comm(), file.path,
                                  tune::make_signature('d', n, n, g.nprow(), g.npcol(), true),
                                  TuneChoice{s, 1 << 24}, "test"));
    Eigensolver<double> es(EigensolverOptions{.tune_file = file.path});
    const auto w = solve_with(es, g, n, nb, 5);
    EXPECT_EQ(es.last_choice().source, ChoiceSource::cache);
    EXPECT_EQ(es.last_choice().block_size, n) << to_string(s);
    for (int i = 0; i < n; ++i) ASSERT_NEAR(w[i], w_ref[i], 1e-12 * n) << to_string(s);
  }
}

}  // namespace
}  // namespace tseig::test
