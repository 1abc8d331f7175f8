// The chain of Solver::automatic (see automatic_choice.hpp).
#include "tune/automatic_choice.hpp"

#include "tune/machine_model.hpp"
#include "tune/rates_cache.hpp"
#include "tune/tune_cache.hpp"

namespace tseig::tune {

TuneChoice automatic_choice(MPI_Comm comm, const Signature& sig, int input_nb,
                            const std::string& cache_file) {
  if (auto cached = cache_lookup(comm, cache_file, sig)) return *cached;
  if (sig.n >= model_min_n) return model_choice(sig, input_nb, machine_rates(comm, cache_file));
  return TuneChoice{};
}

}  // namespace tseig::tune
