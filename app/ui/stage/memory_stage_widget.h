#pragma once
// The memory stage as a widget: paints one or two StageTimelines at the current position.
// It knows nothing about CUDA or the worker; StagePlayer moves its position.
#include <QWidget>

#include "ui/stage/stage_renderer.h"

namespace fusescope {

class MemoryStageWidget : public QWidget {
    Q_OBJECT
  public:
    explicit MemoryStageWidget(QWidget* parent = nullptr);

    void setTimelines(const model::StageTimeline& left, const model::StageTimeline* right);
    void setCaption(const StageCaptionContext& caption);
    void setLessonMode(bool lesson);
    bool lessonMode() const { return lessonMode_; }

    qint64 position() const { return positionNs_; }
    qint64 durationNs() const { return renderer_.durationNs(); }
    bool hasTimelines() const { return renderer_.hasTimelines(); }
    // What the stage shows now, per side (0: left, 1: right), for tests and the charts.
    const model::StageState& state(int side) const { return renderer_.state(side); }
    const StageRenderer& renderer() const { return renderer_; }

    QSize sizeHint() const override { return {1280, 720}; }
    // Small enough for a 1024x640 screen, and tall enough for the least detail at this width.
    QSize minimumSizeHint() const override;

  public slots:
    void setPosition(qint64 stageNs);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

  private:
    void applyTheme();
    void followFont();

    StageRenderer renderer_;
    qint64 positionNs_ = 0;
    bool lessonMode_ = false;
    int leastHeightShown_ = 0;
};

}  // namespace fusescope
