#!/usr/bin/env bash
# Installs a tseig build tree into a scratch prefix and uses it from outside, as a user
# would: find_package(tseig) projects in C++ and in C, then a plain compiler fed by
# pkg-config, then (with Fortran) the Fortran example; each program runs on 2 MPI ranks.
# Usage: run_consumer_test.sh BUILD_DIR VERSION
# Environment (set by ctest): CMAKE_COMMAND, MPIEXEC, MPIEXEC_FLAGS, CXX, CXXFLAGS, LDFLAGS,
# and FC when tseig was built with Fortran (then the Fortran example is built and run too).
set -euo pipefail
build=$(cd "$1" && pwd)
version=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cmake=${CMAKE_COMMAND:-cmake}
mpiexec=${MPIEXEC:-mpiexec}
read -r -a mpiexec_flags <<<"${MPIEXEC_FLAGS:---oversubscribe}"
cxx=${CXX:-c++}
read -r -a cxxflags <<<"${CXXFLAGS:-}"
read -r -a ldflags <<<"${LDFLAGS:-}"

work=$(mktemp -d "${TMPDIR:-/tmp}/tseig-consumer.XXXXXX")
# The scratch tree is kept when a step failed, to look at.
trap 'rc=$?; if ((rc == 0)); then rm -rf "$work"; else echo "FAILED; kept $work"; fi' EXIT
prefix=$work/prefix

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OMPI_MCA_mpi_yield_when_idle=1
# Sanitizer builds (preset debug): Open MPI keeps allocations until exit, which
# LeakSanitizer would report as leaks of the consumer.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

# Runs a consumer program on 2 ranks; it must report the installed version and success.
run_consumer() {
  local out
  out=$("$mpiexec" -n 2 "${mpiexec_flags[@]}" "$@")
  echo "$out"
  grep -q "^tseig $version on .*: consumer OK" <<<"$out"
}

# libtseig*.so must come from the prefix, not from the build tree (static builds: none).
check_libtseig_from_prefix() {
  local lib
  for lib in $(ldd "$1" | awk '/libtseig/ {print $3}'); do
    if [[ $(realpath "$lib") != "$(realpath "$prefix")"/* ]]; then
      echo "$1 loads $lib, outside $prefix"
      return 1
    fi
  done
}

echo "== cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"

# A static libtseig needs its dependencies named at link time (C for MPI::MPI_C, --static).
static=OFF
pc_static=()
if compgen -G "$prefix/lib*/libtseig.a" >/dev/null && ! compgen -G "$prefix/lib*/libtseig.so" >/dev/null; then
  static=ON
  pc_static=(--static)
fi

echo "== find_package(tseig) with CMAKE_PREFIX_PATH=$prefix (static: $static)"
"$cmake" -S "$here" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DWITH_C=$static \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
"$cmake" --build "$work/cmake-build"
check_libtseig_from_prefix "$work/cmake-build/consumer"
run_consumer "$work/cmake-build/consumer"

# The C API from a project that enables only C (a shared libtseig; a static one needs C++
# to link).
if [[ $static == OFF ]]; then
  echo "== find_package(tseig) from a C-only project"
  "$cmake" -S "$here/c" -B "$work/c-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release >"$work/c-configure.log" || { cat "$work/c-configure.log"; exit 1; }
  "$cmake" --build "$work/c-build"
  check_libtseig_from_prefix "$work/c-build/consumer_c"
  run_consumer "$work/c-build/consumer_c"
fi

echo "== pkg-config"
pc=$(find "$prefix" -name tseig.pc -print -quit)
[[ -n $pc ]] || { echo "no tseig.pc under $prefix"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
pc_version=$(pkg-config --modversion tseig)
[[ $pc_version == "$version" ]] || { echo "pkg-config version $pc_version != $version"; exit 1; }
read -r -a pc_flags <<<"$(pkg-config "${pc_static[@]}" --cflags --libs tseig)"
libdir=$(pkg-config --variable=libdir tseig)
echo "pkg-config ${pc_static[*]} --cflags --libs tseig: ${pc_flags[*]}"
"$cxx" -std=c++20 "${cxxflags[@]}" "$here/main.cpp" -o "$work/consumer-pc" "${pc_flags[@]}" \
  -Wl,-rpath,"$libdir" "${ldflags[@]}"
check_libtseig_from_prefix "$work/consumer-pc"
run_consumer "$work/consumer-pc"

# Fortran: the example of fortran_interface/examples (a project enabling only Fortran),
# built against the installed module and tseig::tseig_fortran as a DFT code would (only
# when tseig was built with Fortran).
if [[ -n ${FC:-} ]]; then
  echo "== Fortran example with find_package(tseig COMPONENTS Fortran)"
  compgen -G "$prefix/include/tseig/fortran/tseig.mod" >/dev/null ||
    { echo "no tseig.mod under $prefix/include/tseig/fortran"; exit 1; }
  "$cmake" -S "$here/../../fortran_interface/examples" -B "$work/fortran-build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_Fortran_COMPILER="$FC" -DCMAKE_BUILD_TYPE=Release \
    -DWITH_C_CXX=$static \
    >"$work/fortran-configure.log" || { cat "$work/fortran-configure.log"; exit 1; }
  "$cmake" --build "$work/fortran-build"
  check_libtseig_from_prefix "$work/fortran-build/tseig_example"
  out=$("$mpiexec" -n 2 "${mpiexec_flags[@]}" "$work/fortran-build/tseig_example")
  echo "$out"
  grep -q "^tseig Fortran example: OK" <<<"$out"
fi

if [[ -x $prefix/bin/tseig-solve ]]; then
  echo "== installed tseig-solve finds the installed libtseig (RPATH)"
  check_libtseig_from_prefix "$prefix/bin/tseig-solve"
fi
echo "install + consumer: OK"
