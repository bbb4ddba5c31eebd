#pragma once
// The memory stage's timeline: what one run did to HBM, as plain data on one time axis. Built
// from a VariantResult and the registry's pass model; painted by app/ui/stage, tested headless.
//
// Stage time (ns) has three parts: an allocation phase where the variant's buffers appear, the
// kernels with their measured durations (and measured gaps when a device timeline exists), and a
// free phase. The two phases are presentation only (the host-clock allocations of a timed run
// span all repeats); they have the same length on both sides of a side-by-side pair.
#include <QString>
#include <QVector>

#include "core/status.h"
#include "model/recording.h"
#include "model/run_traffic.h"

namespace fusescope::model {

enum class StageArrayRole { Input, Output, Scratch };

struct StageArray {
    QString name;
    quint64 bytes = 0;
    StageArrayRole role = StageArrayRole::Input;
    bool isIntermediate = false;  // the pipeline's intermediate ("scratch", "tmp")
    qint64 allocatedAtNs = 0;
    qint64 freedAtNs = 0;
    // True when the time was placed in the allocation (free) phase rather than measured
    // between kernels on the device timeline.
    bool allocatedInPhase = true;
    bool freedInPhase = true;
    bool existsAt(qint64 stageNs) const { return stageNs >= allocatedAtNs && stageNs < freedAtNs; }
};

// One pass: a full sweep over one array, read or written, by one kernel (or one loop of it).
struct StageSweep {
    int kernel = 0;
    int array = 0;
    bool write = false;
    qint64 startNs = 0;
    qint64 endNs = 0;
    quint64 bytes = 0;
};

struct StageKernel {
    QString name;
    qint64 startNs = 0;
    qint64 endNs = 0;
    quint64 bytesRead = 0;  // requested, by the traffic model (re-reads included)
    quint64 bytesWritten = 0;
    // Read and written in DRAM: measured, or the model's distinct bytes (StageTimeline's
    // dramSource).
    double dramRead = 0.0;
    double dramWritten = 0.0;
    // Fused: the pipeline's intermediate is computed here and consumed from a register.
    bool holdsIntermediateInRegisters = false;
    double dramBytes() const { return dramRead + dramWritten; }
    double dramGBps() const {
        return endNs > startNs ? dramBytes() / double(endNs - startNs) : 0.0;
    }
};

struct StageTimeline {
    QString pipeline;
    QString variant;
    QString variantTitle;
    bool fused = false;
    QString intermediate;  // the pipeline's intermediate value's name
    // True where the pipeline counts traffic in whole-array passes (modelPasses); the stage
    // counts bytes otherwise.
    bool passesCounted = true;
    QVector<StageArray> arrays;
    QVector<StageKernel> kernels;
    QVector<StageSweep> sweeps;  // ordered by start time
    int modelPasses = 0;         // declared: one a sweep
    // The run's passes (shownPasses in run_passes.h; modelPasses where it has none): the pass
    // counter's total, which the sweeps reach at the end.
    int passes = 0;
    quint64 modelBytesRead = 0;  // requested, by the traffic model (re-reads included)
    quint64 modelBytesWritten = 0;
    // What reached DRAM, and from where the figure comes (run_traffic.h): the stage's bytes box
    // counts these, and the requests beyond them apart, as served by the L1 and L2.
    double dramBytes = 0.0;
    DramSource dramSource = DramSource::Unknown;
    quint64 peakBytesInFlight = 0;  // the tracker's figure when recorded, else from the arrays
    double measuredTimeMs = 0.0;    // VariantResult::timeMs
    bool timesFromDeviceTimeline = false;  // false: kernels laid out from per-kernel medians
    DataSource timingSource = DataSource::TimingModel;

    qint64 kernelsStartNs = 0;  // end of the allocation phase
    qint64 kernelsEndNs = 0;    // start of the free phase
    qint64 endNs = 0;
    // The run's own clock at the first kernel's start (0 when laid out from medians): charts
    // drawn on that clock convert with toRunClockNs / fromRunClockNs.
    qint64 runClockKernelsStartNs = 0;

    qint64 allocationPhaseNs() const { return kernelsStartNs; }
    qint64 kernelSpanNs() const { return kernelsEndNs - kernelsStartNs; }
    int arrayIndex(const QString& name) const;
    qint64 toRunClockNs(qint64 stageNs) const;
    qint64 fromRunClockNs(qint64 runNs) const;
    // Index of the first kernel that starts after stageNs, or -1.
    int nextKernelAfter(qint64 stageNs) const;
    int previousKernelBefore(qint64 stageNs) const;
};

struct StageTimelineOptions {
    // Allocation and free phases as a fraction of the kernel span; 0.12 keeps them visible
    // without stealing the run's time.
    double phaseFraction = 0.12;
};

// Fails with a readable message when the run names a pipeline or variant the registry lacks.
Result<StageTimeline> buildStageTimeline(const VariantResult& run,
                                         const StageTimelineOptions& options = {});

// Which runs of a recording the stage shows by default: the first unfused and the first fused
// run of the first run's pipeline (left and right); -1 where there is none.
struct StageRunPair {
    int left = -1;
    int right = -1;
};
StageRunPair defaultStageRunPair(const Recording& recording);

// Puts two timelines on one time scale: both get the same allocation and free phases (a fraction
// of the longer kernel span), so their kernels start together and the faster one ends first.
void alignStageTimelines(StageTimeline& left, StageTimeline& right,
                         const StageTimelineOptions& options = {});

}  // namespace fusescope::model
