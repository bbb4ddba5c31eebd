#include "model/comparison.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "model/captions.h"
#include "model/recording_description.h"
#include "model/run_traffic.h"

namespace fusescope::model {
namespace {

std::optional<double> ratio(double a, double b) {
    if (!(a > 0.0)) return std::nullopt;
    return b / a;
}

QString runKey(const VariantResult& run) {
    return toQString(run.pipeline + '/' + run.variant);
}

int findRun(const Recording& recording, const QString& key) {
    for (int index = 0; index < runCount(recording); ++index)
        if (runKey(recording.runs[index]) == key) return index;
    return -1;
}

QString labelOf(const Recording& recording) {
    return deviceAndDay(deviceLabel(recording.device), recording.createdAt);
}

// Where two problem labels differ, in their own parts ("M = 1" of "M = 1, H = 4,096 · bfloat16"):
// "M = 1 against M = 16"; a part only one side has stands alone ("BLOCK_M 32 against none").
// Empty where the labels are the same.
QString problemDifference(const QString& a, const QString& b) {
    if (a == b) return {};
    const auto partsOf = [](const QString& label) {
        QStringList parts;
        for (const QString& group : label.split(QStringLiteral(" · ")))
            parts << group.split(QStringLiteral(", "));
        return parts;
    };
    const QStringList partsA = partsOf(a);
    const QStringList partsB = partsOf(b);
    QStringList onlyA, onlyB;
    for (const QString& part : partsA)
        if (!partsB.contains(part)) onlyA << part;
    for (const QString& part : partsB)
        if (!partsA.contains(part)) onlyB << part;
    const auto side = [](const QStringList& parts) {
        return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
    };
    if (onlyA.isEmpty() && onlyB.isEmpty())  // the same parts in another order
        return QStringLiteral("%1 against %2").arg(a, b);
    return QStringLiteral("%1 against %2").arg(side(onlyA), side(onlyB));
}

}  // namespace

std::optional<double> VariantComparison::timeRatio() const {
    return ratio(timeMsA, timeMsB);
}
std::optional<double> VariantComparison::bytesRatio() const {
    return ratio(static_cast<double>(bytesA), static_cast<double>(bytesB));
}
std::optional<double> VariantComparison::gbpsRatio() const {
    return ratio(gbpsA, gbpsB);
}

RecordingComparison compareRecordings(const Recording& a, const Recording& b) {
    RecordingComparison comparison;
    comparison.labelA = labelOf(a);
    comparison.labelB = labelOf(b);
    QStringList seen;
    std::vector<std::pair<QString, QStringList>> differences;  // in words, and its variants
    for (int indexA = 0; indexA < runCount(a); ++indexA) {
        const VariantResult& runA = a.runs[indexA];
        const QString key = runKey(runA);
        if (seen.contains(key)) continue;
        seen << key;
        const int indexB = findRun(b, key);
        if (indexB < 0) {
            comparison.onlyInA << key;
            continue;
        }
        const VariantResult& runB = b.runs[indexB];
        VariantComparison row;
        row.pipeline = toQString(runA.pipeline);
        row.variant = toQString(runA.variant);
        row.runA = indexA;
        row.runB = indexB;
        row.timeMsA = runA.timeMs;
        row.timeMsB = runB.timeMs;
        row.bytesA = runA.modelBytesRead + runA.modelBytesWritten;
        row.bytesB = runB.modelBytesRead + runB.modelBytesWritten;
        const RunTraffic trafficA = runTraffic(runA);
        const RunTraffic trafficB = runTraffic(runB);
        row.gbpsOfDram = trafficA.hasDram() && trafficB.hasDram();
        row.gbpsA = row.gbpsOfDram ? trafficA.dramGBps() : trafficA.requestedGBps();
        row.gbpsB = row.gbpsOfDram ? trafficB.dramGBps() : trafficB.requestedGBps();
        if (row.gbpsOfDram) {
            row.dramSourceA = dramSourceWord(trafficA.dramSource);
            row.dramSourceB = dramSourceWord(trafficB.dramSource);
        }
        comparison.variants << row;
        if (const QString difference = problemDifference(problemLabel(runA), problemLabel(runB));
            !difference.isEmpty()) {
            // Variants that differ the same way share one entry: "M = 1 against M = 16 (unfused,
            // production)", not the whole problem again for each.
            const auto same = std::find_if(differences.begin(), differences.end(),
                                           [&](const auto& d) { return d.first == difference; });
            if (same == differences.end())
                differences.push_back({difference, {key}});
            else
                same->second << key;
        }
    }
    for (const auto& [difference, keys] : differences)
        comparison.problemsDiffer << QStringLiteral("%1 (%2)").arg(
            difference, keys.size() == comparison.variants.size() && keys.size() > 1
                            ? QStringLiteral("every variant")
                            : keys.join(QStringLiteral(", ")));
    for (const VariantResult& runB : b.runs) {
        const QString key = runKey(runB);
        if (findRun(a, key) < 0 && !comparison.onlyInB.contains(key)) comparison.onlyInB << key;
    }
    return comparison;
}

QString formatRatio(const std::optional<double>& value) {
    if (!value) return QStringLiteral("—");
    // Three significant digits, trailing zeros kept so a column reads alike ("1.60x" beside
    // "1.01x"), never in exponent form ("1234x", not "1.23e+03x").
    const double magnitude = std::fabs(*value);
    const int integerDigits = magnitude > 0.0 && std::isfinite(magnitude)
                                  ? static_cast<int>(std::floor(std::log10(magnitude))) + 1
                                  : 1;
    int decimals = std::max(0, 3 - integerDigits);
    // Rounding can carry into a new digit (9.996 -> 10.0): then one decimal fewer.
    const double scale = std::pow(10.0, decimals);
    if (decimals > 0 && std::round(magnitude * scale) / scale >= std::pow(10.0, integerDigits))
        --decimals;
    return QString::number(*value, 'f', decimals) + QStringLiteral("x");
}

}  // namespace fusescope::model
