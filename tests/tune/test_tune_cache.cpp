// The tuning cache file: lookups in its text, the warnings that name what is wrong with
// it, and stores (shared by jobs, through links, never over what is not a cache).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/json.hpp"
#include "test_util.hpp"
#include "tune/json_value.hpp"
#include "tune/tune_cache.hpp"

namespace tseig::test {
namespace {

using tune::JsonValue;

tune::Signature signature(char type, int n, int nev, int ranks) {
  return tune::make_signature(type, n, nev, 1, ranks, true);
}

TEST(TuneCache, TextLookupAndErrors) {
  const auto sig = signature('d', 2000, 2000, 2);
  const std::string entry = R"({"choice":{"solver":"two_stage","block_size":32,)"
                            R"("bandwidth_target":64,"band_sweeps_per_pass":256,"wy_width":256,)"
                            R"("multiply_depth":256,"dc_min_leaf":32,"dc_max_panel":256,)"
                            R"("dc_chunk_cols":512,"cache_limit_mb":-1},"seconds":1.5})";
  const std::string text =
      R"({"tseig_tune_format":1,"entries":{)" + json::string(sig.key()) + ":" + entry + "}}";
  const auto c = tune::find_in_cache_text(text, sig.key());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->solver, Solver::two_stage);
  EXPECT_EQ(c->block_size, 32);
  EXPECT_EQ(c->source, ChoiceSource::cache);
  EXPECT_EQ(c->seconds, 1.5);
  EXPECT_FALSE(tune::find_in_cache_text(text, signature('z', 2000, 2000, 2).key()));
  EXPECT_THROW(tune::find_in_cache_text(R"({"tseig_tune_format":99,"entries":{}})", sig.key()),
               Error);
  EXPECT_THROW(tune::find_in_cache_text(R"({"entries":{}})", sig.key()), Error);
  EXPECT_THROW(tune::find_in_cache_text("not json", sig.key()), Error);
}

// The warning names what is wrong: a negative format was "no tseig_tune_format", a
// directory "JSON: unexpected end at offset 0".
TEST(TuneCache, ADirectoryOrANegativeFormatIsNamed) {
  const Error e = tseig::test::error_of(
      [] { tune::find_in_cache_text(R"({"tseig_tune_format":-3,"entries":{}})", "k"); });
  EXPECT_NE(std::string(e.what()).find("tseig_tune_format -3"), std::string::npos) << e.what();
  char dir[] = "/tmp/tseig_tune_dir_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(tune::cache_lookup_entry(MPI_COMM_SELF, dir, "k", [](const JsonValue&) {}));
  const std::string warned = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warned.find("is a directory"), std::string::npos) << warned;
  EXPECT_FALSE(tune::store_entry_locked(dir, "k", R"({"x":1})"));
  rmdir(dir);
}

// What a store does not own stays as it is: a corrupt file, another format version and a
// FIFO (which blocked the store); through a symbolic link the file it names is updated
// and the link kept (a rename over the link cut it from the shared file).
TEST(TuneCache, StoresKeepLinksAndLeaveOtherFilesAlone) {
  char dir[] = "/tmp/tseig_tune_files_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string base = dir;
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    std::ostringstream all;
    all << in.rdbuf();
    return all.str();
  };
  int k = 0;  // one file each: a file warns once per process
  for (const std::string& text :
       {std::string("{\"tseig_tune_format\":1,\"entries\":{"),
        std::string("{\"tseig_tune_format\":2,\"entries\":{\"k\":{}}}"), std::string("[]")}) {
    const std::string path = base + "/other" + std::to_string(k++) + ".json";
    std::ofstream(path) << text;
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(tune::store_entry_locked(path, "k", R"({"x":1})")) << text;
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("left as it is"), std::string::npos);
    EXPECT_EQ(read(path), text);
    std::remove(path.c_str());
  }
  const std::string fifo = base + "/fifo.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(tune::cache_lookup_entry(MPI_COMM_SELF, fifo, "k", [](const JsonValue&) {}));
  EXPECT_FALSE(tune::store_entry_locked(fifo, "k", R"({"x":1})"));
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("not a regular file"), std::string::npos);
  struct stat st {};
  EXPECT_TRUE(lstat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));

  const std::string file = base + "/cache.json", link = base + "/link.json";
  ASSERT_TRUE(tune::store_entry_locked(file, "first", R"({"x":1})"));
  ASSERT_EQ(symlink("cache.json", link.c_str()), 0);
  ASSERT_TRUE(tune::store_entry_locked(link, "second", R"({"x":2})"));
  EXPECT_TRUE(lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode));
  EXPECT_EQ(JsonValue::parse(read(file)).find("entries")->object().size(), 2u) << read(file);
  for (const char* name : {"/fifo.json", "/cache.json", "/link.json"})
    std::remove((base + name).c_str());
  rmdir(dir);
}

// A lookup keeps the parsed file while it stays the same (a large cache was read and
// parsed on every solve) and sees every store, a rewrite in place and a removal.
TEST(TuneCache, LookupsSeeEveryChangeOfTheFile) {
  char dir[] = "/tmp/tseig_tune_memo_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/cache.json";
  const auto x = [&]() -> double {
    const auto e = tune::cache_lookup_entry(MPI_COMM_SELF, path, "k", [](const JsonValue&) {});
    return e ? e->number_or("x", -1) : 0;
  };
  EXPECT_EQ(x(), 0);
  ASSERT_TRUE(tune::store_entry_locked(path, "k", R"({"x":1})"));
  EXPECT_EQ(x(), 1);
  EXPECT_EQ(x(), 1);
  ASSERT_TRUE(tune::store_entry_locked(path, "k", R"({"x":2})"));
  EXPECT_EQ(x(), 2);
  std::ofstream(path, std::ios::trunc) << R"({"tseig_tune_format":1,"entries":{"k":{"x":33}}})";
  EXPECT_EQ(x(), 33);
  std::remove(path.c_str());
  EXPECT_EQ(x(), 0);
  rmdir(dir);
}

TEST(TuneCache, StoresOfJobsSharingTheFileAreAllKept) {
  // Threads stand for jobs: each store opens the directory on its own, so their locks
  // exclude each other as other processes' do.
  char dir[] = "/tmp/tseig_tune_lock_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/cache.json";
  constexpr int jobs = 4, stores = 25;
  std::vector<std::thread> threads;
  std::vector<int> written(jobs, 0);
  for (int j = 0; j < jobs; ++j)
    threads.emplace_back([&, j] {
      for (int k = 0; k < stores; ++k)
        written[j] += tune::store_entry_locked(
            path, "job" + std::to_string(j) + "/" + std::to_string(k), R"({"x":1})");
    });
  for (auto& t : threads) t.join();
  std::string text;
  {
    std::ifstream in(path);
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
  }
  const JsonValue doc = JsonValue::parse(text);
  EXPECT_EQ(doc.find("entries")->object().size(), static_cast<std::size_t>(jobs * stores));
  for (int j = 0; j < jobs; ++j) EXPECT_EQ(written[j], stores);
  std::remove(path.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace tseig::test
