#include "model/sample_thinning.h"

#include <algorithm>

namespace fusescope::model {
namespace {

double bandwidth(const SampleRecord& sample) {
    return sample.readBytesPerSecond + sample.writeBytesPerSecond;
}

// One sample covering samples [first, last], with the same bytes as all of them.
SampleRecord merged(const QVector<SampleRecord>& samples, qsizetype first, qsizetype last) {
    SampleRecord result;
    result.timeNs = samples[first].timeNs;
    result.durationNs = samples[last].timeNs + samples[last].durationNs - samples[first].timeNs;
    double readBytes = 0.0;
    double writtenBytes = 0.0;
    for (qsizetype i = first; i <= last; ++i) {
        readBytes += samples[i].readBytesPerSecond * static_cast<double>(samples[i].durationNs);
        writtenBytes += samples[i].writeBytesPerSecond * static_cast<double>(samples[i].durationNs);
    }
    if (result.durationNs > 0) {
        result.readBytesPerSecond = readBytes / static_cast<double>(result.durationNs);
        result.writeBytesPerSecond = writtenBytes / static_cast<double>(result.durationNs);
    }
    return result;
}

}  // namespace

ThinningOutcome mergeIdleSamples(QVector<SampleRecord>& samples, double idleFraction) {
    ThinningOutcome outcome;
    outcome.samplesBefore = samples.size();
    double peak = 0.0;
    for (const SampleRecord& sample : samples) peak = std::max(peak, bandwidth(sample));
    const double idleBelow = peak * idleFraction;
    const auto idle = [&](qsizetype i) { return bandwidth(samples[i]) < idleBelow; };
    // A sample next to an active one is kept as it is: it holds the kernel's rising or falling
    // edge.
    const auto nearActivity = [&](qsizetype i) {
        return (i > 0 && !idle(i - 1)) || (i + 1 < samples.size() && !idle(i + 1));
    };
    QVector<SampleRecord> kept;
    qsizetype i = 0;
    while (i < samples.size()) {
        if (!idle(i) || nearActivity(i)) {
            kept.push_back(samples[i]);
            ++i;
            continue;
        }
        qsizetype last = i;
        while (last + 1 < samples.size() && idle(last + 1) && !nearActivity(last + 1)) ++last;
        kept.push_back(merged(samples, i, last));
        i = last + 1;
    }
    samples = kept;
    outcome.samplesAfter = samples.size();
    return outcome;
}

ThinningOutcome mergeIdleSamples(Recording& recording, double idleFraction) {
    ThinningOutcome total;
    for (RunRecord& run : recording.runs) {
        const ThinningOutcome outcome = mergeIdleSamples(run.samples, idleFraction);
        if (outcome.samplesAfter < outcome.samplesBefore)
            run.samplesBeforeThinning = std::max(run.samplesBeforeThinning, outcome.samplesBefore);
        total.samplesBefore += outcome.samplesBefore;
        total.samplesAfter += outcome.samplesAfter;
    }
    return total;
}

}  // namespace fusescope::model
