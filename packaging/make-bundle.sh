#!/usr/bin/env bash
# Makes a portable, relocatable bundle of the GUI `fusescope` and the CLI `fusescope-cli` as a
# .tar.gz that runs on x86-64 Linux machines without Qt (glibc 2.36 or newer): the programs,
# every library they need except glibc's own, the Qt platform plugins (offscreen, xcb), the SVG
# image format, DejaVu fonts with a fontconfig file, RUNPATH set to $ORIGIN, and launchers.
# The NVIDIA driver (libcuda) is never bundled; CUPTI is left out unless --with-cupti, because
# a GPU machine has its own (the launchers look for it in the usual CUDA folders).
#
# usage: packaging/make-bundle.sh [--build-dir build/release] [--output DIR_OR_FILE.tar.gz]
#                                 [--with-cupti] [--add-tests FILE...] [--add-programs FILE...]
#   --add-tests: also bundle these test executables under tests/ (for the GPU machine, which
#                has no Qt and no GoogleTest); their libraries join lib/.
#   --add-programs: also bundle these executables in bin/ (tools such as fusescope-live-shot).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

build_dir="$root/build/release"
output=""
with_cupti=0
tests=()
programs=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --build-dir) build_dir=$(realpath "$2"); shift 2 ;;
        --output) output="$2"; shift 2 ;;
        --with-cupti) with_cupti=1; shift ;;
        --add-tests)
            shift
            while [[ $# -gt 0 && "$1" != --* ]]; do tests+=("$(realpath "$1")"); shift; done ;;
        --add-programs)
            shift
            while [[ $# -gt 0 && "$1" != --* ]]; do programs+=("$(realpath "$1")"); shift; done ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "make-bundle: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

fail() { echo "make-bundle: $*" >&2; exit 1; }
for tool in patchelf ldd file tar strip; do
    command -v "$tool" >/dev/null || fail "needs '$tool' (scripts/setup-deps.sh installs it)"
done
[[ -f "$build_dir/CMakeCache.txt" ]] || fail "no configured build in $build_dir (run: cmake --preset release && cmake --build --preset release)"

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")
name="fusescope-${version:-0}-linux-$(uname -m)"
if [[ -z "$output" ]]; then
    output="$build_dir/$name.tar.gz"
elif [[ "$output" != *.tar.gz ]]; then
    mkdir -p "$output"
    output="$output/$name.tar.gz"
fi
output=$(realpath -m "$output")

work=$(mktemp -d "${TMPDIR:-/tmp}/fusescope-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT
bundle="$work/$name"

# The install rules decide what a release holds; the bundle starts from them.
cmake --install "$build_dir" --prefix "$work/install" >/dev/null
mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/plugins" "$bundle/fonts" "$bundle/etc" "$bundle/share"
for program in fusescope fusescope-cli; do
    [[ -x "$work/install/bin/$program" ]] || fail "the build has no $program (build everything first)"
    cp "$work/install/bin/$program" "$bundle/bin/"
done
for folder in applications icons metainfo mime doc man fusescope; do
    if [[ -d "$work/install/share/$folder" ]]; then cp -r "$work/install/share/$folder" "$bundle/share/"; fi
done
# The measurement layer's CUPTI module (loaded at run time from ../lib/fusescope), and CUPTI
# itself beside it only when asked.
if [[ -d "$work/install/lib/fusescope" ]]; then
    mkdir -p "$bundle/lib/fusescope"
    for module in "$work"/install/lib/fusescope/*; do
        if [[ $with_cupti -eq 1 || ! "$(basename "$module")" =~ ^(libcupti|libnvperf_) ]]; then
            cp "$module" "$bundle/lib/fusescope/"
        fi
    done
fi
if [[ ${#programs[@]} -gt 0 ]]; then
    cp "${programs[@]}" "$bundle/bin/"
fi
if [[ ${#tests[@]} -gt 0 ]]; then
    mkdir -p "$bundle/tests"
    cp "${tests[@]}" "$bundle/tests/"
fi

# Qt plugins: offscreen for headless runs and screenshots, xcb for X11 (and XWayland) desktops,
# SVG for icons and images, GIF/JPEG for exports.
qt_plugins=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
for plugin in platforms/libqoffscreen.so platforms/libqxcb.so imageformats/libqsvg.so \
    imageformats/libqgif.so imageformats/libqjpeg.so iconengines/libqsvgicon.so \
    xcbglintegrations/libqxcb-glx-integration.so; do
    if [[ -f "$qt_plugins/$plugin" ]]; then
        mkdir -p "$bundle/plugins/$(dirname "$plugin")"
        cp "$qt_plugins/$plugin" "$bundle/plugins/$plugin"
    elif [[ "$plugin" == platforms/libqoffscreen.so ]]; then
        fail "Qt's offscreen platform plugin is missing ($qt_plugins/$plugin)"
    fi
done

# glibc's libraries come from the target system; so does the GPU driver. CUPTI too by default.
system_only='^(linux-vdso|ld-linux|libc\.so|libm\.so|libmvec|libpthread|libdl\.so|librt\.so|libutil|libresolv|libnsl|libanl|libcuda\.so|libnvidia-)'
cupti_libs='^(libcupti|libnvperf_)'
# cuBLAS (about 700 MB) is loaded at run time where the CUDA toolkit is installed and never
# bundled; nothing links it now (a test checks the programs), this only guards old builds.
toolkit_only='^(libcublas)'
copy_dependencies() {
    local elf="$1" line soname path
    while read -r line; do
        if [[ "$line" == *"not found"* ]]; then
            soname=${line%% *}
            [[ "$soname" =~ $system_only ]] && continue
            [[ $with_cupti -eq 0 && "$soname" =~ $cupti_libs ]] && continue
            [[ "$soname" =~ $toolkit_only ]] && continue
            fail "$(basename "$elf") needs $soname, which is not found here"
        fi
        [[ "$line" == *" => "* ]] || continue
        soname=${line%% =>*}
        path=${line#*=> }
        path=${path%% (*}
        [[ "$soname" =~ $system_only ]] && continue
        [[ $with_cupti -eq 0 && "$soname" =~ $cupti_libs ]] && continue
        [[ "$soname" =~ $toolkit_only ]] && continue
        [[ -e "$bundle/lib/$soname" ]] || cp -L "$path" "$bundle/lib/$soname"
    done < <(ldd "$elf" | sed 's/^[[:space:]]*//')
}
mapfile -t elves < <(find "$bundle/bin" "$bundle/plugins" "$bundle/tests" "$bundle/lib/fusescope" \
    -type f 2>/dev/null)
for elf in "${elves[@]}"; do copy_dependencies "$elf"; done
# Libraries a plugin needs can need more libraries: repeat until nothing new arrives.
while :; do
    before=$(ls "$bundle/lib" | wc -l)
    for lib in "$bundle"/lib/*; do if [[ -f "$lib" ]]; then copy_dependencies "$lib"; fi; done
    [[ $(ls "$bundle/lib" | wc -l) -eq $before ]] && break
done

find "$bundle/bin" "$bundle/lib" -type f -exec strip --strip-unneeded {} + 2>/dev/null || true
if [[ -d "$bundle/tests" ]]; then strip --strip-unneeded "$bundle"/tests/* 2>/dev/null || true; fi
for lib in "$bundle"/lib/*; do if [[ -f "$lib" ]]; then patchelf --set-rpath '$ORIGIN' "$lib"; fi; done
for module in "$bundle"/lib/fusescope/*; do
    if [[ -f "$module" ]]; then patchelf --set-rpath '$ORIGIN:$ORIGIN/..' "$module"; fi
done
for elf in "$bundle"/bin/* "$bundle"/tests/*; do
    if [[ -f "$elf" ]]; then patchelf --set-rpath '$ORIGIN/../lib' "$elf"; fi
done
find "$bundle/plugins" -name '*.so' -exec patchelf --set-rpath '$ORIGIN/../../lib' {} \;

for font in DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf; do
    [[ -f "/usr/share/fonts/truetype/dejavu/$font" ]] || fail "missing font $font (fonts-dejavu-core)"
    cp "/usr/share/fonts/truetype/dejavu/$font" "$bundle/fonts/"
done
# Relative paths are relative to this file, so the bundle can live anywhere.
cat > "$bundle/etc/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir prefix="relative">../fonts</dir>
  <dir>/usr/share/fonts</dir>
  <dir prefix="xdg">fonts</dir>
  <cachedir prefix="xdg">fontconfig</cachedir>
  <cachedir>/tmp/fusescope-fontconfig-cache</cachedir>
</fontconfig>
XML
printf '[Paths]\nPrefix = ..\nPlugins = plugins\n' > "$bundle/bin/qt.conf"

cp "$root/packaging/bundle/launcher.sh" "$bundle/fusescope"
cp "$root/packaging/bundle/launcher.sh" "$bundle/fusescope-cli"
chmod +x "$bundle/fusescope" "$bundle/fusescope-cli"
cp "$root/packaging/bundle/README.txt" "$bundle/README.txt"
# GPL-3.0-or-later (QCustomPlot is GPL-3.0), and the licenses of what lib/ and plugins/ carry.
cp "$root/LICENSE" "$bundle/LICENSE"
cp "$root/packaging/THIRD-PARTY-LICENSES" "$bundle/THIRD-PARTY-LICENSES"

mkdir -p "$(dirname "$output")"
tar -C "$work" -czf "$output" "$name"
echo "make-bundle: $output ($(du -h "$output" | cut -f1); $(ls "$bundle/lib" | wc -l) libraries; $(du -sh "$bundle" | cut -f1) unpacked)"
