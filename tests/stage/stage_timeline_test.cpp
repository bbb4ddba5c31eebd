// The stage timeline and state against the registry's pass model: allocation lifetimes, pass
// counts, the fused variant's intermediate, one time scale for two runs, device timelines.
#include <QtTest>

#include "model/measured_counts.h"
#include "model/recording_json.h"
#include "model/stage/stage_state.h"
#include "model/stage/stage_timeline.h"
#include "pipelines/registry.h"
#include "stage_test_runs.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

StageTimeline built(const VariantResult& run) {
    Result<StageTimeline> timeline = buildStageTimeline(run);
    if (!timeline) qFatal("buildStageTimeline failed: %s", timeline.status().message().c_str());
    return *timeline;
}

int registryPasses(const QString& pipeline, const QString& variant) {
    const PipelineSpec* spec = findPipeline(pipeline.toStdString());
    int passes = 0;
    for (const KernelSpec& kernel :
         findVariant(*spec, variant.toStdString())->kernelsFor(spec->defaultProblem()))
        passes += static_cast<int>(kernel.passReads.size() + kernel.passWrites.size());
    return passes;
}

}  // namespace

class StageTimelineTest : public QObject {
    Q_OBJECT
  private slots:
    void passCountersAtTheEndEqualTheModel_data();
    void passCountersAtTheEndEqualTheModel();
    void scratchExistsOnlyBetweenAllocationAndFree();
    void fusedVariantNeverWritesTheIntermediate();
    void scratchKernelRunsTwoLoops();
    void bytesMovedAtTheEndEqualTheModel();
    void sideBySideSharesOneTimeScale();
    void peakFallsByOneArrayWhenFused();
    void cpuRunConvertsAndPlays();
    void deviceTimelineGivesKernelTimesAndGaps();
    void unknownVariantIsAReadableError();
    void defaultPairIsUnfusedLeftFusedRight();
    void reReadWeightsCountHowOftenTheyWereRead();
    void shippedPrefillCountsDramBytesAndReReadsApart();
};

void StageTimelineTest::passCountersAtTheEndEqualTheModel_data() {
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("passes");
    // The lesson's figures: 5 and 3 for SwiGLU scratch and fused, 4 and 2 for the affine chain.
    QTest::newRow("swiglu scratch") << "swiglu"
                                    << "scratch" << 5;
    QTest::newRow("swiglu two_launch") << "swiglu"
                                       << "two_launch" << 5;
    QTest::newRow("swiglu fused") << "swiglu"
                                  << "fused" << 3;
    QTest::newRow("affine unfused") << "affine"
                                    << "unfused" << 4;
    QTest::newRow("affine fused") << "affine"
                                  << "fused" << 2;
}

void StageTimelineTest::passCountersAtTheEndEqualTheModel() {
    QFETCH(QString, pipeline);
    QFETCH(QString, variant);
    QFETCH(int, passes);
    QCOMPARE(registryPasses(pipeline, variant), passes);
    const StageTimeline timeline = built(stagetest::syntheticRun(pipeline, variant, 1 << 20, 0.5));
    QCOMPARE(timeline.modelPasses, passes);
    StageState state;
    computeStageState(timeline, 0, state);
    QCOMPARE(state.passesCompleted, 0);
    computeStageState(timeline, timeline.kernelsEndNs, state);
    QCOMPARE(state.passesCompleted, passes);
    int perArray = 0;
    for (const StageArrayState& array : state.arrays) perArray += array.passes();
    QCOMPARE(perArray, passes);
    // Half way through the kernels some but not all passes are done or under way.
    computeStageState(timeline, (timeline.kernelsStartNs + timeline.kernelsEndNs) / 2, state);
    QVERIFY(state.passesProgress > 0.0);
    QVERIFY(state.passesProgress < passes);
}

void StageTimelineTest::scratchExistsOnlyBetweenAllocationAndFree() {
    const StageTimeline timeline =
        built(stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0));
    const int scratch = timeline.arrayIndex("scratch");
    QVERIFY(scratch >= 0);
    const StageArray& array = timeline.arrays[scratch];
    QVERIFY(array.allocatedAtNs > 0);  // it appears on stage, it is not there from the start
    QVERIFY(array.allocatedAtNs < timeline.kernelsStartNs);
    QVERIFY(array.freedAtNs >= timeline.kernelsEndNs);
    QVERIFY(array.freedAtNs < timeline.endNs);

    StageState state;
    const QList<qint64> before = {0, array.allocatedAtNs - 1};
    const QList<qint64> during = {array.allocatedAtNs, timeline.kernelsStartNs,
                                  (timeline.kernelsStartNs + timeline.kernelsEndNs) / 2,
                                  array.freedAtNs - 1};
    const QList<qint64> after = {array.freedAtNs, timeline.endNs};
    for (qint64 t : before) {
        computeStageState(timeline, t, state);
        QVERIFY2(!state.arrays[scratch].allocated, qPrintable(QString("t = %1").arg(t)));
    }
    for (qint64 t : during) {
        computeStageState(timeline, t, state);
        QVERIFY2(state.arrays[scratch].allocated, qPrintable(QString("t = %1").arg(t)));
    }
    for (qint64 t : after) {
        computeStageState(timeline, t, state);
        QVERIFY2(!state.arrays[scratch].allocated, qPrintable(QString("t = %1").arg(t)));
    }
    // While the kernels run every buffer of the variant is allocated.
    computeStageState(timeline, timeline.kernelsStartNs, state);
    quint64 all = 0;
    for (const StageArray& a : timeline.arrays) all += a.bytes;
    QCOMPARE(state.bytesInFlight, all);
}

void StageTimelineTest::fusedVariantNeverWritesTheIntermediate() {
    for (const QString& pipeline : {QStringLiteral("swiglu"), QStringLiteral("affine")}) {
        const StageTimeline timeline =
            built(stagetest::syntheticRun(pipeline, "fused", 1 << 20, 1.0));
        QVERIFY(timeline.fused);
        QVERIFY(!timeline.intermediate.isEmpty());
        QCOMPARE(timeline.arrayIndex(timeline.intermediate), -1);  // never allocated
        for (const StageSweep& sweep : timeline.sweeps)
            QVERIFY(timeline.arrays[sweep.array].name != timeline.intermediate);
        for (const StageKernel& kernel : timeline.kernels)
            QVERIFY(kernel.holdsIntermediateInRegisters);
        StageState state;
        computeStageState(timeline, (timeline.kernelsStartNs + timeline.kernelsEndNs) / 2, state);
        QVERIFY(state.intermediateInRegisters);
        computeStageState(timeline, timeline.endNs, state);
        QCOMPARE(state.bytesWritten, double(timeline.modelBytesWritten));
        QCOMPARE(timeline.modelBytesWritten,
                 quint64((1 << 20) * 4));  // only `out`, of N = 2^20
    }
    // The unfused variants do write it, and do not claim to hold it in registers.
    const StageTimeline scratch = built(stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0));
    bool writesScratch = false;
    for (const StageSweep& sweep : scratch.sweeps)
        writesScratch |= sweep.write && scratch.arrays[sweep.array].name == "scratch";
    QVERIFY(writesScratch);
    QVERIFY(!scratch.kernels[0].holdsIntermediateInRegisters);
}

void StageTimelineTest::scratchKernelRunsTwoLoops() {
    // The lab's kernel: loop 1 reads gate and writes scratch; loop 2 reads scratch and up and
    // writes out. Scratch must be written before it is read back.
    const StageTimeline timeline =
        built(stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0));
    qint64 scratchWriteEnd = -1, scratchReadStart = -1, outWriteStart = -1;
    for (const StageSweep& sweep : timeline.sweeps) {
        const QString& name = timeline.arrays[sweep.array].name;
        if (name == "scratch" && sweep.write) scratchWriteEnd = sweep.endNs;
        if (name == "scratch" && !sweep.write) scratchReadStart = sweep.startNs;
        if (name == "out") outWriteStart = sweep.startNs;
    }
    QVERIFY(scratchWriteEnd > 0);
    QCOMPARE(scratchReadStart, scratchWriteEnd);
    QCOMPARE(outWriteStart, scratchReadStart);
    // The loops share the kernel's time by the bytes they move: 2 of 5 passes, then 3 of 5.
    const StageKernel& kernel = timeline.kernels[0];
    const double firstLoop =
        double(scratchWriteEnd - kernel.startNs) / double(kernel.endNs - kernel.startNs);
    QVERIFY(qAbs(firstLoop - 0.4) < 1e-6);
}

void StageTimelineTest::bytesMovedAtTheEndEqualTheModel() {
    const StageTimeline timeline =
        built(stagetest::syntheticRun("swiglu", "two_launch", 1 << 18, 0.3));
    StageState state;
    computeStageState(timeline, timeline.endNs, state);
    QCOMPARE(state.bytesRead, double(timeline.modelBytesRead));
    QCOMPARE(state.bytesWritten, double(timeline.modelBytesWritten));
    QCOMPARE(timeline.kernels.size(), 2);
    QCOMPARE(timeline.kernels[1].startNs, timeline.kernels[0].endNs);  // no invented launch gap
}

void StageTimelineTest::sideBySideSharesOneTimeScale() {
    StageTimeline scratch = built(stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0));
    StageTimeline fused = built(stagetest::syntheticRun("swiglu", "fused", 1 << 20, 0.6));
    alignStageTimelines(scratch, fused);
    QCOMPARE(scratch.kernelsStartNs, fused.kernelsStartNs);
    QCOMPARE(scratch.kernelSpanNs(), qint64(1'000'000));
    QCOMPARE(fused.kernelSpanNs(), qint64(600'000));
    QVERIFY(fused.kernelsEndNs < scratch.kernelsEndNs);  // the fused one finishes first
    QVERIFY(fused.endNs < scratch.endNs);
    // At the moment the fused run's kernels end it has done all 3 passes, scratch not yet 5.
    StageState left, right;
    computeStageState(scratch, fused.kernelsEndNs, left);
    computeStageState(fused, fused.kernelsEndNs, right);
    QCOMPARE(right.passesCompleted, 3);
    QVERIFY(left.passesCompleted < 5);
}

void StageTimelineTest::peakFallsByOneArrayWhenFused() {
    const StageTimeline scratch = built(stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0));
    const StageTimeline fused = built(stagetest::syntheticRun("swiglu", "fused", 1 << 20, 0.6));
    QCOMPARE(scratch.peakBytesInFlight - fused.peakBytesInFlight, quint64(4u << 20));
    StageState state;
    computeStageState(scratch, scratch.endNs, state);
    QCOMPARE(state.peakSoFar, scratch.peakBytesInFlight);
    QCOMPARE(state.bytesInFlight, quint64(0));
}

void StageTimelineTest::cpuRunConvertsAndPlays() {
    const Recording recording = stagetest::cpuRecording("swiglu", {"scratch", "fused"}, 1 << 16);
    QCOMPARE(recording.runs.size(), 2);
    StageTimeline scratch = built(recording.runs[0]);
    StageTimeline fused = built(recording.runs[1]);
    alignStageTimelines(scratch, fused);
    QVERIFY(!scratch.timesFromDeviceTimeline);
    QCOMPARE(scratch.peakBytesInFlight, recording.runs[0].peakBytesInFlight);
    QCOMPARE(fused.peakBytesInFlight, recording.runs[1].peakBytesInFlight);
    // The kernels take their measured medians, laid end to end.
    qint64 measured = 0;
    for (const KernelResult& kernel : recording.runs[0].kernels)
        measured += qint64(std::llround(kernel.timeMs * 1e6));
    QVERIFY(qAbs(scratch.kernelSpanNs() - measured) <= scratch.kernels.size());
    StageState state;
    computeStageState(scratch, scratch.endNs, state);
    QCOMPARE(state.passesCompleted, 5);
    computeStageState(fused, fused.endNs, state);
    QCOMPARE(state.passesCompleted, 3);
}

void StageTimelineTest::deviceTimelineGivesKernelTimesAndGaps() {
    VariantResult run = stagetest::syntheticRun("swiglu", "two_launch", 1 << 20, 0.5);
    // A sampling run's timeline: allocations, two repeats of the two kernels (mangled names).
    auto span = [](TimelineSpan::Kind kind, const QString& name, qint64 start, qint64 end) {
        TimelineSpan s;
        s.kind = kind;
        s.name = name.toStdString();
        s.startNs = start;
        s.endNs = end;
        s.bytes = kind == TimelineSpan::Kind::Allocation ? (4u << 20) : 0;
        return s;
    };
    using K = TimelineSpan::Kind;
    const QString silu = "_Z10swigluSiluPKfPfm";
    const QString mul = "swigluMul(float const*, float const*, float*, unsigned long)";
    // Three repetitions: a slow cold one (60 us), then 31 us and 30 us. The median one is used.
    run.timeline = {
        span(K::Allocation, "gate", 100, 190'000),    span(K::Allocation, "up", 200, 190'000),
        span(K::Allocation, "scratch", 300, 190'000), span(K::Allocation, "out", 400, 190'000),
        span(K::Kernel, silu, 10'000, 40'000),        span(K::Kernel, mul, 41'000, 70'000),
        span(K::Kernel, silu, 80'000, 90'000),        span(K::Kernel, mul, 93'000, 111'000),
        span(K::Kernel, silu, 120'000, 130'000),      span(K::Kernel, mul, 132'000, 150'000)};
    const StageTimeline timeline = built(run);
    QVERIFY(timeline.timesFromDeviceTimeline);
    QCOMPARE(timeline.runClockKernelsStartNs, qint64(80'000));
    QCOMPARE(timeline.kernels[0].endNs - timeline.kernels[0].startNs, qint64(10'000));
    QCOMPARE(timeline.kernels[1].startNs - timeline.kernels[0].endNs,
             qint64(3'000));  // measured gap
    QCOMPARE(timeline.kernelSpanNs(), qint64(31'000));
    // The charts' clock and the stage's clock convert both ways inside the kernels.
    QCOMPARE(timeline.toRunClockNs(timeline.kernels[1].startNs), qint64(93'000));
    QCOMPARE(timeline.fromRunClockNs(93'000), timeline.kernels[1].startNs);
    // Allocations made before the kernels appear in the allocation phase, in order.
    QVERIFY(timeline.arrays[0].allocatedInPhase);
    QVERIFY(timeline.arrays[0].allocatedAtNs < timeline.arrays[2].allocatedAtNs);
    QVERIFY(timeline.arrays[2].allocatedAtNs < timeline.kernelsStartNs);
}

void StageTimelineTest::unknownVariantIsAReadableError() {
    VariantResult run = stagetest::syntheticRun("swiglu", "fused", 1024, 0.1);
    run.variant = "warp_specialized";
    const Result<StageTimeline> timeline = buildStageTimeline(run);
    QVERIFY(!timeline);
    QVERIFY(QString::fromStdString(timeline.status().message()).contains("warp_specialized"));
}

void StageTimelineTest::defaultPairIsUnfusedLeftFusedRight() {
    Recording recording;
    recording.runs = {stagetest::syntheticRun("swiglu", "fused", 1024, 0.1),
                      stagetest::syntheticRun("swiglu", "scratch", 1024, 0.2),
                      stagetest::syntheticRun("swiglu", "two_launch", 1024, 0.2)};
    StageRunPair pair = defaultStageRunPair(recording);
    QCOMPARE(pair.left, 1);
    QCOMPARE(pair.right, 0);
    recording.runs = {stagetest::syntheticRun("swiglu", "scratch", 1024, 0.2),
                      stagetest::syntheticRun("swiglu", "two_launch", 1024, 0.2)};
    pair = defaultStageRunPair(recording);
    QCOMPARE(pair.left, 0);
    QCOMPARE(pair.right, 1);
    recording.runs.resize(1);
    pair = defaultStageRunPair(recording);
    QCOMPARE(pair.left, 0);
    QCOMPARE(pair.right, -1);
    QCOMPARE(defaultStageRunPair(Recording{}).left, -1);
}

void StageTimelineTest::shippedPrefillCountsDramBytesAndReReadsApart() {
    // The lesson kernel of the shipped H200 prefill recording requests 2.42 TB, and its DRAM
    // counters measured 772 GB: the stage counts the DRAM bytes, and the rest as served on chip.
    Result<Recording> loaded = loadRecording(
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-prefill-4096-bf16.fusescope.json"));
    QVERIFY2(loaded, loaded.status().message().c_str());
    const VariantResult* lesson = nullptr;
    for (const VariantResult& run : loaded->runs)
        if (run.variant == "lesson_fused") lesson = &run;
    QVERIFY(lesson != nullptr);
    double counted = 0.0;
    for (const KernelResult& kernel : lesson->kernels)
        counted += *model::measured(kernel, &KernelCounters::dramBytesRead) +
                   *model::measured(kernel, &KernelCounters::dramBytesWritten);
    const StageTimeline timeline = built(*lesson);
    QCOMPARE(timeline.dramSource, DramSource::Measured);
    QCOMPARE(timeline.dramBytes, counted);
    QCOMPARE(timeline.kernels.size(), 1);
    QCOMPARE(timeline.kernels[0].dramBytes(), counted);
    // The kernel's rate is of DRAM bytes: below the device's bandwidth, not 8,914 GB/s.
    QVERIFY(timeline.kernels[0].dramGBps() < loaded->device.theoreticalBandwidthGBps);

    StageState state;
    computeStageState(timeline, timeline.kernelsStartNs, state);
    QCOMPARE(state.dramBytes, 0.0);
    const StageKernel& kernel = timeline.kernels[0];
    computeStageState(timeline, (kernel.startNs + kernel.endNs) / 2, state);
    QVERIFY(qAbs(state.dramBytes - counted / 2) < counted * 1e-6);
    computeStageState(timeline, timeline.endNs, state);
    QCOMPARE(state.dramBytes, counted);
    const double requested = double(timeline.modelBytesRead + timeline.modelBytesWritten);
    QCOMPARE(state.bytesMoved(), requested);
    QCOMPARE(state.servedOnChip(), requested - counted);
}

QTEST_GUILESS_MAIN(StageTimelineTest)
void StageTimelineTest::reReadWeightsCountHowOftenTheyWereRead() {
    // The lesson's tiled kernel re-reads gate and up for every output tile: at the end of the
    // run each array's times-read is its model read bytes over its size, and an input read once
    // (by the unfused GEMMs) stays near 1.
    const PipelineSpec* mlp = findPipeline("mlp");
    QVERIFY(mlp != nullptr);
    for (const char* variant : {"lesson_fused", "unfused"}) {
        VariantResult run;
        run.pipeline = "mlp";
        run.variant = variant;
        run.problem = withDefaults(*mlp, {});
        run.problem.dimensions["M"] = 64;
        run.problem.dimensions["H"] = 256;
        run.problem.dimensions["I"] = 512;
        const VariantSpec* spec = findVariant(*mlp, variant);
        QVERIFY(spec != nullptr);
        for (const KernelSpec& kernel : spec->kernelsFor(run.problem)) {
            KernelResult record;
            record.name = kernel.name;
            record.timeMs = 0.1;
            run.kernels.push_back(record);
            run.timeMs += 0.1;
        }
        Result<StageTimeline> timeline = buildStageTimeline(run);
        QVERIFY2(timeline, timeline.status().message().c_str());
        StageState state;
        computeStageState(*timeline, timeline->kernelsEndNs, state);
        const int gateUp = timeline->arrayIndex(QStringLiteral("gate_up"));
        QVERIFY(gateUp >= 0);
        double modelReads = 0.0;
        for (const StageSweep& sweep : timeline->sweeps)
            if (sweep.array == gateUp && !sweep.write) modelReads += double(sweep.bytes);
        const double expected = modelReads / double(timeline->arrays[gateUp].bytes);
        QCOMPARE(state.arrays[gateUp].timesRead, expected);
        if (run.variant == "lesson_fused")
            QVERIFY2(expected > 2.0, qPrintable(QString::number(expected)));
        else
            QVERIFY2(expected < 1.5, qPrintable(QString::number(expected)));
        // Before the kernels nothing has been read.
        computeStageState(*timeline, timeline->kernelsStartNs, state);
        QCOMPARE(state.arrays[gateUp].timesRead, 0.0);
    }
}

#include "stage_timeline_test.moc"
