// Fuzz target: tseig-solve's option parsers (dense parse_options and sparse
// parse_sparse_options). The input is argv, one argument per line; the first byte picks
// the rank count that --grid is checked against. A UsageError is a clean rejection.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/sparse_options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int nprocs = 1 + data[0] % 16;
  std::vector<std::string> args{"tseig-solve"};
  std::string arg;
  for (std::size_t k = 1; k < size; ++k) {
    if (data[k] == '\n') {
      args.push_back(std::move(arg));
      arg.clear();
    } else {
      arg.push_back(static_cast<char>(data[k]));
    }
  }
  if (size > 1) args.push_back(std::move(arg));
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());
  try {
    (void)tseig::cli::is_sparse_invocation(argc, argv.data());
    (void)tseig::cli::parse_options(argc, argv.data(), nprocs);
  } catch (const tseig::cli::UsageError&) {
  }
  try {
    (void)tseig::cli::parse_sparse_options(argc, argv.data());
  } catch (const tseig::cli::UsageError&) {
  }
  return 0;
}
