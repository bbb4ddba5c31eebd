#include "ui/stage/stage_export.h"

#include <QPainter>
#include <QThread>
#include <cmath>

#include "ui/export/export_save.h"
#include "ui/export/svg_bytes.h"
#include "ui/stage/gif_writer.h"
#include "worker/thread_exit_latch.h"

namespace fusescope {

QImage renderStageFrame(StageRenderer renderer, const QSize& size, qint64 stageNs) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    renderer.paint(painter, size, stageNs);
    return image;
}

StageExportResult exportStagePng(const StageRenderer& renderer, const QString& path,
                                 const QSize& size, qint64 stageNs) {
    if (!renderer.hasTimelines())
        return {false, QStringLiteral("nothing to export: no run on the stage")};
    if (size.isEmpty()) return {false, QStringLiteral("the export size is empty")};
    if (QString error = saveImageAsPng(renderStageFrame(renderer, size, stageNs), path);
        !error.isEmpty())
        return {false, error};
    return {true, path};
}

StageExportResult exportStageSvg(const StageRenderer& renderer, const QString& path,
                                 const QSize& size, qint64 stageNs) {
    if (!renderer.hasTimelines())
        return {false, QStringLiteral("nothing to export: no run on the stage")};
    if (size.isEmpty()) return {false, QStringLiteral("the export size is empty")};
    StageRenderer copy = renderer;
    const QByteArray bytes = paintSvgBytes<QPainter>(
        size, QStringLiteral("FuseScope memory stage"), stageCaptionLine(renderer.caption()),
        [&](QPainter& painter) {
            copy.paint(painter, size, stageNs, /*cacheStatic=*/false);  // vectors, not an image
        });
    if (QString error = saveExportBytes(bytes, path); !error.isEmpty()) return {false, error};
    return {true, path};
}

int stageGifFrameCount(const StageGifOptions& options) {
    return std::max(
        2, static_cast<int>(std::lround(options.playSeconds * options.framesPerSecond)) + 1);
}

StageExportResult exportStageGif(StageRenderer renderer, const QString& path,
                                 const StageGifOptions& options,
                                 const std::function<void(int, int)>& progress,
                                 const std::atomic<bool>* cancel) {
    if (!renderer.hasTimelines())
        return {false, QStringLiteral("nothing to export: no run on the stage")};
    GifWriter writer;
    if (QString error = writer.open(path, options.size); !error.isEmpty()) return {false, error};
    const int frames = stageGifFrameCount(options);
    const qint64 duration = renderer.durationNs();
    const int delay = std::max(2, static_cast<int>(std::lround(100.0 / options.framesPerSecond)));
    QImage image(options.size, QImage::Format_RGB32);
    for (int frame = 0; frame < frames; ++frame) {
        // The GIF is built in memory and saved by close(): stopping here leaves no file behind.
        if (cancel && cancel->load()) return {false, QStringLiteral("GIF export cancelled")};
        const qint64 time = duration * frame / (frames - 1);
        {
            QPainter painter(&image);
            renderer.paint(painter, options.size, time);
        }
        const bool last = frame == frames - 1;
        const int frameDelay =
            last ? std::max(delay, static_cast<int>(std::lround(options.holdLastSeconds * 100)))
                 : delay;
        if (QString error = writer.addFrame(image, frameDelay); !error.isEmpty())
            return {false, error};
        if (progress) progress(frame + 1, frames);
    }
    if (QString error = writer.close(); !error.isEmpty()) return {false, error};
    return {true, path};
}

StageGifExportJob::StageGifExportJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<fusescope::StageExportResult>();
    // Connected first, so every other receiver of finished sees the job ready for the next start
    // (the thread itself may still be ending; start joins it).
    connect(this, &StageGifExportJob::finished, this, [this] { exporting_ = false; });
}

StageGifExportJob::~StageGifExportJob() {
    cancel_ = true;
    joinThread();
}

void StageGifExportJob::joinThread() {
    if (!thread_) return;
    thread_->wait();
    threadExit_->waitForExit();
    delete thread_;
    thread_ = nullptr;
    threadExit_.reset();
}

bool StageGifExportJob::isRunning() const {
    return exporting_;
}

void StageGifExportJob::start(const StageRenderer& renderer, const QString& path,
                              const StageGifOptions& options) {
    if (isRunning()) return;
    joinThread();
    cancel_ = false;
    exporting_ = true;
    // The thread paints into QImages only; results come back as queued signals.
    thread_ = QThread::create([this, renderer, path, options]() {
        int lastPercent = -1;
        const StageExportResult result = exportStageGif(
            renderer, path, options,
            [this, &lastPercent](int done, int total) {
                const int percent = done * 100 / total;  // throttle to at most 100 signals
                if (percent != lastPercent) lastPercent = percent, emit progress(done, total);
            },
            &cancel_);
        emit finished(result);
    });
    threadExit_ = std::make_unique<ThreadExitLatch>();
    threadExit_->watch(*thread_);
    thread_->start();
}

void StageGifExportJob::cancel() {
    cancel_ = true;
}

}  // namespace fusescope
