#!/usr/bin/env bash
# Packs what the remote GPU machine lacks into the ignored folder .device-pack/:
# our executables, every shared library they need that the CUDA image does not
# have (Open MPI, OpenBLAS, ScaLAPACK, gfortran, ...) and Open MPI's run-time
# pieces (orterun/orted, MCA components, help and params files). All that goes into
# .device-pack/payload.tar.gz (uncompressed it exceeds the 64 MiB carry limit: OpenBLAS
# alone is 36 MB), next to env.sh, which unpacks it on first use and sets the environment.
# Run here after `cmake --preset gpu && cmake --build --preset gpu`; carry
# .device-pack to the device and run scripts/device-run.sh there.
#
#   scripts/device-pack.sh [build-dir]        (default: build-gpu)
#   TSEIG_DEVICE_BINARIES="test_gpu ..."      executables to take from <build-dir>/bin
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
bins=${TSEIG_DEVICE_BINARIES:-"test_gpu test_gpu_stages dense_bench tseig-solve"}
pack=.device-pack
stage=$pack/staging                                 # becomes payload.tar.gz
ompi_src=/usr/lib/x86_64-linux-gnu/openmpi        # Debian's Open MPI 4.1 (libdir, pkglibdir)
pmix_src=/usr/lib/x86_64-linux-gnu/pmix2           # Debian's external PMIx 4.2

# Present on the device image (glibc family, the GCC runtime, CUDA, the driver): never carried.
system_re='^(linux-vdso|ld-linux|libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas|libcublasLt|libcusolver|libcusparse|libcufft|libcurand|libnvJitLink|libnvrtc)\.so'
# Almost surely present there too (Ubuntu base), but newer: carried into lib-opt/, which
# env.sh puts on the search path only for those the device lacks (or has too old).
optional_re='^(libz|libudev|libstdc\+\+)\.so'

rm -rf "$pack"
mkdir -p "$stage"/{bin,lib,lib-opt} "$stage"/ompi/usr/bin "$stage"/ompi/etc \
         "$stage"/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 "$stage"/ompi/usr/share \
         "$stage"/pmix2/lib/pmix "$stage"/pmix2/share

# Lines "soname path" for every library an ELF file needs (transitively, per ldd).
deps() { ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3} $2 == "=>" && $3 == "not" {print $1, "MISSING"}'; }

# Copies the libraries $1 needs into lib/ (or lib-opt/) under their SONAME, dereferenced.
copy_deps() {
  local name path
  while read -r name path; do
    if [ "$path" = MISSING ]; then echo "warning: $1 needs $name, not found here" >&2; continue; fi
    if [[ $name =~ $optional_re ]]; then
      [ -e "$stage/lib-opt/$name" ] || cp -L "$path" "$stage/lib-opt/$name"
    elif ! [[ $name =~ $system_re ]]; then
      [ -e "$stage/lib/$name" ] || cp -L "$path" "$stage/lib/$name"
    fi
  done < <(deps "$1")
}

# (a) executables, stripped; libtseig comes along through ldd (build RUNPATH).
found=0
for b in $bins; do
  if [ -x "$build/bin/$b" ]; then
    cp -L "$build/bin/$b" "$stage/bin/$b"; found=1
    copy_deps "$build/bin/$b"
  else
    echo "note: $build/bin/$b not built, skipped" >&2
  fi
done
[ "$found" = 1 ] || { echo "error: none of [$bins] exists in $build/bin" >&2; exit 1; }

# (c) Open MPI run time, laid out like Debian's /usr and /etc so that OPAL_PREFIX relocates it.
o=$stage/ompi/usr
for f in orterun orted; do cp -L "/usr/bin/$f" "$o/bin/$f"; copy_deps "/usr/bin/$f"; done
ln -s orterun "$o/bin/mpirun"; ln -s orterun "$o/bin/mpiexec"
cp -rL /usr/share/openmpi "$o/share/openmpi"
cp -rL /etc/openmpi "$stage/ompi/etc/openmpi"
# PMIx's own (few) plugins and help files; its prefix is relocated by PMIX_PREFIX.
# First: this brings libpmix and libmunge, which the pmix_ext3x component needs.
cp -L "$pmix_src"/lib/pmix/*.so "$stage/pmix2/lib/pmix/"
cp -rL "$pmix_src"/share/. "$stage/pmix2/share/"
for c in "$stage"/pmix2/lib/pmix/*.so; do copy_deps "$c"; done
# MCA components: keep those whose libraries are all carried or on the image; the rest
# (UCX, libfabric, verbs, PSM, Java, ...) would only fail to load there.
kept=0 dropped=()
for c in "$ompi_src"/lib/openmpi3/*.so; do
  ok=1
  while read -r name path; do
    if [[ $name =~ $system_re || -e $stage/lib/$name || -e $stage/lib-opt/$name ]]; then continue; fi
    # Open MPI's own helper libraries (libmca_common_sm, ...) come along; what they need in
    # turn is listed by ldd too. Anything else drops the component.
    if [[ $name =~ ^libmca_common_ ]]; then continue; fi
    ok=0; break
  done < <(deps "$c")
  if [ "$ok" = 1 ]; then
    cp -L "$c" "$o/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/"; copy_deps "$c"; kept=$((kept + 1))
  else
    dropped+=("$(basename "$c" .so)")
  fi
done

# glibc: Debian 12 has 2.36; an Ubuntu 22.04 image has 2.35. Of all carried files only
# libevent_core needs 2.36 (arc4random, arc4random_buf): mark that version reference weak
# (a missing one is then no load error) and ship the two functions, versioned GLIBC_2.36,
# in a shim that env.sh preloads where glibc is older than 2.36.
python3 - "$stage/lib/libevent_core-2.1.so.7" <<'PY'
import struct, sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28); shentsize, shnum = struct.unpack_from('<HH', b, 0x3a)
sh = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
n = 0
for s in sh:
    if s[1] != 0x6ffffffe: continue                  # SHT_GNU_verneed
    strtab = sh[s[6]][4]; vn = s[4]
    while True:
        _, cnt, _, aux, nxt = struct.unpack_from('<HHIII', b, vn); a = vn + aux
        for _ in range(cnt):
            _, flags, _, name, anext = struct.unpack_from('<IHHII', b, a)
            if b[strtab + name:b.index(0, strtab + name)] == b'GLIBC_2.36':
                struct.pack_into('<H', b, a + 4, flags | 2); n += 1   # VER_FLG_WEAK
            a += anext
        if not nxt: break
        vn += nxt
open(p, 'wb').write(b); print(f'{p}: {n} GLIBC_2.36 reference(s) made weak')
PY
shim=$(mktemp -d)
cat > "$shim/c.c" <<'C'
#include <stdint.h>
#include <sys/random.h>
void arc4random_buf(void *p, size_t n) {
  unsigned char *c = p;
  while (n) { ssize_t r = getrandom(c, n, 0); if (r > 0) { c += r; n -= (size_t)r; } }
}
uint32_t arc4random(void) { uint32_t v; arc4random_buf(&v, sizeof v); return v; }
C
echo 'GLIBC_2.36 { global: arc4random; arc4random_buf; local: *; };' > "$shim/v.map"
gcc -shared -fPIC -O2 -Wl,--version-script="$shim/v.map" -o "$stage/lib/glibc236-shim.so" "$shim/c.c"
rm -rf "$shim"
# Anything else that needs glibc > 2.35 would not load on Ubuntu 22.04: say so.
while IFS= read -r -d '' f; do
  if readelf -V "$f" 2>/dev/null | grep -Eq 'Name: GLIBC_2\.(3[6-9]|[4-9][0-9]) +Flags: none'; then
    echo "warning: $f needs glibc > 2.35 (fine on Ubuntu 24.04, not on 22.04)" >&2
  fi
done < <(find "$stage" -path "$stage/lib-opt" -prune -o -type f \( -name '*.so*' -o -path '*/bin/*' \) -print0)

# Strip what we built (Debian's libraries are stripped already).
strip --strip-unneeded "$stage"/bin/* "$stage"/lib/libtseig* 2>/dev/null || true

# env.sh: everything relative to its own location (the repository lands in an unknown place).
cat > "$pack/env.sh" <<'EOF'
# Source from bash: makes the carried Open MPI, BLAS, ScaLAPACK, ... usable. Written by
# scripts/device-pack.sh; values already set in the environment win where noted.
_pk=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Unpack payload.tar.gz once (again when it is newer), outside the carried folder so that
# it stays small: into $TMPDIR, one folder per pack location.
_dp=${TMPDIR:-/tmp}/tseig-device-pack-$(printf %s "$_pk" | cksum | cut -d' ' -f1)
if ! [ -e "$_dp/.stamp" ] || [ "$_pk/payload.tar.gz" -nt "$_dp/.stamp" ]; then
  { rm -rf "$_dp" && mkdir -p "$_dp" && tar -xzf "$_pk/payload.tar.gz" -C "$_dp" &&
    touch "$_dp/.stamp"; } || echo "env.sh: unpacking $_pk/payload.tar.gz failed" >&2
fi
_o=$_dp/ompi/usr
export TSEIG_DEVICE_PACK=$_dp
# Open MPI 4.1 installdirs relocation (Debian's libdir/pkglibdir/sysconfdir).
export OPAL_PREFIX=$_o OPAL_EXEC_PREFIX=$_o OPAL_BINDIR=$_o/bin OPAL_SBINDIR=$_o/bin \
       OPAL_LIBEXECDIR=$_o/bin OPAL_DATAROOTDIR=$_o/share OPAL_DATADIR=$_o/share \
       OPAL_PKGDATADIR=$_o/share/openmpi OPAL_SYSCONFDIR=$_dp/ompi/etc/openmpi \
       OPAL_LIBDIR=$_o/lib/x86_64-linux-gnu/openmpi/lib \
       OPAL_PKGLIBDIR=$_o/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
export PMIX_PREFIX=$_dp/pmix2 PMIX_LIBDIR=$_dp/pmix2/lib PMIX_PKGLIBDIR=$_dp/pmix2/lib/pmix \
       PMIX_DATADIR=$_dp/pmix2/share PMIX_PKGDATADIR=$_dp/pmix2/share/pmix
# One node, as root, in a container: shared memory only, no ssh, no munge, no CMA.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm=isolated
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_ess_singleton_isolated=1
export OMPI_MCA_hwloc_base_binding_policy=${OMPI_MCA_hwloc_base_binding_policy:-none}
export PMIX_MCA_gds=hash PMIX_MCA_psec=native
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
# Debian 12's OpenBLAS (0.3.21) does not know the GPU machines' virtualised Xeon ("Intel(R)
# Xeon(R) Processor") and falls back to its Prescott (SSE3) kernels: seen on an H200
# machine, 7.5 GFlop/s per core in dgemm. Name the kernels by the instruction set instead.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
# lib-opt/ holds Debian 12's libz/libudev/libstdc++: used only where the device lacks one
# (libstdc++: or has one older than GCC 12's), linked into lib-rt/ (rebuilt on each source).
rm -rf "$_dp/lib-rt"; mkdir -p "$_dp/lib-rt"
for _f in "$_dp"/lib-opt/*; do
  [ -e "$_f" ] || continue
  _n=$(basename "$_f")
  _sys=$(/sbin/ldconfig -p 2>/dev/null | awk -v n="$_n" '$1 == n && /x86-64/ {print $NF; exit}')
  if [ -z "$_sys" ] || { [ "$_n" = libstdc++.so.6 ] && ! grep -qa GLIBCXX_3.4.30 "$_sys"; }; then
    ln -s "$_f" "$_dp/lib-rt/$_n"
  fi
done
_cuda=
for _d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d "$_d" ] && _cuda=$_cuda:$_d
done
_gv=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [ -n "$_gv" ] && [ "$(printf '%s\n' 2.36 "$_gv" | sort -V | head -1)" != 2.36 ]; then
  export LD_PRELOAD=$_dp/lib/glibc236-shim.so${LD_PRELOAD:+:$LD_PRELOAD}   # see device-pack.sh
fi
export LD_LIBRARY_PATH=$_dp/lib:$_dp/lib-rt$_cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$_o/bin:$_dp/bin:$PATH
unset _pk _dp _o _f _n _sys _cuda _d _gv
EOF

echo "kept $kept MCA components; dropped ${#dropped[@]}: ${dropped[*]}"
echo "carried libraries: $(cd "$stage" && echo lib/* lib-opt/*)"
echo "executables: $(cd "$stage" && echo bin/*)"
du -sh "$stage"/* | sort -h
echo "unpacked: $(du -sh "$stage" | cut -f1)"
tar -czf "$pack/payload.tar.gz" -C "$stage" .
rm -rf "$stage"
total=$(du -sm "$pack" | cut -f1)
echo "carried (.device-pack): $(du -sh "$pack" | cut -f1); must stay well under 60 MiB (64 MiB carry limit)"
[ "$total" -lt 60 ] || { echo "error: pack too large" >&2; exit 1; }
