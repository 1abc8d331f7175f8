// C API eigenpair selection: the nev lowest (ELPA's nev), an index range il..iu (RANGE = 'I')
// or a value range (vl, vu] (RANGE = 'V'), and the number a solve returned ("found").
#include <string>

#include "capi/handle.hpp"

namespace tseig::capi {
namespace {

// Why the handle's selection is inconsistent ("" when it is not). The range checks that
// need na (il <= iu <= na, vl < vu) are the Eigensolver's.
std::string selection_problem(const tseig_handle& h) {
  const int il = h.get("il"), iu = h.get("iu"), nev = h.get("nev");
  const bool index = il != 0 || iu != 0;
  const bool has_vl = h.doubles.count("vl") > 0, has_vu = h.doubles.count("vu") > 0;
  const bool value = has_vl || has_vu;
  if (index && (il == 0 || iu == 0))
    return "index range: il = " + std::to_string(il) + ", iu = " + std::to_string(iu) +
           "; set both il and iu (1 <= il <= iu <= na), or both to 0 for no index range";
  if (has_vl != has_vu)
    return std::string("value range: only ") + (has_vl ? "vl" : "vu") +
           " is set; set both vl and vu (vl < vu)";
  if (index && value)
    return "both an index range (il, iu) and a value range (vl, vu) are set; a solve takes "
           "at most one (set il = iu = 0 to drop the index range, or use a new handle)";
  if (nev != -1 && (index || value))
    return "nev = " + std::to_string(nev) + " together with " +
           (index ? "an index range (il, iu)" : "a value range (vl, vu)") +
           "; set nev = -1 (the default) to select by range";
  return "";
}

}  // namespace

void apply_selection(const tseig_handle& h, EigensolverOptions& o) {
  const std::string why = selection_problem(h);
  raise_c_if_any(h.grid.comm(), !why.empty(), TSEIG_ERROR_INVALID_ARGUMENT, why);
  o.nev = h.get("nev");
  if (h.get("il") != 0) o.index_range = IndexRange{h.get("il"), h.get("iu")};
  if (h.doubles.count("vl")) o.value_range = ValueRange{h.doubles.at("vl"), h.doubles.at("vu")};
}

}  // namespace tseig::capi
