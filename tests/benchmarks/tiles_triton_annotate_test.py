#!/usr/bin/env python3
"""benchmarks/tiles_triton.py --annotate without a GPU: torch, triton and the lesson's kernel are
stand-ins (a made-up time for each tile, a refusal at BLOCK_M 128), so the script's own logic
runs as on the H200. Checks that the annotated sweep opens in `fusescope-cli show`, that the
program's comparison (cells within 1.10x, both bests, the configurations best or tied in both)
says what the script's own summary says, that Triton's refusal is kept whole, that the input
file is left as it was, and that the script will not overwrite its input.

usage: tiles_triton_annotate_test.py --cli FUSESCOPE_CLI --script TILES_TRITON --sweep SWEEP
"""
import argparse
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile
import types

REFUSAL = "out of resource: shared memory, Required: 262144, Hardware limit: 232448"


def stand_ins():
    """Modules named as the script imports them; Triton's time is a function of the tiles."""
    torch = types.ModuleType("torch")
    torch.__version__ = "stand-in"
    torch.bfloat16, torch.float32 = "bfloat16", "float32"
    torch.cuda = types.SimpleNamespace(synchronize=lambda: None,
                                       get_device_name=lambda: "no GPU (test)")
    torch.backends = types.SimpleNamespace(
        cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(allow_tf32=False)))

    class Tensor:
        def __getattr__(self, name):
            return lambda *args, **kwargs: self

        def __mul__(self, other):
            return self
        __rmul__ = __sub__ = __add__ = __truediv__ = __mul__

    torch.rand = torch.empty = lambda *args, **kwargs: Tensor()
    torch.Generator = lambda device=None: types.SimpleNamespace(manual_seed=lambda seed: None)
    triton = types.ModuleType("triton")
    triton.__version__ = "0.0-test"
    peers = types.ModuleType("mlp_peers")
    peers.DTYPES = {"bfloat16": ("bfloat16", None), "float32": ("float32", "ieee"),
                    "tf32": ("float32", "tf32")}
    peers.eager = lambda *args: None
    peers.rel_err = lambda out, expected: 1e-3
    last = {}

    def lesson(x, gate, up, down, out, cast, precision, tiles):
        if tiles["BLOCK_M"] == 128:
            raise RuntimeError(REFUSAL + "\nsecond line")
        last.update(tiles)

    def time_stats(run, repeats):
        run()
        # 0.18-0.45 ms by BLOCK_N and BLOCK_I, alike for every BLOCK_M: ties at the fast end,
        # two of them among the shipped sweep's own best or tied.
        median = 0.20 + 0.25 * (128 - last["BLOCK_N"]) / 112 - 0.01 * (last["BLOCK_I"] // 64)
        return median, median * 0.998, median * 1.002

    peers.lesson, peers.time_stats = lesson, time_stats
    return {"torch": torch, "triton": triton, "mlp_peers": peers}


def run_script(script, arguments):
    saved_argv, saved_modules = sys.argv, dict(sys.modules)
    sys.modules.update(stand_ins())
    sys.argv = [script] + arguments
    try:
        runpy.run_path(script, run_name="__main__")
        return 0
    except SystemExit as stop:
        return stop.code
    finally:
        sys.argv = saved_argv
        sys.modules.clear()
        sys.modules.update(saved_modules)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--script", required=True)
    parser.add_argument("--sweep", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # The sweep without any peer, as `fusescope-cli tiles` writes it.
        with open(args.sweep) as f:
            sweep = json.load(f)
        sweep.pop("peer", None)
        for cell in sweep["cells"]:
            cell.pop("peer_time", None)
            cell.pop("peer_note", None)
        source = os.path.join(folder, "tiles.json")
        with open(source, "w") as f:
            json.dump(sweep, f)
        with open(source) as f:
            before = f.read()
        annotated_folder = os.path.join(folder, "annotated")
        report_path = os.path.join(folder, "report.json")
        code = run_script(args.script, [source, "--annotate", annotated_folder, "--json",
                                        report_path])
        if code not in (0, None):
            fail(f"tiles_triton.py exited {code}")
        with open(source) as f:
            if f.read() != before:
                fail("the input sweep was changed")
        annotated = os.path.join(annotated_folder, "tiles.json")
        with open(annotated) as f:
            written = json.load(f)
        if not written.get("peer", {}).get("name", "").startswith("Triton 0.0-test"):
            fail(f"no peer named in {annotated}: {written.get('peer')}")
        refused = [c for c in written["cells"] if c["tuning"]["block_m"] == 128]
        if not refused or any(c.get("peer_note") != "Triton refused: " + REFUSAL or
                              "peer_time" in c for c in refused):
            fail("a cell Triton refused does not carry its whole refusal line")
        with open(report_path) as f:
            summary = json.load(f)[0]["summary"]

        shown = subprocess.run([args.cli, "show", annotated], capture_output=True, text=True)
        if shown.returncode != 0:
            fail(f"fusescope-cli show exited {shown.returncode}: {shown.stderr}")
        line = next((l for l in shown.stdout.splitlines()
                     if l.startswith("Triton 0.0-test at the same tiles")), None)
        if line is None:
            fail("show printed no comparison:\n" + shown.stdout)
        within = summary["both_ran"] - summary["over_target"]
        if f": {within} of {summary['both_ran']} within 1.10x its time" not in line:
            fail(f"the program says {line!r}; the script counts {within} of "
                 f"{summary['both_ran']}")
        if f", Triton 0.0-test's {summary['triton_best']} " not in line or \
                f"best {summary['fusescope_best']} " not in line:
            fail(f"the bests differ: {line!r} against {summary}")
        shared = sorted(set(summary["fusescope_ties"]) & set(summary["triton_ties"]))
        if not shared:
            fail("the stand-in times were meant to share a best-or-tied configuration")
        said = re.search(r"tied in both: (.*)$", line)
        listed = sorted(said.group(1).split(", ")) if said else []
        if listed != shared:
            fail(f"best or tied in both: the program says {listed}, the script {shared}")

        # The input is never the output.
        if run_script(args.script, [annotated, "--annotate", annotated_folder]) in (0, None):
            fail("--annotate into the input's own folder did not refuse")
    print("ok: the annotated sweep opens, and the program's comparison is the script's")


if __name__ == "__main__":
    main()
