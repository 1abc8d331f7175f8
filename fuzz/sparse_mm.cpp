// Fuzz target: the distributed sparse Matrix Market reader
// (tseig::sparse::read_matrix_market) on one rank. Any tseig::Error is a clean
// rejection; everything else is a finding.
#include <complex>

#include "fuzz_common.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/matrix_market.hpp"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  tseig::fuzz::init_mpi(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = tseig::fuzz::input_file(data, size);
  // The input's length picks the scalar type and the Hermitian check (see dense_mm.cpp).
  const bool hermitian = size / 4 % 2 == 1;
  try {
    using namespace tseig::sparse;
    switch (size % 4) {
      case 0:
        (void)read_matrix_market<double>(MPI_COMM_SELF, path, hermitian);
        break;
      case 1:
        (void)read_matrix_market<float>(MPI_COMM_SELF, path, hermitian);
        break;
      case 2:
        (void)read_matrix_market<std::complex<double>>(MPI_COMM_SELF, path, hermitian);
        break;
      default:
        (void)read_matrix_market<std::complex<float>>(MPI_COMM_SELF, path, hermitian);
        break;
    }
  } catch (const tseig::Error&) {
  }
  return 0;
}
