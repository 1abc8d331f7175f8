#pragma once
// The machine model's rates, calibrated once per machine and rank count and kept in the
// tuning cache: the calibration takes ≈ 1.5 s, and one made afresh by every process
// moves with the machine's noise (two calibrations in a row read an allreduce at 2.0 and
// 10 GB/s on one VM), so the model's choice could differ from one run to the next.
// Stored under a key of the CPU model, BLAS and its threads, tseig version, rank count and
// ranks per node, with the date measured; `tseig-tune --calibrate` measures them again.
#include <mpi.h>

#include <string>

#include "tune/json_value.hpp"
#include "tune/machine_model.hpp"

namespace tseig::tune {

/// Collective (unless answered from this process's earlier calls with the same rank
/// count, BLAS threads and file): this machine's rates on `comm`. With a cache file (`cache_file`
/// not empty): its entry for this machine and rank count when it has a usable one, else a
/// calibration stored there (a file that is corrupt or of another format is left as it is, with one
/// warning). Without one: a calibration. Each is looked up or measured once per process.
const MachineRates& machine_rates(MPI_Comm comm, const std::string& cache_file = "");

/// Collective: calibrates anew and stores the rates in `cache_file` (when not empty),
/// replacing the entry; machine_rates returns them from then on.
const MachineRates& recalibrate(MPI_Comm comm, const std::string& cache_file);

/// Collective: the cache key of this machine's rates on `comm` (CPU, BLAS and its threads,
/// version, rank count and the most ranks on one node).
std::string rates_key(MPI_Comm comm);

/// The rates as a JSON object, and back: Error(io_error) when a member is missing, not
/// a number (or boolean) or out of its range.
std::string rates_json(const MachineRates& r);
MachineRates rates_from_json(const JsonValue& v);

}  // namespace tseig::tune
