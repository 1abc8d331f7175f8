#pragma once
// Shared by the fuzz targets: MPI on one rank, and the fuzz input as a file (the
// readers take a path; there is no in-memory entry point).
#include <mpi.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tseig::fuzz {

// MPI_Init once per process; the readers run on MPI_COMM_SELF, so each fuzzing process
// is a single-rank MPI program. MPI_Finalize at exit keeps Open MPI from complaining.
inline void init_mpi(int* argc, char*** argv) {
  int ready = 0;
  MPI_Initialized(&ready);
  if (ready) return;
  MPI_Init(argc, argv);
  std::atexit([] { MPI_Finalize(); });
}

// Writes the input to a per-process temporary file and returns its path (reused for
// every input, so no files pile up).
inline const std::string& input_file(const std::uint8_t* data, std::size_t size) {
  static const std::string path =
      "/tmp/tseig_fuzz_" + std::to_string(static_cast<long>(getpid())) + ".mtx";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

}  // namespace tseig::fuzz
