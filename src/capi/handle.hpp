#pragma once
// The object behind tseig_handle_t: named parameters, the grid built by tseig_setup, and
// the Cholesky factor kept for generalized calls with is_already_decomposed = 1.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "capi/boundary.hpp"
#include "dense/sub_grids.hpp"
#include "tseig/eigensolver.hpp"
#include "tseig/generalized.hpp"

namespace tseig::capi {

/// The factor of B kept by a handle and an exact fingerprint of the B it came from.
template <class T>
struct KeptFactor {
  CholeskyFactor<T> factor;
  std::uint64_t fingerprint = 0;
};

}  // namespace tseig::capi

struct tseig_handle {
  std::string message;  ///< of the last call on this handle
  std::map<std::string, int, std::less<>> ints;
  std::map<std::string, std::string, std::less<>> strings;
  std::map<std::string, double, std::less<>> doubles;
  /// The last solve's validation report (empty: that solve was not validated).
  std::optional<tseig::ValidationReport> validation;
  /// Eigenpairs the last solve returned (empty: no successful solve yet, or it failed).
  std::optional<int> found;
  bool is_setup = false;
  /// SCF-mode autotuning (tseig_autotune_setup): on, and the search so far as JSON.
  bool autotune = false;
  std::string autotune_state;
  tseig::Grid grid;
  /// The sub-grids of the solves with grid_choice "auto", kept while the handle lives.
  mutable std::shared_ptr<tseig::dense::SubGrids> subgrids;
  /// Empty, or the factor of the last generalized call's B (of that call's scalar type).
  std::variant<std::monostate, tseig::capi::KeptFactor<float>, tseig::capi::KeptFactor<double>,
               tseig::capi::KeptFactor<std::complex<float>>,
               tseig::capi::KeptFactor<std::complex<double>>>
      kept;

  /// Value of an int parameter that setup made sure is set.
  int get(const std::string& name) const { return ints.at(name); }
};

namespace tseig::capi {

/// Throws CError(TSEIG_ERROR_SETUP_MISSING) unless tseig_setup succeeded on h.
void require_setup(const tseig_handle& h);
/// Collective: CError(TSEIG_ERROR_INVALID_ARGUMENT) on every rank unless all ranks ask
/// alike: eigenvectors or eigenvalues only (`vectors`), one scalar type (`scalar_bytes`,
/// `complex`), the standard problem (`kind` 0) or the generalized one (1 + its
/// is_already_decomposed). Ranks that differ would run different collectives.
void require_same_request(const tseig_handle& h, bool vectors, int scalar_bytes, bool complex,
                          int kind);
/// Collective: Eigensolver options from the handle's parameters.
EigensolverOptions solver_options(const tseig_handle& h);
/// Collective (selection.cpp): nev, or the index range il..iu, or the value range
/// (vl, vu] into o; a mix of them is CError(TSEIG_ERROR_INVALID_ARGUMENT) on every rank.
void apply_selection(const tseig_handle& h, EigensolverOptions& o);
/// The "triangle" parameter.
Triangle triangle(const tseig_handle& h);
/// Collective over the grid's processes: the process grid of tseig_setup (process_grid.cpp);
/// `missing` ("" or which required parameter this rank lacks) is raised on every rank once
/// there is a communicator to agree over.
Grid build_grid(const tseig_handle& h, const std::string& missing);
/// Collective: CError(TSEIG_ERROR_INVALID_ARGUMENT) on every rank if the local array `name`
/// of an na x ncols matrix with the handle's layout is NULL on a rank that holds part of it.
void require_local(const tseig_handle& h, const void* local, int ncols, const char* name);
/// Collective: the same for an array of na eigenvalues (NULL only for na = 0).
void require_values(const tseig_handle& h, const void* values, const char* name);
/// Collective: non-owning view of the na x ncols local array `name` with the handle's
/// layout (leading dimension lld, local_cols columns available); require_local's check.
template <class T>
DistMatrix<T> view(const tseig_handle& h, const T* local, int ncols, int lld, int local_cols,
                   const char* name);
/// Collective: view of an na x na array of the handle's local_nrows x local_ncols.
template <class T>
DistMatrix<T> square_view(const tseig_handle& h, const T* local, const char* name) {
  return view(h, local, h.get("na"), h.get("local_nrows"), h.get("local_ncols"), name);
}

/// Collective: an Eigensolver with the handle's options, continuing the handle's SCF
/// search when autotuning is on.
template <class T>
Eigensolver<T> handle_solver(const tseig_handle& h) {
  h.subgrids = dense::SubGrids::this_thread();
  Eigensolver<T> solver(solver_options(h));
  if (h.autotune) {
    if (h.autotune_state.empty())
      solver.start_autotune();
    else
      solver.load_autotune_state(h.autotune_state, h.grid.comm());
  }
  return solver;
}

/// Runs solve(), a call on `solver` that returns the number of eigenpairs found, and
/// keeps that number (h.found), solver's validation report and SCF search on h; the last
/// two also when solve() throws (Error(accuracy) comes with the figures; a failed SCF
/// trial is part of the search).
template <class T, class F>
void keeping_validation(tseig_handle& h, const Eigensolver<T>& solver, F&& solve) {
  h.validation.reset();
  h.found.reset();
  auto keep = [&] {
    h.validation = solver.validation();
    if (h.autotune) h.autotune_state = solver.autotune_state();
  };
  int found = 0;
  try {
    found = solve();
  } catch (...) {
    keep();
    throw;
  }
  keep();
  h.found = found;
}

/// Runs f on a valid handle, with the error boundary and h's message.
template <class F>
int on_handle(tseig_handle* h, F&& f) noexcept {
  if (!h) return TSEIG_ERROR_NULL_HANDLE;
  return guarded(h->message, std::forward<F>(f));
}

}  // namespace tseig::capi
