// cuBLAS and cuSOLVER are loaded on first use (device/cuda/libraries.hpp), not linked: not
// in the process before, every entry point resolved after, with or without a GPU (an entry
// point the libraries do not export, a wrong name included, fails here). A library that
// cannot be loaded or lacks an entry point is an Error(device_error) that names it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "device/cuda/libraries.hpp"
#include "tseig/error.hpp"

namespace tseig::test {
namespace {

bool mapped(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.find(library) != std::string::npos) return true;
  return false;
}

// First in this program: nothing before it has made a device context.
TEST(CudaLibraries, LoadedOnFirstUseWithEveryEntryPoint) {
  EXPECT_FALSE(mapped("libcublas.so"));
  EXPECT_FALSE(mapped("libcusolver.so"));
  cuda::Cublas blas = cuda::cublas();
  cuda::Cusolver solver = cuda::cusolver();
  const auto resolved = [](const char* symbol, auto entry) { EXPECT_NE(entry, nullptr) << symbol; };
  blas.for_each(resolved);
  solver.for_each(resolved);
  EXPECT_TRUE(mapped("libcublas.so"));
  EXPECT_TRUE(mapped("libcusolver.so"));
  EXPECT_EQ(&cuda::cublas(), &cuda::cublas());  // loaded once
  EXPECT_STREQ(blas.cublasGetStatusName(CUBLAS_STATUS_NOT_INITIALIZED),
               "CUBLAS_STATUS_NOT_INITIALIZED");
}

TEST(CudaLibraries, MissingLibraryOrEntryPointIsADeviceError) {
  const auto failure = [](auto load) {
    try {
      load();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::device_error);
      return std::string(e.what());
    }
    ADD_FAILURE() << "no error";
    return std::string();
  };
  const std::string missing = failure([] {
    cuda::load_cublas("libtseig_no_such_library.so.1", "/nonexistent/libtseig_no_such.so.1");
  });
  EXPECT_NE(missing.find("cuBLAS could not be loaded"), std::string::npos) << missing;
  EXPECT_NE(missing.find("libtseig_no_such_library.so.1"), std::string::npos) << missing;
  EXPECT_NE(missing.find("/nonexistent/libtseig_no_such.so.1"), std::string::npos) << missing;
  // The C library loads but exports none of cuSOLVER's names.
  const std::string lacking = failure([] { cuda::load_cusolver("libc.so.6", "libc.so.6"); });
  EXPECT_NE(lacking.find("cuSOLVER has no entry point cusolverDnCreate"), std::string::npos)
      << lacking;
}

}  // namespace
}  // namespace tseig::test
