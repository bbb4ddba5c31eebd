#pragma once
// Which jobs are current and which are cancelled, shared by the thread that asks and the worker
// thread that runs them (as hotspot's JobTracker and RenderDoc's tagged invoke tag each request).
// Kinds that compete for one resource share a lane: a newer job in a lane supersedes every
// older one there, whether still queued (it is skipped) or running (it stops at its next check
// and delivers nothing). Runs, sweeps, tile runs and tile sweeps share the device; reports and
// calibrations each have a lane of their own; probes and self-tests are never superseded.
#include <array>
#include <atomic>

#include "worker/job.h"

namespace fusescope {

class JobTracker {
  public:
    // A new id for a job of `kind`: every older job of its lane is stale from now on.
    JobId start(JobKind kind);
    // A newer job of the same lane was started.
    bool isStale(JobId id, JobKind kind) const;
    // Stale, or cancelled by cancel().
    bool isCancelled(JobId id, JobKind kind) const;
    // Cancels the newest job of the kind's lane.
    void cancel(JobKind kind);
    // Cancels this job if it is the newest of its lane (an older one is stale already).
    void cancel(JobId id);
    void cancelAll();
    // Whether two kinds supersede each other.
    static bool shareLane(JobKind a, JobKind b);

  private:
    enum class Lane { Device, Report, Calibration, Unsuperseded };
    static constexpr int kLanes = static_cast<int>(Lane::Unsuperseded) + 1;
    static Lane laneOf(JobKind kind);
    static int index(Lane lane) { return static_cast<int>(lane); }

    std::atomic<JobId> lastId_{0};
    std::array<std::atomic<JobId>, kLanes> newest_{};
    std::array<std::atomic<JobId>, kLanes> cancelledUpTo_{};
};

}  // namespace fusescope
