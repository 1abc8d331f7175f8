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

// The exported name: TSEIG_RESOLVE's argument is expanded before it reaches #, so
// cublasDgemm is looked up as "cublasDgemm_v2" (the legacy cuBLAS API exports a
// "cublasDgemm" with another signature).
#define TSEIG_SYMBOL_OF(f) #f

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

Library<Cublas> open_cublas(const char* soname, const char* path) {
  Library<Cublas> l("cuBLAS", soname, path);
#define TSEIG_RESOLVE(f) l.resolve(TSEIG_SYMBOL_OF(f), l.api.f);
  TSEIG_CUBLAS_ENTRY_POINTS(TSEIG_RESOLVE)
#undef TSEIG_RESOLVE
  return l;
}

Library<Cusolver> open_cusolver(const char* soname, const char* path) {
  Library<Cusolver> l("cuSOLVER", soname, path);
#define TSEIG_RESOLVE(f) l.resolve(TSEIG_SYMBOL_OF(f), l.api.f);
  TSEIG_CUSOLVER_ENTRY_POINTS(TSEIG_RESOLVE)
#undef TSEIG_RESOLVE
  return l;
}

}  // namespace

const Cublas& cublas() {
  static const Library<Cublas> lib = open_cublas(TSEIG_CUBLAS_SONAME, TSEIG_CUBLAS_PATH);
  return lib.usable();
}

const Cusolver& cusolver() {
  static const Library<Cusolver> lib = open_cusolver(TSEIG_CUSOLVER_SONAME, TSEIG_CUSOLVER_PATH);
  return lib.usable();
}

Cublas load_cublas(const char* soname, const char* path) {
  return open_cublas(soname, path).usable();
}

Cusolver load_cusolver(const char* soname, const char* path) {
  return open_cusolver(soname, path).usable();
}

}  // namespace tseig::cuda
