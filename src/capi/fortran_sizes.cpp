// Array sizes for the Fortran module (fortran_interface/src/tseig.F90). Its arrays are
// assumed-shape and know their sizes, which the C API's pointers do not: the module
// passes them here before each call on a handle, so that an array too small for what
// the call reads or writes is an error on every rank, not an overrun of the caller's
// memory. Exported for the module only; not part of tseig.h.
#include <sstream>
#include <string>

#include "capi/handle.hpp"
#include "tseig/index_map.hpp"

namespace {

// need[i] codes besides a plain count of elements.
constexpr long long local_part = -1;   // the local part of an na x na matrix (a, b, q)
constexpr long long eigenvalues = -2;  // na entries (ev)

}  // namespace

/// Collective over h's grid. names: the count array names separated by blanks ("a ev q");
/// have: their sizes; need: what each must hold (a count, local_part or eigenvalues). A
/// handle not set up is left to the call itself to report.
extern "C" TSEIG_API int tseig_fortran_check_sizes(tseig_handle_t* h, int count, const char* names,
                                                   const long long* have, const long long* need) {
  return tseig::capi::on_handle(h, [&] {
    if (!h->is_setup) return;
    const tseig::Grid& g = h->grid;
    const int na = h->get("na"), nblk = h->get("nblk"), lld = h->get("local_nrows");
    const long long cols = tseig::block_cyclic::local_count(na, nblk, g.mycol(), 0, g.npcol());
    std::istringstream list(names ? names : "");
    std::string name, message;
    for (int i = 0; i < count && message.empty(); ++i) {
      list >> name;
      std::string what;
      long long needed = need[i];
      if (needed == local_part) {
        needed = lld * cols;
        what = "local_nrows x " + std::to_string(cols) + " = " + std::to_string(lld) + " x " +
               std::to_string(cols) + " (its local columns of an na = " + std::to_string(na) +
               " matrix in blocks of nblk = " + std::to_string(nblk) + ")";
      } else if (needed == eigenvalues) {
        needed = na;
        what = "na = " + std::to_string(na);
      } else {
        what = std::to_string(needed);
      }
      if (have[i] < needed)
        message = name + " has " + std::to_string(have[i]) + " elements on rank " +
                  std::to_string(g.rank()) + "; it needs " + what;
    }
    tseig::capi::raise_c_if_any(g.comm(), !message.empty(), TSEIG_ERROR_INVALID_ARGUMENT, message);
  });
}
