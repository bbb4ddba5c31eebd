// The self-test's verdicts from made-up probes: which item is PASS, WARN, SKIP or FAIL, with
// which fix, and when the machine counts as ready for class.
#include <gtest/gtest.h>

#include <algorithm>

#include "pipelines/registry.h"
#include "selftest/check_list.h"

using namespace fusescope;
using namespace fusescope::selftest;

namespace {

PipelineProbe passingRun(const char* backend, const PipelineSpec& pipeline, int width) {
    PipelineProbe run;
    run.backend = QString::fromLatin1(backend);
    run.pipeline = QString::fromStdString(pipeline.name);
    run.label = QStringLiteral("vector %1").arg(width);
    run.problem = QStringLiteral("N = 65,536 · float32 · vector %1").arg(width);
    run.arguments = QStringLiteral("--shape N=65536 --dtype float32 --tile vector=%1").arg(width);
    run.variants = static_cast<int>(pipeline.variants.size());
    run.variantsCorrect = run.variants;
    run.maxRelativeError = 1e-7;
    return run;
}

QVector<PipelineProbe> passingRuns(const char* backend) {
    QVector<PipelineProbe> runs;
    for (const PipelineSpec& pipeline : pipelines())
        for (int width : kSupportedVectorWidths) runs << passingRun(backend, pipeline, width);
    return runs;
}

// A laptop without an NVIDIA GPU, with a CUDA build, a display and the recordings in place.
MachineProbe machineWithoutGpu() {
    MachineProbe probe;
    probe.gpu.cudaBuilt = true;
    probe.gpu.cudaReason = "no usable NVIDIA GPU: CUDA driver version is insufficient";
    probe.nvrtc.error = "libnvrtc.so.13: cannot open shared object file";
    probe.pipelines = passingRuns("cpu");
    probe.display = {"DISPLAY=:0", true, false};
    probe.recordings.foldersSearched = {"/opt/fusescope/share/fusescope/recordings"};
    probe.recordings.folderFound = "/opt/fusescope/share/fusescope/recordings";
    probe.recordings.recordings = {{"/opt/fusescope/share/fusescope/recordings/swiglu.json", {}}};
    return probe;
}

// A lab machine with a working H200 and everything allowed.
MachineProbe workingGpuMachine() {
    MachineProbe probe = machineWithoutGpu();
    probe.gpu.cudaUsable = true;
    probe.gpu.cudaReason.clear();
    probe.gpu.kernelModule = "580.65.06";
    probe.gpu.deviceNodes = true;
    probe.gpu.backendCreated = true;
    probe.gpu.deviceName = "NVIDIA H200";
    probe.gpu.driverVersion = "13.0";
    probe.gpu.runtimeVersion = "13.0";
    probe.counters = {true, true, CounterRefusal::None, {}, "CUPTI 13.0 on NVIDIA H200"};
    probe.cupti.found = true;
    probe.nvrtc = {true, {}};
    probe.pipelines << passingRuns("cuda");
    return probe;
}

// That machine with its hardware counters probed and refused for `reason`.
MachineProbe gpuMachineWithCountersRefused(CounterRefusal refusal, const char* reason) {
    MachineProbe probe = workingGpuMachine();
    probe.counters = {true, false, refusal, QString::fromUtf8(reason), QStringLiteral("none")};
    return probe;
}

const Check& find(const QVector<Check>& checks, const QString& name) {
    const auto at = std::find_if(checks.begin(), checks.end(),
                                 [&](const Check& check) { return check.name == name; });
    if (at == checks.end()) throw std::runtime_error("no check named " + name.toStdString());
    return *at;
}

int countOf(const QVector<Check>& checks, CheckStatus status) {
    return static_cast<int>(std::count_if(
        checks.begin(), checks.end(), [&](const Check& check) { return check.status == status; }));
}

}  // namespace

TEST(SelfTestVerdict, WithoutAGpuTheGpuItemsAreSkippedAndTheMachineIsReady) {
    const QVector<Check> checks = checkList(machineWithoutGpu());
    for (const char* name : {"NVIDIA driver", "CUDA runtime", "GPU access", "Counter permission",
                             "CUPTI", "NVRTC", "Pipelines on cuda"})
        EXPECT_EQ(find(checks, name).status, CheckStatus::Skip) << name;
    for (const PipelineSpec& pipeline : pipelines())
        for (int width : kSupportedVectorWidths) {
            const Check& run = find(checks, QStringLiteral("Pipeline %1 on cpu (vector %2)")
                                                .arg(QString::fromStdString(pipeline.name))
                                                .arg(width));
            EXPECT_EQ(run.status, CheckStatus::Pass) << run.found.toStdString();
        }
    EXPECT_EQ(find(checks, "Display").status, CheckStatus::Pass);
    EXPECT_EQ(find(checks, "Shipped recordings").status, CheckStatus::Pass);
    EXPECT_TRUE(machineReady(checks));
    EXPECT_TRUE(checkSummary(checks).endsWith("ready for class"));
    EXPECT_FALSE(checkSummary(checks).contains("NOT"));
}

TEST(SelfTestVerdict, RequiringTheGpuTurnsItsSkipsIntoFailures) {
    const QVector<Check> checks = checkList(machineWithoutGpu(), {.requireGpu = true});
    for (const char* name : {"NVIDIA driver", "CUDA runtime", "GPU access", "Pipelines on cuda"}) {
        EXPECT_EQ(find(checks, name).status, CheckStatus::Fail) << name;
        EXPECT_FALSE(find(checks, name).fix.isEmpty()) << name;
    }
    EXPECT_FALSE(machineReady(checks));
    EXPECT_TRUE(checkSummary(checks).endsWith("NOT ready for class"));
}

TEST(SelfTestVerdict, AWorkingGpuMachinePassesEverything) {
    const QVector<Check> checks = checkList(workingGpuMachine(), {.requireGpu = true});
    EXPECT_EQ(countOf(checks, CheckStatus::Fail), 0);
    EXPECT_EQ(countOf(checks, CheckStatus::Warn), 0);
    EXPECT_EQ(countOf(checks, CheckStatus::Skip), 0);
    EXPECT_TRUE(find(checks, "GPU access").found.contains("NVIDIA H200"));
    EXPECT_TRUE(find(checks, "NVIDIA driver").found.contains("580.65.06"));
    for (const PipelineSpec& pipeline : pipelines())
        EXPECT_EQ(find(checks, QStringLiteral("Pipeline %1 on cuda (vector 4)")
                                   .arg(QString::fromStdString(pipeline.name)))
                      .status,
                  CheckStatus::Pass);
    EXPECT_TRUE(machineReady(checks));
}

TEST(SelfTestVerdict, AnInstalledGpuWithAnOldDriverFailsWithTheDriverFix) {
    MachineProbe probe = machineWithoutGpu();
    probe.gpu.kernelModule = "535.247.01";
    probe.gpu.deviceNodes = true;
    probe.gpu.cudaReason =
        "no usable NVIDIA GPU: CUDA driver version is insufficient; this FuseScope uses CUDA "
        "13.0, which needs NVIDIA driver 580 or newer; the installed driver supports only CUDA "
        "12.2 (driver 535.247.01)";
    const QVector<Check> checks = checkList(probe);  // no --require-gpu: the GPU is there
    EXPECT_EQ(find(checks, "NVIDIA driver").status, CheckStatus::Pass);
    const Check& runtime = find(checks, "CUDA runtime");
    EXPECT_EQ(runtime.status, CheckStatus::Fail);
    EXPECT_EQ(runtime.found, probe.gpu.cudaReason);
    EXPECT_TRUE(runtime.fix.contains("580")) << runtime.fix.toStdString();
    EXPECT_EQ(find(checks, "GPU access").status, CheckStatus::Fail);
    EXPECT_EQ(find(checks, "Pipelines on cuda").status, CheckStatus::Fail);
    EXPECT_FALSE(machineReady(checks));
}

TEST(SelfTestVerdict, RefusedCountersWarnWithTheAdministratorsFix) {
    const MachineProbe probe = gpuMachineWithCountersRefused(
        CounterRefusal::Privileges,
        "hardware counters are refused: GPU profiling is restricted to administrators on this "
        "machine (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)");
    const QVector<Check> checks = checkList(probe);
    const Check& counters = find(checks, "Counter permission");
    EXPECT_EQ(counters.status, CheckStatus::Warn);
    EXPECT_TRUE(counters.found.contains("ERR_NVGPUCTRPERM"));
    EXPECT_TRUE(counters.fix.contains("options nvidia NVreg_RestrictProfilingToAdminUsers=0"));
    EXPECT_TRUE(counters.fix.contains("/etc/modprobe.d"));
    EXPECT_TRUE(counters.fix.contains("root"));
    EXPECT_EQ(find(checks, "CUPTI").status, CheckStatus::Pass);
    EXPECT_TRUE(machineReady(checks));  // the lesson shows timing and the pass model
}

TEST(SelfTestVerdict, MissingCuptiAndNvrtcAreWarnings) {
    MachineProbe probe = gpuMachineWithCountersRefused(
        CounterRefusal::LibraryMissing,
        "hardware counters are not available: the CUPTI library could not be loaded "
        "(libcupti.so.13: cannot open shared object file)");
    probe.cupti = {false, probe.counters.reason};
    probe.nvrtc = {false, "libnvrtc.so.13: cannot open shared object file"};
    const QVector<Check> checks = checkList(probe);
    EXPECT_EQ(find(checks, "CUPTI").status, CheckStatus::Warn);
    EXPECT_TRUE(find(checks, "CUPTI").fix.contains("LD_LIBRARY_PATH"));
    EXPECT_EQ(find(checks, "Counter permission").status, CheckStatus::Skip);
    const Check& nvrtc = find(checks, "NVRTC");
    EXPECT_EQ(nvrtc.status, CheckStatus::Warn);
    // NVRTC compiles the explorer's tiles, so its absence must say what stops working.
    EXPECT_FALSE(nvrtc.found.contains("not used yet"));
    EXPECT_TRUE(nvrtc.found.contains("tile explorer"));
    EXPECT_TRUE(machineReady(checks));
}

TEST(SelfTestVerdict, AWrongCpuResultOrAFailedRunFailsTheMachine) {
    MachineProbe wrong = machineWithoutGpu();
    wrong.pipelines[0].variantsCorrect = wrong.pipelines[0].variants - 1;
    wrong.pipelines[0].failedVariants = {"fused: 3 element(s) unwritten, max relative error 1"};
    QVector<Check> checks = checkList(wrong);
    EXPECT_EQ(countOf(checks, CheckStatus::Fail), 1);
    const Check& failed = *std::find_if(checks.begin(), checks.end(), [](const Check& check) {
        return check.status == CheckStatus::Fail;
    });
    EXPECT_TRUE(failed.found.contains("fused: 3 element(s) unwritten"))
        << failed.found.toStdString();
    EXPECT_FALSE(failed.fix.isEmpty());
    EXPECT_FALSE(machineReady(checks));

    MachineProbe failedRun = machineWithoutGpu();
    failedRun.pipelines[1].error = "out of memory";
    checks = checkList(failedRun);
    EXPECT_EQ(countOf(checks, CheckStatus::Fail), 1);
    EXPECT_FALSE(machineReady(checks));

    MachineProbe none = machineWithoutGpu();
    none.pipelines.clear();
    checks = checkList(none);
    EXPECT_EQ(find(checks, "Pipelines on cpu").status, CheckStatus::Fail);
}

TEST(SelfTestVerdict, MissingOrBrokenRecordingsFailTheMachine) {
    MachineProbe missing = machineWithoutGpu();
    missing.recordings.folderFound.clear();
    missing.recordings.recordings.clear();
    QVector<Check> checks = checkList(missing);
    const Check& absent = find(checks, "Shipped recordings");
    EXPECT_EQ(absent.status, CheckStatus::Fail);
    EXPECT_TRUE(absent.found.startsWith("no shipped recordings found"));
    EXPECT_TRUE(absent.found.contains("/opt/fusescope/share/fusescope/recordings"));
    EXPECT_FALSE(machineReady(checks));

    MachineProbe broken = machineWithoutGpu();
    broken.recordings.recordings << RecordingProbe{"/x/bad.json", "/x/bad.json: not JSON"};
    checks = checkList(broken);
    const Check& bad = find(checks, "Shipped recordings");
    EXPECT_EQ(bad.status, CheckStatus::Fail);
    EXPECT_TRUE(bad.found.contains("1 of 2")) << bad.found.toStdString();
    EXPECT_TRUE(bad.found.contains("/x/bad.json: not JSON"));
    EXPECT_FALSE(machineReady(checks));
}

TEST(SelfTestVerdict, NoDisplayIsAWarningForTheCliAndForAnInvisibleWindow) {
    MachineProbe cli = machineWithoutGpu();
    cli.display = {};
    QVector<Check> checks = checkList(cli);
    EXPECT_EQ(find(checks, "Display").status, CheckStatus::Warn);
    EXPECT_TRUE(find(checks, "Display").found.contains("DISPLAY and WAYLAND_DISPLAY are unset"));
    EXPECT_TRUE(machineReady(checks));

    MachineProbe offscreen = machineWithoutGpu();
    offscreen.display = {"offscreen", false, true};
    checks = checkList(offscreen);
    EXPECT_EQ(find(checks, "Display").status, CheckStatus::Warn);
    EXPECT_TRUE(find(checks, "Display").found.contains("offscreen"));

    MachineProbe window = machineWithoutGpu();
    window.display = {"xcb", true, true};
    EXPECT_EQ(find(checkList(window), "Display").status, CheckStatus::Pass);
}

TEST(SelfTestVerdict, TheSummaryCountsEachStatus) {
    const QVector<Check> checks{{"a", CheckStatus::Pass, {}, {}},
                                {"b", CheckStatus::Pass, {}, {}},
                                {"c", CheckStatus::Warn, {}, {}},
                                {"d", CheckStatus::Skip, {}, {}},
                                {"e", CheckStatus::Fail, {}, {}}};
    EXPECT_EQ(checkSummary(checks), "2 PASS, 1 WARN, 1 SKIP, 1 FAIL: NOT ready for class");
    EXPECT_EQ(checkStatusText(CheckStatus::Warn), "WARN");
}
