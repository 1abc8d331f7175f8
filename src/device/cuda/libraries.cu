// The loader of libraries.hpp. A library is looked up by its soname first (what a link
// would find: LD_LIBRARY_PATH, the loader's cache, libtseig's run path), then at the path
// where this build found it (TSEIG_CUBLAS_PATH, TSEIG_CUSOLVER_PATH), so a toolkit outside
// the loader's search path still works where it was built.
#include <dlfcn.h>

#include <string>

#include "device/cuda/libraries.hpp"
#include "tseig/error.hpp"

namespace tseig::cuda {
namespace {

// One library's entry points, or why it cannot serve. Never closed: the entry points are
// used until the process ends.
template <class Api>
struct Library {
  const char* label;
  void* handle = nullptr;
  Api api;
  std::string failure;

  Library(const char* name, const char* soname, const char* path) : label(name) {
    handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle) return;
    std::string tried = dlerror();
    if (std::string(path) != soname) {
      handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (handle) return;
      tried += "; " + std::string(dlerror());
    }
    failure = std::string(label) + " could not be loaded (" + tried +
              "); the CUDA backend needs it for device work";
  }
  template <class F>
  void resolve(const char* symbol, F& entry) {
    if (!failure.empty()) return;
    dlerror();
    entry = reinterpret_cast<F>(dlsym(handle, symbol));
    if (entry == nullptr)
      failure = std::string(label) + " has no entry point " + symbol + " (" + dlerror() +
                "): older than the CUDA toolkit tseig was built with?";
  }
  const Api& usable() const {
    if (!failure.empty()) throw Error(ErrorCode::device_error, failure);
    return api;
  }
};

template <class Api>
Library<Api> open(const char* label, const char* soname, const char* path) {
  Library<Api> l(label, soname, path);
  l.api.for_each([&](const char* symbol, auto& entry) { l.resolve(symbol, entry); });
  return l;
}

}  // namespace

const Cublas& cublas() {
  static const Library<Cublas> lib = open<Cublas>("cuBLAS", TSEIG_CUBLAS_SONAME, TSEIG_CUBLAS_PATH);
  return lib.usable();
}

const Cusolver& cusolver() {
  static const Library<Cusolver> lib =
      open<Cusolver>("cuSOLVER", TSEIG_CUSOLVER_SONAME, TSEIG_CUSOLVER_PATH);
  return lib.usable();
}

Cublas load_cublas(const char* soname, const char* path) {
  return open<Cublas>("cuBLAS", soname, path).usable();
}

Cusolver load_cusolver(const char* soname, const char* path) {
  return open<Cusolver>("cuSOLVER", soname, path).usable();
}

}  // namespace tseig::cuda
