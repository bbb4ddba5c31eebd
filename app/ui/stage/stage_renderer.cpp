#include "ui/stage/stage_renderer.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <functional>

namespace fusescope {
namespace {

constexpr int kTilesPerArray = 32;  // the largest array's row; smaller arrays get fewer
constexpr int kSmBoxes = 8;         // a symbolic handful of SMs, not the device's count
constexpr int kCellColumns = 4;
constexpr int kCellRows = 3;
constexpr int kPacketsPerFlow = 5;
constexpr double kPacketTripsPerSweep = 14.0;

QFont pixelFont(double px, bool bold) {
    QFont font;
    font.setPixelSize(std::max(8, static_cast<int>(std::lround(px))));
    font.setBold(bold);
    return font;
}

QRectF titleLine(const auto& pane) {
    return QRectF(pane.header.left(), pane.header.top(), pane.header.width(),
                  pane.header.height() * (pane.statusShown ? 0.52 : 1.0));
}
QRectF statusLine(const auto& pane) {
    return QRectF(pane.header.left(), pane.header.top() + pane.header.height() * 0.52,
                  pane.header.width(), pane.statusShown ? pane.header.height() * 0.48 : 0.0);
}

// The first text that fits the width, or the last one.
const QString& firstFitting(const QFontMetricsF& metrics, double width,
                            std::initializer_list<std::reference_wrapper<const QString>> texts) {
    for (const QString& text : texts)
        if (metrics.horizontalAdvance(text) <= width) return text;
    return std::data(texts)[texts.size() - 1];
}

// `from` moved towards `to` by `amount` (0..1).
QColor blend(const QColor& from, const QColor& to, double amount) {
    const auto mix = [amount](double a, double b) { return a + (b - a) * amount; };
    return QColor::fromRgbF(static_cast<float>(mix(from.redF(), to.redF())),
                            static_cast<float>(mix(from.greenF(), to.greenF())),
                            static_cast<float>(mix(from.blueF(), to.blueF())));
}

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

// What the bytes box counts: DRAM bytes where known, else the requests.
double bytesCounted(const model::StageTimeline& timeline) {
    return timeline.dramSource != model::DramSource::Unknown
               ? timeline.dramBytes
               : double(timeline.modelBytesRead + timeline.modelBytesWritten);
}

}  // namespace

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
    const bool complete = timeline.passesCounted ? state.passesCompleted == timeline.modelPasses
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
    const QString total = timeline.passesCounted ? QStringLiteral("of %1").arg(timeline.modelPasses)
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
