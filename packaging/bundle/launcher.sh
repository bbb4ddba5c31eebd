#!/bin/sh
# Starts bin/<this script's name> from the portable bundle with the bundle's Qt plugins, fonts and
# fontconfig file. Copied by make-bundle.sh as both `fusescope` and `fusescope-cli`.
here=$(dirname "$(readlink -f "$0")")
program=$(basename "$0")

export QT_PLUGIN_PATH="$here/plugins"
export QT_QPA_FONTDIR="$here/fonts"
export FONTCONFIG_FILE="$here/etc/fonts.conf"

# CUPTI (hardware counters) is not bundled: use the CUDA toolkit's where it is installed.
# FUSESCOPE_CUPTI_DIR names another folder; the user's LD_LIBRARY_PATH still comes first.
if [ ! -e "$here/lib/libcupti.so.13" ]; then
    for dir in "${FUSESCOPE_CUPTI_DIR:-}" /usr/local/cuda/targets/x86_64-linux/lib \
        /usr/local/cuda-13.0/targets/x86_64-linux/lib /usr/local/cuda/lib64 \
        /usr/local/cuda/extras/CUPTI/lib64; do
        if [ -n "$dir" ] && [ -e "$dir/libcupti.so.13" ]; then
            export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir"
            break
        fi
    done
fi

# Without a display the GUI can still render headless (screenshots, chart exports): choose the
# offscreen platform for those, and explain instead of aborting for a plain start.
if [ "$program" = fusescope ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] &&
    [ -z "${QT_QPA_PLATFORM:-}" ]; then
    headless=0
    for argument in "$@"; do
        case "$argument" in
            --screenshot* | --export* | --help | -h | --version | -v) headless=1 ;;
        esac
    done
    if [ "$headless" = 1 ]; then
        export QT_QPA_PLATFORM=offscreen
    else
        echo "fusescope: no display here (DISPLAY and WAYLAND_DISPLAY are unset)." >&2
        echo "  headless screenshot: $here/fusescope --screenshot shot.png --run swiglu" >&2
        echo "  measurements:        $here/fusescope-cli run --pipeline swiglu --variants all --json run.json" >&2
        echo "  then open run.json in the GUI on a machine with a display (File > Open recording)." >&2
        exit 2
    fi
fi
# Qt picks wayland first in a Wayland session; the bundle carries xcb, which XWayland serves.
if [ -z "${QT_QPA_PLATFORM:-}" ] && [ -n "${DISPLAY:-}" ]; then
    export QT_QPA_PLATFORM=xcb
fi

exec "$here/bin/$program" "$@"
