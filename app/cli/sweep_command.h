#pragma once
// `fusescope-cli sweep`: runs variants over log-spaced N, prints a table per variant and the
// fitted launch overhead and bandwidth, and optionally writes a sweep file.
//
// The sweep file (JSON), format "fusescope-sweep", version 1:
// {
//   "format": "fusescope-sweep", "version": 1,
//   "producer": "fusescope-cli 0.1.0 (...)", "created": "2026-11-30T06:10:00Z",
//   "pipeline": "swiglu", "vector": 4, "repeats": 20, "warmup": 3, "steps_per_octave": 1,
//   "data_source": "timing+model" | "cpu",        (keys as in recordings)
//   "model": "time = launches * overhead + bytes / bandwidth",
//   "device": {"backend", "name", "compute_capability", "multiprocessors", "l2_cache_bytes",
//              "total_memory_bytes", "theoretical_bandwidth_gbps"},
//   "sizes": [4096, 8192, ...],                   (N of every point, elements)
//   "series": [{
//     "variant": "fused", "title": "...", "launches": 1, "bytes_per_element": 12,
//     "points": [{"n", "bytes" (pass model, read + written), "time_ms" (median),
//                 "gbps" (bytes / time), "roofline_gbps" (copy at the same N),
//                 "check_ok", "max_rel_error",
//                 "fit_residual": (measured - fitted) / fitted time | null (null: no fit),
//                 "regime": "launch" | "bandwidth" | null (null: no fit)}],
//     "fit": {"overhead_us" (per launch), "bandwidth_gbps", "overhead_clamped",
//             "boundary_n" (where the two terms are equal; 0: none),
//             "rms_relative_residual" (over the fitted sizes), "samples" (fitted),
//             "set_aside" (sizes the robust fit left out: they do not follow one
//             bandwidth, typically arrays that stay in the L2)} | null,
//     "fit_error": "why there is no fit"           (only when "fit" is null)
//   }]
// }
// Readers must ignore keys they do not know; a change that breaks readers raises the version.
#include <QStringList>

namespace fusescope::cli {

// The file is written by model::sweepDocument (app/model/sweep_json.h), shared with the GUI.

int sweepCommand(const QStringList& arguments);

}  // namespace fusescope::cli
