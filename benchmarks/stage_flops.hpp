#pragma once
// Floating-point operation counts of the solver stages (real flops; a complex
// multiply-add counts 8), for the GFlop/s and %-of-dgemm columns of dense_bench.
#include <optional>
#include <string>

namespace tseig::bench {

/// Flops of `stage` of an N×N problem with nev vectors and band width b; empty for
/// stages without a closed-form count (the tridiagonal solve, checks, copies).
std::optional<double> stage_flops(const std::string& stage, char type, int n, int nev, int b);

}  // namespace tseig::bench
