#include <gtest/gtest.h>
#include <signal.h>

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include "cli_process.h"
#include "model/captions.h"
#include "model/format.h"
#include "model/recording_json.h"
#include "model/run_traffic.h"
#include "model/sweep_json.h"
#include "runtime/backend.h"
#include "support/timing_slack.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

// A GPU one past the host's last (GPU 1 where none is usable), and the reason its refusal gives.
struct MissingGpu {
    QString device;
    QString reason;
};

MissingGpu missingGpu() {
    Result<std::vector<std::string>> names = cudaDeviceNames();
    const int missing = names ? static_cast<int>(names->size()) : 1;
    return {QString::number(missing), names ? QStringLiteral("there is no GPU %1").arg(missing)
                                            : QString::fromStdString(probeBackends().cudaReason)};
}

// Refused before it runs: exit 3, one line naming --device and the reason, nothing on stdout.
void expectMissingGpuRefused(const QStringList& arguments, const MissingGpu& gpu) {
    const CliResult result = runCli(arguments);
    ASSERT_FALSE(result.crashed);
    EXPECT_EQ(result.exitCode, 3) << result.err.toStdString();
    EXPECT_EQ(result.err.trimmed().count('\n'), 0) << result.err.toStdString();
    // "--device 1: there is no GPU 1: ..." on a GPU host, "--device 1: GPU 1: no usable ..."
    // without.
    EXPECT_TRUE(result.err.contains("--device " + gpu.device + ": ")) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(gpu.reason)) << result.err.toStdString();
    EXPECT_TRUE(result.out.isEmpty()) << result.out.toStdString();
}

// The table row whose first cell is `variant`, split into cells (columns are 2+ spaces apart).
QStringList tableRow(const QString& out, const QString& variant) {
    for (const QString& line : out.split('\n')) {
        const QStringList cells = line.trimmed().split(QRegularExpression("\\s{2,}"));
        if (cells.value(0) == variant) return cells;
    }
    return {};
}

// Starts fusescope-cli with `arguments` and reads its error output until it says that Ctrl-C
// cancels (a minute at most): what it wrote by then.
QByteArray startUntilCancellable(QProcess& process, const QStringList& arguments) {
    process.start(cliPath(), arguments);
    process.setReadChannel(QProcess::StandardError);
    QByteArray err;
    if (!process.waitForStarted()) return "did not start: " + process.errorString().toUtf8();
    for (int waited = 0; !err.contains("Ctrl-C cancels") && waited < 60; ++waited)
        if (process.waitForReadyRead(1000)) err += process.readAllStandardError();
    return err;
}

}  // namespace

TEST(CliRun, CpuRunWritesARecordingThatMatchesThePrintedTable) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString json = dir.filePath("out.json");
    const CliResult result =
        runCli({"run", "--pipeline", "swiglu", "--variants", "all", "--n", "100003", "--repeat",
                "3", "--warmup", "1", "--vector", "4", "--backend", "cpu", "--json", json});
    ASSERT_FALSE(result.crashed);
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains("recording written to " + json)) << result.err.toStdString();

    Result<Recording> loaded = loadRecording(json);
    ASSERT_TRUE(loaded) << loaded.status().message();
    Recording& recording = *loaded;
    EXPECT_EQ(recording.device.backend, fusescope::BackendKind::Cpu);
    EXPECT_TRUE(recording.producer.startsWith("fusescope-cli "));
    EXPECT_GT(recording.roofline.timeMs, 0.0);
    ASSERT_EQ(recording.runs.size(), 3);

    // The header names the device, N, dtype, vector width and data source, as the caption does.
    recording.replayed = false;  // the table was printed from the live run
    EXPECT_TRUE(result.out.contains(captionFor(recording))) << result.out.toStdString();
    EXPECT_TRUE(
        result.out.contains("copy roofline " + formatGBps(recording.roofline.gbps()) + " GB/s"))
        << result.out.toStdString();

    const double rooflineGBps = recording.roofline.gbps();
    for (const VariantResult& run : recording.runs) {
        SCOPED_TRACE(run.variant);
        EXPECT_EQ(run.pipeline, "swiglu");
        EXPECT_EQ(run.problem.dimension("N"), 100003u);
        EXPECT_EQ(run.problem.tuningValue("vector"), 4);
        EXPECT_EQ(run.backend, BackendKind::Cpu);
        EXPECT_EQ(run.repeatTimesMs.size(), 3);
        EXPECT_TRUE(run.check.ok);
        EXPECT_EQ(run.timingSource, MeasurementSource::CpuBackend);
        const QStringList row = tableRow(result.out, toQString(run.variant));
        // No counters on the CPU: the DRAM column is the model's distinct bytes, which for a
        // pipeline of whole-array sweeps are its requested bytes.
        const RunTraffic traffic = runTraffic(run);
        ASSERT_EQ(traffic.dramSource, DramSource::Model);
        EXPECT_EQ(traffic.dramBytes, traffic.requestedBytes);
        ASSERT_EQ(row.size(), 12) << result.out.toStdString();
        EXPECT_EQ(row[1], QString::number(run.kernels.size()));
        EXPECT_EQ(row[2], QString::number(run.passes));
        EXPECT_EQ(row[3], formatBytes(run.modelBytesRead + run.modelBytesWritten));
        EXPECT_EQ(row[4], formatBytes(quint64(traffic.dramBytes)));
        EXPECT_EQ(row[5], formatMilliseconds(run.timeMs));
        EXPECT_EQ(row[6], formatGBps(traffic.dramGBps()));
        EXPECT_EQ(row[7], QString::number(traffic.usefulTflops(), 'g', 3));
        EXPECT_EQ(row[8], formatPercent(traffic.dramGBps() / rooflineGBps));
        EXPECT_EQ(row[9], formatBytes(run.peakBytesInFlight));
        EXPECT_EQ(row[10], formatRelativeError(run.check.error));
        EXPECT_EQ(row[11], "OK");
    }
}

TEST(CliRun, RunsTheNamedVariantsInTheirOrder) {
    const CliResult result =
        runCli({"run", "--pipeline", "affine", "--variants", "fused,unfused", "--n", "2^12",
                "--repeat", "2", "--vector", "1", "--backend", "cpu"});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    const qsizetype fused = result.out.indexOf("\nfused ");
    const qsizetype unfused = result.out.indexOf("\nunfused ");
    ASSERT_GE(fused, 0) << result.out.toStdString();
    ASSERT_GE(unfused, 0) << result.out.toStdString();
    EXPECT_LT(fused, unfused);
    EXPECT_TRUE(result.out.contains("N = 4,096")) << result.out.toStdString();
    EXPECT_TRUE(result.out.contains("vector 1")) << result.out.toStdString();
}

TEST(CliRun, NoRoofsRunsTheVariantsWithoutTimingTheRoofs) {
    const AffineCpuRecording recorded("bare.json", "4096", {"--no-roofs"});
    const CliResult& result = recorded.run;
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    Result<Recording> loaded = loadRecording(recorded.json);
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(loaded->roofline.timeMs, 0.0);
    ASSERT_FALSE(loaded->runs.empty());
    for (const VariantResult& run : loaded->runs) EXPECT_TRUE(run.check.ok) << run.variant;
    // No measured roofline line ("copy roofline 4,204.3 GB/s"); the share column stays, empty.
    EXPECT_FALSE(result.out.contains(QRegularExpression("copy roofline [0-9]")))
        << result.out.toStdString();
}

TEST(CliRun, AutoBackendSaysWhichBackendAndWhy) {
    const CliResult result = runCli(
        {"run", "--pipeline", "affine", "--n", "1000", "--repeat", "1", "--backend", "auto"});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable)
        EXPECT_TRUE(result.err.contains("backend auto: using CUDA")) << result.err.toStdString();
    else
        EXPECT_TRUE(
            result.err.contains("backend auto: using the CPU backend (CUDA is not usable: " +
                                QString::fromStdString(availability.cudaReason)))
            << result.err.toStdString();
}

TEST(CliRun, CudaWithoutAGpuFailsWithTheReason) {
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable) GTEST_SKIP() << "a GPU is usable here, so --backend cuda works";
    const CliResult result = runCli({"run", "--pipeline", "swiglu", "--backend", "cuda"});
    ASSERT_FALSE(result.crashed);
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_EQ(result.err.trimmed().count('\n'), 0) << "one line: " << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QString::fromStdString(availability.cudaReason)))
        << result.err.toStdString();
    EXPECT_TRUE(result.out.isEmpty());
}

// --device N names a GPU of the host; one that is not there (or no usable GPU at all) is refused
// with the reason before anything runs, for run and sweep alike, and auto does not fall back.
TEST(CliRun, AGpuThatIsNotThereIsRefusedBeforeAnythingRuns) {
    const MissingGpu gpu = missingGpu();
    const QTemporaryDir dir;
    for (const QString& command : {QStringLiteral("run"), QStringLiteral("sweep")}) {
        const QString json = dir.filePath(command + ".json");
        expectMissingGpuRefused(
            {command, "--pipeline", "affine", "--device", gpu.device, "--json", json}, gpu);
        EXPECT_FALSE(QFileInfo::exists(json));
    }
}

// The tile commands take --device like run and sweep: a GPU that is not there is refused with the
// same reason, and no file is written.
TEST(CliRun, TilesAndResourcesRefuseAGpuThatIsNotThere) {
    const MissingGpu gpu = missingGpu();
    const QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("tiles.json"));
    const QList<QStringList> commands = {
        {"tiles", "--shape", "M=4,H=64,I=64", "--grid", "block_m=16,32", "--device", gpu.device,
         "--json", json},
        {"resources", "--preset", "classroom", "--device", gpu.device}};
    for (const QStringList& arguments : commands) expectMissingGpuRefused(arguments, gpu);
    EXPECT_FALSE(QFileInfo::exists(json));
}

TEST(CliRun, DescriptionIsWrittenIntoTheRecordingAndTheSweep) {
    const AffineCpuRecording recorded("described.fusescope.json", "4096",
                                      {"--description", "the affine chain\non  the CPU"});
    ASSERT_EQ(recorded.run.exitCode, 0) << recorded.run.err.toStdString();
    Result<Recording> recording = loadRecording(recorded.json);
    ASSERT_TRUE(recording) << recording.status().message();
    EXPECT_EQ(recording->description, "the affine chain on the CPU");
    const QString sweepPath = recorded.dir.filePath("sweep.json");
    const CliResult sweep =
        runCli({"sweep", "--pipeline", "affine", "--from", "4096", "--to", "8192", "--repeat", "2",
                "--backend", "cpu", "--json", sweepPath, "--description", "a short sweep"});
    ASSERT_EQ(sweep.exitCode, 0) << sweep.err.toStdString();
    Result<SweepFile> file = loadSweepFile(sweepPath);
    ASSERT_TRUE(file) << file.status().message();
    EXPECT_EQ(file->description, "a short sweep");
}

TEST(CliRun, CtrlCCancelsCleanlyAndWritesNothing) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString json = dir.filePath("cancelled.json");
    QProcess process;
    // Enough repeats that the run is still going when the signal arrives.
    QByteArray err =
        startUntilCancellable(process, {"run", "--pipeline", "swiglu", "--n", "2^20", "--repeat",
                                        "100000", "--backend", "cpu", "--json", json});
    ASSERT_TRUE(err.contains("Ctrl-C cancels")) << err.toStdString();
    ASSERT_EQ(::kill(static_cast<pid_t>(process.processId()), SIGINT), 0);
    ASSERT_TRUE(process.waitForFinished(30000)) << "still running 30 s after Ctrl-C";
    err += process.readAllStandardError();
    EXPECT_EQ(process.exitStatus(), QProcess::NormalExit) << "killed by the signal, not cancelled";
    EXPECT_EQ(process.exitCode(), 130) << err.toStdString();
    EXPECT_TRUE(err.contains("cancelled")) << err.toStdString();
    EXPECT_FALSE(QFileInfo::exists(json)) << "a cancelled run writes no recording";
}

// Large arrays, where one kernel or one buffer fill between repeats takes longer than a second
// on a small CPU: Ctrl-C still stops the run within half a second. The estimate comes first.
TEST(CliRun, CtrlCStopsALargeCpuRunWithinHalfASecond) {
    QProcess process;
    QByteArray err =
        startUntilCancellable(process, {"run", "--pipeline", "swiglu", "--variants", "all", "--n",
                                        "2^26", "--repeat", "50", "--backend", "cpu"});
    ASSERT_TRUE(err.contains("Ctrl-C cancels")) << err.toStdString();
    EXPECT_TRUE(err.contains("on this CPU")) << "no estimate before the run: " << err.toStdString();
    // Into the inputs, fills and kernels of the first variant.
    QThread::msleep(1000);
    ASSERT_EQ(process.state(), QProcess::Running) << "the run ended before Ctrl-C";
    QElapsedTimer stopping;
    stopping.start();
    ASSERT_EQ(::kill(static_cast<pid_t>(process.processId()), SIGINT), 0);
    ASSERT_TRUE(process.waitForFinished(30000)) << "still running 30 s after Ctrl-C";
    const qint64 ms = stopping.elapsed();
    err += process.readAllStandardError();
    EXPECT_EQ(process.exitCode(), 130) << err.toStdString();
    EXPECT_LT(ms, 500 * testsupport::timingSlack())
        << "Ctrl-C took " << ms << " ms to stop the run";
}

TEST(CliShow, PrintsTheSameTableFromTheRecordingMarkedReplayed) {
    const AffineCpuRecording recorded("shown.json", "5000");
    const CliResult& run = recorded.run;
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const CliResult show = runCli({"show", recorded.json});
    ASSERT_EQ(show.exitCode, 0) << show.err.toStdString();
    for (const char* variant : {"unfused", "fused"}) {
        const QStringList printed = tableRow(run.out, variant);
        ASSERT_EQ(printed.size(), 12) << run.out.toStdString();
        EXPECT_EQ(tableRow(show.out, variant), printed) << show.out.toStdString();
    }
    EXPECT_TRUE(show.out.contains("CPU backend, replayed")) << show.out.toStdString();
    EXPECT_TRUE(show.err.contains("recorded by fusescope-cli ")) << show.err.toStdString();
}

TEST(CliShow, ABrokenRecordingFailsWithOneLineNamingTheFile) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("broken.json");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "fusescope-recording", "version": 1, "runs": 3})");
    file.close();
    const CliResult result = runCli({"show", path});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(result.err.trimmed().count('\n'), 0) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(path)) << result.err.toStdString();
    EXPECT_TRUE(result.out.isEmpty());
}

// On a GPU machine (the H200): a CUDA run records the device, launch resources and its source.
TEST(CliRunGpu, CudaRunRecordsTheDeviceResourcesAndTimingSource) {
    const BackendAvailability availability = probeBackends();
    if (!availability.cudaUsable) GTEST_SKIP() << "no usable GPU: " << availability.cudaReason;
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString json = dir.filePath("cuda.json");
    const CliResult result =
        runCli({"run", "--pipeline", "swiglu", "--variants", "all", "--n", "1000003", "--repeat",
                "5", "--vector", "4", "--backend", "cuda", "--json", json});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString() << result.out.toStdString();
    Result<Recording> loaded = loadRecording(json);
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(loaded->device.backend, fusescope::BackendKind::Cuda);
    EXPECT_GT(loaded->device.multiprocessors, 0);
    EXPECT_GT(loaded->roofline.gbps(), 0.0);
    for (const VariantResult& run : loaded->runs) {
        SCOPED_TRACE(run.variant);
        EXPECT_EQ(run.backend, BackendKind::Cuda);
        EXPECT_TRUE(run.check.ok);
        EXPECT_EQ(run.check.unwrittenElements, 0u);
        EXPECT_EQ(run.timingSource, MeasurementSource::TimingModel);
        for (const KernelResult& kernel : run.kernels) {
            EXPECT_TRUE(kernel.resources.known) << kernel.name;
            EXPECT_GT(kernel.resources.registersPerThread, 0) << kernel.name;
            EXPECT_GT(kernel.timeMs, 0.0) << kernel.name;
        }
    }
    EXPECT_TRUE(result.out.contains("timing + model")) << result.out.toStdString();
}
