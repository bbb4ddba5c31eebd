#pragma once
// What a running job sees of the worker: whether it is still wanted, and where its start and
// progress go. The worker's handlers and observers take this instead of the worker, so every
// kind reports through the same signals under its own id.
#include <QString>
#include <QVariant>

#include "worker/job.h"

namespace fusescope {

class RunWorker;

class JobContext {
  public:
    JobContext(RunWorker& worker, JobId id, JobKind kind) : worker_(worker), id_(id), kind_(kind) {}

    JobId id() const { return id_; }
    JobKind kind() const { return kind_; }
    // A newer job of the same lane was started: deliver nothing more.
    bool stale() const;
    // Stale or cancelled: stop at the next check.
    bool cancelled() const;
    // The job took the backend; `note` says which and, for auto, why.
    void started(const QString& note) const;
    // A progress update (job.h lists the kinds of value), dropped once the job is stale.
    void progress(const QVariant& update) const;

  private:
    RunWorker& worker_;
    JobId id_;
    JobKind kind_;
};

}  // namespace fusescope
