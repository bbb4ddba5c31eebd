#include "ui/stage/stage_caption.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

#include "model/captions.h"
#include "model/format.h"

namespace fusescope {
namespace {

// The caption is drawn whole into every frame, and its drawing buffers grow with the text: a
// name from a file is cut to what a frame can show.
constexpr qsizetype kMaxCaptionNameLength = 96;

QString shortened(const QString& name) {
    if (name.size() <= kMaxCaptionNameLength) return name;
    return name.left(kMaxCaptionNameLength - 1) + QChar(0x2026);
}

}  // namespace

QString stageDataSourceLabel(model::DataSource source) {
    return model::dataSourceLabel(source);
}

StageCaptionContext stageCaptionContext(const model::Recording& recording,
                                        const model::VariantResult& run) {
    StageCaptionContext context;
    context.deviceName = shortened(QString::fromStdString(recording.device.name));
    context.problem = model::problemLabel(run);
    context.dataSource = model::dataSourceBadge(recording, run);  // says "replayed" when it is
    context.memoryName = shortened(QString::fromStdString(recording.device.memoryName));
    context.processorsName = shortened(QString::fromStdString(recording.device.processorsName));
    return context;
}

QString stageCaptionLine(const StageCaptionContext& context) {
    QStringList parts;
    if (!context.deviceName.isEmpty()) parts << context.deviceName;
    if (!context.problem.isEmpty()) parts << context.problem;
    if (!context.dataSource.isEmpty()) parts << context.dataSource;
    return parts.join(QStringLiteral(" · "));
}

QString formatStageTime(double ms) {
    if (ms >= 1000.0) return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 3);
    if (ms >= 1.0) return QStringLiteral("%1 ms").arg(ms, 0, 'f', 3);
    return QStringLiteral("%1 µs").arg(ms * 1000.0, 0, 'f', ms * 1000.0 >= 100.0 ? 0 : 1);
}

QString formatStageBytes(double bytes) {
    // Whole bytes, as the tables count them; the stage's sums of samples can be fractional.
    return model::formatBytes(static_cast<quint64>(std::llround(std::max(0.0, bytes))));
}

QString stageComparisonLine(const model::StageTimeline& left, const model::StageTimeline* right) {
    QString line = QStringLiteral("%1 %2").arg(left.variant, formatStageTime(left.measuredTimeMs));
    if (!right) return line;
    line += QStringLiteral(" · %1 %2").arg(right->variant, formatStageTime(right->measuredTimeMs));
    const double slow = std::max(left.measuredTimeMs, right->measuredTimeMs);
    const double fast = std::min(left.measuredTimeMs, right->measuredTimeMs);
    if (fast > 0.0) {
        const QString& faster =
            left.measuredTimeMs <= right->measuredTimeMs ? left.variant : right->variant;
        line += QStringLiteral(" · %1 is %2 faster")
                    .arg(faster, model::formatTimes(slow / fast, QChar(0x00D7)));
    }
    return line;
}

}  // namespace fusescope
