#pragma once
// A job is a request, its progress and its result. Every kind of work the worker does is one
// alternative of JobRequest and travels the same path (RunWorker::execute): the same few signals
// tagged with the job's id, the same supersede and the same cancel. A new kind adds a command
// type here and a handler in the worker, never a signal.
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVector>
#include <variant>

#include "model/recording.h"
#include "worker/run_command.h"
#include "worker/sweep_command.h"
#include "worker/tile_command.h"

namespace fusescope {

// Unique per controller (and worker), increasing: a larger id is a newer request.
using JobId = quint64;

// Measures this CPU's speeds for run estimates with `threads` (0: every hardware thread) unless
// they are known already (worker/cpu_run_estimate.h). Finishes with the thread count.
struct CalibrationCommand {
    int threads = 0;
};
// Describes the backends of this machine. Finishes with a BackendSummary.
struct ProbeCommand {};
// The self-test's probe (a small run of every pipeline). Finishes with a MachineProbe.
struct SelfTestCommand {
    QStringList recordingFolders;
};

// One alternative per kind, in JobKind's order.
using JobRequest =
    std::variant<RunCommand, SweepCommand, TileRunCommand, TileSweepCommand, TileReportCommand,
                 CalibrationCommand, ProbeCommand, SelfTestCommand>;

enum class JobKind { Run, Sweep, TileRun, TileSweep, TileReport, Calibration, Probe, SelfTest };
inline constexpr int kJobKinds = static_cast<int>(JobKind::SelfTest) + 1;
static_assert(std::variant_size_v<JobRequest> == kJobKinds);

inline JobKind kindOf(const JobRequest& request) {
    return static_cast<JobKind>(request.index());
}

// Progress updates a job sends (inside the QVariant of jobProgress), besides the engine's own
// values that travel as they are (model::VariantResult, SweepPointUpdate, TileSweepProgress).
// A stage of the work: "timing fused · 2 s left" at `fraction` (0..1).
struct JobStage {
    double fraction = 0.0;
    QString stage;
};
// Live bandwidth of a measured run: PM samples and timeline spans of one variant, in batches.
struct SampleBatch {
    QString variant;
    QVector<BandwidthSample> samples;
    QVector<fusescope::TimelineSpan> spans;
};
// A tile sweep's cell as soon as it is known (refused ones too), `index` in configurationsOf
// order.
struct TileCellUpdate {
    tiles::TileCell cell;
    int index = 0;
};

}  // namespace fusescope

Q_DECLARE_METATYPE(fusescope::JobRequest)
Q_DECLARE_METATYPE(fusescope::JobKind)
Q_DECLARE_METATYPE(fusescope::JobStage)
Q_DECLARE_METATYPE(fusescope::SampleBatch)
Q_DECLARE_METATYPE(fusescope::TileCellUpdate)
