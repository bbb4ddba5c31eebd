// The parts of the stage that move as it plays: rows filling, flows, registers, statistics and
// the header's status, drawn each frame over the cached still parts.
#include "ui/stage/stage_renderer.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "ui/stage/stage_drawing.h"

namespace fusescope {

using namespace stage_drawing;

void StageRenderer::drawDynamic(QPainter& painter) {
    painter.save();
    for (int side = 0; side < paneCount(); ++side) drawDynamicPane(painter, side);
    painter.restore();
}

void StageRenderer::drawDynamicPane(QPainter& painter, int side) {
    const Pane& pane = panes_[side];
    painter.setRenderHint(QPainter::Antialiasing, false);
    drawRows(painter, side);
    painter.setRenderHint(QPainter::Antialiasing, true);
    drawFlows(painter, side);
    drawRegisters(painter, side);
    drawStats(painter, side);
    drawHeaderStatus(painter, side);

    if (pane.state.kernel >= 0 && pane.statusShown) {
        // What the running kernel moves and how fast: the rate the tiles stream at.
        painter.setFont(smallFont_);
        painter.setPen(theme_.mutedText);
        drawLabel(painter, statusLine(pane), Qt::AlignRight | Qt::AlignVCenter,
                  pane.kernelInfo[pane.state.kernel]);
    }

    // Playhead on the shared time strip.
    if (pane.gantt.height() <= 0) return;
    const double x = ganttX(pane, pane.state.timeNs);
    painter.setPen(QPen(theme_.accent, theme_.lineWidth * 1.5));
    painter.drawLine(QPointF(x, pane.gantt.top()), QPointF(x, pane.gantt.bottom()));
}

void StageRenderer::drawRows(QPainter& painter, int side) const {
    const Pane& pane = panes_[side];
    const model::StageState& state = pane.state;
    for (const Row& row : pane.rows) {
        if (row.array < 0) continue;
        const model::StageArrayState& array = state.arrays[row.array];
        if (!array.allocated) {
            painter.setPen(QPen(theme_.mutedText, 1, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(row.tiles);
            painter.setFont(font_);
            painter.setPen(theme_.mutedText);
            const QSizeF textSize = notAllocated_.size();
            // A small array's outline is narrower than the words: they go beside it, not over it,
            // unless that runs into the pass counters; then from the outline's left edge on.
            const bool inside = textSize.width() + 4 <= row.tiles.width();
            const bool beside = row.tiles.right() + 4 + textSize.width() <= row.counter.left();
            const double left = inside   ? row.tiles.center().x() - textSize.width() / 2
                                : beside ? row.tiles.right() + 4
                                         : row.tiles.left() + 2;
            const QPointF at(left, row.tiles.center().y() - textSize.height() / 2);
            // Over the outline: on the pane's colour, so the dashes do not cross the words.
            if (!inside && !beside) painter.fillRect(QRectF(at, textSize), theme_.panel);
            painter.drawStaticText(at, notAllocated_);
            recordText(painter, QRectF(at, textSize), notAllocated_.text());
            continue;
        }
        const int tiles = row.tileRects.size();
        const int valid = static_cast<int>(std::floor(array.validFraction * tiles + 1e-9));
        const bool reading = array.activeFraction >= 0.0 && !array.activeIsWrite;
        const int swept = reading ? static_cast<int>(array.activeFraction * tiles) : 0;
        // Re-read arrays (a tiled kernel's weights) deepen towards the accent colour with how
        // many times they have been read: 2x a little, 1000x fully (log scale).
        const double reReads =
            std::clamp(std::log2(std::max(array.timesRead, 1.0)) / 10.0, 0.0, 1.0);
        const QColor readColor =
            reReads > 0.0 ? blend(row.color, theme_.accent, 0.15 + 0.6 * reReads) : row.color;
        for (int t = 0; t < tiles; ++t) {
            const QColor& fill = t < swept   ? row.touchedColor
                                 : t < valid ? readColor
                                             : theme_.tileEmpty;
            painter.fillRect(row.tileRects[t], fill);
        }
        if (array.timesRead >= 1.5) drawTimesRead(painter, row.tiles, array.timesRead);
        if (array.activeFraction >= 0.0) {
            const int head = std::min(tiles - 1, static_cast<int>(array.activeFraction * tiles));
            painter.setPen(QPen(theme_.accent, theme_.lineWidth * 1.4));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(row.tileRects[head].adjusted(-1, -1, 1, 1));
        }
    }

    // Pass counters: one dot per sweep, R or W, filled as it completes.
    const model::StageTimeline& timeline = timelines_[side];
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setFont(smallFont_);
    for (const Row& row : pane.rows) {
        // With a count instead of a dot per pass, the one dot is the pass under way (or the
        // last one done, or the first to come).
        int shownFirst = 0;
        if (!row.passCountText.isEmpty()) {
            for (int s = 0; s < row.sweeps.size(); ++s)
                if (state.timeNs >= timeline.sweeps[row.sweeps[s]].startNs) shownFirst = s;
            painter.setPen(theme_.text);
            drawLabel(painter, row.passCount, Qt::AlignLeft | Qt::AlignVCenter, row.passCountText);
        }
        for (int d = 0; d < row.dots.size(); ++d) {
            const model::StageSweep& sweep = timeline.sweeps[row.sweeps[shownFirst + d]];
            const QRectF& dot = row.dots[d];
            const bool done = state.timeNs >= sweep.endNs;
            const bool active = state.timeNs >= sweep.startNs && !done;
            painter.setPen(QPen(row.color, theme_.lineWidth));
            painter.setBrush(done ? row.color : Qt::transparent);
            painter.drawEllipse(dot);
            if (active) {
                const double fraction =
                    double(state.timeNs - sweep.startNs) / double(sweep.endNs - sweep.startNs);
                painter.setBrush(withAlpha(row.color, 170));
                painter.setPen(Qt::NoPen);
                painter.drawPie(dot, 90 * 16, -static_cast<int>(fraction * 360 * 16));
            }
            const QStaticText& letter = sweep.write ? writeLetter_ : readLetter_;
            painter.setPen(done ? theme_.background : theme_.text);
            const QPointF at(dot.center().x() - letter.size().width() / 2,
                             dot.center().y() - letter.size().height() / 2);
            painter.drawStaticText(at, letter);
            recordText(painter, QRectF(at, letter.size()), letter.text());
        }
    }
}

void StageRenderer::drawTimesRead(QPainter& painter, const QRectF& tiles, double timesRead) const {
    const QString text = QStringLiteral("read %1\u00d7")
                             .arg(timesRead < 10 ? timesRead : std::round(timesRead), 0, 'f',
                                  timesRead < 10 ? 1 : 0);
    painter.setFont(boldFont_);
    const QFontMetricsF metrics(boldFont_);
    const QSizeF size(metrics.horizontalAdvance(text), metrics.height());
    // Only where the row has room: the counter never overprints the tiles' neighbours.
    if (size.width() + 8 > tiles.width() || size.height() > tiles.height()) return;
    const QRectF box(tiles.center().x() - size.width() / 2 - 4,
                     tiles.center().y() - size.height() / 2, size.width() + 8, size.height());
    painter.setPen(Qt::NoPen);
    painter.setBrush(withAlpha(theme_.background, 210));
    painter.drawRoundedRect(box, 3, 3);
    painter.setPen(theme_.text);
    painter.drawText(box, Qt::AlignCenter, text);
    recordText(painter, box, text);
}

void StageRenderer::drawFlows(QPainter& painter, int side) const {
    const Pane& pane = panes_[side];
    const model::StageState& state = pane.state;
    const double packet = fontPx_ * 0.6;
    for (const Row& row : pane.rows) {
        if (row.array < 0) continue;
        const model::StageArrayState& array = state.arrays[row.array];
        if (array.activeFraction < 0.0) continue;
        const int tiles = row.tileRects.size();
        const QRectF& head =
            row.tileRects[std::min(tiles - 1, static_cast<int>(array.activeFraction * tiles))];
        const QPointF rowPoint(head.center().x(), head.bottom());
        const QPointF bandPoint(head.center().x(), pane.flow.top() + fontPx_ * 0.4);
        // Cosmetic one-pixel lines take the raster engine's fast stroker; wider ones are
        // stroked as paths, which cost a millisecond per frame.
        QPen thread(row.color, 1);
        thread.setCosmetic(true);
        painter.setPen(thread);
        painter.drawLine(rowPoint, bandPoint);
        painter.drawLine(bandPoint, row.smEntry);
        for (int k = 0; k < kPacketsPerFlow; ++k) {
            double u = array.activeFraction * kPacketTripsPerSweep + double(k) / kPacketsPerFlow;
            u -= std::floor(u);
            if (array.activeIsWrite) u = 1.0 - u;  // writes travel from the SMs up to HBM
            const QPointF at = bandPoint + (row.smEntry - bandPoint) * u;
            const QRectF box(at.x() - packet / 2, at.y() - packet / 2, packet, packet);
            painter.fillRect(box.adjusted(-1, -1, 1, 1), theme_.background);
            painter.fillRect(box, row.color);
        }
    }
}

void StageRenderer::drawRegisters(QPainter& painter, int side) {
    Pane& pane = panes_[side];
    const model::StageState& state = pane.state;
    const model::StageTimeline& timeline = timelines_[side];
    pane.registerColors.clear();
    for (const Row& row : pane.rows)
        if (row.array >= 0 && state.arrays[row.array].activeFraction >= 0.0 &&
            !state.arrays[row.array].activeIsWrite)
            pane.registerColors.push_back(row.color);
    if (state.intermediateInRegisters || (state.kernel >= 0 && !timeline.fused))
        pane.registerColors.push_back(theme_.intermediate);
    painter.setPen(Qt::NoPen);
    if (pane.registerColors.isEmpty()) {
        painter.setRenderHint(QPainter::Antialiasing, false);
        for (const QRectF& cell : pane.registerCells) painter.fillRect(cell, theme_.tileEmpty);
        return;
    }
    // Values rotate through the cells as the kernel advances: loaded, used, replaced.
    const int shift = static_cast<int>(state.kernelFraction * 60.0);
    const int colors = pane.registerColors.size();
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int c = 0; c < pane.registerCells.size(); ++c)
        painter.fillRect(pane.registerCells[c], pane.registerColors[(c + shift) % colors]);
    if (state.intermediateInRegisters) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(theme_.intermediate, theme_.lineWidth * 2));
        painter.setBrush(Qt::NoBrush);
        for (const QRectF& box : pane.smBoxes)
            painter.drawRoundedRect(box, fontPx_ * 0.3, fontPx_ * 0.3);
        painter.setFont(boldFont_);
        painter.setPen(theme_.intermediate);
        if (pane.smLabel.height() > 0)
            drawLabel(painter, pane.smLabel, Qt::AlignRight | Qt::AlignVCenter,
                      QStringLiteral("%1 stays in registers").arg(timeline.intermediate));
    }
}

void StageRenderer::drawStats(QPainter& painter, int side) const {
    const Pane& pane = panes_[side];
    const model::StageState& state = pane.state;
    const model::StageTimeline& timeline = timelines_[side];
    if (pane.stats.height() <= 0) return;  // the least detail: no totals' boxes
    const double f = fontPx_;
    const auto valueRect = [&](const QRectF& box) {
        return QRectF(box.left() + f * 0.5, box.top() + f * 1.4, box.width() - f, f * 2.2);
    };

    // The big type where the value fits its box, else the largest that does (a narrow pane).
    const auto valueFont = [&](const QString& text, const QRectF& box) -> const QFont& {
        for (const QFont* font : {&bigFont_, &titleFont_})
            if (QFontMetricsF(*font).horizontalAdvance(text) <= valueRect(box).width())
                return *font;
        return boldFont_;
    };

    const double modelBytes = double(timeline.modelBytesRead + timeline.modelBytesWritten);
    const bool dram = timeline.dramSource != model::DramSource::Unknown;
    const bool complete = timeline.passesCounted ? state.passesCompleted == timeline.passes
                                                 : state.timeNs >= timeline.kernelsEndNs;
    painter.setPen(complete ? theme_.success : theme_.text);
    // Without passes: the requests served on chip (requested beyond DRAM) where DRAM is known.
    const QString done = timeline.passesCounted ? QString::number(state.passesCompleted)
                         : dram                 ? formatStageBytes(state.servedOnChip())
                                                : formatStageBytes(state.bytesMoved());
    const QFont& doneFont = valueFont(done, pane.passesBox);
    painter.setFont(doneFont);
    drawLabel(painter, valueRect(pane.passesBox), Qt::AlignLeft | Qt::AlignVCenter, done);
    // "of 5" beside the value where both fit the box, in the smaller type where only that fits,
    // and not at all where neither does (never over the value).
    const QString total = timeline.passesCounted ? QStringLiteral("of %1").arg(timeline.passes)
                          : dram
                              ? QStringLiteral("of %1 requested").arg(formatStageBytes(modelBytes))
                              : QStringLiteral("of %1").arg(formatStageBytes(modelBytes));
    const double room = valueRect(pane.passesBox).width() -
                        QFontMetricsF(doneFont).horizontalAdvance(done) - f * 0.5;
    for (const QFont* totalFont : {&font_, &smallFont_})
        if (QFontMetricsF(*totalFont).horizontalAdvance(total) <= room) {
            painter.setFont(*totalFont);
            painter.setPen(theme_.mutedText);
            drawLabel(painter, valueRect(pane.passesBox), Qt::AlignRight | Qt::AlignVCenter, total);
            break;
        }

    const double counted = dram ? state.dramBytes : state.bytesMoved();
    const QString moved = formatStageBytes(counted);
    painter.setFont(valueFont(moved, pane.bytesBox));
    painter.setPen(theme_.text);
    drawLabel(painter, valueRect(pane.bytesBox), Qt::AlignLeft | Qt::AlignVCenter, moved);
    QRectF bar = pane.bytesBar;
    bar.setWidth(pane.bytesBar.width() * std::min(1.0, counted / double(bytesScale_)));
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(bar, withAlpha(theme_.text, 170));

    const QString inFlight = formatStageBytes(double(state.bytesInFlight));
    painter.setFont(valueFont(inFlight, pane.allocBox));
    painter.setPen(theme_.text);
    drawLabel(painter, valueRect(pane.allocBox), Qt::AlignLeft | Qt::AlignVCenter, inFlight);
    bar = pane.allocBar;
    bar.setWidth(pane.allocBar.width() * double(state.bytesInFlight) / double(allocScale_));
    painter.fillRect(bar, theme_.intermediate);
    const double peakX = pane.allocBar.left() +
                         pane.allocBar.width() * double(state.peakSoFar) / double(allocScale_);
    painter.setPen(QPen(theme_.text, theme_.lineWidth * 1.5));
    painter.drawLine(QPointF(peakX, pane.allocBar.top() - f * 0.3),
                     QPointF(peakX, pane.allocBar.bottom() + f * 0.3));
    painter.setFont(smallFont_);
    painter.setPen(theme_.mutedText);
    // Beside the box's title when there is room; the marker on the bar says it anyway.
    const QString peak = QStringLiteral("peak %1").arg(formatStageBytes(double(state.peakSoFar)));
    const QFontMetricsF smallMetrics(smallFont_);
    if (smallMetrics.horizontalAdvance(QStringLiteral("allocated")) +
            smallMetrics.horizontalAdvance(peak) + f * 0.6 <=
        pane.allocBox.width() - f)
        drawLabel(painter,
                  QRectF(pane.allocBox.left() + f * 0.5, pane.allocBox.top() + f * 0.3,
                         pane.allocBox.width() - f, f * 1.1),
                  Qt::AlignRight | Qt::AlignVCenter, peak);
}

void StageRenderer::drawHeaderStatus(QPainter& painter, int side) const {
    const Pane& pane = panes_[side];
    const model::StageState& state = pane.state;
    const model::StageTimeline& timeline = timelines_[side];
    QString status;
    QColor color = theme_.text;
    switch (state.phase) {
        case model::StagePhase::Allocating:
            status = QStringLiteral("allocating buffers");
            color = theme_.mutedText;
            break;
        case model::StagePhase::Running: {
            const double ms = double(state.timeNs - timeline.kernelsStartNs) / 1e6;
            status = state.kernel >= 0
                         ? QStringLiteral("▶ %1 · %2")
                               .arg(timeline.kernels[state.kernel].name, formatStageTime(ms))
                         : QStringLiteral("between kernels · %1").arg(formatStageTime(ms));
            color = theme_.accent;
            break;
        }
        case model::StagePhase::Freeing:
        case model::StagePhase::Finished:
            status = QStringLiteral("✓ done in %1")
                         .arg(formatStageTime(double(timeline.kernelSpanNs()) / 1e6));
            color = theme_.success;
            break;
    }
    if (!pane.statusShown) return;
    // Left of the running kernel's numbers, which stand at the line's right end.
    double room = statusLine(pane).width();
    if (state.kernel >= 0)
        room -= QFontMetricsF(smallFont_).horizontalAdvance(pane.kernelInfo[state.kernel]) +
                fontPx_ * 0.6;
    painter.setFont(boldFont_);
    painter.setPen(color);
    drawLabel(painter, statusLine(pane), Qt::AlignLeft | Qt::AlignVCenter,
              QFontMetricsF(boldFont_).elidedText(status, Qt::ElideRight, room));
}

}  // namespace fusescope
