// Formatting of tseig-solve results. JSON is written by hand: the schema is flat and
// fixed, and a dependency for it would outweigh the code.
#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace tseig::cli {
namespace {

const char* type_name(char t) {
  switch (t) {
    case 's':
      return "float";
    case 'c':
      return "complex<float>";
    case 'z':
      return "complex<double>";
    default:
      return "double";
  }
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// JSON has no NaN/Inf: a non-finite value (a failed measurement) becomes null.
std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string json_optional(const std::optional<double>& x) {
  return x ? json_number(*x) : "null";
}

std::string sci(const std::optional<double>& x) {
  if (!x) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", *x);
  return buf;
}

std::string problem_text(const Options& o, int n) {
  std::string kind = o.type == 'c' || o.type == 'z' ? "Hermitian" : "symmetric";
  if (o.matrix_path.empty())
    return "random " + kind + " N=" + std::to_string(n) + " (seed " + std::to_string(o.seed) + ")";
  return o.matrix_path + " N=" + std::to_string(n);
}

}  // namespace

void print_summary(std::ostream& out, const RunContext& ctx, const RunResult& r) {
  const Options& o = ctx.options;
  char line[160];
  out << "problem        " << problem_text(o, r.n) << ", " << type_name(o.type) << "\n";
  out << "eigenpairs     " << r.nev << (r.nev == r.n ? " (all)" : " lowest")
      << (o.values_only ? ", values only" : "") << "\n";
  out << "grid           " << ctx.nprow << "x" << ctx.npcol << " (" << ctx.nprow * ctx.npcol
      << " ranks), nb " << o.nb << "\n";
  out << "solver         " << to_string(o.solver) << "\n";
  out << "lowest eigenvalues:\n";
  for (std::size_t i = 0; i < r.lowest.size(); ++i) {
    std::snprintf(line, sizeof line, "  %4zu  %24.16e\n", i, r.lowest[i]);
    out << line;
  }
  out << "stage timings (seconds):\n";
  for (const auto& [name, seconds] : r.times.stages) {
    std::snprintf(line, sizeof line, "  %-30s %10.4f\n", name.c_str(), seconds);
    out << line;
  }
  std::snprintf(line, sizeof line, "  %-30s %10.4f\n  %-30s %10.4f\n", "total", r.times.total,
                "wall (barrier to barrier)", r.wall_seconds);
  out << line;
  out << "residual       " << sci(r.residual) << "   max|Az-lz|/(N|A|_1)\n";
  out << "orthogonality  " << sci(r.orthogonality) << "   max|Z^H Z-I|\n";
}

void print_json(std::ostream& out, const RunContext& ctx, const RunResult& r) {
  const Options& o = ctx.options;
  out << "{\"solver\": " << json_string(to_string(o.solver))
      << ", \"type\": " << json_string(std::string(1, o.type)) << ", \"N\": " << r.n
      << ", \"nev\": " << r.nev << ", \"grid\": \"" << ctx.nprow << "x" << ctx.npcol
      << "\", \"np\": " << ctx.nprow * ctx.npcol << ", \"nb\": " << o.nb
      << ", \"matrix\": " << (o.matrix_path.empty() ? "null" : json_string(o.matrix_path))
      << ", \"seconds\": " << json_number(r.times.total)
      << ", \"wall_seconds\": " << json_number(r.wall_seconds) << ", \"stages\": {";
  const char* sep = "";
  for (const auto& [name, seconds] : r.times.stages) {
    out << sep << json_string(name) << ": " << json_number(seconds);
    sep = ", ";
  }
  out << "}, \"residual\": " << json_optional(r.residual)
      << ", \"orthogonality\": " << json_optional(r.orthogonality) << ", \"lowest\": [";
  sep = "";
  for (double x : r.lowest) {
    out << sep << json_number(x);
    sep = ", ";
  }
  out << "]}\n";
}

}  // namespace tseig::cli
