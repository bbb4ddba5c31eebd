#pragma once
// Export of the memory stage for lesson material: the current frame as PNG or SVG at a chosen
// size, and the whole (side-by-side) animation as an animated GIF. Each frame carries the
// caption (GPU, N, dtype, data source) because the renderer paints it into every frame.
#include <QObject>
#include <QSize>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "ui/stage/stage_renderer.h"

class QThread;

namespace fusescope {

class ThreadExitLatch;

struct StageExportResult {
    bool ok = false;
    QString message;  // the file written, or what went wrong
};

QImage renderStageFrame(StageRenderer renderer, const QSize& size, qint64 stageNs);
StageExportResult exportStagePng(const StageRenderer& renderer, const QString& path,
                                 const QSize& size, qint64 stageNs);
StageExportResult exportStageSvg(const StageRenderer& renderer, const QString& path,
                                 const QSize& size, qint64 stageNs);

struct StageGifOptions {
    QSize size{960, 540};
    double playSeconds = 10.0;  // the whole run, as the player would show it
    int framesPerSecond = 12;
    double holdLastSeconds = 2.0;  // the last frame stays up before the loop restarts
};
// Frames from stage time 0 to the end inclusive, evenly spaced.
int stageGifFrameCount(const StageGifOptions& options);

// Paints every frame into a QImage (allowed off the GUI thread) and writes it through giflib.
// progress(done, total) is called after each frame; a set `cancel` stops it and removes the file.
StageExportResult exportStageGif(StageRenderer renderer, const QString& path,
                                 const StageGifOptions& options,
                                 const std::function<void(int, int)>& progress = {},
                                 const std::atomic<bool>* cancel = nullptr);

// Runs exportStageGif on a thread of its own so the UI stays live; signals arrive queued.
class StageGifExportJob : public QObject {
    Q_OBJECT
  public:
    explicit StageGifExportJob(QObject* parent = nullptr);
    ~StageGifExportJob() override;

    // Ignored while an export runs.
    void start(const StageRenderer& renderer, const QString& path, const StageGifOptions& options);
    // From start until finished has been delivered.
    bool isRunning() const;

  public slots:
    void cancel();

  signals:
    void progress(int done, int total);
    void finished(const fusescope::StageExportResult& result);

  private:
    // Joined with its exit cleanup (ThreadExitLatch) before the next start and on destruction,
    // so no part of an export thread outlives the job.
    void joinThread();

    QThread* thread_ = nullptr;
    std::unique_ptr<ThreadExitLatch> threadExit_;
    std::atomic<bool> cancel_{false};
    bool exporting_ = false;  // GUI thread only
};

}  // namespace fusescope

Q_DECLARE_METATYPE(fusescope::StageExportResult)
