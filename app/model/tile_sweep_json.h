#pragma once
// The tile sweep file, format "fusescope-tiles" version 1: written by `fusescope-cli tiles` and
// the explorer, read back by the explorer (and shipped in resources/recordings/). This is the
// only reader and writer; it converts the engine's TileSweep (kernels/tiles/tile_types.h) and
// nothing else.
//
// {
//   "format": "fusescope-tiles", "version": 1, "producer", "created",
//   "pipeline": "mlp", "variant": "lesson_fused", "dtype": "bfloat16",
//   "dimensions": {"M": 512, "H": 1024, "I": 2816}, "base_tuning": {"block_m": 32, ...},
//   "axes": [{"tuning": "block_m", "values": [16, 32, 64]}],
//   "repeats", "warmup", "seed", "references_requested",
//   "device": {"name", "live", "compute_capability": "9.0", "multiprocessors",
//              "max_threads_per_block", "max_threads_per_sm", "max_blocks_per_sm",
//              "registers_per_sm", "max_registers_per_thread", "shared_bytes_per_block",
//              "shared_bytes_per_sm", "reserved_shared_bytes_per_block",
//              "copy_gbps", "copy_source", "compute_tflops", "compute_source",
//              "driver", "runtime", "compiler"},
//   "compile_wall_ms", "total_wall_ms", "modules_compiled", "modules_cached", "cancelled",
//   "references": [{"variant", "title", "time", "model_bytes", "model_flops", "check_ok"}],
//   "cells": [{"tuning": {"block_m": 64, ...},
//              "refusal": {"kind": "shared_memory", "reason": "..."} | null,
//              "launch": {"kernel", "threads", "grid_x", "grid_y", "blocks",
//                         "dynamic_shared_bytes", "stages"},
//              "compiled": {"registers", "local_bytes", "static_shared_bytes", "max_threads",
//                           "blocks_per_sm", "occupancy", "origin", "compile_ms",
//                           "choice" (optional)} | null,
//              "model_bytes", "model_flops", "predicted_ms", "predicted_bound", "idle_sms",
//              "waves", "grid_words", "measured", "time", "gbps", "tflops", "requested_bytes",
//              "dram_bytes": number | null, "check_ok", "check_error", "check_tolerance",
//              "error", "limiters": ["spills 96 B/thread", ...], "best", "tied",
//              "peer_time": time (optional), "peer_note": "Triton refused: ..." (optional),
//              "peer_kernel": {"threads", "registers", "local_bytes", "shared_bytes",
//                              "blocks_per_sm" (0: not known)} (optional)}],
//   "peer": {"name": "Triton 3.6.0", "source": "what was timed, where, when"} (optional)
// }
// A "time" is {"median_ms", "q1_ms", "q3_ms", "min_ms", "max_ms", "repeats"}.
// Readers ignore keys they do not know; a change that breaks readers raises the version.
#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "core/status.h"
#include "tiles/tile_types.h"

namespace fusescope::model {

inline constexpr char kTileSweepFormat[] = "fusescope-tiles";
inline constexpr int kTileSweepVersion = 1;

// What a tile sweep may hold. The explorer draws a map of the first two axes' values, one cell
// each, so these bound its memory and drawing; real sweeps hold 3 axes of at most 8 values.
inline constexpr qsizetype kMaxTileAxes = 8;
inline constexpr qsizetype kMaxTileAxisValues = 64;
inline constexpr qsizetype kMaxTileCells = 4096;
inline constexpr qsizetype kMaxTileReferences = 64;
inline constexpr qsizetype kMaxTileLimiters = 64;

QJsonObject tileSweepDocument(const tiles::TileSweep& sweep);
// Written atomically (saveBytesAtomically); the error names the path.
Status saveTileSweep(const tiles::TileSweep& sweep, const QString& path);

// Errors are one line naming the problem and, for a bad field, its path ("cells[3].time").
Result<tiles::TileSweep> parseTileSweep(const QByteArray& json);
// As parseTileSweep; the error starts with the path.
Result<tiles::TileSweep> loadTileSweep(const QString& path);
// Whether the file says it is a tile sweep (its first few KiB name the format).
bool isTileSweepFile(const QString& path);

}  // namespace fusescope::model
