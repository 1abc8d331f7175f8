// The C API of the sparse layer (tseig/tseig_sparse.h): a handle holding a real or a
// complex double Matrix, and thin calls into the C++ API through guarded(). Argument
// checks that can differ between ranks (pointers, capacities) are agreed on with one
// allreduce first, so a mistake on one rank fails every rank instead of hanging them.
#include <algorithm>
#include <complex>
#include <cstring>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "capi/boundary.hpp"
#include "core/require_each.hpp"
#include "tseig/sparse/autotune.hpp"
#include "tseig/sparse/chebfd.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/lobpcg.hpp"
#include "tseig/sparse/matrix_market.hpp"
#include "tseig/tseig.h"

struct tseig_sparse {
  std::variant<tseig::sparse::Matrix<double>, tseig::sparse::Matrix<std::complex<double>>> a;
  int block_width = 0;  ///< 0: the solver's default
  int chebfd_degree = 0;
  int chebfd_max_degree = 0;  ///< 0: ChebfdOptions' default
  bool chebfd_subspace = false;
  int chebfd_pipeline_blocks = 0;  ///< 0: the tuned or default value
  tseig::sparse::SparseTuneParameters
      tune{};  ///< format in use, RR threshold, tuned width and pipeline
  MPI_Comm comm() const {
    return std::visit([](const auto& m) { return m.comm(); }, a);
  }
};

namespace tseig::capi {
namespace {

using namespace tseig::sparse;
using zd = std::complex<double>;

thread_local std::string sparse_message;

template <class F>
int sparse_call(F&& f) noexcept {
  return guarded(sparse_message, std::forward<F>(f));
}

void require(MPI_Comm comm, bool ok, const std::string& what) {
  raise_c_if_any(comm, !ok, TSEIG_ERROR_INVALID_ARGUMENT, what);
}

/// Per-rank argument checks of a C call: the first failing one is named with its rank.
void require_each(MPI_Comm comm, const char* call, const std::vector<Requirement>& checks) {
  tseig::require_each(comm, call, checks, true);
}

template <class T>
int from_csr(MPI_Comm comm, std::int64_t n, int rows, const std::int64_t* ptr,
             const std::int64_t* cols, const T* values, tseig_sparse_t** out) {
  return sparse_call([&] {
    const bool entries = rows > 0 && ptr && ptr[rows] != 0;
    require_each(comm, "tseig_sparse_from_csr",
                 {{out != nullptr, "a handle address, not NULL"},
                  {rows >= 0, "local_rows >= 0, not " + std::to_string(rows)},
                  {ptr != nullptr, "row_ptr (local_rows + 1 entries), not NULL"},
                  {!entries || cols, "cols, not NULL, where row_ptr[local_rows] > 0"},
                  {!entries || values, "values, not NULL, where row_ptr[local_rows] > 0"}});
    *out = nullptr;
    const std::size_t nnz = rows > 0 && ptr[rows] > 0 ? static_cast<std::size_t>(ptr[rows]) : 0;
    Matrix<T> m(comm, n, std::span(ptr, static_cast<std::size_t>(rows) + 1), std::span(cols, nnz),
                std::span(values, nnz));
    *out = new tseig_sparse{std::move(m)};
  });
}

/// The handle's communicator, or an error on every rank that can see the handle.
MPI_Comm comm_of(const tseig_sparse_t* a) {
  if (!a) throw CError(TSEIG_ERROR_NULL_HANDLE, "the sparse handle is NULL");
  return a->comm();
}

/// Copies the pairs of r into the caller's arrays (vectors column-major, ldv).
template <class T>
void deliver(MPI_Comm comm, const EigenResult<T>& r, int capacity, int* found, double* values,
             void* vectors, int ldv, double* residuals, int* iterations) {
  const int k = static_cast<int>(r.eigenvalues.size());
  const int rows = r.eigenvectors.local_rows();
  require(comm, k <= capacity,
          "capacity " + std::to_string(capacity) + " is too small: " + std::to_string(k) +
              " eigenpairs were found (LOBPCG returns a degenerate level cut at nev whole, "
              "ChebFD every pair of the window)");
  *found = k;
  if (iterations) *iterations = r.iterations;
  std::copy_n(r.eigenvalues.begin(), k, values);
  if (residuals) std::copy_n(r.residuals.begin(), k, residuals);
  if (vectors) {
    T* v = static_cast<T*>(vectors);
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < rows; ++i)
        v[i + static_cast<std::size_t>(j) * ldv] = r.eigenvectors(i, j);
  }
}

// 0 in *found and *iterations (where given) before anything can fail: after an error
// they say nothing came (Fortran callers' zero before the call is no guarantee).
void clear_counts(int* found, int* iterations) {
  if (found) *found = 0;
  if (iterations) *iterations = 0;
}

/// The output arguments of the eigensolver calls; capacity must hold at least `least`.
void require_outputs(const char* call, const tseig_sparse_t* a, int capacity, int least,
                     const int* found, const double* values, const void* vectors, int ldv) {
  int rows = std::visit([](const auto& m) { return m.local_rows(); }, a->a);
  require_each(a->comm(), call,
               {{capacity >= least,
                 "capacity >= " + std::to_string(least) + ", not " + std::to_string(capacity)},
                {found != nullptr, "found, not NULL"},
                {values != nullptr, "eigenvalues, not NULL"},
                {!vectors || ldv >= rows, "ldv >= this rank's local rows (" + std::to_string(rows) +
                                              "), not " + std::to_string(ldv)}});
}

}  // namespace
}  // namespace tseig::capi

using namespace tseig::capi;
using tseig::shown;

extern "C" {

int tseig_sparse_from_csr_d(MPI_Comm comm, int64_t n, int local_rows, const int64_t* row_ptr,
                            const int64_t* cols, const double* values, tseig_sparse_t** a) {
  return from_csr(comm, n, local_rows, row_ptr, cols, values, a);
}

int tseig_sparse_from_csr_z(MPI_Comm comm, int64_t n, int local_rows, const int64_t* row_ptr,
                            const int64_t* cols, const void* values, tseig_sparse_t** a) {
  return from_csr(comm, n, local_rows, row_ptr, cols, static_cast<const zd*>(values), a);
}

int tseig_sparse_from_csr_d_f(MPI_Fint comm, int64_t n, int local_rows, const int64_t* row_ptr,
                              const int64_t* cols, const double* values, tseig_sparse_t** a) {
  return from_csr(MPI_Comm_f2c(comm), n, local_rows, row_ptr, cols, values, a);
}

int tseig_sparse_from_csr_z_f(MPI_Fint comm, int64_t n, int local_rows, const int64_t* row_ptr,
                              const int64_t* cols, const void* values, tseig_sparse_t** a) {
  return from_csr(MPI_Comm_f2c(comm), n, local_rows, row_ptr, cols, static_cast<const zd*>(values),
                  a);
}

int tseig_sparse_read(MPI_Comm comm, const char* path, char type, tseig_sparse_t** a) {
  return sparse_call([&] {
    require_each(comm, "tseig_sparse_read",
                 {{a != nullptr, "a handle address, not NULL"},
                  {path != nullptr, "a path, not NULL"},
                  {type == 'd' || type == 'z', "type 'd' or 'z'"}});
    *a = nullptr;
    if (type == 'd')
      *a = new tseig_sparse{read_matrix_market<double>(comm, path, true)};
    else
      *a = new tseig_sparse{read_matrix_market<zd>(comm, path, true)};
  });
}

int tseig_sparse_destroy(tseig_sparse_t* a) {
  return sparse_call([&] { delete a; });
}

int tseig_sparse_size(const tseig_sparse_t* a, int64_t* n, int64_t* nonzeros, int* local_rows,
                      int64_t* first_row) {
  return sparse_call([&] {
    comm_of(a);
    std::visit(
        [&](const auto& m) {
          if (n) *n = m.rows();
          if (nonzeros) *nonzeros = m.nonzeros();
          if (local_rows) *local_rows = m.local_rows();
          if (first_row) *first_row = m.first_row();
        },
        a->a);
  });
}

int tseig_sparse_kpm(tseig_sparse_t* a, int moments, int vectors, double lower, double upper,
                     double* count, double* error, int points, double* energy, double* density) {
  return sparse_call([&] {
    const MPI_Comm comm = comm_of(a);
    require_each(
        comm, "tseig_sparse_kpm",
        {{moments >= 2, "moments >= 2, not " + std::to_string(moments)},
         {vectors >= 1, "vectors >= 1, not " + std::to_string(vectors)},
         {lower <= upper, "lower <= upper, not " + shown(lower) + " > " + shown(upper)},
         {count && error, "count and error, not NULL"},
         {points <= 0 || (energy && density), "energy and density, not NULL, where points > 0"}});
    KpmOptions o;
    o.moments = moments;
    o.vectors = vectors;
    const KpmMoments m = std::visit([&](const auto& x) { return kpm_moments(x, o); }, a->a);
    const EigenvalueCount c = eigenvalue_count(m, lower, upper);
    *count = c.count;
    *error = c.error;
    if (points > 0) {
      const DensityOfStates d = density_of_states(m, points);
      std::copy(d.energy.begin(), d.energy.end(), energy);
      std::copy(d.density.begin(), d.density.end(), density);
    }
  });
}

int tseig_sparse_lobpcg(tseig_sparse_t* a, int nev, double tol, int max_iterations, int largest,
                        int capacity, int* found, double* eigenvalues, void* vectors, int ldv,
                        double* residuals, int* iterations) {
  return sparse_call([&] {
    clear_counts(found, iterations);
    const MPI_Comm comm = comm_of(a);
    // At least nev pairs come back: a capacity below nev fails now, not after the solve.
    const std::int64_t n = std::visit([](const auto& m) { return m.rows(); }, a->a);
    require_outputs("tseig_sparse_lobpcg", a, capacity,
                    static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(nev, n))),
                    found, eigenvalues, vectors, ldv);
    std::visit(
        [&](const auto& m) {
          using T = typename std::decay_t<decltype(m)>::value_type;
          LobpcgOptions<T> o;
          o.nev = nev;
          o.tol = tol;
          if (max_iterations > 0) o.max_iterations = max_iterations;
          o.tune.rr_distributed_min = a->tune.rr_distributed_min;
          o.which = largest ? Which::largest : Which::smallest;
          deliver(comm, lobpcg(LinearOperator<T>(m), o), capacity, found, eigenvalues, vectors, ldv,
                  residuals, iterations);
        },
        a->a);
  });
}

int tseig_sparse_chebfd(tseig_sparse_t* a, double lower, double upper, double tol, int capacity,
                        int* found, double* eigenvalues, void* vectors, int ldv, double* residuals,
                        int* iterations) {
  return sparse_call([&] {
    clear_counts(found, iterations);
    const MPI_Comm comm = comm_of(a);
    require_outputs("tseig_sparse_chebfd", a, capacity, 1, found, eigenvalues, vectors, ldv);
    ChebfdOptions o;
    o.tol = tol;
    o.tune.block_width = a->block_width > 0 ? a->block_width : a->tune.block_width;
    o.tune.rr_distributed_min = a->tune.rr_distributed_min;
    o.degree = a->chebfd_degree;
    if (a->chebfd_max_degree > 0) o.max_degree = a->chebfd_max_degree;
    if (a->chebfd_subspace) o.method = ChebfdMethod::subspace;
    o.tune.pipeline_blocks =
        a->chebfd_pipeline_blocks > 0 ? a->chebfd_pipeline_blocks : a->tune.pipeline_blocks;
    std::visit(
        [&](const auto& m) {
          deliver(comm, chebfd(m, lower, upper, o), capacity, found, eigenvalues, vectors, ldv,
                  residuals, iterations);
        },
        a->a);
  });
}

int tseig_sparse_set_int(tseig_sparse_t* a, const char* name, int value) {
  return sparse_call([&] {
    comm_of(a);
    const std::string n = name ? name : "";
    auto refuse = [&](const std::string& why) {
      throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "tseig_sparse_set_int: " + why);
    };
    if (n == "block_width" || n == "chebfd_degree" || n == "chebfd_max_degree" ||
        n == "chebfd_pipeline_blocks") {
      if (value < 0) refuse(n + " must be >= 0, not " + std::to_string(value));
      (n == "block_width"         ? a->block_width
       : n == "chebfd_degree"     ? a->chebfd_degree
       : n == "chebfd_max_degree" ? a->chebfd_max_degree
                                  : a->chebfd_pipeline_blocks) = value;
    } else if (n == "chebfd_subspace") {
      if (value != 0 && value != 1) refuse("chebfd_subspace must be 0 or 1");
      a->chebfd_subspace = value == 1;
    } else {
      refuse("unknown setting '" + n +
             "' (block_width, chebfd_degree, chebfd_max_degree, chebfd_subspace, "
             "chebfd_pipeline_blocks)");
    }
  });
}

int tseig_sparse_autotune(tseig_sparse_t* a, int kernel, int block_width, const char* tune_file) {
  return sparse_call([&] {
    const MPI_Comm comm = comm_of(a);
    require_each(comm, "tseig_sparse_autotune",
                 {{kernel >= 0 && kernel <= 2, "kernel 0, 1 or 2, not " + std::to_string(kernel)},
                  {block_width >= 1, "block_width >= 1, not " + std::to_string(block_width)}});
    SparseAutotuneOptions o;
    o.kernel = static_cast<TunedKernel>(kernel);
    o.block_width = block_width;
    o.tune_file = tune_file ? tune_file : "";
    std::visit(
        [&](auto& m) {
          const SparseTuneParameters best = autotune(m, o).best;
          m = m.with_format(best);
          a->tune = best;
        },
        a->a);
  });
}

int tseig_sparse_use_tuning(tseig_sparse_t* a, int kernel, const char* tune_file, int* found) {
  return sparse_call([&] {
    clear_counts(found, nullptr);
    const MPI_Comm comm = comm_of(a);
    require_each(comm, "tseig_sparse_use_tuning",
                 {{found != nullptr, "found, not NULL"},
                  {kernel >= 0 && kernel <= 2, "kernel 0, 1 or 2, not " + std::to_string(kernel)}});
    std::visit(
        [&](auto& m) {
          if (const auto t =
                  cached_tuning(m, static_cast<TunedKernel>(kernel), tune_file ? tune_file : "")) {
            m = m.with_format(*t);
            a->tune = *t;
            *found = 1;
          }
        },
        a->a);
  });
}

const char* tseig_sparse_error_message(void) {
  return sparse_message.c_str();
}

}  // extern "C"
