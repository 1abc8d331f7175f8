// The machine model's rates in the tuning cache (see rates_cache.hpp). An entry:
//   "rates/np2/node2/host/none/<cpu>/<blas>/t<blas threads>/<version>":
//     {"rates": {"gemm_gflops": 49.2, ...}, "measured": "2026-12-06T13:20:00Z",
//      "by": "calibration"}
#include "tune/rates_cache.hpp"

#include <cmath>
#include <ctime>
#include <map>
#include <utility>

#include "core/json.hpp"
#include "tseig/error.hpp"
#include "tseig/version.hpp"
#include "tune/signature.hpp"
#include "tune/tune_cache.hpp"

namespace tseig::tune {

namespace {

// Each number, ≥ 0, and whether it may be 0 (a rate of 0 would price a stage at ∞).
struct Field {
  const char* name;
  double MachineRates::*member;
  bool may_be_zero;
};
constexpr Field fields[] = {
    {"gemm_gflops", &MachineRates::gemm_gflops, false},
    {"panel_gemm_gflops", &MachineRates::panel_gemm_gflops, false},
    {"update_half_rank", &MachineRates::update_half_rank, true},
    {"stream_gbs", &MachineRates::stream_gbs, false},
    {"latency_s", &MachineRates::latency_s, true},
    {"network_gbs", &MachineRates::network_gbs, true},
    {"bulge_chase_gflops", &MachineRates::bulge_chase_gflops, false},
    {"band_backtransform_gflops", &MachineRates::band_backtransform_gflops, false},
    {"tridiagonal_solve_gflops", &MachineRates::tridiagonal_solve_gflops, false},
    {"householder_gflops", &MachineRates::householder_gflops, false},
    {"householder_kernel_gflops", &MachineRates::householder_kernel_gflops, false},
    {"symv_gbs", &MachineRates::symv_gbs, false},
    {"symv_cache_gbs", &MachineRates::symv_cache_gbs, false},
    {"symv_reach_gbs", &MachineRates::symv_reach_gbs, false},
    {"cache_bytes", &MachineRates::cache_bytes, true},
};

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Collective: the most ranks of comm on one node (the same on every rank).
int node_ranks_of(MPI_Comm comm) {
  int r = ranks_on_node(comm);
  MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_MAX, comm);
  return r;
}

std::string key_of(int ranks, int node_ranks) {
  return "rates/np" + std::to_string(ranks) + "/node" + std::to_string(node_ranks) + "/host/none/" +
         cpu_model() + "/" + blas_name() + "/t" + std::to_string(blas_threads()) + "/" +
         TSEIG_VERSION_STRING;
}

// This process's own calibration per rank count and BLAS threads, and the rates in use
// per those and file. Keyed by what each rank knows alone, so that a call answered from
// them is not collective (tseig-tune prints the model on rank 0 only).
using Layout = std::pair<int, int>;
Layout layout_of(MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  return {p, blas_threads()};
}
std::map<Layout, MachineRates>& measured() {
  static std::map<Layout, MachineRates> m;
  return m;
}
std::map<std::pair<Layout, std::string>, MachineRates>& in_use() {
  static std::map<std::pair<Layout, std::string>, MachineRates> m;
  return m;
}

bool store(MPI_Comm comm, const std::string& path, const std::string& key, const MachineRates& r) {
  return cache_store_entry(comm, path, key,
                           "{\"rates\":" + rates_json(r) + ",\"measured\":" +
                               json::string(utc_now()) + ",\"by\":\"calibration\"}");
}

}  // namespace

std::string rates_key(MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  return key_of(p, node_ranks_of(comm));
}

std::string rates_json(const MachineRates& r) {
  std::string out = "{";
  for (const Field& f : fields) out += json::string(f.name) + ":" + json::number(r.*f.member) + ",";
  return out + "\"chase_shares_node\":" + (r.chase_shares_node ? "true" : "false") + "}";
}

MachineRates rates_from_json(const JsonValue& v) {
  MachineRates r;
  for (const Field& f : fields) {
    const JsonValue* x = v.find(f.name);
    if (!x || !x->is(JsonValue::Kind::number) || !std::isfinite(x->number()) || x->number() < 0 ||
        (!f.may_be_zero && x->number() == 0))
      throw Error(ErrorCode::io_error,
                  std::string("machine rates: '") + f.name + "' missing or out of range");
    r.*f.member = x->number();
  }
  const JsonValue* shares = v.find("chase_shares_node");
  if (!shares || !shares->is(JsonValue::Kind::boolean))
    throw Error(ErrorCode::io_error, "machine rates: 'chase_shares_node' missing or not a boolean");
  r.chase_shares_node = shares->boolean();
  if (r.update_half_rank > 64)
    throw Error(ErrorCode::io_error, "machine rates: 'update_half_rank' over 64");
  return r;
}

const MachineRates& machine_rates(MPI_Comm comm, const std::string& cache_file) {
  const Layout l = layout_of(comm);
  // Every rank of comm has the same layout and file, so all of them go on or none does.
  auto own = [&]() -> const MachineRates& {
    auto it = measured().find(l);
    if (it == measured().end()) it = measured().emplace(l, calibrate(comm)).first;
    return it->second;
  };
  if (cache_file.empty()) return own();
  const auto where = std::pair(l, cache_file);
  if (auto it = in_use().find(where); it != in_use().end()) return it->second;
  const std::string key = rates_key(comm);
  const auto entry = cache_lookup_entry(comm, cache_file, key, [](const JsonValue& e) {
    const JsonValue* r = e.find("rates");
    if (!r) throw Error(ErrorCode::io_error, "machine rates entry without 'rates'");
    (void)rates_from_json(*r);
  });
  if (entry) return in_use().emplace(where, rates_from_json(*entry->find("rates"))).first->second;
  const MachineRates& r = own();
  store(comm, cache_file, key, r);
  return in_use().emplace(where, r).first->second;
}

const MachineRates& recalibrate(MPI_Comm comm, const std::string& cache_file) {
  const Layout l = layout_of(comm);
  const MachineRates& r = measured()[l] = calibrate(comm);
  if (cache_file.empty()) return r;
  store(comm, cache_file, rates_key(comm), r);
  return in_use()[std::pair(l, cache_file)] = r;
}

}  // namespace tseig::tune
