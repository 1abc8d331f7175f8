// Problem signatures (see signature.hpp).
#include "tune/signature.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/json.hpp"
#include "tseig/version.hpp"

namespace tseig::tune {

int Signature::n_bucket() const {
  return n <= 1 ? 0 : static_cast<int>(std::lround(2 * std::log2(static_cast<double>(n))));
}

int Signature::nev_bucket() const {
  if (n <= 0 || nev <= 0) return 0;
  const double b = std::round(std::log2(static_cast<double>(nev) / n));
  return static_cast<int>(std::clamp(b, -10.0, 0.0));
}

std::string Signature::key() const {
  return std::string(1, type) + "/n" + std::to_string(n_bucket()) + "/nev" +
         std::to_string(nev_bucket()) + "/" + std::to_string(nprow) + "x" + std::to_string(npcol) +
         (vectors ? "/vectors/" : "/values/") + backend + "/" + device + "/" + cpu + "/" + blas +
         "/t" + std::to_string(blas_threads) + "/" + version;
}

std::string Signature::json() const {
  return std::string("{\"type\":\"") + type + "\",\"n\":" + std::to_string(n) +
         ",\"nev\":" + std::to_string(nev) + ",\"n_bucket\":" + std::to_string(n_bucket()) +
         ",\"nev_bucket\":" + std::to_string(nev_bucket()) + ",\"grid\":\"" +
         std::to_string(nprow) + "x" + std::to_string(npcol) +
         "\",\"vectors\":" + (vectors ? "true" : "false") +
         ",\"backend\":" + json::string(backend) + ",\"device\":" + json::string(device) +
         ",\"cpu\":" + json::string(cpu) + ",\"blas\":" + json::string(blas) +
         ",\"blas_threads\":" + std::to_string(blas_threads) +
         ",\"version\":" + json::string(version) + "}";
}

Signature make_signature(char type, int n, int nev, int nprow, int npcol, bool vectors) {
  Signature s;
  s.type = type;
  s.n = n;
  s.nev = nev;
  s.nprow = nprow;
  s.npcol = npcol;
  s.vectors = vectors;
  s.cpu = cpu_model();
  s.blas = blas_name();
  s.blas_threads = blas_threads();
  s.version = TSEIG_VERSION_STRING;
  return s;
}

const std::string& cpu_model() {
  static const std::string name = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("model name", 0) == 0) {
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
          std::string v = line.substr(colon + 1);
          v.erase(0, v.find_first_not_of(' '));
          return v;
        }
      }
    return std::string("unknown");
  }();
  return name;
}

const std::string& blas_name() {
  // Looked up at run time: the BLAS is chosen when linking, and may not be OpenBLAS.
  static const std::string name = [] {
    using config_fn = char* (*)();
    if (auto f = reinterpret_cast<config_fn>(dlsym(RTLD_DEFAULT, "openblas_get_config"))) {
      std::string s = f();
      while (!s.empty() && s.back() == ' ') s.pop_back();
      return s.rfind("OpenBLAS", 0) == 0 ? s : "OpenBLAS " + s;
    }
    return std::string("unknown");
  }();
  return name;
}

int blas_threads() {
  using threads_fn = int (*)();
  static const auto f =
      reinterpret_cast<threads_fn>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  return f ? std::max(1, f()) : 1;
}

}  // namespace tseig::tune
