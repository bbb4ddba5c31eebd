#pragma once
// The memory stage tab: the stage widget, its player and toolbar, keyboard shortcuts, lesson
// mode, full screen and export. The main window feeds it recordings (or runs) and connects its
// position to the charts:
//   connect(window, &MainWindow::recordingChanged, view, &MemoryStageView::setRecording);
//   view->setRuns(scratchRun, &fusedRun, stageCaptionContext(recording, scratchRun));  // or this
//   connect(view, &MemoryStageView::positionChanged, ...);  // stage ns; toRunClockNs for charts
//   connect(chart, &...::clicked, view, &MemoryStageView::seek);
#include <QString>
#include <QWidget>

#include "model/recording.h"
#include "ui/stage/memory_stage_widget.h"
#include "ui/stage/stage_export.h"

class QComboBox;
class QProgressDialog;
class QSettings;

namespace fusescope {

class StageControls;
class StagePlayer;

class MemoryStageView : public QWidget {
    Q_OBJECT
  public:
    explicit MemoryStageView(QWidget* parent = nullptr);

    // One run, or two side by side on one time scale (right may be null). Returns false and
    // shows the reason on the stage when a run names a pipeline or variant the registry lacks.
    bool setRuns(const model::VariantResult& left, const model::VariantResult* right,
                 const StageCaptionContext& caption);
    QString lastError() const { return lastError_; }
    // Shows two runs of the recording: by default its first unfused run left and first fused run
    // right; two pickers above the stage choose any two.
    void showRecordingRuns(int left, int right);
    const model::Recording& recording() const { return recording_; }

    MemoryStageWidget* stage() const { return stage_; }
    StagePlayer* player() const { return player_; }
    qint64 position() const;
    qint64 durationNs() const;
    // Stage time <-> a run's own clock (side 0 left, 1 right), for charts drawn on that clock.
    qint64 toRunClockNs(int side, qint64 stageNs) const;
    qint64 fromRunClockNs(int side, qint64 runNs) const;
    int paneCount() const;
    // True when the side's kernels were placed from a device timeline, so its run clock is the
    // samples' clock; false when laid out from per-kernel medians (no clock to share).
    bool hasRunClock(int side) const;
    // The side's kernels on its run clock: [first kernel's start, last kernel's end].
    QPair<qint64, qint64> runClockKernelSpan(int side) const;
    QString sideLabel(int side) const;  // the variant shown on that side
    // The recording's run shown on a side (setRecording), or -1.
    int shownRunIndex(int side) const {
        return side == 0 ? shownLeft_ : side == 1 ? shownRight_ : -1;
    }

    // Speed and lesson mode are read from and remembered in `settings` (not owned).
    void setSettings(QSettings* settings);

    // Lesson mode as the user chose it (remembered); full screen turns it on while it lasts.
    void setLessonMode(bool lesson);
    bool lessonMode() const;

    StageExportResult exportFrame(const QString& path, const QSize& size) const;  // .png or .svg
    // Asynchronous; progress and the result arrive as signals (and in a progress dialog when
    // the view is visible).
    void exportGif(const QString& path, const StageGifOptions& options);

  public slots:
    void setRecording(const fusescope::model::Recording& recording);
    void seek(qint64 stageNs);
    void seekRunClock(int side, qint64 runNs);
    void play();
    void pause();
    void setFullScreen(bool fullScreen);

  signals:
    void positionChanged(qint64 stageNs);
    void timelinesChanged();
    void gifExportProgress(int done, int total);
    void gifExportFinished(const fusescope::StageExportResult& result);

  protected:
    void keyPressEvent(QKeyEvent* event) override;

  private:
    void askExportFrame(const QString& format);
    void askExportGif();
    void showError(const QString& message);

    MemoryStageWidget* stage_;
    StagePlayer* player_;
    StageControls* controls_;
    StageGifExportJob* gifJob_;
    QProgressDialog* gifProgress_ = nullptr;
    QWidget* pairBar_;
    QComboBox* leftRun_;
    QComboBox* rightRun_;
    model::Recording recording_;
    QString lastError_;
    QSettings* settings_ = nullptr;
    bool lessonBeforeFullScreen_ = false;
    int shownLeft_ = -1;
    int shownRight_ = -1;
};

}  // namespace fusescope
