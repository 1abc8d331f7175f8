#pragma once
// Solver::automatic: the measured entry of the tuning cache, else the machine model,
// else the documented defaults (one_stage). Collective; the same choice on every rank.
#include <mpi.h>

#include <string>

#include "tseig/eigensolver.hpp"
#include "tune/signature.hpp"

namespace tseig::tune {

/// Below this order the model is not consulted: every solver takes milliseconds, and the
/// one-time calibration (≈ 0.1 s) would cost more than a wrong choice.
inline constexpr int model_min_n = 1000;

TuneChoice automatic_choice(MPI_Comm comm, const Signature& sig, int input_nb,
                            const std::string& cache_file);

}  // namespace tseig::tune
