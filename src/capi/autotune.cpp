// The C API of the SCF-mode autotuning (ELPA's autotune_setup/autotune_step): the handle
// carries the search between solves (handle_solver, keeping_validation); these entry
// points start it, report it and move it to and from a file.
#include <fstream>
#include <sstream>

#include "capi/handle.hpp"
#include "tune/scf_search.hpp"

using tseig::capi::CError;
using tseig::capi::on_handle;

extern "C" {

int tseig_autotune_setup(tseig_handle_t* h) {
  return on_handle(h, [&] {
    tseig::capi::require_setup(*h);
    h->autotune = true;
    h->autotune_state.clear();
  });
}

int tseig_autotune_tuning(const tseig_handle_t* h, int* tuning) {
  if (tuning) *tuning = 0;  // also after an error
  return on_handle(const_cast<tseig_handle_t*>(h), [&] {
    if (!tuning) throw CError(TSEIG_ERROR_INVALID_ARGUMENT, "tuning pointer is NULL");
    if (!h->autotune) {
      *tuning = 0;
      return;
    }
    // No state yet: the search starts at the next solve.
    *tuning = h->autotune_state.empty() ? 1 : 0;
    if (!*tuning) {
      const auto search = tseig::tune::ScfSearch::from_state(h->autotune_state);
      *tuning = search.key().empty() || !search.finished();
    }
  });
}

int tseig_autotune_save(tseig_handle_t* h, const char* path) {
  return on_handle(h, [&] {
    tseig::capi::require_setup(*h);
    const MPI_Comm comm = h->grid.comm();
    tseig::capi::raise_c_if_any(comm, !path, TSEIG_ERROR_INVALID_ARGUMENT, "path is NULL");
    tseig::capi::raise_c_if_any(comm, !h->autotune, TSEIG_ERROR_INVALID_ARGUMENT,
                                "no autotuning on this handle (call tseig_autotune_setup)");
    int ok = 1;
    if (h->grid.rank() == 0) {
      std::ofstream out(path, std::ios::trunc);
      out << h->autotune_state << "\n";
      ok = out.good();
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    tseig::capi::raise_c_if_any(comm, !ok, TSEIG_ERROR_IO,
                                "cannot write the autotune state to '" + std::string(path) + "'");
  });
}

int tseig_autotune_load(tseig_handle_t* h, const char* path) {
  return on_handle(h, [&] {
    tseig::capi::require_setup(*h);
    const MPI_Comm comm = h->grid.comm();
    tseig::capi::raise_c_if_any(comm, !path, TSEIG_ERROR_INVALID_ARGUMENT, "path is NULL");
    std::string text;
    int size = -1;
    if (h->grid.rank() == 0) {
      std::ifstream in(path);
      std::ostringstream s;
      s << in.rdbuf();
      if (in) {
        text = s.str();
        size = static_cast<int>(text.size());
      }
    }
    MPI_Bcast(&size, 1, MPI_INT, 0, comm);
    tseig::capi::raise_c_if_any(comm, size < 0, TSEIG_ERROR_IO,
                                "cannot read the autotune state '" + std::string(path) + "'");
    text.resize(static_cast<std::size_t>(size));
    if (size > 0) MPI_Bcast(text.data(), size, MPI_CHAR, 0, comm);
    // Saved before the first solve: autotuning set up, no search started yet.
    const bool not_started = text.find_first_not_of(" \t\r\n") == std::string::npos;
    std::string why;
    try {  // collective: the same text on every rank, so the same verdict
      if (!not_started) tseig::Eigensolver<double>().load_autotune_state(text, comm);
    } catch (const tseig::Error& e) {
      why = e.what();
    }
    tseig::capi::raise_c_if_any(comm, !why.empty(), TSEIG_ERROR_INVALID_ARGUMENT,
                                std::string("'") + path + "': " + why);
    h->autotune = true;
    h->autotune_state = not_started ? std::string() : text;
  });
}

}  // extern "C"
