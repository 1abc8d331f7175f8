#pragma once
// The sparse tuner's cache entries: the signature a measurement is keyed on (scalar type,
// order and nonzeros per row bucketed, rank count, machine), the tuned knobs as JSON, and
// how they merge with what the user set.
#include <cstdint>
#include <string>

#include "tseig/sparse/tune.hpp"
#include "tune/json_value.hpp"

namespace tseig::tune {

struct SparseSignature {
  char type = 'd';  ///< 's', 'd', 'c', 'z'
  std::int64_t n = 0;
  std::int64_t nonzeros = 0;
  int ranks = 1;
  std::string kernel = "spmmv";  ///< the kernel (so the solver) the entry was measured for
  std::string backend = "host";
  std::string device = "none";
  std::string cpu, blas, version;

  /// round(2·log2 N), as for the dense signature.
  int n_bucket() const;
  /// round(2·log2(nonzeros / N)): 7-point stencils and 13-entry rows differ, 7 and 8 not.
  int density_bucket() const;
  /// Everything that must match for a cached choice to apply ("sparse/..." so it never
  /// meets a dense key).
  std::string key() const;
  std::string json() const;
};

/// The signature of an n × n matrix of type letter `type` with `nonzeros` entries on
/// `ranks` ranks, tuned for `kernel`, with this machine's CPU, BLAS and tseig version.
SparseSignature make_sparse_signature(char type, std::int64_t n, std::int64_t nonzeros, int ranks,
                                      const std::string& kernel);

/// The tuned knobs as a JSON object: format, sell_chunk, sell_sigma, block_width,
/// pipeline_blocks, rr_distributed_min.
std::string sparse_choice_json(const sparse::SparseTuneParameters& t);
/// The inverse; Error(io_error) for a missing or unknown format or a knob out of range
/// (block_width and pipeline_blocks may be absent: the defaults).
sparse::SparseTuneParameters sparse_choice_from_json(const JsonValue& v);

/// What a solver runs with: `user`'s knobs where they differ from the defaults (the
/// format with its C and σ as one knob), `tuned`'s elsewhere. lobpcg_recompute_hx, which
/// the tuner does not measure, stays the user's.
sparse::SparseTuneParameters merged(const sparse::SparseTuneParameters& user,
                                    const sparse::SparseTuneParameters& tuned);

}  // namespace tseig::tune
