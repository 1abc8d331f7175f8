// dense_bench argument parsing. --quick only changes defaults, so explicit flags win
// wherever they appear on the line.
#include "bench_options.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string_view>

namespace tseig::bench {
namespace {

const std::vector<std::string> known_solvers{"one_stage", "two_stage",     "scalapack",
                                             "elpa1",     "elpa2",         "lapack",
                                             "cusolver",  "one_stage_gpu", "two_stage_gpu"};

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return parts;
}

template <class Num>
Num parse_number(std::string_view flag, const std::string& text) {
  Num value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument(std::string(flag) + ": '" + text + "' is not a valid number");
  return value;
}

}  // namespace

BenchOptions parse_bench_options(int argc, const char* const* argv) {
  BenchOptions o;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--quick") {
      o.sizes = {1000};
      o.nev_fractions = {1.0};
      o.types = {'d'};
      o.dgemm_n = 500;
    }
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(flag) + ": missing value");
      return argv[++i];
    };
    if (flag == "--help" || flag == "-h") {
      o.help = true;
    } else if (flag == "--quick") {
      continue;
    } else if (flag == "--n") {
      o.sizes.clear();
      for (auto& s : split(value())) {
        o.sizes.push_back(parse_number<int>(flag, s));
        if (o.sizes.back() < 1) throw std::invalid_argument("--n: sizes must be >= 1");
      }
    } else if (flag == "--nev-frac") {
      o.nev_fractions.clear();
      for (auto& s : split(value())) {
        double f = parse_number<double>(flag, s);
        if (!(f > 0 && f <= 1)) throw std::invalid_argument("--nev-frac: fractions in (0, 1]");
        o.nev_fractions.push_back(f);
      }
    } else if (flag == "--type") {
      o.types.clear();
      for (auto& s : split(value())) {
        if (s != "s" && s != "d" && s != "c" && s != "z")
          throw std::invalid_argument("--type: unknown type '" + s + "' (d, z, s, c)");
        o.types.push_back(s[0]);
      }
    } else if (flag == "--solvers") {
      o.solvers = split(value());
      for (auto& s : o.solvers)
        if (std::find(known_solvers.begin(), known_solvers.end(), s) == known_solvers.end())
          throw std::invalid_argument("--solvers: unknown solver '" + s + "'");
    } else if (flag == "--lapack") {
      if (std::find(o.solvers.begin(), o.solvers.end(), "lapack") == o.solvers.end())
        o.solvers.push_back("lapack");
    } else if (flag == "--nb") {
      o.nb = parse_number<int>(flag, value());
      if (o.nb < 1) throw std::invalid_argument("--nb: must be >= 1");
    } else if (flag == "--seed") {
      o.seed = parse_number<std::uint64_t>(flag, value());
    } else if (flag == "--dgemm-n") {
      o.dgemm_n = parse_number<int>(flag, value());
      if (o.dgemm_n < 0) throw std::invalid_argument("--dgemm-n: must be >= 0");
    } else if (flag == "--generalized") {
      o.generalized = true;
    } else if (flag == "--json-out") {
      o.json_out = value();
    } else {
      throw std::invalid_argument("unknown option '" + std::string(flag) + "'");
    }
  }
  return o;
}

std::string bench_usage() {
  return R"(Usage: mpirun -np P dense_bench [options]

Times dense eigensolvers on the same random symmetric/Hermitian matrices and checks
their accuracy. One JSON line per run on stdout (or --json-out), a table on stderr.

  --n LIST          matrix orders (default 2000,4000)
  --nev-frac LIST   fractions of eigenpairs to compute (default 1,0.2)
  --type LIST       scalar types among d,z,s,c (default d,z)
  --solvers LIST    among one_stage,two_stage,scalapack,elpa1,elpa2,lapack and the GPU
                    rows one_stage_gpu,two_stage_gpu,cusolver
                    (default one_stage,two_stage,scalapack,elpa1,elpa2)
                    one_stage_gpu, two_stage_gpu: tseig with EigensolverOptions::gpu = on
                      (the back-transforms on each rank's GPU, the other stages on the host)
                    cusolver: cuSOLVER Xsyevd (nev = N) or Xsyevdx (il 1, iu nev) on rank
                      0's GPU, the matrix gathered there; seconds = copy in + solve + copy
                      out, stages "transfers" and "cusolver_solve"
                    Without CUDA or a GPU these rows say why instead of a result
  --lapack          add the lapack row: ?syevd/?heevd on rank 0 alone, all eigenpairs,
                    with the BLAS threads of all ranks on rank 0's node, on their cores
                    (the other ranks sleep meanwhile), so it can run between the
                    distributed rows of one run
  --nb NB           block size (default 64)
  --seed S          matrix seed (default 1)
  --dgemm-n N       order of the local dgemm rate measurement (default 2000, 0: skip)
  --json-out FILE   write the JSON lines to FILE instead of stdout
  --generalized     H z = lambda S z (S random, positive definite, kappa < 10): for each
                    solver three rows on the same H and S: the standard solve of H
                    (name), the first generalized call that factors S (name+S) and a
                    call reusing the factor (name+F); a table of the overheads over the
                    standard solve follows. scalapack rows are ScaLAPACK alone (p?potrf,
                    p?sygst, p?syevd, p?trsm); elpa rows use is_already_decomposed 0/1
  --quick           smoke-test defaults: --n 1000 --nev-frac 1 --type d --dgemm-n 500
)";
}

}  // namespace tseig::bench
