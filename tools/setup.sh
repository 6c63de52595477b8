#!/usr/bin/env bash
# Installs what kairo needs from Debian's packages (only what is missing) and
# builds it into build/. Safe to run again; a no-op when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ pkg-config libsystemc-dev libyaml-cpp-dev libgtest-dev
          libcli11-dev nlohmann-json3-dev libfmt-dev zlib1g-dev libmetis-dev verilator gtkwave chromium python3-venv
          clang-format openmpi-bin libopenmpi-dev libotf2-trace-dev otf2-tools gfortran
          libboost-math-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "kairo setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# A VCD reader independent of kairo's writer and of GTKWave, for the tests
# (tests/read_vcd.py): pyvcd, pinned, in a virtual environment of its own.
if ! build/pyenv/bin/python -c "import vcd" 2>/dev/null; then
  rm -rf build/pyenv
  /usr/bin/python3 -m venv build/pyenv
  build/pyenv/bin/pip install --quiet --disable-pip-version-check pyvcd==0.4.1
fi
cmake --build build -j "$(nproc)"
