#include "peak_memory.hpp"

#include <malloc.h>

#include <fstream>
#include <string>

namespace tseig::bench {
namespace {

// A "Key:   123 kB" line of /proc/self/status, in KiB; −1 if absent.
long status_kib(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key + ":", 0) == 0) return std::stol(line.substr(key.size() + 1));
  return -1;
}

}  // namespace

PeakMemory::PeakMemory() {
  malloc_trim(0);  // what earlier runs freed must not be counted as in use now
  std::ofstream("/proc/self/clear_refs") << "5";  // VmHWM := VmRSS
  start_kib_ = status_kib("VmRSS");
}

std::optional<double> PeakMemory::max_growth_mib(MPI_Comm comm) const {
  const long peak = status_kib("VmHWM");
  double growth = start_kib_ < 0 || peak < 0 ? -1.0 : (peak - start_kib_) / 1024.0;
  MPI_Allreduce(MPI_IN_PLACE, &growth, 1, MPI_DOUBLE, MPI_MAX, comm);
  if (growth < 0) return std::nullopt;
  return growth;
}

}  // namespace tseig::bench
