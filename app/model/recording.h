#pragma once
// A recording: what one or more runs measured, as plain values. The CLI writes it as JSON, the
// GUI opens it, and every chart, table and animation is drawn from it.
#include <QString>
#include <QVector>
#include <optional>

#include "pipelines/pipeline_description.h"
#include "pipelines/problem.h"
#include "runtime/runner.h"

namespace fusescope::model {

using fusescope::Problem;

inline constexpr char kRecordingFormat[] = "fusescope-recording";
// 2: a run names its problem (dimensions, dtype, tuning) instead of N and a vector width, and
// carries FLOPs and its check's measure. Version 1 files still open (as N float32 elements).
inline constexpr int kRecordingVersion = 2;

// Where a number came from. Shown as a badge on every chart and table.
enum class DataSource {
    Counters,     // hardware counters (CUPTI Range Profiler / PM sampling)
    TimingModel,  // CUDA-event timing plus the pass model
    CpuBackend,   // executed and timed on the CPU
    Replay        // read back from a recording file
};
QString dataSourceKey(DataSource source);    // "counters", "timing+model", "cpu", "replay"
QString dataSourceLabel(DataSource source);  // "measured counters", "timing + model", ...
std::optional<DataSource> dataSourceFromKey(const QString& key);

// Which source produced each group of numbers of a run.
struct RunDataSources {
    DataSource timing = DataSource::TimingModel;
    std::optional<DataSource> counters;  // set when counters were measured
    std::optional<DataSource> samples;   // set when PM samples were taken
};

struct RunRecord {
    QString pipeline;
    QString variant;
    Problem problem;  // dimensions, dtype and tuning, as the registry declares them
    QString backend;  // "cuda" or "cpu"
    int passes = 0;   // whole-array sweeps, where the pipeline counts passes
    bool passesCounted = true;
    quint64 modelBytesRead = 0;
    quint64 modelBytesWritten = 0;
    double modelFlops = 0.0;
    double timeMs = 0.0;  // the kernels back to back
    QVector<double> repeatTimesMs;
    // The kernels' times summed, each timed between its own events (timeMs for one kernel, and
    // for recordings made before chains were timed back to back).
    double kernelsApartTimeMs = 0.0;
    quint64 peakBytesInFlight = 0;
    QString checkMeasure;  // "max relative error", "relative Frobenius error over 8 of 512 rows"
    double maxRelError = 0.0;  // the check's error, in checkMeasure's terms
    double checkTolerance = 0.0;
    quint64 unwrittenElements = 0;
    quint64 outputElements = 0;
    quint64 comparedElements = 0;  // against the reference: all, or a sample of a large output
    bool checkOk = false;
    // Where a failed check is wrong, as the run found it (not kept in files): the output, and
    // its element. Empty where it passed or the pipeline does not say.
    QString wrongOutput;
    WrongElement wrongElement;
    QVector<KernelResult> kernels;
    QVector<AllocationEvent> allocations;  // host clock, ns since the run began
    QVector<TimelineSpan> timeline;        // device clock (the engine's spans)
    QVector<BandwidthSample> samples;      // PM sampling, as the rates the file stores
    // Samples the run had before its idle stretches were merged (sample_thinning.h); 0 when
    // they are as recorded.
    qsizetype samplesBeforeThinning = 0;
    RunDataSources dataSource;

    // Requested bytes (every re-read counted) and executed FLOPs over the time; run_traffic.h
    // gives the DRAM bytes and useful FLOPs the results views show.
    double effectiveGBps() const {
        return timeMs > 0 ? (modelBytesRead + modelBytesWritten) / (timeMs * 1e6) : 0.0;
    }
    double achievedTflops() const { return timeMs > 0 ? modelFlops / (timeMs * 1e9) : 0.0; }
};

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
    QVector<RunRecord> runs;
    // The pipelines defined at run time that the runs name, as data: opening the recording
    // registers them again (recorded_pipelines.h), in a program that never defined them.
    QVector<PipelineDescription> pipelineDescriptions;
    bool replayed = false;  // set by the loader, never saved: the numbers come from a file
};

}  // namespace fusescope::model
