// The chart's two cursors: where the stage is, drawn at the stage's pace.
#include "live/live_bandwidth_chart.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "live/kernel_rates.h"
#include "live/live_chart_style.h"
#include "live/live_plot.h"
#include "live/time_ticker.h"
#include "ui/charts/axis_colours.h"
#include "ui/charts/colour_contrast.h"
#include "ui/export/export_text.h"

namespace fusescope::live {

using namespace chart_style;

void LiveBandwidthChart::setCursor(int index, qint64 clockNs, const QString& label) {
    if (index < 0 || index >= kCursorCount) return;
    pendingCursors_[index].visible = true;
    pendingCursors_[index].ns = clockNs;
    pendingCursors_[index].text = label;
    scheduleCursorFrame();
}

// The first move after a quiet frame is drawn on the next turn of the event loop; later ones
// wait for the rest of the frame, so the cursor keeps the stage's pace but never exceeds it.
void LiveBandwidthChart::scheduleCursorFrame() {
    if (cursorFrame_.isActive()) return;
    const qint64 since = lastCursorDraw_.isValid() ? lastCursorDraw_.elapsed() : cursorFrameMs_;
    cursorFrame_.start(static_cast<int>(std::max<qint64>(0, cursorFrameMs_ - since)));
}

void LiveBandwidthChart::hideCursor(int index) {
    if (index < 0 || index >= kCursorCount) return;
    pendingCursors_[index].visible = false;
    scheduleCursorFrame();
}

void LiveBandwidthChart::setCursorNote(const QString& note) {
    cursorNote_->setText(note);
    cursorNote_->setVisible(!note.isEmpty());
    scheduleReplot();
}

QString LiveBandwidthChart::dataSource() const {
    return badge_->visible() ? plot_->property("fusescopeDataSource").toString() : QString();
}

QString LiveBandwidthChart::cursorNote() const {
    return cursorNote_->visible() ? cursorNote_->text() : QString();
}

bool LiveBandwidthChart::cursorVisible(int index) const {
    return index >= 0 && index < kCursorCount && cursors_[index].visible;
}

qint64 LiveBandwidthChart::cursorNs(int index) const {
    return index >= 0 && index < kCursorCount ? cursors_[index].ns : 0;
}

// One frame's cursor moves at once: the items move, and only the cursor layer is redrawn
// (unless a full replot is queued anyway, which then draws them).
void LiveBandwidthChart::applyCursors() {
    bool changed = false;
    for (int i = 0; i < kCursorCount; ++i) {
        Cursor& cursor = cursors_[i];
        const Cursor& wanted = pendingCursors_[i];
        if (!cursorsStale_ && cursor.visible == wanted.visible && cursor.ns == wanted.ns &&
            cursor.text == wanted.text)
            continue;
        changed = true;
        cursor.visible = wanted.visible;
        cursor.ns = wanted.ns;
        cursor.text = wanted.text;
        const double ms = axisMsAt(cursor.ns);
        for (QCPItemStraightLine* line : {cursor.bandwidthLine, cursor.allocationLine}) {
            line->point1->setCoords(ms, 0.0);
            line->point2->setCoords(ms, 1.0);
            line->setVisible(cursor.visible);
        }
        cursor.label->position->setCoords(ms, 0.0);
        cursor.label->setText(cursor.text);
        cursor.label->setVisible(cursor.visible && !cursor.text.isEmpty());
    }
    cursorsStale_ = false;
    if (!changed || refresh_.isActive()) return;
    lastCursorDraw_.start();
    plot_->layer("cursor")->replot();
    ++cursorReplots_;
}

}  // namespace fusescope::live
