#include "worker/run_controller.h"

#include <QMetaObject>
#include <functional>

#include "worker/run_worker.h"

namespace fusescope {
namespace {

int slot(JobKind kind) {
    return static_cast<int>(kind);
}

// Every kind, to walk a lane.
constexpr std::array<JobKind, kJobKinds> kKinds{
    JobKind::Run,        JobKind::Sweep,       JobKind::TileRun, JobKind::TileSweep,
    JobKind::TileReport, JobKind::Calibration, JobKind::Probe,   JobKind::SelfTest};

bool holdsDevice(JobKind kind) {
    return JobTracker::shareLane(kind, JobKind::Run);
}

}  // namespace

RunController::RunController(QObject* parent)
    : JobEvents(parent), workerThread_(std::make_unique<RunWorker>()) {
    RunWorker* const worker = workerThread_.worker();
    connect(worker, &RunWorker::jobStarted, this, &RunController::onStarted);
    connect(worker, &RunWorker::jobProgress, this, &RunController::onProgress);
    // A job's end, for the job the controller still has for its kind: relayed to the views, then
    // signalled, then its kind is free.
    const auto onEnd = [this](auto relay, auto signal) {
        return [this, relay, signal](JobId id, JobKind kind, const auto& payload) -> void {
            if (!close(id, kind)) return;
            std::invoke(relay, this, kind, payload);
            emit std::invoke(signal, this, id, kind, payload);
            ended(kind);
        };
    };
    connect(worker, &RunWorker::jobFinished, this,
            onEnd(&RunController::relayFinished, &RunController::jobFinished));
    connect(worker, &RunWorker::jobFailed, this,
            onEnd(&RunController::relayFailed, &RunController::jobFailed));
    connect(worker, &RunWorker::jobCancelled, this,
            onEnd(&RunController::relayCancelled, &RunController::jobCancelled));
}

RunController::~RunController() = default;

JobId RunController::start(const JobRequest& request) {
    const JobKind kind = kindOf(request);
    for (const JobKind other : kKinds)
        if (JobTracker::shareLane(kind, other)) open_[slot(other)] = false;
    const JobId id = worker()->enqueue(request);
    newest_[slot(kind)] = id;
    open_[slot(kind)] = true;
    if (holdsDevice(kind)) emit busyChanged();
    return id;
}

bool RunController::isCurrent(JobId id, JobKind kind) const {
    // Probes and self-tests are never superseded: every answer counts, asked for or not (the
    // worker probes again when a GPU stops answering).
    if (!JobTracker::shareLane(kind, kind)) return true;
    return newest_[slot(kind)] == id && open_[slot(kind)];
}

bool RunController::close(JobId id, JobKind kind) {
    if (!isCurrent(id, kind)) return false;
    if (newest_[slot(kind)] == id) open_[slot(kind)] = false;
    return true;
}

void RunController::ended(JobKind kind) {
    if (holdsDevice(kind)) emit busyChanged();
}

bool RunController::isBusyWith(JobKind kind) const {
    return open_[slot(kind)];
}

JobId RunController::activeJob(JobKind kind) const {
    for (const JobKind other : kKinds)
        if ((other == kind || JobTracker::shareLane(kind, other)) && open_[slot(other)])
            return newest_[slot(other)];
    return 0;
}

void RunController::onStarted(JobId id, JobKind kind, const QString& note) {
    if (!isCurrent(id, kind)) return;
    emit jobStarted(id, kind, note);
    relayStarted(kind, note);
}

void RunController::onProgress(JobId id, JobKind kind, const QVariant& update) {
    if (!isCurrent(id, kind)) return;
    emit jobProgress(id, kind, update);
    relayProgress(kind, update);
}

void RunController::cancel(JobId id) {
    worker()->jobs().cancel(id);
}

void RunController::cancel() {
    worker()->jobs().cancel(JobKind::Run);
}

void RunController::submit(const RunCommand& command) {
    start(command);
}

void RunController::submitSweep(const SweepCommand& command) {
    start(command);
}

void RunController::probe() {
    start(ProbeCommand{});
}

void RunController::measureCpuSpeeds(int threads) {
    start(CalibrationCommand{threads});
}

void RunController::selfTest(const QStringList& recordingFolders) {
    start(SelfTestCommand{recordingFolders});
}

}  // namespace fusescope
