#include "ui/stage/stage_renderer.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "ui/stage/stage_drawing.h"

namespace fusescope {

using namespace stage_drawing;

QString StageRenderer::memoryShortName() const {
    // The memory's own name, without its explanation: "HBM", "memory".
    return caption_.memoryName.isEmpty()
               ? QStringLiteral("HBM")
               : caption_.memoryName.section(QLatin1Char('('), 0, 0).trimmed();
}

void StageRenderer::setTimelines(const model::StageTimeline& left,
                                 const model::StageTimeline* right) {
    timelines_.clear();
    timelines_.push_back(left);
    if (right) timelines_.push_back(*right);
    panes_.resize(timelines_.size());
    comparison_ = stageComparisonLine(timelines_[0], right ? &timelines_[1] : nullptr);
    layoutValid_ = staticValid_ = false;
    updateState(0);
}

void StageRenderer::setCaption(const StageCaptionContext& caption) {
    caption_ = caption;
    captionLine_ = stageCaptionLine(caption);
    staticValid_ = false;
}

void StageRenderer::setTheme(const StageTheme& theme) {
    theme_ = theme;
    layoutValid_ = staticValid_ = false;
}

qint64 StageRenderer::durationNs() const {
    qint64 duration = 0;
    for (const model::StageTimeline& timeline : timelines_)
        duration = std::max(duration, timeline.endNs);
    return duration;
}

void StageRenderer::updateState(qint64 timeNs) {
    for (int side = 0; side < paneCount(); ++side)
        model::computeStageState(timelines_[side], timeNs, panes_[side].state);
}

double StageRenderer::ganttX(const Pane& pane, qint64 timeNs) const {
    const double duration = std::max<double>(1.0, double(durationNs()));
    return pane.gantt.left() + pane.gantt.width() * std::clamp(double(timeNs) / duration, 0.0, 1.0);
}

int StageRenderer::maxRowCount() const {
    int most = 0;
    for (const model::StageTimeline& timeline : timelines_) {
        const bool ghost =
            timeline.arrayIndex(timeline.intermediate) < 0 && !timeline.intermediate.isEmpty();
        most = std::max(most, static_cast<int>(timeline.arrays.size()) + (ghost ? 1 : 0));
    }
    return most;
}

void StageRenderer::drawLabel(QPainter& painter, const QRectF& rect, int flags,
                              const QString& text) const {
    QRectF drawn;
    painter.drawText(rect, flags, text, &drawn);
    recordText(painter, drawn, text);
}

void StageRenderer::recordText(const QPainter& painter, const QRectF& rect,
                               const QString& text) const {
    if (!recording_ || text.isEmpty()) return;
    recording_->push_back({text, painter.transform().mapRect(rect), painter.font().pixelSize()});
}

QVector<StageRenderer::DrawnText> StageRenderer::textLayout(const QSize& size, qint64 timeNs) {
    QVector<DrawnText> texts;
    QImage image(size, QImage::Format_RGB32);
    QPainter painter(&image);
    recording_ = &texts;
    paint(painter, size, timeNs, false);
    recording_ = nullptr;
    return texts;
}

void StageRenderer::setMinimumFontPixels(double pixels) {
    if (pixels == minimumFontPx_) return;
    minimumFontPx_ = pixels;
    layoutValid_ = staticValid_ = false;
}

void StageRenderer::layout(const QSize& size) {
    layoutSize_ = size;
    const double height = size.height();
    const double width = size.width();
    // The smallest type (0.78 of the base) stays at the least size asked for: on a small frame
    // detail is dropped rather than the type shrunk.
    fontPx_ =
        std::max({9.0, height * theme_.fontFraction, std::ceil(minimumFontPx_) / 0.78 + 0.01});
    font_ = pixelFont(fontPx_, false);
    boldFont_ = pixelFont(fontPx_, true);
    titleFont_ = pixelFont(fontPx_ * 1.3, true);
    bigFont_ = pixelFont(fontPx_ * 1.9, true);
    smallFont_ = pixelFont(fontPx_ * 0.78, false);

    readLetter_ = QStaticText(QStringLiteral("R"));
    writeLetter_ = QStaticText(QStringLiteral("W"));
    notAllocated_ = QStaticText(QStringLiteral("not allocated"));
    for (QStaticText* text : {&readLetter_, &writeLetter_}) text->prepare(QTransform(), smallFont_);
    notAllocated_.prepare(QTransform(), font_);

    // The most detail that fits the height: the full stage, then without the SM register files,
    // then without the time strip, then with a one-line caption, then without the boxes of
    // totals under the arrays (half drawn boxes at a window's bottom edge read as a fault).
    const int rows = std::max(4, maxRowCount());
    const double margin = fontPx_ * 0.8;
    headlineLines_ = headlineLines(width - 2 * margin);
    // Each line of the comparison past the first takes a title line of its own.
    const double headlineExtra = (headlineLines_.size() - 1) * 1.8;
    const auto needed = [&](int level) {
        if (level >= 5)  // no totals' boxes
            return (1.8 + 1.4 + rows * 1.3 + 1.0 + 1.2 + 0.8 + 1.0 + 2.0 + headlineExtra) * fontPx_;
        if (level >= 4)  // title-only headers, one-line rows, the least flow
            return (1.8 + 1.4 + rows * 1.3 + 1.0 + 4.6 + 0.8 + 1.2 + 0.8 + 1.0 + 2.0 +
                    headlineExtra) *
                   fontPx_;
        double lines = 3.3 + 1.4 + rows * 1.6 + 2.4 + 4.6 + 0.8 + 1.2 + 0.8 + 1.0;
        if (level < 1) lines += 7.0;
        if (level < 2) lines += 2.1;
        lines += level < 3 ? 3.4 : 2.0;
        return (lines + headlineExtra) * fontPx_;
    };
    detailLevel_ = 0;
    while (detailLevel_ < kLeastDetail && needed(detailLevel_) > height) ++detailLevel_;
    fitsHeight_ = needed(detailLevel_) <= height;
    leastHeight_ = needed(kLeastDetail);
    const double captionHeight = fontPx_ * ((detailLevel_ < 3 ? 3.4 : 2.0) + headlineExtra);
    captionRect_ =
        QRectF(margin, height - captionHeight - margin * 0.5, width - 2 * margin, captionHeight);
    const double paneTop = margin * 0.6;
    const double paneHeight = captionRect_.top() - paneTop - margin * 0.4;
    const int count = paneCount();
    const double paneWidth = (width - margin * (count + 1)) / std::max(count, 1);
    for (int side = 0; side < count; ++side)
        layoutPane(side,
                   QRectF(margin + side * (paneWidth + margin), paneTop, paneWidth, paneHeight));

    bytesScale_ = 1;
    allocScale_ = 1;
    for (const model::StageTimeline& timeline : timelines_) {
        bytesScale_ = std::max(bytesScale_, quint64(bytesCounted(timeline)));
        allocScale_ = std::max(allocScale_, timeline.peakBytesInFlight);
    }
    layoutValid_ = true;
    staticValid_ = false;
}

void StageRenderer::layoutPane(int side, const QRectF& rect) {
    Pane& pane = panes_[side];
    const model::StageTimeline& timeline = timelines_[side];
    const double f = fontPx_;
    const double pad = f * 0.7;
    const QRectF inner = rect.adjusted(pad, pad * 0.6, -pad, -pad * 0.6);
    pane.rect = rect;

    double y = inner.top();
    pane.statusShown = detailLevel_ < 4;
    pane.header = QRectF(inner.left(), y, inner.width(), f * (pane.statusShown ? 3.3 : 1.8));
    y += pane.header.height();
    pane.gantt = QRectF(inner.left(), y, inner.width(), detailLevel_ < 2 ? f * 1.5 : 0.0);
    if (detailLevel_ < 2) y += pane.gantt.height() + f * 0.6;
    pane.hbmLabel = QRectF(inner.left(), y, inner.width(), f * 1.4);
    y += pane.hbmLabel.height();

    // Rows: the variant's arrays in declaration order; a fused variant without the pipeline's
    // intermediate gets a ghost row where it would be, before the first output.
    QVector<int> order;
    for (int a = 0; a < timeline.arrays.size(); ++a) order.push_back(a);
    if (timeline.arrayIndex(timeline.intermediate) < 0 && !timeline.intermediate.isEmpty()) {
        int insertAt = order.size();
        for (int a = 0; a < timeline.arrays.size(); ++a)
            if (timeline.arrays[a].role == model::StageArrayRole::Output) {
                insertAt = a;
                break;
            }
        order.insert(insertAt, -1);
    }

    const double smHeight = detailLevel_ < 1 ? f * 7.0 : 0.0;
    const double statsHeight = detailLevel_ < 5 ? f * 4.6 : 0.0;
    const double minFlow = f * (detailLevel_ < 4 ? 2.4 : 1.0);
    const double rowBudget = inner.bottom() - y - smHeight - statsHeight - minFlow - f * 0.8;
    const double rowHeight = std::clamp(rowBudget / std::max<qsizetype>(order.size(), 1),
                                        f * (detailLevel_ < 4 ? 1.6 : 1.3), f * 4.0);
    pane.hbm = QRectF(inner.left(), y, inner.width(), rowHeight * order.size());
    const double flowHeight =
        std::max(minFlow, inner.bottom() - pane.hbm.bottom() - smHeight - statsHeight - f * 0.8);
    pane.flow = QRectF(inner.left(), pane.hbm.bottom(), inner.width(), flowHeight);
    pane.smLabel =
        QRectF(inner.left(), pane.flow.bottom(), inner.width(), smHeight > 0 ? f * 1.4 : 0.0);
    pane.sm = QRectF(inner.left(), pane.smLabel.bottom(), inner.width(),
                     smHeight > 0 ? smHeight - f * 1.4 : 0.0);
    pane.stats = QRectF(inner.left(), pane.sm.bottom() + f * 0.8, inner.width(), statsHeight);

    quint64 largest = 1;
    for (const model::StageArray& array : timeline.arrays) largest = std::max(largest, array.bytes);

    pane.rows.clear();
    const double labelWidth = inner.width() * 0.2;
    // Each row's sweeps, found once: they size the pass counters and fill the rows.
    QVector<QVector<int>> rowSweeps(order.size());
    qsizetype mostSweeps = 0;
    for (int r = 0; r < order.size(); ++r) {
        if (order[r] >= 0)
            for (int s = 0; s < timeline.sweeps.size(); ++s)
                if (timeline.sweeps[s].array == order[r]) rowSweeps[r].push_back(s);
        mostSweeps = std::max(mostSweeps, rowSweeps[r].size());
    }
    // The pass counters take a sixth of the row, more (up to a quarter) where a row's dots need
    // it: the MLP's g_u_h is swept seven times.
    const double dotsWidth =
        static_cast<double>(mostSweeps) * preferredDotSize(rowHeight) * kPassDotPitch + f * 0.5;
    const double counterWidth = std::clamp(dotsWidth, inner.width() * 0.17, inner.width() * 0.25);
    for (int r = 0; r < order.size(); ++r) {
        Row row;
        row.array = order[r];
        row.color = theme_.arrayColor(timeline, row.array);
        row.touchedColor = row.color.lighter(theme_.background.lightnessF() < 0.5 ? 150 : 125);
        const double top = pane.hbm.top() + r * rowHeight;
        row.label = QRectF(inner.left(), top, labelWidth, rowHeight);
        row.tiles = QRectF(inner.left() + labelWidth, top + rowHeight * 0.18,
                           inner.width() - labelWidth - counterWidth, rowHeight * 0.64);
        row.counter = QRectF(row.tiles.right() + f * 0.5, top, counterWidth - f * 0.5, rowHeight);
        const quint64 bytes = row.array >= 0 ? timeline.arrays[row.array].bytes : largest;
        const int tiles =
            std::max(1, static_cast<int>(
                            std::lround(double(kTilesPerArray) * double(bytes) / double(largest))));
        const double pitch = row.tiles.width() / kTilesPerArray;
        const double gap = std::max(1.0, pitch * 0.14);
        for (int t = 0; t < tiles; ++t)
            row.tileRects.push_back(QRectF(row.tiles.left() + t * pitch, row.tiles.top(),
                                           pitch - gap, row.tiles.height()));
        row.tiles.setWidth(tiles * pitch - gap);
        row.sweeps = std::move(rowSweeps[r]);
        layoutPassDots(row, rowHeight);
        row.smEntry = QPointF(pane.sm.left() + pane.sm.width() * (r + 0.5) / order.size(),
                              pane.smLabel.top());
        pane.rows.push_back(row);
    }

    pane.smBoxes.clear();
    pane.registerCells.clear();
    const double boxGap = f * 0.5;
    const double boxWidth = (pane.sm.width() - boxGap * (kSmBoxes - 1)) / kSmBoxes;
    for (int b = 0; b < (pane.sm.height() > 0 ? kSmBoxes : 0); ++b) {
        const QRectF box(pane.sm.left() + b * (boxWidth + boxGap), pane.sm.top(), boxWidth,
                         pane.sm.height());
        pane.smBoxes.push_back(box);
        const double cellPad = box.width() * 0.1;
        const QRectF cells = box.adjusted(cellPad, cellPad, -cellPad, -cellPad);
        const double cellWidth = cells.width() / kCellColumns;
        const double cellHeight = cells.height() / kCellRows;
        for (int cy = 0; cy < kCellRows; ++cy)
            for (int cx = 0; cx < kCellColumns; ++cx)
                pane.registerCells.push_back(QRectF(cells.left() + cx * cellWidth + 1,
                                                    cells.top() + cy * cellHeight + 1,
                                                    cellWidth - 2, cellHeight - 2));
    }
    pane.registerColors.reserve(8);

    pane.kernelInfo.clear();
    const QFontMetricsF smallMetrics(smallFont_);
    const bool dram = timeline.dramSource != model::DramSource::Unknown;
    for (const model::StageKernel& kernel : timeline.kernels) {
        const double ms = double(kernel.endNs - kernel.startNs) / 1e6;
        // DRAM bytes where known (measured or the model's distinct bytes), said which; else the
        // requests, said so.
        const double read = dram ? kernel.dramRead : double(kernel.bytesRead);
        const double written = dram ? kernel.dramWritten : double(kernel.bytesWritten);
        const double gbps = ms > 0 ? (read + written) / (ms * 1e6) : 0.0;
        const QString rate = QStringLiteral("%1 GB/s %2")
                                 .arg(gbps, 0, 'f', gbps >= 10 ? 0 : 2)
                                 .arg(dram ? model::dramSourceWord(timeline.dramSource)
                                           : QStringLiteral("requested"));
        const QString info =
            QStringLiteral("%1 reads %2, writes %3 in %4: %5")
                .arg(dram ? memoryShortName() : QStringLiteral("requested"), formatStageBytes(read),
                     formatStageBytes(written), formatStageTime(ms), rate);
        pane.kernelInfo.push_back(
            smallMetrics.horizontalAdvance(info) <= pane.header.width() * 0.5 ? info : rate);
    }

    const double boxWidthStats = (pane.stats.width() - f) / 3.0;
    pane.passesBox =
        QRectF(pane.stats.left(), pane.stats.top(), boxWidthStats, pane.stats.height());
    pane.bytesBox = pane.passesBox.translated(boxWidthStats + f * 0.5, 0);
    pane.allocBox = pane.bytesBox.translated(boxWidthStats + f * 0.5, 0);
    const double barHeight = f * 0.7;
    pane.bytesBar =
        QRectF(pane.bytesBox.left() + f * 0.5, pane.bytesBox.bottom() - barHeight - f * 0.5,
               pane.bytesBox.width() - f, barHeight);
    pane.allocBar =
        QRectF(pane.allocBox.left() + f * 0.5, pane.allocBox.bottom() - barHeight - f * 0.5,
               pane.allocBox.width() - f, barHeight);
}

double StageRenderer::preferredDotSize(double rowHeight) const {
    return std::min(rowHeight * 0.56, fontPx_ * 1.35);
}

void StageRenderer::layoutPassDots(Row& row, double rowHeight) const {
    const int count = static_cast<int>(row.sweeps.size());
    row.dots.clear();
    row.passCount = QRectF();
    row.passCountText.clear();
    if (count == 0) return;
    const QRectF& area = row.counter;
    constexpr double kPitch = kPassDotPitch;
    const double preferred = preferredDotSize(rowHeight);
    // The letter inside each dot sets the least size: below it R and W print over the ring (a
    // short row's dots are that small already).
    const QSizeF letter = readLetter_.size().expandedTo(writeLetter_.size());
    const double least =
        std::min(preferred, std::max(letter.width(), QFontMetricsF(smallFont_).capHeight()) +
                                2.0 * theme_.lineWidth);
    const auto placeLines = [&](int lines) {
        const int perLine = (count + lines - 1) / lines;
        const double dot = std::min({preferred, area.width() / (perLine * kPitch - (kPitch - 1.0)),
                                     rowHeight / (lines * kPitch - (kPitch - 1.0))});
        // Lines of letters must not print over each other either.
        if (dot < least || dot * kPitch < letter.width() + 1.0 ||
            (lines > 1 && dot * kPitch < letter.height()))
            return false;
        const double top = area.center().y() - (lines * kPitch - (kPitch - 1.0)) * dot / 2;
        for (int d = 0; d < count; ++d)
            row.dots.push_back(QRectF(area.left() + (d % perLine) * dot * kPitch,
                                      top + (d / perLine) * dot * kPitch, dot, dot));
        return true;
    };
    if (placeLines(1) || placeLines(2)) return;
    // One dot for the pass under way, then how many passes there are.
    const double dot = std::max(least, std::min(preferred, rowHeight * 0.9));
    row.dots.push_back(QRectF(area.left(), area.center().y() - dot / 2, dot, dot));
    row.passCountText = QStringLiteral("\u00d7%1").arg(count);
    // Clear of the dot and of its letter, which a short row's dot does not hold.
    const double left = area.left() + std::max(dot, letter.width()) + dot * (kPitch - 1.0);
    row.passCount = QRectF(left, area.top(), std::max(0.0, area.right() - left), area.height());
}

void StageRenderer::paint(QPainter& painter, const QSize& size, qint64 timeNs, bool cacheStatic) {
    if (!layoutValid_ || size != layoutSize_) layout(size);
    updateState(timeNs);
    if (cacheStatic) {
        const qreal ratio = painter.device() ? painter.device()->devicePixelRatioF() : 1.0;
        if (!staticValid_ || staticLayer_.devicePixelRatio() != ratio) {
            // Opaque, so drawing it is a copy rather than a blend.
            staticLayer_ = QImage(size * ratio, QImage::Format_RGB32);
            staticLayer_.setDevicePixelRatio(ratio);
            QPainter cachePainter(&staticLayer_);
            drawStatic(cachePainter);
            staticValid_ = true;
        }
        painter.save();
        painter.setCompositionMode(QPainter::CompositionMode_Source);
        painter.drawImage(QPointF(0, 0), staticLayer_);
        painter.restore();
    } else {
        drawStatic(painter);
    }
    drawDynamic(painter);
}

int StageRenderer::leastHeight(int width) const {
    if (!hasTimelines()) return 0;
    // Laid out on a copy at no height: the type at its least, as on the smallest frame.
    StageRenderer probe = *this;
    probe.layout(QSize(width, 1));
    return static_cast<int>(std::ceil(probe.leastHeight_));
}

double StageRenderer::headlineBadgeRoom() const {
    return caption_.dataSource.isEmpty()
               ? 0.0
               : QFontMetricsF(boldFont_).horizontalAdvance(caption_.dataSource) + fontPx_ * 2.4;
}

QStringList StageRenderer::headlineLines(double width) const {
    const QFontMetricsF metrics(titleFont_);
    const QString separator = QStringLiteral(" · ");
    const QStringList parts = comparison_.split(separator);
    QStringList lines;
    QString current;
    for (const QString& part : parts) {
        const QString joined = current.isEmpty() ? part : current + separator + part;
        const double room = width - (lines.isEmpty() ? headlineBadgeRoom() : 0.0);
        if (current.isEmpty() || metrics.horizontalAdvance(joined) <= room) {
            current = joined;
            continue;
        }
        lines << current;
        current = part;
    }
    lines << current;
    return lines;
}

}  // namespace fusescope
