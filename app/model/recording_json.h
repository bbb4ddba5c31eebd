#pragma once
// A Recording as JSON: format "fusescope-recording", version kRecordingVersion (version 1 still
// opens), keys in snake_case. Byte counts are written as exact integers and must not exceed 2^53
// (the largest integer a JSON number holds exactly in every reader). Loading ignores unknown
// keys, accepts files without the measurement keys (timeline, samples, counters), and marks the
// recording as replayed.
#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "core/status.h"
#include "model/recording.h"

namespace fusescope::model {

// The key a file gives a group of numbers the engine measured: "counters", "timing+model", "cpu".
QString measurementSourceKey(MeasurementSource source);

// Fails when a 64-bit count exceeds 2^53, naming the field.
Result<QJsonObject> recordingToJson(const Recording& recording);
Result<QByteArray> recordingToJsonBytes(const Recording& recording);
// Written atomically (saveBytesAtomically): a failed save leaves the previous file as it was.
Status saveRecording(const Recording& recording, const QString& path);

// Reading registers nothing, so listing or checking a file leaves the registry as it was; opening
// one registers the pipelines it carries (openRecording, model/recorded_pipelines.h).
// `sourceName` (usually the file name) starts every error message.
Result<Recording> recordingFromJson(const QByteArray& json, const QString& sourceName);
// Refuses special files and files over kMaxRecordingBytes before reading (readFileLimited).
Result<Recording> loadRecording(const QString& path);

}  // namespace fusescope::model
