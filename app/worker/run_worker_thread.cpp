#include "worker/run_worker_thread.h"

#include "worker/run_worker.h"

namespace fusescope {

RunWorkerThread::RunWorkerThread(std::unique_ptr<RunWorker> worker) : worker_(worker.release()) {
    thread_.setObjectName(QStringLiteral("fusescope-worker"));
    worker_->moveToThread(&thread_);
    QObject::connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    exit_.watch(thread_);
    thread_.start();
}

RunWorkerThread::~RunWorkerThread() {
    worker_->jobs().cancelAll();
    thread_.quit();
    thread_.wait();
    exit_.waitForExit();
}

}  // namespace fusescope
