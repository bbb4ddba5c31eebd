#include "model/sample_thinning.h"

#include <algorithm>

namespace fusescope::model {
namespace {

double bandwidth(const BandwidthSample& sample) {
    return sample.readBytesPerSecond + sample.writeBytesPerSecond;
}

// One sample covering samples [first, last], with the same bytes as all of them.
// Weighs rates by nanoseconds rather than seconds: no 1e-9 factor rounds the merged rates.
BandwidthSample merged(const std::vector<BandwidthSample>& samples, qsizetype first,
                       qsizetype last) {
    const auto nanoseconds = [](const BandwidthSample& sample) {
        return static_cast<double>(sample.endNs - sample.startNs);
    };
    BandwidthSample result;
    result.startNs = samples[first].startNs;
    result.endNs = samples[last].endNs;
    double readBytes = 0.0;
    double writtenBytes = 0.0;
    for (qsizetype i = first; i <= last; ++i) {
        readBytes += samples[i].readBytesPerSecond * nanoseconds(samples[i]);
        writtenBytes += samples[i].writeBytesPerSecond * nanoseconds(samples[i]);
    }
    if (result.endNs > result.startNs) {
        result.readBytesPerSecond = readBytes / nanoseconds(result);
        result.writeBytesPerSecond = writtenBytes / nanoseconds(result);
    }
    return result;
}

}  // namespace

ThinningOutcome mergeIdleSamples(std::vector<BandwidthSample>& samples, double idleFraction) {
    ThinningOutcome outcome;
    const qsizetype count = static_cast<qsizetype>(samples.size());
    outcome.samplesBefore = count;
    double peak = 0.0;
    for (const BandwidthSample& sample : samples) peak = std::max(peak, bandwidth(sample));
    const double idleBelow = peak * idleFraction;
    const auto idle = [&](qsizetype i) { return bandwidth(samples[i]) < idleBelow; };
    // A sample next to an active one is kept as it is: it holds the kernel's rising or falling
    // edge.
    const auto nearActivity = [&](qsizetype i) {
        return (i > 0 && !idle(i - 1)) || (i + 1 < count && !idle(i + 1));
    };
    std::vector<BandwidthSample> kept;
    qsizetype i = 0;
    while (i < count) {
        if (!idle(i) || nearActivity(i)) {
            kept.push_back(samples[i]);
            ++i;
            continue;
        }
        qsizetype last = i;
        while (last + 1 < count && idle(last + 1) && !nearActivity(last + 1)) ++last;
        kept.push_back(merged(samples, i, last));
        i = last + 1;
    }
    samples = kept;
    outcome.samplesAfter = static_cast<qsizetype>(samples.size());
    return outcome;
}

ThinningOutcome mergeIdleSamples(Recording& recording, double idleFraction) {
    ThinningOutcome total;
    for (VariantResult& run : recording.runs) {
        const ThinningOutcome outcome = mergeIdleSamples(run.samples, idleFraction);
        if (outcome.samplesAfter < outcome.samplesBefore)
            run.samplesBeforeThinning =
                std::max<std::int64_t>(run.samplesBeforeThinning, outcome.samplesBefore);
        total.samplesBefore += outcome.samplesBefore;
        total.samplesAfter += outcome.samplesAfter;
    }
    return total;
}

}  // namespace fusescope::model
