#pragma once
// The five signals of a job's life, tagged with its id and kind. The worker emits them for every
// job it runs; the controller emits the same five for the newest job of each lane only, so a view
// listens to the controller as it would to the worker.
#include <QObject>
#include <QString>
#include <QVariant>

#include "worker/job.h"

namespace fusescope {

class JobEvents : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;

  signals:
    // `note` says which backend runs and, for auto, why (empty for kinds without a backend).
    void jobStarted(fusescope::JobId id, fusescope::JobKind kind, QString note);
    // JobStage, model::VariantResult, SampleBatch, SweepPointUpdate, TileSweepProgress or
    // TileCellUpdate, as the kind sends them.
    void jobProgress(fusescope::JobId id, fusescope::JobKind kind, QVariant update);
    // model::Recording, SweepOutcome, TileRunOutcome, tiles::TileSweep, TileReportOutcome, the
    // calibrated thread count, BackendSummary or selftest::MachineProbe, by kind.
    void jobFinished(fusescope::JobId id, fusescope::JobKind kind, QVariant result);
    void jobFailed(fusescope::JobId id, fusescope::JobKind kind, QString message);
    // `partial`: what was done before the cancel where the kind keeps it (a tile sweep's cells).
    void jobCancelled(fusescope::JobId id, fusescope::JobKind kind, QVariant partial);
};

}  // namespace fusescope
