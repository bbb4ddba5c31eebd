#include "model/pipeline_watcher.h"

#include "pipelines/runtime_registry.h"

namespace fusescope::model {

PipelineWatcher::PipelineWatcher(QObject* parent) : QObject(parent) {
    // Queued, so that the registering thread never runs a view's code, nor inside the registry.
    watch_ = watchPipelines([this] {
        if (pending_.exchange(true)) return;
        QMetaObject::invokeMethod(
            this,
            [this] {
                pending_ = false;
                emit changed();
            },
            Qt::QueuedConnection);
    });
}

PipelineWatcher::~PipelineWatcher() {
    unwatchPipelines(watch_);
}

}  // namespace fusescope::model
