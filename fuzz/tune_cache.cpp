// Fuzz target: the tuning-cache reader (tseig::tune::find_in_cache_text, what
// cache_lookup runs on rank 0 before anything is trusted). A tseig::Error is a clean
// rejection (the tuner warns once and takes the model); everything else is a finding.
// Each entry of a text that parses is read, and a choice (or the machine model's rates)
// that was accepted must survive a write and a read back unchanged (what cache_store
// would write of it).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tseig/error.hpp"
#include "tune/candidate.hpp"
#include "tune/json_value.hpp"
#include "tune/rates_cache.hpp"
#include "tune/tune_cache.hpp"

namespace {

using tseig::tune::JsonValue;

void check_round_trip(const tseig::TuneChoice& c) {
  const std::string text = tseig::tune::choice_json(c);
  const tseig::TuneChoice back = tseig::tune::choice_from_json(JsonValue::parse(text));
  if (tseig::tune::choice_json(back) != text) std::abort();
}

// What machine_rates does with an entry: rates_from_json of its "rates" member.
void check_rates(const JsonValue& entry) {
  const JsonValue* rates = entry.find("rates");
  if (!rates) return;
  const std::string text = tseig::tune::rates_json(tseig::tune::rates_from_json(*rates));
  if (tseig::tune::rates_json(tseig::tune::rates_from_json(JsonValue::parse(text))) != text)
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // A key no file holds: the common miss path.
    (void)tseig::tune::find_in_cache_text(text, "d/n24/nev0/1x2/vectors/host/none/x/y/0");
    const JsonValue doc = JsonValue::parse(text);
    if (doc.dump() != JsonValue::parse(doc.dump()).dump()) std::abort();
    for (const auto& [key, entry] : doc.find("entries")->object()) {
      try {
        if (auto c = tseig::tune::find_in_cache_text(text, key)) check_round_trip(*c);
      } catch (const tseig::Error&) {
      }
      try {
        check_rates(entry);
      } catch (const tseig::Error&) {
      }
    }
  } catch (const tseig::Error&) {
  }
  return 0;
}
