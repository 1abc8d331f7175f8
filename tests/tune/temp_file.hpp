#pragma once
// A tuning-cache path shared by the tests' ranks.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace tseig::test {

// One path for all ranks (rank 0's pid), removed at the end.
struct TempFile {
  std::string path;
  TempFile() {
    int pid = static_cast<int>(getpid());
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    static int count = 0;
    path = "/tmp/tseig_tune_test_" + std::to_string(pid) + "_" + std::to_string(count++) + ".json";
  }
  ~TempFile() {
    MPI_Barrier(MPI_COMM_WORLD);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::remove(path.c_str());
  }
  void write(const std::string& text) const {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::ofstream(path) << text;
    MPI_Barrier(MPI_COMM_WORLD);
  }
};

}  // namespace tseig::test
