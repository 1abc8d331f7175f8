#!/usr/bin/env bash
# Installs the peers the sparse benchmarks compare with (not needed to build or test
# tseig): PETSc and SLEPc, real and complex builds, from Debian 12.
set -euo pipefail
pkgs=(libpetsc-real-dev libpetsc-complex-dev libslepc-real-dev libslepc-complex-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
