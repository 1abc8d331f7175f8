// LAPACK reference row of dense_bench: what one node does without MPI. Rank 0 solves the
// gathered matrix with the BLAS threads of every rank on its node and on their cores, so
// the row can sit between the distributed solvers of one run.
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <complex>
#include <ctime>

#include "core/blas/host.hpp"
#include "core/mpi_types.hpp"
#include "runners.hpp"
#include "tseig/error.hpp"

extern "C" int openblas_get_num_threads(void);
extern "C" void openblas_set_num_threads(int);

namespace tseig::bench {
namespace {

// A barrier whose waiting ranks sleep between tests: MPI's own waits poll, and a polling
// rank would take a core from rank 0's BLAS threads.
void sleeping_barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  const timespec pause{0, 2000000};
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    nanosleep(&pause, nullptr);
  }
}

// Rank 0 of the node takes the cores of all its node's ranks (the union of their
// affinity masks) and one BLAS thread per rank's thread on them; restored on scope exit.
class NodeThreads {
 public:
  explicit NodeThreads(MPI_Comm comm) {
    MPI_Comm node;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int node_size = 1;
    MPI_Comm_size(node, &node_size);
    CPU_ZERO(&saved_);
    sched_getaffinity(0, sizeof saved_, &saved_);
    std::vector<cpu_set_t> masks(rank == 0 ? node_size : 0);
    MPI_Gather(&saved_, sizeof saved_, MPI_BYTE, masks.data(), sizeof saved_, MPI_BYTE, 0, node);
    MPI_Comm_free(&node);
    threads_ = openblas_get_num_threads();
    used_ = threads_;
    if (rank != 0) return;
    cpu_set_t cores;
    CPU_ZERO(&cores);
    for (cpu_set_t& m : masks) CPU_OR(&cores, &cores, &m);
    // BLAS threads created from now on inherit the widened mask.
    if (sched_setaffinity(0, sizeof cores, &cores) != 0) return;
    widened_ = true;
    used_ = std::max(1, std::min(threads_ * node_size, CPU_COUNT(&cores)));
    openblas_set_num_threads(used_);
  }
  ~NodeThreads() {
    if (!widened_) return;
    openblas_set_num_threads(threads_);
    sched_setaffinity(0, sizeof saved_, &saved_);
  }
  NodeThreads(const NodeThreads&) = delete;
  NodeThreads& operator=(const NodeThreads&) = delete;
  int used() const { return used_; }

 private:
  cpu_set_t saved_;
  int threads_ = 1, used_ = 1;
  bool widened_ = false;
};

}  // namespace

template <class T>
Solution<T> solve_lapack(const DistMatrix<T>& A) {
  using R = real_t<T>;
  const Grid& grid = A.grid();
  const int n = A.n();
  std::vector<T> full = A.gather(0);
  Solution<T> s{std::vector<R>(n), DistMatrix<T>::like(A), 0, {}};
  int info = 0;
  {
    const NodeThreads threads(grid.comm());
    s.blas_threads = threads.used();
    if (grid.rank() == 0) {
      double start = MPI_Wtime();
      info = lapack::heevd<T, R>('V', 'L', n, full.data(), n, s.w.data());
      s.seconds = MPI_Wtime() - start;
    }
    sleeping_barrier(grid.comm());
  }
  MPI_Bcast(&info, 1, MPI_INT, 0, grid.comm());
  if (info != 0) throw Error(ErrorCode::numerical_failure, "?heevd info " + std::to_string(info));
  MPI_Bcast(&s.seconds, 1, MPI_DOUBLE, 0, grid.comm());
  MPI_Bcast(&s.blas_threads, 1, MPI_INT, 0, grid.comm());
  MPI_Bcast(s.w.data(), n, mpi_type<R>(), 0, grid.comm());
  s.Z.scatter(full.data(), 0);
  return s;
}

template Solution<float> solve_lapack(const DistMatrix<float>&);
template Solution<double> solve_lapack(const DistMatrix<double>&);
template Solution<std::complex<float>> solve_lapack(const DistMatrix<std::complex<float>>&);
template Solution<std::complex<double>> solve_lapack(const DistMatrix<std::complex<double>>&);

}  // namespace tseig::bench
