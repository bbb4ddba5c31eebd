#include "ui/stage/memory_stage_widget.h"

#include <QEvent>
#include <QFontInfo>
#include <QPainter>

namespace fusescope {

MemoryStageWidget::MemoryStageWidget(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);  // the renderer fills every pixel
    setFocusPolicy(Qt::StrongFocus);
    applyTheme();
    followFont();
}

void MemoryStageWidget::setTimelines(const model::StageTimeline& left,
                                     const model::StageTimeline* right) {
    renderer_.setTimelines(left, right);
    setPosition(0);
    updateGeometry();
    update();
}

void MemoryStageWidget::setCaption(const StageCaptionContext& caption) {
    renderer_.setCaption(caption);
    updateGeometry();
    update();
}

void MemoryStageWidget::setLessonMode(bool lesson) {
    if (lesson == lessonMode_) return;
    lessonMode_ = lesson;
    applyTheme();
}

void MemoryStageWidget::setPosition(qint64 stageNs) {
    positionNs_ = std::clamp<qint64>(stageNs, 0, std::max<qint64>(0, durationNs()));
    if (renderer_.hasTimelines()) renderer_.updateState(positionNs_);
    update();
}

void MemoryStageWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    if (!renderer_.hasTimelines()) {
        painter.fillRect(rect(), palette().color(QPalette::Window));
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(rect(), Qt::AlignCenter,
                         tr("Run two variants (or open a recording) to see their memory traffic."));
        return;
    }
    renderer_.paint(painter, size(), positionNs_);
}

QSize MemoryStageWidget::minimumSizeHint() const {
    // The renderer drops detail to fit down to its least; a wrapped comparison needs more.
    // Hidden (another tab in front) it asks nothing: a tab widget's least height is that of its
    // tallest page, shown or not.
    if (!isVisible()) return {320, 180};
    return {320, std::max(180, renderer_.leastHeight(std::max(320, width())))};
}

void MemoryStageWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The comparison wraps by the width: the least height follows it.
    if (renderer_.leastHeight(width()) != leastHeightShown_) {
        leastHeightShown_ = renderer_.leastHeight(width());
        updateGeometry();
    }
}

void MemoryStageWidget::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    updateGeometry();
}

void MemoryStageWidget::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    updateGeometry();
}

void MemoryStageWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && !lessonMode_) applyTheme();
    if (event->type() == QEvent::FontChange) followFont();
    QWidget::changeEvent(event);
}

void MemoryStageWidget::followFont() {
    // The stage's smallest type: 11 pixels, or more under the presentation zoom (the widget's
    // font follows the application's).
    renderer_.setMinimumFontPixels(std::max(11.0, QFontInfo(font()).pixelSize() * 0.85));
    updateGeometry();
    update();
}

void MemoryStageWidget::applyTheme() {
    renderer_.setTheme(lessonMode_ ? StageTheme::lessonMode() : StageTheme::normal(palette()));
    update();
}

}  // namespace fusescope
