// The tuning cache file (see tune_cache.hpp). Layout:
//   {"tseig_tune_format": 1,
//    "entries": {"<signature key>": {"signature": {...}, "choice": {...},
//                                    "seconds": 4.9, "by": "tseig-tune"}}}
#include "tune/tune_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include "core/json.hpp"
#include "tseig/error.hpp"
#include "tune/candidate.hpp"
#include "tune/json_value.hpp"

namespace tseig::tune {

namespace {

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

// One warning per file and process: a DFT run calls the solver thousands of times.
void warn_once(const std::string& path, const std::string& why) {
  static std::set<std::string> warned;
  if (warned.insert(path).second)
    std::fprintf(stderr,
                 "tseig: warning: tuning cache '%s' ignored (left as it is, nothing stored in "
                 "it): %s\n",
                 path.c_str(), why.c_str());
}

// false: no file there (a first store creates it). Only a regular file is read: a
// directory opens as an empty stream ("JSON: unexpected end"), a FIFO blocks the open,
// and a device is no cache (a store renamed a file over /dev/null).
bool read_text(const std::string& path, std::string& text) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(st))
    throw Error(ErrorCode::io_error, "it is a directory, not a file");
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    throw Error(ErrorCode::io_error, "it is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

// The parsed file, checked to be a cache of this format.
JsonValue parse_cache(const std::string& text) {
  JsonValue doc = JsonValue::parse(text);
  const JsonValue* format = doc.find("tseig_tune_format");
  if (!format || !format->is(JsonValue::Kind::number))
    throw Error(ErrorCode::io_error, "not a tseig tuning cache (no numeric tseig_tune_format)");
  if (format->number() != cache_format)
    throw Error(ErrorCode::io_error, "tseig_tune_format " + json::number(format->number()) +
                                         ", this build reads " + std::to_string(cache_format));
  const JsonValue* entries = doc.find("entries");
  if (!entries || !entries->is(JsonValue::Kind::object))
    throw Error(ErrorCode::io_error, "'entries' is missing or not an object");
  return doc;
}

// The parsed cache at `path`, kept while the file stays the same (device, inode, size,
// modification time): Solver::automatic looks it up on every call, and a cache of
// thousands of entries took 32 ms to read and parse each time. nullptr: no file there.
std::shared_ptr<const JsonValue> parsed_cache(const std::string& path) {
  struct Kept {
    struct stat st {};
    std::shared_ptr<const JsonValue> doc;
  };
  static std::mutex mutex;
  static std::map<std::string, Kept> kept;
  struct stat st {};
  const bool present = ::stat(path.c_str(), &st) == 0;
  const auto same = [&](const struct stat& a) {
    return a.st_dev == st.st_dev && a.st_ino == st.st_ino && a.st_size == st.st_size &&
           a.st_mtim.tv_sec == st.st_mtim.tv_sec && a.st_mtim.tv_nsec == st.st_mtim.tv_nsec;
  };
  {
    const std::lock_guard lock(mutex);
    const auto it = kept.find(path);
    if (present && it != kept.end() && same(it->second.st)) return it->second.doc;
  }
  std::string text;
  if (!read_text(path, text)) return nullptr;
  auto doc = std::make_shared<const JsonValue>(parse_cache(text));
  const std::lock_guard lock(mutex);
  if (present) kept[path] = Kept{st, doc};
  return doc;
}

// Rank 0's text to every rank (empty: nothing).
std::string broadcast(MPI_Comm comm, std::string s) {
  int size = static_cast<int>(s.size());
  MPI_Bcast(&size, 1, MPI_INT, 0, comm);
  s.resize(static_cast<std::size_t>(size));
  if (size > 0) MPI_Bcast(s.data(), size, MPI_CHAR, 0, comm);
  return s;
}

// The measured choice of one entry; Error(io_error) when it has none or it does not parse.
TuneChoice entry_choice(const JsonValue& entry, const std::string& key) {
  const JsonValue* choice = entry.find("choice");
  if (!choice) throw Error(ErrorCode::io_error, "entry '" + key + "' has no 'choice'");
  TuneChoice c = choice_from_json(*choice);
  c.source = ChoiceSource::cache;
  c.seconds = entry.number_or("seconds", 0);
  return c;
}

// Writes the cache of `entries` to `path` through a temporary file renamed over it; false
// after a warning when that fails.
bool write_entries(const std::string& path, const std::map<std::string, std::string>& entries) {
  std::string out = "{\"tseig_tune_format\":" + std::to_string(cache_format) + ",\"entries\":{";
  bool first = true;
  for (const auto& [k, v] : entries) {
    out += (first ? "\n  " : ",\n  ") + json::string(k) + ": " + v;
    first = false;
  }
  out += "\n}}\n";
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
  f << out;
  f.close();
  if (!f || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    std::fprintf(stderr, "tseig: warning: cannot write the tuning cache '%s'\n", path.c_str());
    return false;
  }
  return true;
}

// Holds an advisory lock (flock) on the directory of `path` while one process reads,
// merges and replaces the cache: two jobs sharing a cache each read it, added their entry
// and renamed over the other's, losing it (3 of 8 runs of two tseig-tune at once). Where
// the directory cannot be opened or locked (some network file systems) the store goes on
// unlocked, as before.
class DirectoryLock {
 public:
  explicit DirectoryLock(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : path.substr(0, slash);
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~DirectoryLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

std::string cache_path(const std::string& option) {
  if (!option.empty()) return option;
  const char* env = std::getenv("TSEIG_TUNE_FILE");
  return env ? env : "";
}

std::optional<TuneChoice> find_in_cache_text(const std::string& text, const std::string& key) {
  const JsonValue doc = parse_cache(text);
  const JsonValue* entry = doc.find("entries")->find(key);
  if (!entry) return std::nullopt;
  return entry_choice(*entry, key);
}

std::optional<JsonValue> cache_lookup_entry(MPI_Comm comm, const std::string& path,
                                            const std::string& key,
                                            const std::function<void(const JsonValue&)>& check) {
  if (path.empty()) return std::nullopt;
  std::string found;  // the entry as JSON, on rank 0
  if (rank_of(comm) == 0) {
    try {
      if (const auto doc = parsed_cache(path))
        if (const JsonValue* entry = doc->find("entries")->find(key)) {
          check(*entry);
          found = entry->dump();
        }
    } catch (const Error& e) {
      warn_once(path, e.what());
    }
  }
  found = broadcast(comm, found);
  if (found.empty()) return std::nullopt;
  return JsonValue::parse(found);
}

std::optional<TuneChoice> cache_lookup(MPI_Comm comm, const std::string& path,
                                       const Signature& sig) {
  const auto entry = cache_lookup_entry(
      comm, path, sig.key(), [&](const JsonValue& e) { (void)entry_choice(e, sig.key()); });
  if (!entry) return std::nullopt;
  return entry_choice(*entry, sig.key());
}

bool store_entry_locked(const std::string& named, const std::string& key,
                        const std::string& entry) {
  // The file a link names is replaced, not the link (renaming over it cut a shared
  // cache off from its users).
  std::error_code ec;
  const std::filesystem::path target = std::filesystem::canonical(named, ec);
  const std::string path = ec ? named : target.string();
  const DirectoryLock lock(path);
  // Keep the other entries of a valid file; anything else (a corrupt file, another
  // format version, not a regular file) stays as it is.
  std::map<std::string, std::string> entries;
  try {
    std::string text;
    if (read_text(path, text)) {
      // Named: a range-for over a member of the temporary parse_cache() result would
      // read the tree after it is destroyed.
      const JsonValue doc = parse_cache(text);
      for (const auto& [k, v] : doc.find("entries")->object()) entries[k] = v.dump();
    }
  } catch (const Error& e) {
    warn_once(named, e.what());
    return false;
  }
  entries[key] = entry;
  return write_entries(path, entries);
}

bool cache_store_entry(MPI_Comm comm, const std::string& path, const std::string& key,
                       const std::string& entry) {
  int ok = rank_of(comm) == 0 ? store_entry_locked(path, key, entry) : 1;
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok != 0;
}

bool cache_store(MPI_Comm comm, const std::string& path, const Signature& sig,
                 const TuneChoice& choice, const std::string& by) {
  return cache_store_entry(comm, path, sig.key(),
                           "{\"signature\":" + sig.json() + ",\"choice\":" + choice_json(choice) +
                               ",\"seconds\":" + json::number(choice.seconds, "%.4g") +
                               ",\"by\":" + json::string(by) + "}");
}

}  // namespace tseig::tune
