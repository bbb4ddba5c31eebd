#pragma once
// The sweep file, format "fusescope-sweep" version 1: written from the engine's SweepReport by
// `fusescope-cli sweep` and the GUI's Size sweep tab, and read back into a SweepReport by the
// tab, `fusescope-cli show` and fusescope-sweep-chart. This is the only reader and writer.
//
// {
//   "format": "fusescope-sweep", "version": 1,
//   "producer": "fusescope-cli 0.1.0 (...)", "created": "2026-11-30T06:10:00Z",
//   "pipeline": "swiglu", "vector": 4, "repeats": 20, "warmup": 3, "steps_per_octave": 1,
//   "data_source": "timing+model" | "cpu",        (keys as in recordings)
//   "model": "time = launches * overhead + bytes / bandwidth",
//   "description": "what the sweep shows, in words"  (optional),
//   "device": {"backend", "name", "compute_capability", "multiprocessors", "l2_cache_bytes",
//              "total_memory_bytes", "theoretical_bandwidth_gbps",
//              "device_index" (the GPU's CUDA ordinal; optional, CUDA only)},
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
#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "analysis/sweep.h"
#include "core/status.h"
#include "model/recording.h"

namespace fusescope::model {

inline constexpr char kSweepFormat[] = "fusescope-sweep";
inline constexpr int kSweepVersion = 1;

// The data source of a sweep's numbers: timing + model on a GPU, the CPU backend otherwise.
DataSource sweepDataSource(const SweepReport& report);
QString sweepDataSourceKey(const SweepReport& report);

// `producer` names the program: "fusescope-cli" or "fusescope" (its version is appended).
QJsonObject sweepDocument(const SweepReport& report, const SweepRequest& request,
                          const QString& producer);
// Written atomically (saveBytesAtomically); the error names the path.
Status saveSweepDocument(const QJsonObject& document, const QString& path);

// A sweep file read back. Regimes and residuals follow from the fits, as when it was measured.
struct SweepFile {
    SweepReport report;  // device.backend is cuda for timing + model, cpu for the CPU backend
    DataSource dataSource = DataSource::TimingModel;  // of the numbers, when they were measured
    int warmup = 0;
    int stepsPerOctave = 1;
    QString producer;  // empty when the file does not say
    QString created;
    QString description;  // optional "description": what the sweep shows, in words
};

// Errors are one line naming the file's problem and, for a bad field, its path
// ("series[1].points[3].time_ms").
Result<SweepFile> parseSweepFile(const QByteArray& json);
// As parseSweepFile; the error starts with the path.
Result<SweepFile> loadSweepFile(const QString& path);
// Whether the file says it is a sweep (its first few KiB name the format), without reading it all.
bool isSweepFile(const QString& path);

}  // namespace fusescope::model
