#pragma once
// A recording: what one or more runs measured, as plain values. The CLI writes it as JSON, the
// GUI opens it, and every chart, table and animation is drawn from it.
#include <QDateTime>
#include <QString>
#include <QVector>
#include <optional>
#include <vector>

#include "model/qt_text.h"
#include "pipelines/pipeline_description.h"
#include "pipelines/problem.h"
#include "runtime/runner.h"

namespace fusescope::model {

using fusescope::MeasurementSource;
using fusescope::Problem;
using fusescope::VariantNotRun;
using fusescope::VariantResult;

inline constexpr char kRecordingFormat[] = "fusescope-recording";
// 2: a run names its problem (dimensions, dtype, tuning) instead of N and a vector width, and
// carries FLOPs and its check's measure. Version 1 files still open (as N float32 elements).
inline constexpr int kRecordingVersion = 2;

// Where a number came from. Shown as a badge on every chart and table.
enum class DataSource {
    Counters,     // hardware counters (CUPTI Range Profiler / PM sampling)
    TimingModel,  // CUDA-event timing plus the pass model
    CpuBackend,   // executed and timed on the CPU
    Replay        // read back from a recording file: a badge only, no file names it
};
QString dataSourceKey(DataSource source);    // "counters", "timing+model", "cpu", "replay"
QString dataSourceLabel(DataSource source);  // "measured counters", "timing + model", ...
std::optional<DataSource> dataSourceFromKey(const QString& key);

// The badge of a number the engine measured (a file keeps the same keys).
DataSource dataSourceFrom(MeasurementSource source);

struct Recording {
    QString format = kRecordingFormat;
    int version = kRecordingVersion;
    QString createdAt;  // ISO 8601
    QString producer;   // "fusescope-cli 0.1.0"
    // Optional, in words: what the recording shows (shipped recordings carry one). Empty when
    // the file has none; the catalog then derives one from the runs.
    QString description;
    // The engine's report types (kernels/runtime/runner.h), as the run produced them.
    DeviceInfo device;
    RooflineResult roofline;
    std::optional<ComputeRoofResult> computeRoof;  // absent where none was measured
    std::string counterStatus;  // empty, or why counters were not measured, in words
    // Variants asked for but not run here, with the reason (the runner's report).
    std::vector<VariantNotRun> variantsNotRun;
    // The engine's result of each variant run, as the runner produced it or the file kept it.
    std::vector<VariantResult> runs;
    // The pipelines defined at run time that the runs name, as data: opening the recording
    // registers them again (recorded_pipelines.h), in a program that never defined them.
    QVector<PipelineDescription> pipelineDescriptions;
    bool replayed = false;  // set by the loader, never saved: the numbers come from a file
};

// Who made a recording and when: the file's metadata beside the runner's report.
struct RecordingOrigin {
    QString producer;  // producerString(): the program and its version
    QDateTime createdAt = QDateTime::currentDateTimeUtc();
};

// The runs as an int, for the views' row and index arithmetic (a file holds at most 32).
inline int runCount(const Recording& recording) {
    return static_cast<int>(recording.runs.size());
}

// The runner's report with the file's metadata: the program, the time, the run-time pipelines.
Recording recordingFrom(const RunReport& report, const RecordingOrigin& origin);
// The same, made now by `program` ("fusescope", "fusescope-cli") of this build.
Recording recordingMadeNowBy(const RunReport& report, const QString& program);

}  // namespace fusescope::model
