#include "write_vectors.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdio>
#include <vector>

#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "tseig/error.hpp"
#include "tseig/types.hpp"

namespace tseig::cli {

template <class T>
void write_vectors(const sparse::MultiVector<T>& x, const std::string& path) {
  const MPI_Comm comm = x.comm();
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const int k = x.cols(), rows = x.local_rows();
  std::vector<T> local(static_cast<std::size_t>(rows) * k);  // row-major, ld = k
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < k; ++j) local[static_cast<std::size_t>(i) * k + j] = x(i, j);
  std::vector<int> counts(ranks), displs(ranks);
  const int mine = rows * k;
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  long long total = 0;
  for (int r = 0; r < ranks; ++r) {
    displs[r] = static_cast<int>(std::min<long long>(total, INT_MAX));
    total += counts[r];
  }
  MPI_Bcast(&total, 1, MPI_LONG_LONG, 0, comm);
  raise_if_any(comm, total > INT_MAX, ErrorCode::unsupported,
               "--out-vectors: more than 2^31 - 1 entries; write fewer vectors");
  std::vector<T> all(rank == 0 ? static_cast<std::size_t>(total) : 0);
  MPI_Gatherv(local.data(), mine, mpi_type<T>(), all.data(), counts.data(), displs.data(),
              mpi_type<T>(), 0, comm);
  bool failed = false;
  if (rank == 0) {
    const long long n = k > 0 ? total / k : x.layout().global_rows;
    FILE* f = std::fopen(path.c_str(), "w");
    failed = f == nullptr;
    if (f) {
      std::fprintf(f, "%%%%MatrixMarket matrix array %s general\n%lld %d\n",
                   is_complex_v<T> ? "complex" : "real", n, k);
      for (int j = 0; j < k; ++j)
        for (long long i = 0; i < n; ++i) {
          const T v = all[static_cast<std::size_t>(i) * k + j];
          if constexpr (is_complex_v<T>)
            std::fprintf(f, "%.17g %.17g\n", static_cast<double>(v.real()),
                         static_cast<double>(v.imag()));
          else
            std::fprintf(f, "%.17g\n", static_cast<double>(v));
        }
      failed = std::ferror(f) != 0;
      failed = std::fclose(f) != 0 || failed;
    }
  }
  raise_if_any(comm, failed, ErrorCode::io_error, "cannot write " + path);
}

#define TSEIG_INSTANTIATE(T) \
  template void write_vectors(const sparse::MultiVector<T>&, const std::string&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::cli
