// tridiag_bench: stage 3 alone. tseig's distributed divide & conquer (for each nev)
// against ScaLAPACK p?stedc (always all n eigenvectors) and LAPACK ?stedc on rank 0,
// on the same tridiagonal matrices in one launch so the rows are comparable.
//
//   mpirun -np 2 tridiag_bench [--n 4000,8000,16000] [--nev-frac 1,0.2]
//       [--matrix random,laplacian] [--solvers tseig,pdstedc,dstedc] [--nb 64]
//       [--repeat 1] [--csv FILE] [--check 1]
// --check 1 adds tseig's residual max‖Tz − λz‖/(N‖T‖₁) and orthogonality ‖ZᵀZ − I‖max
// (builds T as a dense distributed matrix: for moderate N only).
#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "core/blas/host.hpp"
#include "core/blas/scalapack.hpp"
#include "dense/tridiagonal_solve.hpp"
#include "tseig/accuracy.hpp"
#include "tseig/error.hpp"
#include "tseig/grid.hpp"

namespace {

using namespace tseig;

struct Options {
  std::vector<int> sizes{4000, 8000, 16000};
  std::vector<double> nev_fractions{1.0, 0.2};
  std::vector<std::string> matrices{"random", "laplacian"};
  std::vector<std::string> solvers{"tseig", "pdstedc", "dstedc"};
  int nb = 64, repeat = 1;
  bool check = false;
  std::string csv;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
    parts.push_back(text.substr(start, comma - start));
  parts.push_back(text.substr(start));
  return parts;
}

template <class Num>
Num number(const std::string& flag, const std::string& s) {
  Num v{};
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size())
    throw Error(ErrorCode::invalid_argument, flag + ": '" + s + "' is not a number");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw Error(ErrorCode::invalid_argument, flag + ": missing value");
    const std::string value = argv[++i];
    if (flag == "--n") {
      o.sizes.clear();
      for (auto& s : split(value)) o.sizes.push_back(std::max(1, number<int>(flag, s)));
    } else if (flag == "--nev-frac") {
      o.nev_fractions.clear();
      for (auto& s : split(value)) o.nev_fractions.push_back(number<double>(flag, s));
    } else if (flag == "--matrix") {
      o.matrices = split(value);
    } else if (flag == "--solvers") {
      o.solvers = split(value);
    } else if (flag == "--nb") {
      o.nb = number<int>(flag, value);
    } else if (flag == "--repeat") {
      o.repeat = std::max(1, number<int>(flag, value));
    } else if (flag == "--check") {
      o.check = number<int>(flag, value) != 0;
    } else if (flag == "--csv") {
      o.csv = value;
    } else {
      throw Error(ErrorCode::invalid_argument, "unknown flag " + flag);
    }
  }
  return o;
}

struct Row {
  std::string matrix, solver;
  int n, nev, np;
  std::string grid;
  double seconds;
  double value_error;  // max |λ − λ(dstedc)| / ‖T‖ on rank 0, negative when not compared
  double residual = -1, orthogonality = -1;  // negative when not checked
};

// Best of `repeat` runs; the slowest rank counts.
template <class F>
double timed(const Grid& g, int repeat, F&& f) {
  double best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    MPI_Barrier(g.comm());
    const double t0 = MPI_Wtime();
    f();
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, g.comm());
    best = std::min(best, t);
  }
  return best;
}

void tridiagonal(const std::string& kind, int n, std::vector<double>& d, std::vector<double>& e) {
  d.assign(n, 2.0);
  e.assign(std::max(n - 1, 0), -1.0);
  if (kind == "laplacian") return;
  if (kind != "random") throw Error(ErrorCode::invalid_argument, "unknown matrix " + kind);
  std::mt19937_64 gen(42 + n);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& x : d) x = u(gen);
  for (double& x : e) x = u(gen);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    const Options o = parse(argc, argv);
    const Grid g(MPI_COMM_WORLD);
    const std::string shape = std::to_string(g.nprow()) + "x" + std::to_string(g.npcol());
    std::vector<Row> rows;
    auto emit = [&](const Row& r) {
      rows.push_back(r);
      if (g.rank() != 0) return;
      std::printf("%-10s %7d %7d %3d %5s %-8s %10.3f", r.matrix.c_str(), r.n, r.nev, r.np,
                  r.grid.c_str(), r.solver.c_str(), r.seconds);
      if (r.value_error >= 0) std::printf("   %.1e", r.value_error);
      if (r.residual >= 0)
        std::printf("   residual %.1e  orthogonality %.1e", r.residual, r.orthogonality);
      std::printf("\n");
      std::fflush(stdout);
    };
    if (g.rank() == 0)
      std::printf("%-10s %7s %7s %3s %5s %-8s %10s   %s\n", "matrix", "n", "nev", "np", "grid",
                  "solver", "seconds", "max|Δλ|/‖T‖ vs dstedc");
    auto wants = [&](const char* s) {
      return std::find(o.solvers.begin(), o.solvers.end(), s) != o.solvers.end();
    };
    for (const auto& kind : o.matrices)
      for (int n : o.sizes) {
        std::vector<double> d, e;
        tridiagonal(kind, n, d, e);
        double norm = 0;
        for (double x : d) norm = std::max(norm, std::abs(x));
        for (double x : e) norm = std::max(norm, 2 * std::abs(x));
        const Row base{kind, "", n, n, g.size(), shape, 0, -1};
        // Reference eigenvalues: LAPACK ?stedc without vectors on rank 0, untimed.
        std::vector<double> ref = d;
        {
          std::vector<double> sub = e;
          sub.resize(n);
          int info =
              g.rank() == 0 ? lapack::stedc<double>('N', n, ref.data(), sub.data(), nullptr, 1) : 0;
          raise_if_any(g.comm(), info != 0, ErrorCode::numerical_failure, "dstedc failed");
          MPI_Bcast(ref.data(), n, MPI_DOUBLE, 0, g.comm());
        }
        auto value_error = [&](const std::vector<double>& w) {
          double err = 0;
          for (int i = 0; i < n; ++i) err = std::max(err, std::abs(w[i] - ref[i]) / norm);
          return err;
        };
        if (wants("pdstedc")) {
          DistMatrix<double> Q(g, n, n, o.nb);
          std::vector<double> w;
          int info = 0;
          Row r = base;
          r.solver = "pdstedc";
          r.seconds = timed(g, o.repeat, [&] {
            // Debian's p?stedc returns wrong eigenvalues (np = 2) unless Q is zero on entry.
            Q.fill([](int, int) { return 0.0; });
            w = d;
            std::vector<double> sub = e;
            sub.resize(n);
            info = scalapack::pstedc<double>(n, w.data(), sub.data(), Q.data(), Q.desc());
          });
          raise_if_any(g.comm(), info != 0, ErrorCode::numerical_failure, "pdstedc failed");
          r.value_error = value_error(w);
          emit(r);
        }
        if (wants("dstedc")) {
          Row r = base;
          r.solver = "dstedc";
          r.np = 1;
          r.grid = "1x1";
          // The n×n output is allocated outside the timing, as for the other solvers.
          std::vector<double> Z(g.rank() == 0 ? static_cast<std::size_t>(n) * n : 0);
          r.seconds = timed(g, o.repeat, [&] {
            if (g.rank() != 0) return;
            std::vector<double> w = d, sub = e;
            sub.resize(n);
            lapack::stedc<double>('I', n, w.data(), sub.data(), Z.data(), n);
          });
          emit(r);
        }
        if (wants("tseig"))
          for (double f : o.nev_fractions) {
            const int nev = std::clamp(static_cast<int>(std::lround(f * n)), 1, n);
            DistMatrix<double> Z(g, n, nev, o.nb);
            std::vector<double> w;
            Row r = base;
            r.solver = "tseig";
            r.nev = nev;
            r.seconds = timed(g, o.repeat, [&] {
              dense::Wanted lowest = dense::Wanted::lowest(nev);
              w = dense::solve_tridiagonal<Device::host, double>(g, d, e, lowest, &Z,
                                                                 TuneParameters{});
            });
            r.value_error = value_error(w);
            if (o.check) {
              DistMatrix<double> T(g, n, n, o.nb);
              T.fill([&](int i, int j) {
                return i == j ? d[i] : std::abs(i - j) == 1 ? e[std::min(i, j)] : 0.0;
              });
              w.resize(nev);
              r.residual = accuracy::residual(T, w, Z);
              r.orthogonality = accuracy::orthogonality(Z, nev);
            }
            emit(r);
          }
      }
    if (!o.csv.empty() && g.rank() == 0) {
      std::ofstream csv(o.csv);
      csv << "matrix,n,nev,np,grid,solver,seconds,value_error,residual,orthogonality\n";
      for (const Row& r : rows)
        csv << r.matrix << ',' << r.n << ',' << r.nev << ',' << r.np << ',' << r.grid << ','
            << r.solver << ',' << r.seconds << ',' << r.value_error << ',' << r.residual << ','
            << r.orthogonality << '\n';
      if (!csv) throw Error(ErrorCode::io_error, "cannot write " + o.csv);
    }
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "tridiag_bench: %s\n", ex.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
