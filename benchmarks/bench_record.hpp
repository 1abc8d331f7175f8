#pragma once
// One benchmark measurement and its two renderings: a JSON line and a table row.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tseig::bench {

struct Record {
  std::string solver;
  char type = 'd';
  int n = 0, nev = 0, np = 1;
  std::string grid;
  int nb = 0;
  int blas_threads = 1;
  std::optional<double> seconds;  ///< empty when the run did not happen or failed
  std::vector<std::pair<std::string, double>> stages;
  std::optional<double> residual, orthogonality;
  std::optional<double> peak_mib;  ///< largest growth of resident memory over the ranks
  int bandwidth = 0;               ///< two_stage band width (for the flop model)
  std::string note;                ///< why there is no result ("not built", the error message)
};

/// Local dgemm rate, measured on every rank at once.
struct DgemmRate {
  int n = 0, np = 1, blas_threads = 1;
  double gflops_min_rank = 0, gflops_total = 0;
};

std::string to_json(const Record& r);
std::string to_json(const DgemmRate& d);
void print_table(std::ostream& out, const std::vector<Record>& records,
                 const std::optional<DgemmRate>& dgemm);

}  // namespace tseig::bench
