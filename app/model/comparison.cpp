#include "model/comparison.h"

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
        if (problemLabel(runA) != problemLabel(runB))
            comparison.problemsDiffer << QStringLiteral("%1: %2 against %3")
                                             .arg(key, problemLabel(runA), problemLabel(runB));
    }
    for (const VariantResult& runB : b.runs) {
        const QString key = runKey(runB);
        if (findRun(a, key) < 0 && !comparison.onlyInB.contains(key)) comparison.onlyInB << key;
    }
    return comparison;
}

QString formatRatio(const std::optional<double>& value) {
    if (!value) return QStringLiteral("—");
    // Three significant digits, never in exponent form ("1234x", not "1.23e+03x").
    const QString digits =
        *value >= 100.0 ? QString::number(*value, 'f', 0) : QString::number(*value, 'g', 3);
    return digits + QStringLiteral("x");
}

}  // namespace fusescope::model
