#!/usr/bin/env bash
# Tries every "save that must never destroy work" case again as a new user would, with the built
# programs, and prints each case with its result (PASS, FAIL or SKIP with the reason).
#
# usage: scripts/try-edges.sh [--cli PATH] [--gui PATH] [--throwaway-root] [--no-mount]
#
# Everything happens in a temporary folder of its own: a 64 KiB tmpfs mounted there when mounting
# is allowed (root), otherwise a file size limit (ulimit -f) in its place (--no-mount: the limit
# even where a tmpfs could be mounted); FIFOs and device nodes it makes itself. /dev/null and
# /dev/full themselves are tried only with --throwaway-root, as root, in a root that is thrown
# away afterwards (a container or chroot): a broken program would replace them. /dev/zero is only
# read.
# Exit status: 0 when nothing failed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

cli=""
gui=""
throwaway_root=0
try_mount=1
while (($#)); do
    case "$1" in
        --cli) cli="$2"; shift 2 ;;
        --gui) gui="$2"; shift 2 ;;
        --throwaway-root) throwaway_root=1; shift ;;
        --no-mount) try_mount=0; shift ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "try-edges: unknown argument $1" >&2; exit 2 ;;
    esac
done

find_program() {
    find build -path '*/CMakeFiles' -prune -o -type f -name "$1" -perm -u+x -print 2>/dev/null |
        head -n 1
}
[[ -n "$cli" ]] || cli=$(find_program fusescope-cli)
[[ -n "$gui" ]] || gui=$(find_program fusescope)
if [[ -z "$cli" || ! -x "$cli" ]]; then
    echo "try-edges: no fusescope-cli found (build it, or give --cli PATH)" >&2
    exit 2
fi
cli=$(realpath "$cli")
[[ -n "$gui" && -x "$gui" ]] && gui=$(realpath "$gui") || gui=""
export QT_QPA_PLATFORM=offscreen

work=$(mktemp -d "${TMPDIR:-/tmp}/fusescope-edges.XXXXXX")
disk="$work/disk"
mkdir -p "$disk"
mounted=0
reader_pid=""
cleanup() {
    [[ -n "$reader_pid" ]] && kill "$reader_pid" 2>/dev/null
    ((mounted)) && umount "$disk"
    rm -rf "$work"
}
trap cleanup EXIT

failures=0
report() {  # report RESULT "case" "details"
    printf '%-4s  %s\n      %s\n' "$1" "$2" "$3"
    [[ "$1" == FAIL ]] && failures=$((failures + 1))
    return 0
}
# What the program said: its last error line, else its last line (progress lines come first).
first_line() {
    local line
    line=$(grep -aE '^(fusescope|fusescope-cli):|[Ee]rror|cannot' "$1" | tail -n 1)
    [[ -n "$line" ]] || line=$(tail -n 1 "$1")
    printf '%s' "${line:0:300}"
}
checksum() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }

small_run=(run --pipeline affine --variants fused --n 4096 --repeat 2 --warmup 0 --backend cpu)
small_sweep=(sweep --pipeline affine --variants fused --from 4096 --to 8192 --repeat 2
             --backend cpu)

echo "FuseScope edges, tried as a new user would ($(date -u '+%Y-%m-%d %H:%M UTC'), uid $(id -u))"
echo "cli: $cli"
echo "gui: ${gui:-not built (GUI cases skip)}"
if ((try_mount)) && mount -t tmpfs -o size=64k fusescope-edges "$disk" 2>/dev/null; then
    mounted=1
    echo "full disk: a 64 KiB tmpfs at $disk"
else
    echo "full disk: no tmpfs ($( ((try_mount)) && echo 'cannot be mounted here' || echo '--no-mount')); a file size limit stands in (ulimit -f 1 for a full disk, 8 for a nearly full one)"
fi
echo

# Runs a command with the disk full: on the tmpfs, after filling it; otherwise under a file size
# limit (writes past it fail with EFBIG as a full disk fails them with ENOSPC).
fill_disk() {
    ((mounted)) && { dd if=/dev/zero of="$disk/filler" bs=1k 2>/dev/null; true; }
}
free_disk() { rm -f "$disk/filler"; }
on_full_disk() {
    if ((mounted)); then
        "$@"
    else
        (trap '' XFSZ; ulimit -f 1; "$@")
    fi
}
# Under the size limit, a nearly full disk lets small files through and stops large ones.
on_nearly_full_disk() {
    if ((mounted)); then
        "$@"
    else
        (trap '' XFSZ; ulimit -f 8; "$@")
    fi
}

# 1. A full disk and `run --json` / `sweep --json`.
for kind in run sweep; do
    target="$disk/$kind.json"
    if [[ $kind == run ]]; then command=("${small_run[@]}"); else command=("${small_sweep[@]}"); fi
    "$cli" "${command[@]}" --json "$target" >/dev/null 2>"$work/err"
    if [[ ! -s "$target" ]]; then
        report FAIL "full disk: $kind --json keeps the previous file" \
            "could not write the first, good file: $(first_line "$work/err")"
        continue
    fi
    before=$(checksum "$target")
    size=$(stat -c %s "$target")
    fill_disk
    on_full_disk "$cli" "${command[@]}" --json "$target" >/dev/null 2>"$work/err"
    status=$?
    after=$(checksum "$target")
    leftovers=$(find "$disk" -mindepth 1 ! -name filler ! -name "$kind.json" | wc -l)
    free_disk
    if ((status != 0)) && [[ "$before" == "$after" ]] && ((leftovers == 0)); then
        report PASS "full disk: $kind --json keeps the previous file" \
            "exit $status, $kind.json unchanged ($size bytes, same sha256), no temporary file left; says: $(first_line "$work/err")"
    else
        report FAIL "full disk: $kind --json keeps the previous file" \
            "exit $status, unchanged: $([[ $before == "$after" ]] && echo yes || echo no), leftovers: $leftovers; says: $(first_line "$work/err")"
    fi
    rm -f "$target"
done

# 2. --json onto special files.
try_device() {  # try_device NAME PATH
    local name="$1" node="$2"
    "$cli" "${small_run[@]}" --json "$node" >/dev/null 2>"$work/err"
    local status=$?
    if ((status != 0)) && [[ -c "$node" ]] && grep -q "character device" "$work/err"; then
        report PASS "--json onto $name is refused and stays a device" \
            "exit $status; says: $(first_line "$work/err")"
    else
        report FAIL "--json onto $name is refused and stays a device" \
            "exit $status, still a character device: $([[ -c $node ]] && echo yes || echo no); says: $(first_line "$work/err")"
    fi
}
if ((throwaway_root)) && (($(id -u) == 0)); then
    try_device /dev/null /dev/null
    try_device /dev/full /dev/full
else
    why="not in a throwaway root (give --throwaway-root, as root, in a container or chroot)"
    (($(id -u) == 0)) || why="not root"
    report SKIP "--json onto /dev/null and /dev/full themselves" "$why"
    if (($(id -u) == 0)); then
        mknod "$work/null" c 1 3 && try_device "a node with /dev/null's numbers" "$work/null"
        mknod "$work/full" c 1 7 && try_device "a node with /dev/full's numbers" "$work/full"
    else
        report SKIP "--json onto device nodes of its own" "mknod needs root"
    fi
fi

fifo="$work/pipe"
mkfifo "$fifo"
# A FIFO with a reader: the reader must get nothing, the FIFO must stay a FIFO.
cat "$fifo" >"$work/read" &
reader_pid=$!
start=$(date +%s)
timeout 30 "$cli" "${small_run[@]}" --json "$fifo" >/dev/null 2>"$work/err"
status=$?
seconds=$(($(date +%s) - start))
exec 3>"$fifo"  # lets the reader finish: it sees the end of the FIFO
exec 3>&-
wait "$reader_pid" 2>/dev/null
reader_pid=""
read_bytes=$(stat -c %s "$work/read")
if ((status != 0 && status != 124)) && ((read_bytes == 0)) && [[ -p "$fifo" ]] &&
    grep -q FIFO "$work/err"; then
    report PASS "--json onto a FIFO with a reader is refused" \
        "exit $status in ${seconds} s, the reader got $read_bytes bytes, still a FIFO; says: $(first_line "$work/err")"
else
    report FAIL "--json onto a FIFO with a reader is refused" \
        "exit $status in ${seconds} s, the reader got $read_bytes bytes; says: $(first_line "$work/err")"
fi
# A FIFO with no reader must not block the check.
for kind in run sweep; do
    if [[ $kind == run ]]; then command=("${small_run[@]}"); else command=("${small_sweep[@]}"); fi
    start=$(date +%s)
    timeout 30 "$cli" "${command[@]}" --json "$fifo" >/dev/null 2>"$work/err"
    status=$?
    seconds=$(($(date +%s) - start))
    if ((status != 0 && status != 124)) && [[ -p "$fifo" ]] && grep -q FIFO "$work/err"; then
        report PASS "$kind --json onto a FIFO with no reader does not block" \
            "exit $status in ${seconds} s; says: $(first_line "$work/err")"
    else
        report FAIL "$kind --json onto a FIFO with no reader does not block" \
            "exit $status in ${seconds} s (124: blocked until the timeout); says: $(first_line "$work/err")"
    fi
done

# 3. Chart export and screenshots on a nearly full disk: nothing truncated or empty is left.
recording="$work/rec.fusescope.json"
"$cli" "${small_run[@]}" --json "$recording" >/dev/null 2>&1
if [[ -z "$gui" ]]; then
    report SKIP "chart export on a nearly full disk" "the GUI is not built (give --gui PATH)"
    report SKIP "a failed screenshot leaves no file" "the GUI is not built (give --gui PATH)"
else
    # With 16 KiB left the first file fails; with the whole 64 KiB some files complete first and
    # a later one fails part way.
    for filler_kib in 48 0; do
        ((mounted && filler_kib > 0)) &&
            dd if=/dev/zero of="$disk/filler" bs=1k count="$filler_kib" 2>/dev/null
        on_nearly_full_disk timeout 120 "$gui" --open "$recording" --export-charts "$disk/charts" \
            >/dev/null 2>"$work/err"
        status=$?
        broken=()
        while IFS= read -r -d '' file; do
            case "$file" in
                *.pdf) tail -c 1024 "$file" | grep -q '%%EOF' || broken+=("$file") ;;
                *.svg) tail -c 64 "$file" | grep -q '</svg>' || broken+=("$file") ;;
                *) [[ -s "$file" ]] || broken+=("$file") ;;
            esac
        done < <(find "$disk/charts" -type f -print0 2>/dev/null)
        kept=$(find "$disk/charts" -type f 2>/dev/null | wc -l)
        where="with $((64 - filler_kib)) KiB left on the disk"
        ((mounted)) || where="under a file size limit of 8 KiB"
        if ((status != 0 && status != 124)) && ((${#broken[@]} == 0)); then
            report PASS "chart export $where fails and leaves no truncated file" \
                "exit $status, $kept complete files kept, none truncated; says: $(first_line "$work/err")"
        else
            report FAIL "chart export $where fails and leaves no truncated file" \
                "exit $status, truncated: ${broken[*]:-none}; says: $(first_line "$work/err")"
        fi
        rm -rf "$disk/charts" "$disk/filler"
        ((mounted)) || break
    done
    fill_disk
    on_full_disk timeout 120 "$gui" --open "$recording" --screenshot "$disk/shot.png" \
        >/dev/null 2>"$work/err"
    status=$?
    free_disk
    if ((status != 0 && status != 124)) && [[ ! -e "$disk/shot.png" ]]; then
        report PASS "a failed screenshot leaves no file" \
            "exit $status, no shot.png; says: $(first_line "$work/err")"
    else
        report FAIL "a failed screenshot leaves no file" \
            "exit $status, shot.png: $(stat -c %s "$disk/shot.png" 2>/dev/null || echo absent) bytes"
    fi
    rm -f "$disk/shot.png" "$disk/filler"
fi

# 4. Reading /dev/zero and oversized recordings: refused at once, memory bounded (2 GiB here).
bounded() { (ulimit -v 2097152; timeout 30 "$@"); }
bounded "$cli" show /dev/zero >/dev/null 2>"$work/err"
status=$?
if ((status == 2)); then
    report PASS "show /dev/zero is refused" "exit $status; says: $(first_line "$work/err")"
else
    report FAIL "show /dev/zero is refused" "exit $status (124: still reading at the timeout)"
fi
if [[ -n "$gui" ]]; then
    bounded "$gui" --open /dev/zero --screenshot "$work/zero.png" >/dev/null 2>"$work/err"
    status=$?
    if ((status != 0 && status != 124 && status < 128)); then
        report PASS "fusescope --open /dev/zero is refused" \
            "exit $status; says: $(first_line "$work/err")"
    else
        report FAIL "fusescope --open /dev/zero is refused" \
            "exit $status (124: still reading; 134 or above: crashed)"
    fi
else
    report SKIP "fusescope --open /dev/zero is refused" "the GUI is not built (give --gui PATH)"
fi
truncate -s $((512 * 1024 * 1024 + 1)) "$work/big.json"  # sparse: no disk used
bounded "$cli" show "$work/big.json" >/dev/null 2>"$work/err"
status=$?
if ((status == 2)) && grep -q "512 MiB" "$work/err"; then
    report PASS "a recording over 512 MiB is refused before reading" \
        "exit $status; says: $(first_line "$work/err")"
else
    report FAIL "a recording over 512 MiB is refused before reading" \
        "exit $status; says: $(first_line "$work/err")"
fi

echo
if ((failures)); then
    echo "$failures case(s) FAILED"
    exit 1
fi
echo "no case failed"
