// Formatting of tseig-solve results. JSON is written by hand: the schema is flat and
// fixed, and a dependency for it would outweigh the code.
#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "core/json.hpp"
#include "tseig/capabilities.hpp"

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

std::string json_optional(const std::optional<double>& x) {
  return x ? json::number(*x) : "null";
}

std::string sci(const std::optional<double>& x) {
  if (!x) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", *x);
  return buf;
}

std::string problem_text(const Options& o, int n) {
  std::string kind = o.type == 'c' || o.type == 'z' ? "Hermitian" : "symmetric";
  if (o.generalized) kind = "generalized " + kind;
  if (o.matrix_path.empty())
    return "random " + kind + " N=" + std::to_string(n) + " (seed " + std::to_string(o.seed) + ")";
  if (o.generalized)
    return o.matrix_path + ", B " + (o.b_path.empty() ? "random" : o.b_path) +
           " N=" + std::to_string(n);
  return o.matrix_path + " N=" + std::to_string(n);
}

std::string validation_json(const ValidationReport& v) {
  auto flag = [](bool b) { return b ? "true" : "false"; };
  return std::string("{\"passed\": ") + flag(v.passed()) +
         ", \"eigenvectors\": " + flag(v.eigenvectors) +
         ", \"residual\": " + json::number(v.residual) +
         ", \"orthogonality\": " + json::number(v.orthogonality) +
         ", \"trace_error\": " + json::number(v.trace_error) +
         ", \"count_ok\": " + flag(v.count_ok) + ", \"count_checked\": " + flag(v.count_checked) +
         ", \"count_bound\": " + json::number(v.count_bound) +
         ", \"tolerance\": " + json::number(v.tolerance) +
         ", \"seconds\": " + json::number(v.seconds) + "}";
}

}  // namespace

void print_summary(std::ostream& out, const RunContext& ctx, const RunResult& r) {
  const Options& o = ctx.options;
  char line[160];
  out << "problem        " << problem_text(o, r.n) << ", " << type_name(o.type) << "\n";
  out << "eigenpairs     " << r.nev;
  if (o.index_range)
    out << " (" << o.index_range->il << ".." << o.index_range->iu << " of the ascending spectrum)";
  else if (o.value_range)
    out << " in (" << o.value_range->vl << ", " << o.value_range->vu << "]";
  else
    out << (r.nev == r.n ? " (all)" : " lowest");
  out << (o.values_only ? ", values only" : "") << "\n";
  out << "grid           " << ctx.nprow << "x" << ctx.npcol << " (" << ctx.nprow * ctx.npcol
      << " ranks), nb " << o.nb;
  if (r.grid_used.nprow != ctx.nprow || r.grid_used.npcol != ctx.npcol)
    out << ", solved on " << r.grid_used.nprow << "x" << r.grid_used.npcol << " (--grid-choice)";
  out << "\n";
  out << "solver         " << to_string(o.solver);
  if (o.solver == Solver::automatic)
    out << " -> " << to_string(r.choice.solver) << " (" << to_string(r.choice.source) << ", nb "
        << r.choice.block_size
        << (r.choice.tune.householder_kernel == 1   ? ", back-transform by GEMMs"
            : r.choice.tune.householder_kernel == 2 ? ", back-transform by the reflector kernel"
                                                    : "")
        << ")";
  out << "\n";
  out << "blas           " << blas_description() << "\n";
  out << (o.index_range || o.value_range ? "eigenvalues (the first 10 returned):\n"
                                         : "lowest eigenvalues:\n");
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
  if (r.generalized) {
    out << "residual       " << sci(r.residual) << "   max|Az-lBz|/((|A|_1+|l||B|_1)|z|)\n";
    out << "orthogonality  " << sci(r.orthogonality) << "   max|Z^H B Z-I|\n";
  } else {
    out << "residual       " << sci(r.residual) << "   max|Az-lz|/(N|A|_1)\n";
    out << "orthogonality  " << sci(r.orthogonality) << "   max|Z^H Z-I|\n";
  }
  // A failed validation never gets here: the solve raised Error(accuracy).
  if (r.validation) out << "validation     passed: " << r.validation->summary() << "\n";
}

void print_json(std::ostream& out, const RunContext& ctx, const RunResult& r) {
  const Options& o = ctx.options;
  out << "{\"solver\": " << json::string(to_string(o.solver))
      << ", \"solver_used\": " << json::string(to_string(r.choice.solver))
      << ", \"choice_source\": " << json::string(to_string(r.choice.source))
      << ", \"type\": " << json::string(std::string(1, o.type)) << ", \"N\": " << r.n
      << ", \"nev\": " << r.nev << ", \"range\": "
      << (o.index_range ? std::string("[") + std::to_string(o.index_range->il) + ", " +
                              std::to_string(o.index_range->iu) + "]"
                        : std::string("null"))
      << ", \"interval\": "
      << (o.value_range ? std::string("[") + json::number(o.value_range->vl) + ", " +
                              json::number(o.value_range->vu) + "]"
                        : std::string("null"))
      << ", \"grid\": \"" << ctx.nprow << "x" << ctx.npcol << "\", \"grid_used\": \""
      << r.grid_used.nprow << "x" << r.grid_used.npcol << "\", \"np\": " << ctx.nprow * ctx.npcol
      << ", \"nb\": " << o.nb
      << ", \"matrix\": " << (o.matrix_path.empty() ? "null" : json::string(o.matrix_path))
      << ", \"generalized\": " << (r.generalized ? "true" : "false")
      << ", \"B\": " << (o.b_path.empty() ? "null" : json::string(o.b_path))
      << ", \"seconds\": " << json::number(r.times.total)
      << ", \"wall_seconds\": " << json::number(r.wall_seconds) << ", \"stages\": {";
  const char* sep = "";
  for (const auto& [name, seconds] : r.times.stages) {
    out << sep << json::string(name) << ": " << json::number(seconds);
    sep = ", ";
  }
  out << "}, \"tune\": {";
  sep = "";
  for (const TuneField& f : tune_fields) {
    out << sep << json::string(std::string(f.name)) << ": " << o.tune.*f.value;
    sep = ", ";
  }
  out << "}, \"validation\": " << (r.validation ? validation_json(*r.validation) : "null")
      << ", \"residual\": " << json_optional(r.residual)
      << ", \"orthogonality\": " << json_optional(r.orthogonality) << ", \"lowest\": [";
  sep = "";
  for (double x : r.lowest) {
    out << sep << json::number(x);
    sep = ", ";
  }
  out << "]}\n";
}

}  // namespace tseig::cli
