// The parts of the stage that stay still while it plays, drawn once per size and cached.
#include "ui/stage/stage_renderer.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "ui/stage/stage_drawing.h"

namespace fusescope {

using namespace stage_drawing;

void StageRenderer::drawStatic(QPainter& painter) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(layoutSize_)), theme_.background);
    for (int side = 0; side < paneCount(); ++side) drawStaticPane(painter, side);

    // Caption: the comparison, then device, N, dtype, vector, data source; a badge for the source.
    painter.setPen(theme_.text);
    painter.setFont(titleFont_);
    const QRectF first(captionRect_.left(), captionRect_.top(), captionRect_.width(),
                       fontPx_ * 1.8);
    const double badgeRoom = headlineBadgeRoom();
    QRectF line = first;
    for (int index = 0; index < headlineLines_.size(); ++index) {
        const double room = line.width() - (index == 0 ? badgeRoom : 0.0);
        drawLabel(
            painter, line, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(titleFont_).elidedText(headlineLines_[index], Qt::ElideRight, room));
        line.translate(0, fontPx_ * 1.8);
    }
    painter.setFont(font_);
    painter.setPen(theme_.mutedText);
    if (detailLevel_ < 3) {
        const QRectF second(captionRect_.left(), line.top(), captionRect_.width(), fontPx_ * 1.4);
        bool fromDevice = true;
        for (const model::StageTimeline& timeline : timelines_)
            fromDevice = fromDevice && timeline.timesFromDeviceTimeline;
        drawLabel(painter, second, Qt::AlignLeft | Qt::AlignVCenter,
                  captionLine_ + (fromDevice ? QStringLiteral(" · kernels as timed on the device")
                                             : QStringLiteral(" · kernels laid end to end from "
                                                              "their median times")));
    }
    if (!caption_.dataSource.isEmpty()) {
        painter.setFont(boldFont_);
        const QString badge = caption_.dataSource;
        const double badgeWidth = painter.fontMetrics().horizontalAdvance(badge) + fontPx_ * 1.4;
        const QRectF badgeRect(captionRect_.right() - badgeWidth, first.top() + fontPx_ * 0.2,
                               badgeWidth, fontPx_ * 1.6);
        painter.setPen(QPen(theme_.accent, theme_.lineWidth));
        painter.setBrush(withAlpha(theme_.accent, 40));
        painter.drawRoundedRect(badgeRect, fontPx_ * 0.4, fontPx_ * 0.4);
        painter.setPen(theme_.text);
        drawLabel(painter, badgeRect, Qt::AlignCenter, badge);
    }
    painter.restore();
}

void StageRenderer::drawStaticPane(QPainter& painter, int side) const {
    const Pane& pane = panes_[side];
    const model::StageTimeline& timeline = timelines_[side];
    const double f = fontPx_;

    painter.setPen(QPen(theme_.panelBorder, theme_.lineWidth));
    painter.setBrush(theme_.panel);
    painter.drawRoundedRect(pane.rect, f * 0.5, f * 0.5);

    painter.setPen(theme_.text);
    painter.setFont(titleFont_);
    drawLabel(painter, titleLine(pane), Qt::AlignLeft | Qt::AlignVCenter,
              QFontMetricsF(titleFont_)
                  .elidedText(timeline.variantTitle, Qt::ElideRight, titleLine(pane).width()));

    // The time strip: allocation phase, each kernel, free phase, on the scale shared by both panes.
    if (pane.gantt.height() > 0) drawTimeStrip(painter, side);
    drawStaticRows(painter, side);
}

void StageRenderer::drawTimeStrip(QPainter& painter, int side) const {
    const Pane& pane = panes_[side];
    const model::StageTimeline& timeline = timelines_[side];
    const double f = fontPx_;
    painter.setFont(smallFont_);
    const QRectF strip = pane.gantt.adjusted(0, f * 0.15, 0, -f * 0.15);
    auto segment = [&](qint64 from, qint64 to, const QColor& fill, const QString& label) {
        const QRectF box(ganttX(pane, from), strip.top(), ganttX(pane, to) - ganttX(pane, from),
                         strip.height());
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRect(box);
        if (painter.fontMetrics().horizontalAdvance(label) < box.width() - 4) {
            painter.setPen(theme_.text);
            drawLabel(painter, box, Qt::AlignCenter, label);
        }
    };
    segment(0, timeline.kernelsStartNs, withAlpha(theme_.mutedText, 60), QStringLiteral("alloc"));
    for (int k = 0; k < timeline.kernels.size(); ++k) {
        const model::StageKernel& kernel = timeline.kernels[k];
        segment(kernel.startNs, kernel.endNs, withAlpha(theme_.accent, k % 2 ? 70 : 110),
                kernel.name);
    }
    segment(timeline.kernelsEndNs, timeline.endNs, withAlpha(theme_.mutedText, 60),
            QStringLiteral("free"));
    painter.setPen(QPen(theme_.panelBorder, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(pane.gantt.left(), strip.top(), pane.gantt.width(), strip.height()));
}

void StageRenderer::drawStaticRows(QPainter& painter, int side) const {
    const Pane& pane = panes_[side];
    const model::StageTimeline& timeline = timelines_[side];
    const double f = fontPx_;
    painter.setPen(theme_.mutedText);
    painter.setFont(boldFont_);
    drawLabel(painter, pane.hbmLabel, Qt::AlignLeft | Qt::AlignVCenter,
              caption_.memoryName.isEmpty() ? QStringLiteral("HBM (device memory)")
                                            : caption_.memoryName);
    painter.setFont(smallFont_);
    drawLabel(painter, pane.hbmLabel, Qt::AlignRight | Qt::AlignVCenter,
              timeline.passesCounted ? QStringLiteral("passes") : QStringLiteral("bytes"));

    for (const Row& row : pane.rows) {
        painter.setFont(boldFont_);
        painter.setPen(row.color);
        const QString name =
            row.array >= 0 ? timeline.arrays[row.array].name : timeline.intermediate;
        // The size and role under the name need a row of two lines; a shorter row has the name.
        const bool detailFits = row.label.height() >= f * 2.3;
        const QString shownName =
            QFontMetricsF(boldFont_).elidedText(name, Qt::ElideRight, row.label.width() - f * 0.4);
        if (detailFits)
            drawLabel(painter, row.label.adjusted(0, 0, 0, -row.label.height() * 0.42),
                      Qt::AlignLeft | Qt::AlignBottom, shownName);
        else
            drawLabel(painter, row.label, Qt::AlignLeft | Qt::AlignVCenter, shownName);
        painter.setFont(smallFont_);
        painter.setPen(theme_.mutedText);
        QString detail, shortDetail;
        if (row.array >= 0) {
            const model::StageArray& array = timeline.arrays[row.array];
            const char* role = array.role == model::StageArrayRole::Input    ? "input"
                               : array.role == model::StageArrayRole::Output ? "output"
                                                                             : "scratch";
            shortDetail = formatStageBytes(double(array.bytes));
            detail = QStringLiteral("%1 · %2").arg(shortDetail, QLatin1String(role));
        } else {
            detail = QStringLiteral("0 B · never allocated");
            shortDetail = QStringLiteral("0 B");
        }
        if (detailFits)
            drawLabel(painter, row.label.adjusted(0, row.label.height() * 0.58, 0, 0),
                      Qt::AlignLeft | Qt::AlignTop,
                      firstFitting(QFontMetricsF(smallFont_), row.label.width() - f * 0.4,
                                   {detail, shortDetail}));
        if (row.array < 0) {
            // The fused variant's intermediate: a dashed outline where the scratch would be.
            painter.setPen(QPen(row.color, theme_.lineWidth, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRoundedRect(row.tiles, f * 0.3, f * 0.3);
            painter.setFont(font_);
            painter.setPen(row.color);
            // The memory's own name, without its explanation: "HBM", "memory".
            const QString memory = memoryShortName();
            const QString longText =
                QStringLiteral("kept in registers: no %1 traffic, no allocation").arg(memory);
            const QString mediumText = QStringLiteral("kept in registers, never in %1").arg(memory);
            static const QString shortText = QStringLiteral("in registers");
            drawLabel(painter, row.tiles, Qt::AlignCenter,
                      firstFitting(QFontMetricsF(font_), row.tiles.width() - f,
                                   {longText, mediumText, shortText}));
        }
    }

    painter.setPen(theme_.mutedText);
    painter.setFont(boldFont_);
    if (pane.smLabel.height() > 0)
        drawLabel(painter, pane.smLabel, Qt::AlignLeft | Qt::AlignVCenter,
                  QStringLiteral("%1 · register files")
                      .arg(caption_.processorsName.isEmpty() ? QStringLiteral("SMs")
                                                             : caption_.processorsName));
    painter.setPen(QPen(theme_.panelBorder, theme_.lineWidth));
    painter.setBrush(withAlpha(theme_.panelBorder, 30));
    for (const QRectF& box : pane.smBoxes) painter.drawRoundedRect(box, f * 0.3, f * 0.3);

    painter.setFont(smallFont_);
    painter.setPen(theme_.mutedText);
    if (pane.stats.height() <= 0) return;  // the least detail: no totals' boxes
    for (const QRectF& box : {pane.passesBox, pane.bytesBox, pane.allocBox}) {
        painter.setBrush(withAlpha(theme_.panelBorder, 25));
        painter.setPen(Qt::NoPen);
        painter.drawRoundedRect(box, f * 0.4, f * 0.4);
    }
    painter.setPen(theme_.mutedText);
    const QRectF pad(f * 0.5, f * 0.3, -f * 0.5, 0);
    auto titleRect = [&](const QRectF& box) {
        return QRectF(box.left() + f * 0.5, box.top() + f * 0.3, box.width() - f, f * 1.1);
    };
    // Where traffic is not whole-array sweeps (the MLP's tiles re-read weights), the pass
    // counter counts the requests the L1 and L2 served instead: those never reached memory.
    const bool dram = timeline.dramSource != model::DramSource::Unknown;
    // "HBM bytes (measured)": what reached the memory, and from where the figure comes.
    const QString sourceWord = model::dramSourceWord(timeline.dramSource);
    const QString bytesTitle =
        dram ? QStringLiteral("%1 bytes (%2)").arg(memoryShortName(), sourceWord) : sourceWord;
    const QString shortBytesTitle =
        dram ? QStringLiteral("%1 (%2)").arg(memoryShortName(), sourceWord)
             : QStringLiteral("requested");
    drawLabel(painter, titleRect(pane.passesBox), Qt::AlignLeft | Qt::AlignVCenter,
              timeline.passesCounted ? QStringLiteral("passes")
              : dram                 ? QStringLiteral("re-read from L1/L2")
                                     : QStringLiteral("requested bytes"));
    drawLabel(painter, titleRect(pane.bytesBox), Qt::AlignLeft | Qt::AlignVCenter,
              firstFitting(QFontMetricsF(smallFont_), titleRect(pane.bytesBox).width(),
                           {bytesTitle, shortBytesTitle}));
    drawLabel(painter, titleRect(pane.allocBox), Qt::AlignLeft | Qt::AlignVCenter,
              QStringLiteral("allocated"));
    (void)pad;
    painter.setPen(Qt::NoPen);
    painter.setBrush(theme_.tileEmpty);
    painter.drawRect(pane.bytesBar);
    painter.drawRect(pane.allocBar);
}

}  // namespace fusescope
