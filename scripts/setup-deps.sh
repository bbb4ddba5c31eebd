#!/usr/bin/env bash
# Installs what FuseScope needs to build, test and package, from Debian 12's archive.
# Idempotent: packages already installed are skipped, and nothing touches the network when
# nothing is missing. CUDA is optional: the build uses /usr/local/cuda when it is there.
#
# usage: scripts/setup-deps.sh [--check]   (--check: list what is missing, install nothing)
set -euo pipefail

# Build and test; libqscintilla2-qt6-dev for the Lab's code editor; xvfb + xauth for real-X
# screenshots (xvfb-run needs xauth, which xvfb only recommends); libgif-dev for GIF export;
# patchelf + file for the portable bundle and CPack's DEB (dpkg-dev gives dpkg-shlibdeps);
# fonts-dejavu-core so offscreen renders have a font; clang with its runtime libraries
# (libFuzzer, which clang only recommends) for scripts/fuzz.sh; lld links the test programs
# about three times faster than GNU ld (the build uses it where it is installed); python3 runs
# the benchmark scripts' test (tests/benchmarks) with stand-ins for torch and Triton.
packages=(
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-svg-dev libqcustomplot-dev libqscintilla2-qt6-dev libgtest-dev libgif-dev
    xvfb xauth patchelf file dpkg-dev fonts-dejavu-core
    clang libclang-rt-14-dev lld python3
)

check_only=0
if [[ "${1:-}" == "--check" ]]; then
    check_only=1
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-deps: this script installs from Debian's archive (apt-get); this system has none." >&2
    echo "setup-deps: install by hand: ${packages[*]}" >&2
    exit 1
fi

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    if [[ "$status" != "installed" ]]; then
        missing+=("$package")
    fi
done

if [[ -x /usr/local/cuda/bin/nvcc ]]; then
    cuda_note="CUDA toolkit: $(/usr/local/cuda/bin/nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') in /usr/local/cuda (the CUDA backend will be built)"
else
    cuda_note="CUDA toolkit: not found in /usr/local/cuda (the CPU backend and recordings still work)"
fi

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "setup-deps: all ${#packages[@]} packages are installed. $cuda_note"
    exit 0
fi

echo "setup-deps: missing: ${missing[*]}"
if [[ $check_only -eq 1 ]]; then
    exit 1
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "setup-deps: not root and sudo is not installed; as root run: apt-get install ${missing[*]}" >&2
        exit 1
    fi
    sudo_cmd=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup-deps: installed ${#missing[@]} package(s). $cuda_note"
