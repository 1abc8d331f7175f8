// Sparse tuner cache entries (see sparse_choice.hpp).
#include "tune/sparse_choice.hpp"

#include <cmath>

#include "core/json.hpp"
#include "tseig/error.hpp"
#include "tseig/version.hpp"
#include "tune/signature.hpp"

namespace tseig::tune {

int SparseSignature::n_bucket() const {
  return n <= 1 ? 0 : static_cast<int>(std::lround(2 * std::log2(static_cast<double>(n))));
}

int SparseSignature::density_bucket() const {
  if (n <= 0 || nonzeros <= 0) return 0;
  return static_cast<int>(std::lround(2 * std::log2(static_cast<double>(nonzeros) / n)));
}

std::string SparseSignature::key() const {
  return "sparse/" + kernel + "/" + type + "/n" + std::to_string(n_bucket()) + "/nnz" +
         std::to_string(density_bucket()) + "/np" + std::to_string(ranks) + "/" + backend + "/" +
         device + "/" + cpu + "/" + blas + "/" + version;
}

std::string SparseSignature::json() const {
  return std::string("{\"type\":\"") + type + "\",\"n\":" + std::to_string(n) +
         ",\"nonzeros\":" + std::to_string(nonzeros) +
         ",\"n_bucket\":" + std::to_string(n_bucket()) +
         ",\"density_bucket\":" + std::to_string(density_bucket()) +
         ",\"ranks\":" + std::to_string(ranks) + ",\"kernel\":" + json::string(kernel) +
         ",\"backend\":" + json::string(backend) + ",\"device\":" + json::string(device) +
         ",\"cpu\":" + json::string(cpu) + ",\"blas\":" + json::string(blas) +
         ",\"version\":" + json::string(version) + "}";
}

SparseSignature make_sparse_signature(char type, std::int64_t n, std::int64_t nonzeros, int ranks,
                                      const std::string& kernel) {
  return {.type = type,
          .n = n,
          .nonzeros = nonzeros,
          .ranks = ranks,
          .kernel = kernel,
          .cpu = cpu_model(),
          .blas = blas_name(),
          .version = TSEIG_VERSION_STRING};
}

std::string sparse_choice_json(const sparse::SparseTuneParameters& t) {
  return std::string("{\"format\":\"") +
         (t.format == sparse::SparseFormat::crs ? "crs" : "sell_c_sigma") +
         "\",\"sell_chunk\":" + std::to_string(t.sell_chunk) +
         ",\"sell_sigma\":" + std::to_string(t.sell_sigma) +
         ",\"block_width\":" + std::to_string(t.block_width) +
         ",\"pipeline_blocks\":" + std::to_string(t.pipeline_blocks) +
         ",\"rr_distributed_min\":" + std::to_string(t.rr_distributed_min) +
         ",\"prefetch_x\":" + std::to_string(t.prefetch_x) + "}";
}

sparse::SparseTuneParameters sparse_choice_from_json(const JsonValue& v) {
  auto number = [&](const std::string& key) {
    const JsonValue* x = v.find(key);
    if (!x || !x->is(JsonValue::Kind::number) || x->number() < 1 || x->number() > 1 << 30 ||
        x->number() != static_cast<int>(x->number()))
      throw Error(ErrorCode::io_error,
                  "sparse tuning choice: '" + key + "' missing or out of range");
    return static_cast<int>(x->number());
  };
  sparse::SparseTuneParameters t;
  const std::string format = v.string_or("format", "");
  if (format == "crs")
    t.format = sparse::SparseFormat::crs;
  else if (format == "sell_c_sigma")
    t.format = sparse::SparseFormat::sell_c_sigma;
  else
    throw Error(ErrorCode::io_error, "sparse tuning choice: 'format' missing or unknown");
  t.sell_chunk = number("sell_chunk");
  t.sell_sigma = number("sell_sigma");
  t.rr_distributed_min = number("rr_distributed_min");
  if (v.find("block_width")) t.block_width = number("block_width");
  if (v.find("pipeline_blocks")) t.pipeline_blocks = number("pipeline_blocks");
  if (const JsonValue* p = v.find("prefetch_x")) {
    if (!p->is(JsonValue::Kind::number) ||
        (p->number() != -1 && p->number() != 0 && p->number() != 1 && p->number() != 2))
      throw Error(ErrorCode::io_error, "sparse tuning choice: 'prefetch_x' is not -1, 0, 1 or 2");
    t.prefetch_x = static_cast<int>(p->number());
  }
  if (t.sell_sigma % t.sell_chunk != 0)
    throw Error(ErrorCode::io_error,
                "sparse tuning choice: sell_sigma is not a multiple of sell_chunk");
  return t;
}

sparse::SparseTuneParameters merged(const sparse::SparseTuneParameters& user,
                                    const sparse::SparseTuneParameters& tuned) {
  const sparse::SparseTuneParameters d;
  sparse::SparseTuneParameters out = user;
  if (user.format == d.format && user.sell_chunk == d.sell_chunk &&
      user.sell_sigma == d.sell_sigma) {
    out.format = tuned.format;
    out.sell_chunk = tuned.sell_chunk;
    out.sell_sigma = tuned.sell_sigma;
  }
  if (user.block_width == d.block_width) out.block_width = tuned.block_width;
  if (user.pipeline_blocks == d.pipeline_blocks) out.pipeline_blocks = tuned.pipeline_blocks;
  if (user.rr_distributed_min == d.rr_distributed_min)
    out.rr_distributed_min = tuned.rr_distributed_min;
  if (user.prefetch_x == d.prefetch_x) out.prefetch_x = tuned.prefetch_x;
  return out;
}

}  // namespace tseig::tune
