#include "sparse_bench_common.hpp"

#include <complex>
#include <cstdio>
#include <stdexcept>

#include "dgemm_rate.hpp"
#include "sparse/matrix_data.hpp"
#include "stream_triad.hpp"

namespace tseig::bench {

namespace {

std::vector<int> int_list(const std::string& value) {
  std::vector<int> out;
  for (std::size_t p = 0; p < value.size();) {
    const std::size_t q = value.find(',', p);
    out.push_back(std::stoi(value.substr(p, q - p)));
    p = q == std::string::npos ? value.size() : q + 1;
  }
  return out;
}

}  // namespace

SparseBenchOptions parse_sparse_bench_options(int argc, char** argv) {
  SparseBenchOptions o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--lap")
      o.lap = std::stoll(value);
    else if (key == "--lap-tile") {
      const std::vector<int> t = int_list(value);
      if (t.size() != 2) throw std::invalid_argument("--lap-tile needs X,Y");
      o.lap_tile = {t[0], t[1]};
    } else if (key == "--ti") {
      const std::vector<int> n = int_list(value);
      if (n.size() != 1 && n.size() != 3) throw std::invalid_argument("--ti needs N or X,Y,Z");
      for (int k = 0; k < 3; ++k) o.ti[k] = n[n.size() == 1 ? 0 : k];
    } else if (key == "--seconds")
      o.seconds = std::stod(value);
    else if (key == "--stream")
      o.stream = std::stoull(value);
    else if (key == "--widths")
      o.widths = int_list(value);
    else
      throw std::invalid_argument("unknown option " + key);
  }
  return o;
}

MachineRates measure_machine(MPI_Comm comm, const SparseBenchOptions& o) {
  MachineRates r;
  r.stream_bytes_per_s = stream_triad_bandwidth(comm, o.stream, 10);
  r.dgemm_flops_per_s = measure_dgemm(comm, 1000).gflops_total * 1e9;
  return r;
}

void report_sparse(MPI_Comm comm, const SparseShape& shape, const char* matrix, const char* kernel,
                   const char* format, int nb, double seconds, Traffic t,
                   const MachineRates& rates) {
  const double stream = rates.stream_bytes_per_s;
  const double nnz = static_cast<double>(shape.nonzeros), rows = static_cast<double>(shape.rows);
  const double flops = nb * (nnz * (shape.complex ? 8 : 2) +
                             rows * (shape.complex ? t.extra_complex : t.extra_real));
  const double bytes =
      nnz * (shape.scalar_bytes + 4) + rows * nb * t.vector_accesses * shape.scalar_bytes;
  const double roofline = stream * flops / bytes;
  const double attainable = std::min(roofline, rates.dgemm_flops_per_s);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (rank == 0)
    std::printf(
        "{\"matrix\":\"%s\",\"rows\":%lld,\"nonzeros\":%lld,\"np\":%d,\"kernel\":\"%s\","
        "\"format\":\"%s\",\"nb\":%d,\"seconds\":%.6g,\"gflops\":%.4g,\"roofline_gflops\":%.4g,"
        "\"percent_roofline\":%.1f,\"percent_attainable\":%.1f,\"stream_gbs\":%.4g,"
        "\"dgemm_gflops\":%.4g,\"code_balance\":%.4g}\n",
        matrix, static_cast<long long>(shape.rows), static_cast<long long>(shape.nonzeros), ranks,
        kernel, format, nb, seconds, flops / seconds * 1e-9, roofline * 1e-9,
        100 * flops / seconds / roofline, 100 * flops / seconds / attainable, stream * 1e-9,
        rates.dgemm_flops_per_s * 1e-9, bytes / flops);
  std::fflush(stdout);
}

template <class T>
void global_csr(const sparse::Matrix<T>& a, std::vector<std::int64_t>& row_ptr,
                std::vector<std::int64_t>& cols, std::vector<T>& values) {
  const sparse::MatrixData<T>& d = a.data();
  row_ptr.assign(d.crs.row_ptr.begin(), d.crs.row_ptr.end());
  values.assign(d.crs.val.begin(), d.crs.val.end());
  cols.resize(d.crs.col.size());
  for (std::size_t k = 0; k < cols.size(); ++k) {
    const std::int32_t c = d.crs.col[k];
    cols[k] = c < d.local_rows ? d.first_row + c : d.halo_columns[c - d.local_rows];
  }
}

template void global_csr(const sparse::Matrix<double>&, std::vector<std::int64_t>&,
                         std::vector<std::int64_t>&, std::vector<double>&);
template void global_csr(const sparse::Matrix<std::complex<double>>&, std::vector<std::int64_t>&,
                         std::vector<std::int64_t>&, std::vector<std::complex<double>>&);

}  // namespace tseig::bench
