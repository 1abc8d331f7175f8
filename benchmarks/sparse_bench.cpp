// sparse_bench: GFlop/s and % of roofline of the sparse kernels for block widths 1 … 64,
// CRS vs SELL-C-σ vs a plain CRS loop, on the 3D Laplacian (real) and the
// topological-insulator Hamiltonian (complex). One JSON line per measurement.
//
// Roofline = STREAM triad (measured in this run, all ranks) / minimum code balance, with
// the minimum traffic: matrix once (value + 4-byte index per entry) and each block row
// once per access (aug_spmmv: read X, read Y, write Y; chebfd_op: U, W twice, X twice;
// plain spmmv: X, Y). Flops per entry and vector: 2 (real), 8 (complex); per row and
// vector beyond that: aug_spmmv 9 / 34, chebfd_op 11 / 42 (real / complex; complex as in
// the KPM and ChebFD papers: complex double TI B(R) = (260/R + 48)/138 byte/flop).
//
// Usage: sparse_bench [--lap N] [--ti N] [--widths 1,2,4,...] [--seconds S] [--stream M]
#include <mpi.h>

#include <complex>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sparse/matrix_data.hpp"
#include "stream_triad.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kernels.hpp"

namespace {

using namespace tseig::sparse;

struct Options {
  std::int64_t lap = 100, ti = 64;
  std::vector<int> widths{1, 2, 4, 8, 16, 32, 64};
  double seconds = 0.5;             // minimum time per measurement
  std::size_t stream = 20'000'000;  // triad elements per rank
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--lap")
      o.lap = std::stoll(value);
    else if (key == "--ti")
      o.ti = std::stoll(value);
    else if (key == "--seconds")
      o.seconds = std::stod(value);
    else if (key == "--stream")
      o.stream = std::stoull(value);
    else if (key == "--widths") {
      o.widths.clear();
      for (std::size_t p = 0; p < value.size();) {
        const std::size_t q = value.find(',', p);
        o.widths.push_back(std::stoi(value.substr(p, q - p)));
        p = q == std::string::npos ? value.size() : q + 1;
      }
    } else
      throw std::invalid_argument("unknown option " + key);
  }
  return o;
}

/// Best time of f() over repetitions filling at least `seconds` (max over ranks).
template <class F>
double best_time(MPI_Comm comm, double seconds, F&& f) {
  double best = 1e300, spent = 0;
  for (int r = 0; r < 3 || spent < seconds; ++r) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    f();
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
    best = std::min(best, t);
    spent += t;
  }
  return best;
}

/// A plain CRS loop, Y ← A·X with a run-time width: what an unspecialised code does
/// (local rows only; the halo rows of X are left as they are).
template <class T>
void plain_spmmv(const CrsStorage<T>& a, const T* x, T* y, int nb) {
  for (int i = 0; i < a.rows(); ++i) {
    T* yi = y + static_cast<std::size_t>(i) * nb;
    for (int k = 0; k < nb; ++k) yi[k] = T(0);
    for (std::int64_t j = a.row_ptr[i]; j < a.row_ptr[i + 1]; ++j)
      for (int k = 0; k < nb; ++k)
        yi[k] += a.val[j] * x[static_cast<std::size_t>(a.col[j]) * nb + k];
  }
}

struct Traffic {
  int vector_accesses;            // block rows moved per row and vector
  int extra_real, extra_complex;  // flops per row and vector beyond the products
};

template <class T>
void report(const Matrix<T>& a, const char* matrix, const char* kernel, const char* format, int nb,
            double seconds, Traffic t, double stream) {
  constexpr bool complex = tseig::is_complex_v<T>;
  const double nnz = static_cast<double>(a.nonzeros()), rows = static_cast<double>(a.rows());
  const double flops =
      nb * (nnz * (complex ? 8 : 2) + rows * (complex ? t.extra_complex : t.extra_real));
  const double bytes = nnz * (sizeof(T) + 4) + rows * nb * t.vector_accesses * sizeof(T);
  const double roofline = stream * flops / bytes;
  int rank = 0, ranks = 0;
  MPI_Comm_rank(a.comm(), &rank);
  MPI_Comm_size(a.comm(), &ranks);
  if (rank == 0)
    std::printf(
        "{\"matrix\":\"%s\",\"rows\":%lld,\"nonzeros\":%lld,\"np\":%d,\"kernel\":\"%s\","
        "\"format\":\"%s\",\"nb\":%d,\"seconds\":%.6g,\"gflops\":%.4g,\"roofline_gflops\":%.4g,"
        "\"percent_roofline\":%.1f,\"stream_gbs\":%.4g,\"code_balance\":%.4g}\n",
        matrix, static_cast<long long>(a.rows()), static_cast<long long>(a.nonzeros()), ranks,
        kernel, format, nb, seconds, flops / seconds * 1e-9, roofline * 1e-9,
        100 * flops / seconds / roofline, stream * 1e-9, bytes / flops);
  std::fflush(stdout);
}

template <class T>
void measure(MPI_Comm comm, const char* name, const Options& o, double stream,
             Matrix<T> (*make)(MPI_Comm, const SparseTuneParameters&)) {
  SparseTuneParameters sell;
  sell.format = SparseFormat::sell_c_sigma;
  for (const SparseTuneParameters& tune : {SparseTuneParameters{}, sell}) {
    const Matrix<T> a = make(comm, tune);
    const char* format = tune.format == SparseFormat::crs ? "crs" : "sell-32-256";
    for (int nb : o.widths) {
      MultiVector<T> x(a.vector_layout(), nb), y(a.vector_layout(), nb), z(a.vector_layout(), nb);
      x.fill_random(1);
      y.fill_random(2);
      std::vector<T> d1(nb), d2(nb);
      // α = 0.5, γ = −0.5 keeps the iterates bounded over the repetitions.
      const double t_spmmv = best_time(comm, o.seconds, [&] { spmmv(a, x, z); });
      report(a, name, "spmmv", format, nb, t_spmmv, Traffic{2, 0, 0}, stream);
      const double t_aug = best_time(comm, o.seconds, [&] {
        aug_spmmv(a, T(0.1), T(0), x, T(-0.5), y, std::span<T>(d1), std::span<T>(d2));
      });
      report(a, name, "aug_spmmv", format, nb, t_aug, Traffic{3, 9, 34}, stream);
      const double t_cheb = best_time(comm, o.seconds, [&] {
        chebfd_op(a, T(0.05), T(0), x, y, T(1e-3), z, std::span<T>(d1), std::span<T>(d2));
      });
      report(a, name, "chebfd_op", format, nb, t_cheb, Traffic{5, 11, 42}, stream);
      if (tune.format == SparseFormat::crs) {
        const double t_plain =
            best_time(comm, o.seconds, [&] { plain_spmmv(a.data().crs, x.data(), y.data(), nb); });
        report(a, name, "plain_spmmv", "crs", nb, t_plain, Traffic{2, 0, 0}, stream);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    const Options o = parse(argc, argv);
    const double stream = tseig::bench::stream_triad_bandwidth(MPI_COMM_WORLD, o.stream, 10);
    static std::int64_t lap = o.lap, ti = o.ti;
    measure<double>(MPI_COMM_WORLD, "laplacian_3d", o, stream,
                    [](MPI_Comm c, const SparseTuneParameters& t) {
                      return laplacian_3d<double>(c, lap, lap, lap, t);
                    });
    measure<std::complex<double>>(MPI_COMM_WORLD, "topological_insulator", o, stream,
                                  [](MPI_Comm c, const SparseTuneParameters& t) {
                                    TopologicalInsulator model;
                                    model.nx = model.ny = model.nz = ti;
                                    return topological_insulator<std::complex<double>>(c, model, t);
                                  });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sparse_bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
