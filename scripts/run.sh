#!/usr/bin/env bash
# The README's first command: installs what is missing, configures the `release` preset (no
# tests), builds only the two programs it can start (the GUI and the CLI) and starts the GUI.
# With no display it says how to work headless instead of letting Qt abort.
#
# usage: scripts/run.sh [arguments for fusescope, e.g. --run swiglu]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-deps.sh

cmake --preset release
cmake --build --preset release -j"$(nproc)" --target fusescope fusescope-cli

find_program() {
    find build/release -path '*/CMakeFiles' -prune -o -type f -name "$1" -perm -u+x -print |
        head -n 1
}
gui=$(find_program fusescope)
cli=$(find_program fusescope-cli)
if [[ -z "$gui" ]]; then
    echo "run: the build has no fusescope executable (build/release)" >&2
    exit 1
fi

# A Qt GUI started with no display aborts ("could not connect to display"): explain instead.
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
    cat <<MSG
run: built, but there is no display here (DISPLAY and WAYLAND_DISPLAY are unset).
Work without a display:
  ${cli:-build/release/.../fusescope-cli} list
  ${cli:-build/release/.../fusescope-cli} run --pipeline swiglu --variants all --n 67108864 --json swiglu.json
  QT_QPA_PLATFORM=offscreen $gui --screenshot shot.png --run swiglu
or with a virtual X server:
  xvfb-run -a -s "-screen 0 1920x1080x24" $gui --screenshot shot.png --run swiglu
Copy swiglu.json to a machine with a display and open it there (File > Open recording).
MSG
    exit 2
fi

exec "$gui" "$@"
