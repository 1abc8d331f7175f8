#!/usr/bin/env bash
# Installs the Debian 12 packages tseig needs (skips the ones already there), plus any
# package names given as arguments (scripts/install-bench-deps.sh adds the peers).
set -euo pipefail
pkgs=(build-essential cmake pkg-config gfortran
      openmpi-bin libopenmpi-dev
      libopenblas-dev liblapack-dev libscalapack-openmpi-dev
      libgtest-dev libelpa-dev
      python3 python3-numpy python3-matplotlib "$@")
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
