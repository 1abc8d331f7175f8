// Benchmark output. JSON lines are what plot_dense.py reads; the table is for people.
#include "bench_record.hpp"

#include "stage_flops.hpp"

#include <cmath>
#include <cstdio>

#include "core/json.hpp"

namespace tseig::bench {
namespace {

// JSON has no NaN: a missing or non-finite value is null.
std::string number(const std::optional<double>& x) {
  return x ? json::number(*x, "%.6g") : "null";
}

std::string cell(const std::optional<double>& x, const char* format) {
  if (!x) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, *x);
  return buf;
}

}  // namespace

std::string to_json(const Record& r) {
  std::string s = "{\"record\": \"solve\", \"solver\": " + json::string(r.solver) +
                  ", \"type\": " + json::string(std::string(1, r.type)) +
                  ", \"N\": " + std::to_string(r.n) + ", \"nev\": " + std::to_string(r.nev) +
                  ", \"np\": " + std::to_string(r.np) + ", \"grid\": " + json::string(r.grid) +
                  ", \"nb\": " + std::to_string(r.nb) +
                  ", \"blas_threads\": " + std::to_string(r.blas_threads) +
                  ", \"seconds\": " + number(r.seconds) + ", \"stages\": {";
  const char* sep = "";
  for (const auto& [name, sec] : r.stages) {
    s += sep + json::string(name) + ": " + number(sec);
    sep = ", ";
  }
  s += "}, \"residual\": " + number(r.residual) +
       ", \"orthogonality\": " + number(r.orthogonality) + ", \"peak_mib\": " + number(r.peak_mib) +
       ", \"note\": " + (r.note.empty() ? "null" : json::string(r.note)) + "}";
  return s;
}

std::string to_json(const DgemmRate& d) {
  return "{\"record\": \"dgemm\", \"N\": " + std::to_string(d.n) +
         ", \"np\": " + std::to_string(d.np) +
         ", \"blas_threads\": " + std::to_string(d.blas_threads) +
         ", \"gflops_min_rank\": " + number(d.gflops_min_rank) +
         ", \"gflops_total\": " + number(d.gflops_total) + "}";
}

void print_table(std::ostream& out, const std::vector<Record>& records,
                 const std::optional<DgemmRate>& dgemm) {
  char line[256];
  if (dgemm) {
    std::snprintf(line, sizeof line,
                  "dgemm N=%d: %.1f GFlop/s per rank (slowest of %d, %d BLAS threads), "
                  "%.1f GFlop/s in total\n",
                  dgemm->n, dgemm->gflops_min_rank, dgemm->np, dgemm->blas_threads,
                  dgemm->gflops_total);
    out << line;
  }
  std::snprintf(line, sizeof line, "%-15s %-4s %6s %6s %3s %-5s %10s %10s %10s %9s  %s\n", "solver",
                "type", "N", "nev", "np", "grid", "seconds", "residual", "orthog", "peak MiB",
                "note");
  out << line;
  for (const auto& r : records) {
    std::snprintf(line, sizeof line, "%-15s %-4c %6d %6d %3d %-5s %10s %10s %10s %9s  %s\n",
                  r.solver.c_str(), r.type, r.n, r.nev, r.np, r.grid.c_str(),
                  cell(r.seconds, "%.3f").c_str(), cell(r.residual, "%.2e").c_str(),
                  cell(r.orthogonality, "%.2e").c_str(), cell(r.peak_mib, "%.0f").c_str(),
                  r.note.c_str());
    out << line;
  }
  // Where tseig's time goes: each stage's rate against the machine's dgemm rate.
  out << "stages (GFlop/s in total over the ranks; % of the dgemm rate of all ranks):\n";
  for (const auto& r : records) {
    if (r.stages.empty() || !r.seconds) continue;
    std::snprintf(line, sizeof line, "  %s %c N=%d nev=%d np=%d\n", r.solver.c_str(), r.type, r.n,
                  r.nev, r.np);
    out << line;
    for (const auto& [stage, sec] : r.stages) {
      const std::optional<double> flops = stage_flops(stage, r.type, r.n, r.nev, r.bandwidth);
      std::optional<double> rate, share;
      if (flops && sec > 0) rate = *flops / sec / 1e9;
      if (rate && dgemm && dgemm->gflops_total > 0) share = 100.0 * *rate / dgemm->gflops_total;
      std::snprintf(line, sizeof line, "    %-26s %9.3f s %9s GFlop/s %6s %%\n", stage.c_str(), sec,
                    cell(rate, "%.1f").c_str(), cell(share, "%.0f").c_str());
      out << line;
    }
  }
  out.flush();
}

}  // namespace tseig::bench
