#include "model/sample_thinning.h"

#include <gtest/gtest.h>

#include "model/recording_json.h"

namespace fusescope::model {
namespace {

constexpr qint64 kIntervalNs = 20'000;

// `idle` quiet samples, then `busy` samples at 4 TB/s, then `idle` quiet ones again.
std::vector<BandwidthSample> idleBusyIdle(int idle, int busy) {
    std::vector<BandwidthSample> samples;
    qint64 time = 0;
    const auto add = [&](double readRate, double writeRate) {
        samples.push_back({time, time + kIntervalNs, readRate, writeRate});
        time += kIntervalNs;
    };
    for (int i = 0; i < idle; ++i) add(1e6 * (i % 3), 0.0);  // a trickle, not exactly zero
    for (int i = 0; i < busy; ++i) add(3e12, 1e12);
    for (int i = 0; i < idle; ++i) add(0.0, 2e6);
    return samples;
}

double totalBytes(const std::vector<BandwidthSample>& samples) {
    double bytes = 0.0;
    for (const BandwidthSample& s : samples)
        bytes += (s.readBytesPerSecond + s.writeBytesPerSecond) *
                 static_cast<double>(s.endNs - s.startNs);
    return bytes;
}

TEST(SampleThinning, IdleStretchesBecomeOneSampleEachWithTheSameBytes) {
    std::vector<BandwidthSample> samples = idleBusyIdle(500, 6);
    const double before = totalBytes(samples);
    const ThinningOutcome outcome = mergeIdleSamples(samples, 0.01);
    EXPECT_EQ(outcome.samplesBefore, 1006);
    // One merged stretch on each side, the two edge samples and the six busy ones.
    EXPECT_EQ(outcome.samplesAfter, 10);
    EXPECT_EQ(samples.size(), 10u);
    EXPECT_NEAR(totalBytes(samples), before, before * 1e-12);
    // Still contiguous, from the first sample's start to the last one's end.
    EXPECT_EQ(samples.front().startNs, 0);
    for (std::size_t i = 1; i < samples.size(); ++i)
        EXPECT_EQ(samples[i].startNs, samples[i - 1].endNs);
    EXPECT_EQ(samples.back().endNs, 1006 * kIntervalNs);
}

TEST(SampleThinning, ThePeakAndTheEdgesOfActivityStayAsRecorded) {
    std::vector<BandwidthSample> samples = idleBusyIdle(50, 3);
    const std::vector<BandwidthSample> original = samples;
    mergeIdleSamples(samples, 0.01);
    int busy = 0;
    for (const BandwidthSample& s : samples) {
        if (s.readBytesPerSecond == 3e12) {
            ++busy;
            EXPECT_EQ(s.endNs - s.startNs, kIntervalNs);
        }
    }
    EXPECT_EQ(busy, 3);
    // The samples just before and after the busy ones are the originals.
    EXPECT_EQ(samples[1].startNs, original[49].startNs);
    EXPECT_EQ(samples[1].endNs - samples[1].startNs, kIntervalNs);
}

TEST(SampleThinning, ARecordingSaysItWasThinnedAndKeepsSayingItAfterSaving) {
    Recording recording;
    recording.version = 2;
    VariantResult run;
    run.pipeline = "swiglu";
    run.variant = "fused";
    run.timeMs = 0.5;  // a measured time: a run of 0 ms is no measurement and does not load
    run.samples = idleBusyIdle(100, 2);
    recording.runs.push_back(run);
    VariantResult busyOnly = run;
    busyOnly.variant = "scratch";
    busyOnly.samples = idleBusyIdle(0, 4);
    recording.runs.push_back(busyOnly);
    mergeIdleSamples(recording, 0.01);
    EXPECT_EQ(recording.runs[0].samplesBeforeThinning, 202);
    EXPECT_EQ(recording.runs[1].samplesBeforeThinning, 0);  // nothing merged: as recorded

    Result<QByteArray> json = recordingToJsonBytes(recording);
    ASSERT_TRUE(json) << json.status().message();
    Result<Recording> back = recordingFromJson(*json, QStringLiteral("thinned.json"));
    ASSERT_TRUE(back) << back.status().message();
    EXPECT_EQ(back->runs[0].samplesBeforeThinning, 202);
    EXPECT_EQ(back->runs[0].samples.size(), recording.runs[0].samples.size());
    EXPECT_EQ(back->runs[1].samplesBeforeThinning, 0);
}

}  // namespace
}  // namespace fusescope::model
