#include "worker/run_controller.h"

#include <QMetaObject>

#include "worker/run_worker.h"

namespace fusescope {

RunController::RunController(QObject* parent) : QObject(parent), worker_(new RunWorker) {
    thread_.setObjectName(QStringLiteral("fusescope-worker"));
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);

    connect(worker_, &RunWorker::backendsProbed, this, &RunController::backendsProbed);
    connect(worker_, &RunWorker::selfTestFinished, this, &RunController::selfTestFinished);
    connect(worker_, &RunWorker::cpuSpeedsMeasured, this, &RunController::cpuSpeedsMeasured);
    connect(worker_, &RunWorker::runStarted, this, [this](quint64 generation, QString note) {
        if (isCurrent(generation)) emit runStarted(note);
    });
    connect(worker_, &RunWorker::progress, this,
            [this](quint64 generation, double fraction, QString stage) {
                if (isCurrent(generation) && running_) emit progress(fraction, stage);
            });
    connect(worker_, &RunWorker::variantFinished, this,
            [this](quint64 generation, model::RunRecord record) {
                if (isCurrent(generation) && running_) emit variantFinished(record);
            });
    connect(worker_, &RunWorker::samplesArrived, this,
            [this](quint64 generation, QString variant, QVector<model::SampleRecord> samples,
                   QVector<model::TimelineSpan> spans) {
                if (isCurrent(generation) && running_) emit samplesArrived(variant, samples, spans);
            });
    connect(worker_, &RunWorker::runFinished, this,
            [this](quint64 generation, model::Recording recording) {
                if (!isCurrent(generation)) return;
                running_ = false;
                emit runFinished(recording);
                ended();
            });
    connect(worker_, &RunWorker::runFailed, this, [this](quint64 generation, QString message) {
        if (!isCurrent(generation)) return;
        running_ = false;
        emit runFailed(message);
        ended();
    });
    connect(worker_, &RunWorker::cancelled, this, [this](quint64 generation) {
        if (!isCurrent(generation)) return;
        running_ = false;
        emit cancelled();
        ended();
    });
    connectSweepSignals();
    connectTileSignals();
    thread_.start();
}

void RunController::connectSweepSignals() {
    connect(worker_, &RunWorker::sweepStarted, this, [this](quint64 generation, QString note) {
        if (isCurrent(generation)) emit sweepStarted(note);
    });
    connect(worker_, &RunWorker::sweepProgress, this,
            [this](quint64 generation, double fraction, QString stage) {
                if (isCurrent(generation) && running_) emit sweepProgress(fraction, stage);
            });
    connect(worker_, &RunWorker::sweepPointMeasured, this,
            [this](quint64 generation, SweepPointUpdate update) {
                if (isCurrent(generation) && running_) emit sweepPointMeasured(update);
            });
    connect(worker_, &RunWorker::sweepFinished, this,
            [this](quint64 generation, SweepOutcome outcome) {
                if (!isCurrent(generation)) return;
                running_ = false;
                emit sweepFinished(outcome);
                ended();
            });
    connect(worker_, &RunWorker::sweepFailed, this, [this](quint64 generation, QString message) {
        if (!isCurrent(generation)) return;
        running_ = false;
        emit sweepFailed(message);
        ended();
    });
    connect(worker_, &RunWorker::sweepCancelled, this, [this](quint64 generation) {
        if (!isCurrent(generation)) return;
        running_ = false;
        emit sweepCancelled();
        ended();
    });
}

RunController::~RunController() {
    worker_->requestCancel();
    thread_.quit();
    thread_.wait();
}

void RunController::submit(const RunCommand& command) {
    started(Job::Run);
    QMetaObject::invokeMethod(worker_, "run", Qt::QueuedConnection,
                              Q_ARG(fusescope::RunCommand, command), Q_ARG(quint64, generation_));
}

void RunController::submitSweep(const SweepCommand& command) {
    started(Job::Sweep);
    QMetaObject::invokeMethod(worker_, "sweep", Qt::QueuedConnection,
                              Q_ARG(fusescope::SweepCommand, command), Q_ARG(quint64, generation_));
}

void RunController::started(Job job) {
    generation_ = worker_->nextGeneration();
    running_ = true;
    job_ = job;
    emit busyChanged();
}

void RunController::ended() {
    emit busyChanged();
}

void RunController::probe() {
    QMetaObject::invokeMethod(worker_, "probe", Qt::QueuedConnection);
}

void RunController::measureCpuSpeeds(int threads) {
    QMetaObject::invokeMethod(worker_, "measureCpuSpeeds", Qt::QueuedConnection,
                              Q_ARG(int, threads));
}

void RunController::selfTest(const QStringList& recordingFolders) {
    QMetaObject::invokeMethod(worker_, "selfTest", Qt::QueuedConnection,
                              Q_ARG(QStringList, recordingFolders));
}

void RunController::cancel() {
    worker_->requestCancel();
}

}  // namespace fusescope
