// The live chart fed from the recording model: a recording's runs land on one time axis.
#include <QtTest>

#include "live/live_recording_feed.h"

using namespace fusescope;

class LiveFeedTest : public QObject {
    Q_OBJECT
  private slots:
    void showsEveryRunOfARecording();
    void saysWhenThereIsNothingToShow();
};

void LiveFeedTest::showsEveryRunOfARecording() {
    model::Recording recording;
    recording.device.name = "Test GPU";
    recording.roofline.timeMs = 1.0;
    recording.roofline.bytesMoved = 4'000'000'000;
    const quint64 array = 1'000'000;
    for (int r = 0; r < 2; ++r) {
        model::VariantResult run;
        run.variant = r == 0 ? "scratch" : "fused";
        const qint64 t0 = r * 10'000'000;
        for (int i = 0; i < 100; ++i)
            run.samples.push_back({t0 + i * 10'000, t0 + (i + 1) * 10'000, 3e12, 1e12});
        run.timeline.push_back(
            {fusescope::TimelineSpan::Kind::Kernel, "k", t0 + 100'000, t0 + 900'000, 0});
        const int buffers = r == 0 ? 4 : 3;  // scratch holds one array more
        for (int b = 0; b < buffers; ++b)
            run.timeline.push_back(
                {fusescope::TimelineSpan::Kind::Allocation, "buffer", t0, t0 + 1'000'000, array});
        recording.runs.push_back(run);
    }
    live::LiveBandwidthChart chart;
    QVERIFY(live::showRecording(chart, recording));
    QCOMPARE(chart.sampleCount(), 200);
    QCOMPARE(chart.peakBytesInFlight(), 4 * array);
    QVERIFY(std::abs(chart.totalReadBytes() - 200 * 3e12 * 1e-5) < 1.0);
}

void LiveFeedTest::saysWhenThereIsNothingToShow() {
    model::Recording recording;
    recording.runs.push_back(model::VariantResult{});
    live::LiveBandwidthChart chart;
    QVERIFY(!live::showRecording(chart, recording));
    QCOMPARE(chart.sampleCount(), 0);
    QVERIFY2(chart.dataSource().contains(QStringLiteral("no DRAM bandwidth samples")),
             qPrintable(chart.dataSource()));
}

QTEST_MAIN(LiveFeedTest)
#include "live_feed_test.moc"
