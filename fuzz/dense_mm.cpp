// Fuzz target: the dense Matrix Market reader (tseig::matrix_market::read_header and
// read, banner and entry parsing). Any tseig::Error is a clean rejection; everything
// else (another exception, a sanitizer report, a hang) is a finding.
#include <complex>

#include "fuzz_common.hpp"
#include "tseig/error.hpp"
#include "tseig/grid.hpp"
#include "tseig/matrix_market.hpp"

namespace {

// The reader expands even a coordinate file to a full rows×cols array: large declared
// sizes are valid requests for a lot of memory, not bugs, so they are skipped here.
// Array files are not skipped: their size must be checked against the file.
constexpr double max_coordinate_elements = 1 << 20;

template <class T>
void read(const tseig::Grid& grid, const std::string& path, int nb) {
  auto A = tseig::matrix_market::read<T>(grid, path, nb);
  (void)A.gather(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  tseig::fuzz::init_mpi(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const tseig::Grid grid(MPI_COMM_SELF);
  const std::string& path = tseig::fuzz::input_file(data, size);
  try {
    const auto h = tseig::matrix_market::read_header(grid, path);
    if (h.coordinate && static_cast<double>(h.rows) * h.cols > max_coordinate_elements) return 0;
  } catch (const tseig::Error&) {
  }
  // The input's length picks the scalar type and block size, so the corpus stays plain
  // Matrix Market files and every type is reached.
  const int nb = 1 + static_cast<int>(size / 4 % 3);
  try {
    switch (size % 4) {
      case 0:
        read<double>(grid, path, nb);
        break;
      case 1:
        read<float>(grid, path, nb);
        break;
      case 2:
        read<std::complex<double>>(grid, path, nb);
        break;
      default:
        read<std::complex<float>>(grid, path, nb);
        break;
    }
  } catch (const tseig::Error&) {
  }
  return 0;
}
