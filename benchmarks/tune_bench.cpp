// tune_bench: how good are the autotuner's three ways to a choice? For each problem
// (type, N, nev) on all ranks: every candidate of a grid (solver × block size ×
// bandwidth × WY width × the Householder back-transform's path) is timed — the exhaustive best —
// then the SCF-mode search runs on its own fresh measurements, and the tuned, model and default
// choices are compared with the best by the exhaustive table's times (a choice outside the grid is
// timed too). The grid's best is the least of many noisy timings, so it is biased low, and the
// machine drifts over the minutes between a grid entry and a choice: a confirmation round then
// times the finalists (the grid's three best, the tuned, model and default choices) in turn,
// one solve each per round, and scores the choices again by each finalist's best round. One JSON
// line per problem on stdout; benchmarks/plot_tune.py makes the tables and plot.
//
//   mpiexec -n 2 build/bin/tune_bench --n 1000,2000 --nev-frac 1,0.2,0.05 --type d,z
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "tseig/tseig.hpp"
#include "tune/candidate.hpp"
#include "tune/machine_model.hpp"
#include "tune/rates_cache.hpp"
#include "tune/scf_search.hpp"

namespace {

using namespace tseig;

struct BenchOptions {
  std::vector<int> n{1000, 2000};
  std::vector<double> nev_frac{1.0, 0.2, 0.05};
  std::string types = "d,z";
  int nb = 64;
  int reps = 2;
  int confirm = 3;  // rounds of the confirmation (0: none)
};

template <class V>
std::vector<V> parse_list(const std::string& text) {
  std::vector<V> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) out.push_back(static_cast<V>(std::stod(item)));
  return out;
}

BenchOptions parse(int argc, char** argv) {
  BenchOptions o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--n")
      o.n = parse_list<int>(v);
    else if (a == "--nev-frac")
      o.nev_frac = parse_list<double>(v);
    else if (a == "--type")
      o.types = v;
    else if (a == "--nb")
      o.nb = std::stoi(v);
    else if (a == "--reps")
      o.reps = std::stoi(v);
    else if (a == "--confirm")
      o.confirm = std::stoi(v);
    else
      throw std::runtime_error("unknown option " + a);
  }
  return o;
}

// The exhaustive grid: every solver, block sizes 32..128, and the knobs each one has;
// `paths` the Householder back-transform's paths the grid has (dense::householder_path).
std::vector<TuneChoice> grid_of_candidates(int n, const std::vector<int>& paths) {
  std::vector<TuneChoice> out;
  auto add = [&](TuneChoice c) {
    c = tune::normalized(c, c.block_size);
    for (const TuneChoice& o : out)
      if (tune::same_point(o, c)) return;
    out.push_back(c);
  };
  for (int bs : {32, 64, 128}) {
    if (bs > std::max(32, n / 2)) continue;
    add(TuneChoice{Solver::scalapack, bs});
    for (int wy : {256, 512})
      for (int path : paths) {
        TuneChoice one{Solver::one_stage, bs};
        one.tune.wy_width = wy;
        one.tune.householder_kernel = path;
        add(one);
        for (int b : {64, 128}) {
          TuneChoice two = one;
          two.solver = Solver::two_stage;
          two.tune.bandwidth_target = b;
          add(two);
        }
      }
  }
  return out;
}

// Best of `reps` solves of one random matrix with choice c (seconds, as the solver saw them).
template <class T>
double time_choice(const Grid& g, int n, int nev, int nb, const TuneChoice& c, int reps) {
  EigensolverOptions o;
  o.nev = nev;
  o.solver = c.solver;
  o.block_size = c.block_size;
  o.tune = c.tune;
  Eigensolver<T> es(o);
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < reps; ++r) {
    DistMatrix<T> A(g, n, n, nb);
    generate::random_hermitian(A, 11);
    DistMatrix<T> Z(g, n, nev, nb);
    es.eigenvectors(A, Z);
    best = std::min(best, es.timings().total);
  }
  return best;
}

std::string entry(const TuneChoice& c, double seconds, double best) {
  return "{\"choice\":" + json::string(tune::label(c)) +
         ",\"seconds\":" + json::number(seconds, "%.4g") +
         ",\"ratio\":" + json::number(seconds / best, "%.4g") + "}";
}

// The confirmation round: each finalist timed once per round, in turn, so that a slow spell of
// the machine slows them all; each finalist's best round. `finalists` holds distinct points.
template <class T>
std::vector<double> confirm_finalists(const Grid& g, int n, int nev, int nb,
                                      const std::vector<TuneChoice>& finalists, int rounds) {
  std::vector<double> best(finalists.size(), std::numeric_limits<double>::infinity());
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < finalists.size(); ++i)
      best[i] = std::min(best[i], time_choice<T>(g, n, nev, nb, finalists[i], 1));
  return best;
}

// {"rounds":R,"best":…,"tuned":…,"model":…,"defaults":…}: the choices by the confirmation's times.
template <class T>
std::string confirmation(const Grid& g, int n, int nev, const BenchOptions& o,
                         std::vector<std::pair<TuneChoice, double>> table,
                         const std::vector<TuneChoice>& choices) {
  std::sort(table.begin(), table.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  std::vector<TuneChoice> finalists;
  auto add = [&](const TuneChoice& c) {  // index of c among the finalists
    for (std::size_t i = 0; i < finalists.size(); ++i)
      if (tune::same_point(finalists[i], c)) return i;
    finalists.push_back(c);
    return finalists.size() - 1;
  };
  for (std::size_t i = 0; i < std::min<std::size_t>(3, table.size()); ++i) add(table[i].first);
  std::vector<std::size_t> at;
  for (const TuneChoice& c : choices) at.push_back(add(c));
  const std::vector<double> s = confirm_finalists<T>(g, n, nev, o.nb, finalists, o.confirm);
  const std::size_t b = std::min_element(s.begin(), s.end()) - s.begin();
  std::string out = "{\"rounds\":" + std::to_string(o.confirm) +
                    ",\"finalists\":" + std::to_string(finalists.size()) +
                    ",\"best\":" + entry(finalists[b], s[b], s[b]);
  const char* names[] = {"tuned", "model", "defaults"};
  for (std::size_t i = 0; i < choices.size(); ++i)
    out += std::string(",\"") + names[i] + "\":" + entry(choices[i], s[at[i]], s[b]);
  return out + "}";
}

template <class T>
void bench_one(const Grid& g, int n, int nev, const BenchOptions& o, bool root) {
  // On one process row both paths are candidates, and a choice that leaves the path to
  // the default (0) names the one the default takes, so that equal runs compare equal.
  const int default_path = dense::default_householder_path_of_two(g);
  auto explicit_path = [&](TuneChoice c) {
    if (c.solver != Solver::scalapack && c.tune.householder_kernel == 0)
      c.tune.householder_kernel = default_path;
    return c;
  };
  std::vector<std::pair<TuneChoice, double>> table;
  for (const TuneChoice& c :
       grid_of_candidates(n, default_path ? std::vector<int>{1, 2} : std::vector<int>{0}))
    table.emplace_back(c, time_choice<T>(g, n, nev, o.nb, c, o.reps));
  auto seconds_of = [&](const TuneChoice& c) {
    for (const auto& [t, s] : table)
      if (tune::same_point(t, c)) return s;
    const double s = time_choice<T>(g, n, nev, o.nb, c, o.reps);
    table.emplace_back(c, s);
    return s;
  };
  // The SCF-mode search, on its own measurements.
  EigensolverOptions so;
  so.nev = nev;
  Eigensolver<T> es(so);
  es.start_autotune();
  int calls = 0;
  for (; es.autotuning(); ++calls) {
    DistMatrix<T> A(g, n, n, o.nb);
    generate::random_hermitian(A, 100 + calls);
    DistMatrix<T> Z(g, n, nev, o.nb);
    es.eigenvectors(A, Z);
  }
  const auto search = tune::ScfSearch::from_state(es.autotune_state());
  const TuneChoice tuned = explicit_path(search.best());
  const auto sig = tune::make_signature(type_letter<T>(), n, nev, g.nprow(), g.npcol(), true);
  const TuneChoice model = explicit_path(
      tune::normalized(tune::model_choice(sig, o.nb, tune::machine_rates(g.comm())), o.nb));
  const TuneChoice defaults =
      explicit_path(tune::normalized(TuneChoice{Solver::one_stage, o.nb}, o.nb));
  const double t_tuned = seconds_of(tuned), t_model = seconds_of(model),
               t_default = seconds_of(defaults);
  const auto best = std::min_element(
      table.begin(), table.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  // Slowest SCF trial against the best: what a DFT run pays while tuning.
  double worst_trial = 0;
  TuneChoice worst_choice;
  for (const auto& [c, s] : search.trials())
    if (s > worst_trial) {
      worst_trial = s;
      worst_choice = c;
    }
  const std::string confirmed =
      o.confirm > 0
          ? ",\"confirmed\":" + confirmation<T>(g, n, nev, o, table, {tuned, model, defaults})
          : std::string();
  if (!root) return;
  std::printf(
      "{\"type\":\"%c\",\"N\":%d,\"nev\":%d,\"np\":%d,\"grid\":\"%dx%d\",\"candidates\":%zu,"
      "\"best\":%s,\"tuned\":%s,\"model\":%s,\"defaults\":%s,\"scf_calls\":%d,"
      "\"scf_worst_trial_ratio\":%s,\"scf_worst_trial\":%s%s}\n",
      type_letter<T>(), n, nev, g.nprow() * g.npcol(), g.nprow(), g.npcol(), table.size(),
      entry(best->first, best->second, best->second).c_str(),
      entry(tuned, t_tuned, best->second).c_str(), entry(model, t_model, best->second).c_str(),
      entry(defaults, t_default, best->second).c_str(), calls,
      json::number(worst_trial / best->second, "%.4g").c_str(),
      json::string(tune::label(worst_choice)).c_str(), confirmed.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = 0;
  try {
    const BenchOptions o = parse(argc, argv);
    const Grid g(MPI_COMM_WORLD, 0, 0);
    for (char t : o.types)
      for (int n : o.n)
        for (double f : o.nev_frac) {
          const int nev = std::max(1, static_cast<int>(f * n + 0.5));
          if (t == 'd') bench_one<double>(g, n, nev, o, rank == 0);
          if (t == 's') bench_one<float>(g, n, nev, o, rank == 0);
          if (t == 'z') bench_one<std::complex<double>>(g, n, nev, o, rank == 0);
          if (t == 'c') bench_one<std::complex<float>>(g, n, nev, o, rank == 0);
        }
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "tune_bench: %s\n", e.what());
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
