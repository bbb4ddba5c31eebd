#include "worker/job_tracker.h"

namespace fusescope {

JobTracker::Lane JobTracker::laneOf(JobKind kind) {
    switch (kind) {
        case JobKind::Run:
        case JobKind::Sweep:
        case JobKind::TileRun:
        case JobKind::TileSweep:
            return Lane::Device;
        case JobKind::TileReport:
            return Lane::Report;
        case JobKind::Calibration:
            return Lane::Calibration;
        case JobKind::Probe:
        case JobKind::SelfTest:
            break;
    }
    return Lane::Unsuperseded;
}

bool JobTracker::shareLane(JobKind a, JobKind b) {
    return laneOf(a) == laneOf(b) && laneOf(a) != Lane::Unsuperseded;
}

JobId JobTracker::start(JobKind kind) {
    const JobId id = ++lastId_;
    newest_[index(laneOf(kind))].store(id);
    return id;
}

bool JobTracker::isStale(JobId id, JobKind kind) const {
    const Lane lane = laneOf(kind);
    return lane != Lane::Unsuperseded && id != newest_[index(lane)].load();
}

bool JobTracker::isCancelled(JobId id, JobKind kind) const {
    return isStale(id, kind) || id <= cancelledUpTo_[index(laneOf(kind))].load();
}

void JobTracker::cancel(JobKind kind) {
    const int lane = index(laneOf(kind));
    cancelledUpTo_[lane].store(newest_[lane].load());
}

void JobTracker::cancel(JobId id) {
    for (int lane = 0; lane < kLanes; ++lane)
        if (newest_[lane].load() == id) cancelledUpTo_[lane].store(id);
}

void JobTracker::cancelAll() {
    for (int lane = 0; lane < kLanes; ++lane) cancelledUpTo_[lane].store(lastId_.load());
}

}  // namespace fusescope
