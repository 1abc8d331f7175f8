#pragma once
// Output of tseig-solve (rank 0 only): a readable summary or one JSON object.
#include <ostream>

#include "options.hpp"
#include "run_problem.hpp"

namespace tseig::cli {

struct RunContext {
  const Options& options;
  int nprow, npcol;
};

void print_summary(std::ostream& out, const RunContext& ctx, const RunResult& r);
void print_json(std::ostream& out, const RunContext& ctx, const RunResult& r);

}  // namespace tseig::cli
