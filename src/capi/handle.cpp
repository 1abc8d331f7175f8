// C API: handle life cycle, named parameters, setup (layout checks; the process grid in
// process_grid.cpp), error texts and the standard eigenproblem entry points.
#include "capi/handle.hpp"
#include "capi/solve_into.hpp"
#include "core/collectives.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <iterator>
#include <numeric>
#include <string_view>
#include <vector>

#include "core/blas/scalapack.hpp"
#include "core/instantiate.hpp"
#include "tseig/capabilities.hpp"
#include "tseig/device.hpp"
#include "tseig/index_map.hpp"
#include "tseig/tune.hpp"

namespace tseig::capi {
namespace {

// tseig::ErrorCode values are part of the C ABI.
static_assert(TSEIG_ERROR_INVALID_ARGUMENT == static_cast<int>(ErrorCode::invalid_argument));
static_assert(TSEIG_ERROR_INVALID_DESCRIPTOR == static_cast<int>(ErrorCode::invalid_descriptor));
static_assert(TSEIG_ERROR_GRID_MISMATCH == static_cast<int>(ErrorCode::grid_mismatch));
static_assert(TSEIG_ERROR_NOT_HERMITIAN == static_cast<int>(ErrorCode::not_hermitian));
static_assert(TSEIG_ERROR_NOT_FINITE == static_cast<int>(ErrorCode::not_finite));
static_assert(TSEIG_ERROR_NOT_POSITIVE_DEFINITE ==
              static_cast<int>(ErrorCode::not_positive_definite));
static_assert(TSEIG_ERROR_IO == static_cast<int>(ErrorCode::io_error));
static_assert(TSEIG_ERROR_NUMERICAL_FAILURE == static_cast<int>(ErrorCode::numerical_failure));
static_assert(TSEIG_ERROR_MPI == static_cast<int>(ErrorCode::mpi_error));
static_assert(TSEIG_ERROR_OUT_OF_MEMORY == static_cast<int>(ErrorCode::out_of_memory));
static_assert(TSEIG_ERROR_UNSUPPORTED == static_cast<int>(ErrorCode::unsupported));
static_assert(TSEIG_ERROR_NOT_CONVERGED == static_cast<int>(ErrorCode::not_converged));
static_assert(TSEIG_ERROR_ACCURACY == static_cast<int>(ErrorCode::accuracy));
static_assert(TSEIG_ERROR_DEVICE == static_cast<int>(ErrorCode::device_error));

enum class Kind { integer, string, real };

struct Parameter {
  std::string_view name;
  Kind kind;
  bool layout;  ///< fixed by tseig_setup
  int min = 0;  ///< smallest valid value
  int max = INT_MAX;
  bool result = false;    ///< read-only: a figure of the last solve (or its validation)
  bool any_sign = false;  ///< a double that may be negative (vl, vu)
};

constexpr Parameter parameters[] = {
    {"na", Kind::integer, true},
    {"nblk", Kind::integer, true, 1},
    {"local_nrows", Kind::integer, true},
    {"local_ncols", Kind::integer, true},
    {"mpi_comm_parent", Kind::integer, true, INT_MIN},
    {"mpi_comm_rows", Kind::integer, true, INT_MIN},
    {"mpi_comm_cols", Kind::integer, true, INT_MIN},
    {"process_row", Kind::integer, true},
    {"process_col", Kind::integer, true},
    {"blacs_context", Kind::integer, true},
    {"nev", Kind::integer, false, -1},
    {"il", Kind::integer, false},  // 0: no index range (selection.cpp)
    {"iu", Kind::integer, false},
    {"vl", Kind::real, false, 0, INT_MAX, false, true},
    {"vu", Kind::real, false, 0, INT_MAX, false, true},
    {"found", Kind::integer, false, 0, INT_MAX, true},
    {"bandwidth", Kind::integer, false},
    {"check_input", Kind::integer, false, 0, 1},
    {"gpu", Kind::integer, false, 0, 2},
    {"solver", Kind::string, false},
    {"triangle", Kind::string, false},
    {"tune_file", Kind::string, false},
    {"grid_choice", Kind::string, false},
    {"validate", Kind::integer, false, 0, 1},
    {"validation_tolerance", Kind::real, false},
    {"validation_passed", Kind::integer, false, 0, 1, true},
    {"validation_count_ok", Kind::integer, false, 0, 1, true},
    {"validation_count_checked", Kind::integer, false, 0, 1, true},
    {"validation_residual", Kind::real, false, 0, INT_MAX, true},
    {"validation_orthogonality", Kind::real, false, 0, INT_MAX, true},
    {"validation_trace_error", Kind::real, false, 0, INT_MAX, true},
    {"validation_count_bound", Kind::real, false, 0, INT_MAX, true},
    {"validation_tolerance_used", Kind::real, false, 0, INT_MAX, true},
    {"validation_seconds", Kind::real, false, 0, INT_MAX, true},
};

// The value of a result parameter: found, or a figure of the last validation report.
double result_value(const tseig_handle& h, std::string_view name) {
  if (name == "found") {
    if (!h.found)
      throw CError(TSEIG_ERROR_PARAMETER_NOT_SET,
                   "'found': no solve on this handle has succeeded yet (or the last one failed)");
    return *h.found;
  }
  if (!h.validation)
    throw CError(TSEIG_ERROR_PARAMETER_NOT_SET,
                 "'" + std::string(name) +
                     "': the last solve on this handle was not validated "
                     "(set validate = 1)");
  const ValidationReport& r = *h.validation;
  if (name == "validation_passed") return r.passed();
  if (name == "validation_count_ok") return r.count_ok;
  if (name == "validation_count_checked") return r.count_checked;
  if (name == "validation_residual") return r.residual;
  if (name == "validation_orthogonality") return r.orthogonality;
  if (name == "validation_trace_error") return r.trace_error;
  if (name == "validation_count_bound") return r.count_bound;
  if (name == "validation_tolerance_used") return r.tolerance;
  return r.seconds;
}

// The parameters above and the knobs of TuneParameters, which are set by name alike.
const std::vector<Parameter>& all_parameters() {
  static const std::vector<Parameter> list = [] {
    std::vector<Parameter> v(std::begin(parameters), std::end(parameters));
    for (const TuneField& f : tune_fields)
      v.push_back({f.name, Kind::integer, false, f.min, f.max});
    return v;
  }();
  return list;
}

const Parameter& find(const char* name, Kind kind) {
  if (!name) throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "parameter name is NULL");
  for (const Parameter& p : all_parameters())
    if (p.name == name) {
      if (p.kind != kind)
        throw CError(TSEIG_ERROR_WRONG_TYPE,
                     "parameter '" + std::string(name) + "' is " +
                         (p.kind == Kind::integer ? "an int (use tseig_set_int/tseig_get_int)"
                          : p.kind == Kind::real  ? "a double (use tseig_set_double/"
                                                    "tseig_get_double)"
                                                  : "a string (use tseig_set_string/"
                                                    "tseig_get_string)"));
      return p;
    }
  throw CError(TSEIG_ERROR_UNKNOWN_PARAMETER, "unknown parameter '" + std::string(name) + "'");
}

void check_settable(const tseig_handle& h, const Parameter& p) {
  if (p.result)
    throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "parameter '" + std::string(p.name) +
                                                   "' is a result of the last solve, read-only");
  if (p.layout && h.is_setup)
    throw CError(TSEIG_ERROR_ALREADY_SETUP, "parameter '" + std::string(p.name) +
                                                "' describes the layout and is fixed by "
                                                "tseig_setup; create a new handle to change it");
}

Triangle parse_triangle(std::string_view v) {
  if (v == "full" || v == "F" || v == "f") return Triangle::full;
  if (v == "lower" || v == "L" || v == "l") return Triangle::lower;
  if (v == "upper" || v == "U" || v == "u") return Triangle::upper;
  throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
               "triangle = '" + std::string(v) + "' (expected full, lower, upper, F, L or U)");
}

}  // namespace

void require_setup(const tseig_handle& h) {
  if (!h.is_setup) throw CError(TSEIG_ERROR_SETUP_MISSING, "call tseig_setup before computing");
}

void require_same_request(const tseig_handle& h, bool vectors, int scalar_bytes, bool complex,
                          int kind) {
  const MPI_Comm comm = h.grid.comm();
  raise_c_if_any(comm, !ranks_agree(comm, {vectors ? 1 : 0, scalar_bytes, complex ? 1 : 0, kind}),
                 TSEIG_ERROR_INVALID_ARGUMENT,
                 "the ranks made different calls on one handle: eigenvectors on some and "
                 "eigenvalues only on others, different scalar types, standard and "
                 "generalized, or different is_already_decomposed");
}

Triangle triangle(const tseig_handle& h) {
  return parse_triangle(h.strings.at("triangle"));
}

EigensolverOptions solver_options(const tseig_handle& h) {
  EigensolverOptions o;
  o.solver = solver_from_string(h.strings.at("solver"));
  apply_selection(h, o);
  o.bandwidth = h.get("bandwidth");
  o.check_input = h.get("check_input") != 0;
  o.triangle = triangle(h);
  o.validate = h.get("validate") != 0;
  o.validation_tolerance = h.doubles.at("validation_tolerance");
  o.tune_file = h.strings.at("tune_file");
  o.grid_choice = grid_choice_from_string(h.strings.at("grid_choice"));
  const int gpu = h.get("gpu");
  o.gpu = gpu == 1 ? GpuUse::on : gpu == 2 ? GpuUse::automatic : GpuUse::off;
  for (const TuneField& f : tune_fields) o.tune.*f.value = h.get(std::string(f.name));
  return o;
}

void require_local(const tseig_handle& h, const void* local, int ncols, const char* name) {
  const Grid& g = h.grid;
  const int nblk = h.get("nblk");
  const int rows = block_cyclic::local_count(h.get("na"), nblk, g.myrow(), 0, g.nprow());
  const int cols = block_cyclic::local_count(std::max(0, ncols), nblk, g.mycol(), 0, g.npcol());
  require_array(g.comm(), local, static_cast<long long>(rows) * cols, name,
                ", which holds " + std::to_string(rows) + " x " + std::to_string(cols) +
                    " local elements of it (NULL is allowed only where a rank holds none)");
}

void require_values(const tseig_handle& h, const void* values, const char* name) {
  const int na = h.get("na");
  require_array(h.grid.comm(), values, na, name,
                " (it receives up to na = " + std::to_string(na) +
                    " eigenvalues; NULL is allowed only for na = 0)");
}

template <class T>
DistMatrix<T> view(const tseig_handle& h, const T* local, int ncols, int lld, int local_cols,
                   const char* name) {
  const Grid& g = h.grid;
  const int na = h.get("na"), nblk = h.get("nblk");
  require_local(h, local, ncols, name);
  const int have = block_cyclic::local_count(ncols, nblk, g.mycol(), 0, g.npcol());
  raise_c_if_any(g.comm(), local_cols < have, TSEIG_ERROR_INVALID_ARGUMENT,
                 "local array has " + std::to_string(local_cols) + " columns on rank " +
                     std::to_string(g.rank()) + ", the distribution needs " + std::to_string(have));
  // ELPA allows local_nrows = 0 on a process without rows; ScaLAPACK wants lld >= 1.
  Descriptor d{1, g.blacs_context(), na, ncols, nblk, nblk, 0, 0, std::max(1, lld)};
  // Views of read-only inputs are only read through the const DistMatrix they become.
  return DistMatrix<T>::view(g, d, const_cast<T*>(local));
}

#define TSEIG_INSTANTIATE(T) \
  template DistMatrix<T> view(const tseig_handle&, const T*, int, int, int, const char*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

namespace {

template <class T>
int eigen(tseig_handle_t* h, T* a, real_t<T>* ev, T* q, bool vectors) {
  return on_handle(h, [&] {
    require_setup(*h);
    h->found.reset();  // also when the solve fails before it starts
    require_same_request(*h, vectors, sizeof(T), is_complex_v<T>, 0);
    // Every array is checked before the solve starts (q's view is made only then).
    DistMatrix<T> A = square_view(*h, a, "a");
    require_values(*h, ev, "ev");
    if (vectors) require_local(*h, q, h->get("na"), "q");
    Eigensolver<T> solver = handle_solver<T>(*h);
    keeping_validation(*h, solver, [&] {
      return solve_into<T>(
          solver, A, nullptr, vectors,
          [&] { return square_view(*h, static_cast<const T*>(q), "q"); }, ev);
    });
  });
}

}  // namespace
}  // namespace tseig::capi

using tseig::capi::CError;
using tseig::capi::on_handle;

extern "C" {

const char* tseig_capabilities(void) {
  thread_local std::string text;
  text = tseig::capabilities_json();
  return text.c_str();
}

const char* tseig_strerror(int code) {
  switch (code) {
    case TSEIG_OK:
      return "TSEIG_OK: success";
    case TSEIG_ERROR_INVALID_ARGUMENT:
      return "TSEIG_ERROR_INVALID_ARGUMENT: a value is out of range or inconsistent";
    case TSEIG_ERROR_INVALID_DESCRIPTOR:
      return "TSEIG_ERROR_INVALID_DESCRIPTOR: a ScaLAPACK descriptor field is wrong";
    case TSEIG_ERROR_GRID_MISMATCH:
      return "TSEIG_ERROR_GRID_MISMATCH: objects live on different process grids";
    case TSEIG_ERROR_NOT_HERMITIAN:
      return "TSEIG_ERROR_NOT_HERMITIAN: input matrix is not symmetric/Hermitian";
    case TSEIG_ERROR_NOT_FINITE:
      return "TSEIG_ERROR_NOT_FINITE: input contains NaN or Inf";
    case TSEIG_ERROR_NOT_POSITIVE_DEFINITE:
      return "TSEIG_ERROR_NOT_POSITIVE_DEFINITE: matrix is not positive definite";
    case TSEIG_ERROR_IO:
      return "TSEIG_ERROR_IO: a file cannot be read or written";
    case TSEIG_ERROR_NUMERICAL_FAILURE:
      return "TSEIG_ERROR_NUMERICAL_FAILURE: an internal LAPACK/ScaLAPACK call failed";
    case TSEIG_ERROR_MPI:
      return "TSEIG_ERROR_MPI: an MPI call failed";
    case TSEIG_ERROR_OUT_OF_MEMORY:
      return "TSEIG_ERROR_OUT_OF_MEMORY: an allocation failed";
    case TSEIG_ERROR_UNSUPPORTED:
      return "TSEIG_ERROR_UNSUPPORTED: not available in this build";
    case TSEIG_ERROR_NOT_CONVERGED:
      return "TSEIG_ERROR_NOT_CONVERGED: an iterative solver stopped at its limits";
    case TSEIG_ERROR_ACCURACY:
      return "TSEIG_ERROR_ACCURACY: self-validation found the result out of tolerance";
    case TSEIG_ERROR_DEVICE:
      return "TSEIG_ERROR_DEVICE: a CUDA call or kernel failed";
    case TSEIG_ERROR_UNKNOWN_PARAMETER:
      return "TSEIG_ERROR_UNKNOWN_PARAMETER: no parameter of that name";
    case TSEIG_ERROR_WRONG_TYPE:
      return "TSEIG_ERROR_WRONG_TYPE: the parameter has another type";
    case TSEIG_ERROR_PARAMETER_NOT_SET:
      return "TSEIG_ERROR_PARAMETER_NOT_SET: a needed parameter is not set";
    case TSEIG_ERROR_SETUP_MISSING:
      return "TSEIG_ERROR_SETUP_MISSING: tseig_setup has not been called";
    case TSEIG_ERROR_ALREADY_SETUP:
      return "TSEIG_ERROR_ALREADY_SETUP: the handle is already set up";
    case TSEIG_ERROR_NULL_HANDLE:
      return "TSEIG_ERROR_NULL_HANDLE: the handle is NULL";
    case TSEIG_ERROR_NO_FACTOR:
      return "TSEIG_ERROR_NO_FACTOR: no factor of B kept for is_already_decomposed = 1";
    case TSEIG_ERROR_FACTOR_MISMATCH:
      return "TSEIG_ERROR_FACTOR_MISMATCH: B differs from the B of the kept factor";
    case TSEIG_ERROR_INTERNAL:
      return "TSEIG_ERROR_INTERNAL: unexpected internal error";
  }
  return "unknown tseig error code";
}

int tseig_create(tseig_handle_t** h) {
  if (!h) return TSEIG_ERROR_NULL_HANDLE;
  *h = nullptr;
  std::string ignored;
  return tseig::capi::guarded(ignored, [&] {
    auto* handle = new tseig_handle;
    handle->ints = {{"nev", -1},        {"il", 0},  {"iu", 0},      {"bandwidth", 0},
                    {"check_input", 1}, {"gpu", 0}, {"validate", 0}};
    handle->doubles = {{"validation_tolerance", 0.0}};
    const tseig::TuneParameters defaults;
    for (const tseig::TuneField& f : tseig::tune_fields)
      handle->ints[std::string(f.name)] = defaults.*f.value;
    handle->strings = {
        {"solver", "auto"}, {"triangle", "full"}, {"tune_file", ""}, {"grid_choice", "as_given"}};
    *h = handle;
  });
}

int tseig_destroy(tseig_handle_t* h) {
  std::string ignored;
  return tseig::capi::guarded(ignored, [&] { delete h; });
}

int tseig_set_int(tseig_handle_t* h, const char* name, int value) {
  return on_handle(h, [&] {
    const auto& p = tseig::capi::find(name, tseig::capi::Kind::integer);
    tseig::capi::check_settable(*h, p);
    if (value < p.min || value > p.max)
      throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                   std::string(p.name) + " = " + std::to_string(value) + " is outside [" +
                       std::to_string(p.min) + ", " + std::to_string(p.max) + "]");
    if (p.name == "nev" && value == 0)
      throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "nev = 0 (expected 1..na, or -1 for all)");
    h->ints[std::string(p.name)] = value;
  });
}

int tseig_get_int(const tseig_handle_t* h, const char* name, int* value) {
  return on_handle(const_cast<tseig_handle_t*>(h), [&] {
    const auto& p = tseig::capi::find(name, tseig::capi::Kind::integer);
    if (!value) throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "value pointer is NULL");
    if (p.result) {
      *value = static_cast<int>(tseig::capi::result_value(*h, p.name));
      return;
    }
    auto it = h->ints.find(p.name);
    if (it == h->ints.end())
      throw CError(TSEIG_ERROR_PARAMETER_NOT_SET,
                   "parameter '" + std::string(p.name) + "' is not set and has no default");
    *value = it->second;
  });
}

int tseig_set_double(tseig_handle_t* h, const char* name, double value) {
  return on_handle(h, [&] {
    const auto& p = tseig::capi::find(name, tseig::capi::Kind::real);
    tseig::capi::check_settable(*h, p);
    if (!std::isfinite(value) || (!p.any_sign && !(value >= p.min)))
      throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                   std::string(p.name) + " = " + std::to_string(value) + " (expected " +
                       (p.any_sign ? "" : ">= " + std::to_string(p.min) + ", ") + "finite)");
    h->doubles[std::string(p.name)] = value;
  });
}

int tseig_get_double(const tseig_handle_t* h, const char* name, double* value) {
  return on_handle(const_cast<tseig_handle_t*>(h), [&] {
    const auto& p = tseig::capi::find(name, tseig::capi::Kind::real);
    if (!value) throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "value pointer is NULL");
    if (p.result) {
      *value = tseig::capi::result_value(*h, p.name);
      return;
    }
    auto it = h->doubles.find(p.name);
    if (it == h->doubles.end())
      throw CError(TSEIG_ERROR_PARAMETER_NOT_SET,
                   "parameter '" + std::string(p.name) + "' is not set and has no default");
    *value = it->second;
  });
}

int tseig_set_string(tseig_handle_t* h, const char* name, const char* value) {
  return on_handle(h, [&] {
    const auto& p = tseig::capi::find(name, tseig::capi::Kind::string);
    if (!value) throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "value is NULL");
    // Validate now, so that a typo is reported where it is made.
    if (p.name == "solver")
      tseig::solver_from_string(value);
    else if (p.name == "triangle")
      tseig::capi::parse_triangle(value);
    else if (p.name == "grid_choice")
      tseig::grid_choice_from_string(value);
    h->strings[std::string(p.name)] = value;
  });
}

int tseig_get_string(const tseig_handle_t* h, const char* name, char* value, int length) {
  return on_handle(const_cast<tseig_handle_t*>(h), [&] {
    const auto& p = tseig::capi::find(name, tseig::capi::Kind::string);
    const std::string& v = h->strings.at(std::string(p.name));
    if (!value) throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "tseig_get_string: value is NULL");
    if (length < static_cast<int>(v.size()) + 1)
      throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "buffer of " + std::to_string(length) +
                                                     " chars for '" + v + "' (needs " +
                                                     std::to_string(v.size() + 1) + ")");
    std::memcpy(value, v.c_str(), v.size() + 1);
  });
}

int tseig_set_comm(tseig_handle_t* h, MPI_Comm comm) {
  return on_handle(h, [&] {
    const auto& p = tseig::capi::find("mpi_comm_parent", tseig::capi::Kind::integer);
    tseig::capi::check_settable(*h, p);
    if (comm == MPI_COMM_NULL)
      throw CError(TSEIG_ERROR_INVALID_ARGUMENT,
                   "tseig_set_comm: comm is MPI_COMM_NULL; pass the communicator of the "
                   "processes that solve together");
    h->ints["mpi_comm_parent"] = MPI_Comm_c2f(comm);
  });
}

int tseig_setup(tseig_handle_t* h) {
  return on_handle(h, [&] {
    if (h->is_setup) throw CError(TSEIG_ERROR_ALREADY_SETUP, "tseig_setup was already called");
    std::string missing;  // agreed on by build_grid, so that no rank is left waiting
    for (const char* name : {"na", "nblk", "local_nrows", "local_ncols"})
      if (missing.empty() && !h->ints.count(name))
        missing = "tseig_setup: parameter '" + std::string(name) + "' is not set";
    tseig::Grid grid = tseig::capi::build_grid(*h, missing);
    const int na = h->get("na"), nblk = h->get("nblk");
    const int rows = tseig::block_cyclic::local_count(na, nblk, grid.myrow(), 0, grid.nprow());
    const int cols = tseig::block_cyclic::local_count(na, nblk, grid.mycol(), 0, grid.npcol());
    const bool fits = h->get("local_nrows") >= rows && h->get("local_ncols") >= cols;
    tseig::capi::raise_c_if_any(
        grid.comm(), !fits, TSEIG_ERROR_INVALID_ARGUMENT,
        "local_nrows x local_ncols = " + std::to_string(h->get("local_nrows")) + " x " +
            std::to_string(h->get("local_ncols")) + " on rank " + std::to_string(grid.rank()) +
            " (process " + std::to_string(grid.myrow()) + "," + std::to_string(grid.mycol()) +
            "), but na = " + std::to_string(na) + " in " + std::to_string(nblk) + "-blocks on a " +
            std::to_string(grid.nprow()) + "x" + std::to_string(grid.npcol()) + " grid needs " +
            std::to_string(rows) + " x " + std::to_string(cols));
    h->grid = std::move(grid);
    h->is_setup = true;
  });
}

const char* tseig_last_error_message(const tseig_handle_t* h) {
  return h ? h->message.c_str() : tseig::capi::dropin_message().c_str();
}

int tseig_eigenvectors_d(tseig_handle_t* h, double* a, double* ev, double* q) {
  return tseig::capi::eigen(h, a, ev, q, true);
}
int tseig_eigenvectors_f(tseig_handle_t* h, float* a, float* ev, float* q) {
  return tseig::capi::eigen(h, a, ev, q, true);
}
int tseig_eigenvectors_z(tseig_handle_t* h, tseig_complex_double* a, double* ev,
                         tseig_complex_double* q) {
  return tseig::capi::eigen(h, a, ev, q, true);
}
int tseig_eigenvectors_c(tseig_handle_t* h, tseig_complex_float* a, float* ev,
                         tseig_complex_float* q) {
  return tseig::capi::eigen(h, a, ev, q, true);
}
int tseig_eigenvalues_d(tseig_handle_t* h, double* a, double* ev) {
  return tseig::capi::eigen<double>(h, a, ev, nullptr, false);
}
int tseig_eigenvalues_f(tseig_handle_t* h, float* a, float* ev) {
  return tseig::capi::eigen<float>(h, a, ev, nullptr, false);
}
int tseig_eigenvalues_z(tseig_handle_t* h, tseig_complex_double* a, double* ev) {
  return tseig::capi::eigen<tseig_complex_double>(h, a, ev, nullptr, false);
}
int tseig_eigenvalues_c(tseig_handle_t* h, tseig_complex_float* a, float* ev) {
  return tseig::capi::eigen<tseig_complex_float>(h, a, ev, nullptr, false);
}

}  // extern "C"
