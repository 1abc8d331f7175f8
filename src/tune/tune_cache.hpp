#pragma once
// The tuning cache: a human-readable JSON file of measured choices, one per problem
// signature. Rank 0 reads and writes it; the others receive what it found, so every rank
// makes the same choice. A missing file is an empty cache; a corrupt one, one of another
// format version, or an entry that does not parse is ignored with one warning per file
// (never an error: the next way to a choice takes over). Writes go to a temporary file
// renamed over the old one, so a reader never sees half a file.
#include <mpi.h>

#include <functional>
#include <optional>
#include <string>

#include "tseig/eigensolver.hpp"
#include "tune/json_value.hpp"
#include "tune/signature.hpp"

namespace tseig::tune {

/// The file format version this build reads and writes.
inline constexpr int cache_format = 1;

/// The cache path: `option` when not empty, else $TSEIG_TUNE_FILE, else "".
std::string cache_path(const std::string& option);

/// Collective: the measured choice for `sig` (source cache), if the file has one.
std::optional<TuneChoice> cache_lookup(MPI_Comm comm, const std::string& path,
                                       const Signature& sig);

/// Collective: stores `choice` (its seconds as measured) for `sig`, replacing an older
/// entry; `by` says who measured it ("tseig-tune", "scf"). Returns false on every rank,
/// after one warning, when the file cannot be written.
bool cache_store(MPI_Comm comm, const std::string& path, const Signature& sig,
                 const TuneChoice& choice, const std::string& by);

/// Collective: the entry stored under `key`, after `check` (run on rank 0; it throws
/// Error for an entry it cannot use) accepted it; nullopt when there is none, or, after
/// one warning, when the file or the entry is unusable. For the dense and sparse tuners.
std::optional<JsonValue> cache_lookup_entry(MPI_Comm comm, const std::string& path,
                                            const std::string& key,
                                            const std::function<void(const JsonValue&)>& check);

/// Collective: stores the JSON object `entry` under `key`, keeping the other entries.
/// A symbolic link is followed. Anything but a cache of this format or no file at all
/// (a corrupt file, another format version, a directory, a device or FIFO) is left as
/// it is: false on every rank, after one warning, when the file is not written.
bool cache_store_entry(MPI_Comm comm, const std::string& path, const std::string& key,
                       const std::string& entry);

/// Rank-local, what cache_store_entry runs on rank 0: under a lock on the file's directory
/// (other jobs sharing the cache store between its read and its rename), reads the file,
/// adds `entry` and replaces the file. False after a warning when it is not written.
bool store_entry_locked(const std::string& path, const std::string& key, const std::string& entry);

/// Rank-local parsing of a cache text, for the readers above and the fuzz target:
/// the entry of `key`, nullopt when absent; Error(io_error) when the text is malformed.
std::optional<TuneChoice> find_in_cache_text(const std::string& text, const std::string& key);

}  // namespace tseig::tune
