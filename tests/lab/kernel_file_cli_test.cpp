// `fusescope-cli run --kernel-file`: the learner's kernel compiled (here: NVRTC needs no GPU), its
// messages printed with the file's lines, a malformed header refused with its line; on a GPU,
// run beside the shipped variants and recorded, wrong output named by index, and a crashing or
// hanging kernel reported without harm to the next run.
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include "cli/cli_process.h"
#include "model/lab/learner_kernel.h"
#include "model/recording_json.h"
#include "platform/runtime_compiler.h"
#include "runtime/backend.h"

using namespace fusescope;

namespace {

QString starterPath(const char* name) {
    return QStringLiteral(FUSESCOPE_LAB_STARTERS_DIR "/") + QLatin1String(name);
}

model::LearnerKernel starter() {
    auto kernel = model::loadLearnerKernel(starterPath("lab_swiglu_scratch.cu"));
    EXPECT_TRUE(kernel) << kernel.status().message();
    return kernel ? *kernel : model::LearnerKernel{};
}

// The starter with its body replaced (the entry's name and buffers kept).
QString withBody(const QTemporaryDir& dir, const char* name, const QString& body,
                 bool dropScratch = false) {
    model::LearnerKernel kernel = starter();
    if (dropScratch) {
        kernel.buffers.removeIf([](const model::LearnerBuffer& b) {
            return b.role == model::LearnerBufferRole::Scratch;
        });
        kernel.passes.removeIf([](const model::LearnerPass& p) { return p.buffer == "scratch"; });
    }
    const QString params = dropScratch ? QStringLiteral(
                                             "const float* gate, const float* up, "
                                             "float* out, int N")
                                       : QStringLiteral(
                                             "const float* gate, const float* up, "
                                             "float* scratch, float* out, int N");
    kernel.source =
        QStringLiteral("extern \"C\" __global__ void swiglu_lab(%1) {\n%2\n}\n").arg(params, body);
    const QString path = dir.filePath(QLatin1String(name));
    EXPECT_TRUE(model::saveLearnerKernel(kernel, path));
    return path;
}

bool gpuUsable() {
    return probeBackends().cudaUsable;
}

bool nvrtcHere() {
    return static_cast<bool>(runtimeCompiler());
}

// After a kernel that crashed or hung, the next run of the starter works.
void expectTheStarterRuns() {
    const CliResult next = runCli({"run", "--kernel-file", starterPath("lab_swiglu_scratch.cu"),
                                   "--n", "4096", "--repeat", "1"});
    EXPECT_EQ(next.exitCode, 0) << next.err.toStdString();
}

// The kernel fails the check, and the output names where and what it got.
void expectFirstWrong(const QString& path, const char* where, const char* got) {
    const CliResult result = runCli({"run", "--kernel-file", path, "--n", "4096", "--repeat", "1"});
    EXPECT_EQ(result.exitCode, 1) << result.err.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String(where))) << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String(got))) << result.out.toStdString();
}

const QString kGridStride = QStringLiteral(
    "  int start = blockIdx.x * blockDim.x + threadIdx.x; int stride = blockDim.x * gridDim.x;\n");

// A kernel body: the grid-stride loop's head, then `loop` (a statement or a block).
QString gridStrideLoop(const char* loop) {
    return kGridStride + QStringLiteral("  for (int i = start; i < N; i += stride)") +
           QLatin1String(loop);
}

// The lab's solution inside the loop: one pass over gate, up and out.
constexpr const char* kSolutionLoop =
    " {\n    float g = gate[i];\n    out[i] = g / (1.0f + expf(-g)) * up[i];\n  }\n";

}  // namespace

TEST(KernelFileCli, EveryStarterCompiles) {
    if (!nvrtcHere()) GTEST_SKIP() << "NVRTC is not installed here";
    const QStringList starters =
        QDir(QStringLiteral(FUSESCOPE_LAB_STARTERS_DIR)).entryList({QStringLiteral("*.cu")});
    EXPECT_GE(starters.size(), 3);
    for (const QString& name : starters) {
        const CliResult result = runCli(
            {"run", "--kernel-file", starterPath(name.toLatin1().constData()), "--compile-only"});
        EXPECT_EQ(result.exitCode, 0)
            << name.toStdString() << ": " << result.err.toStdString() << result.out.toStdString();
        EXPECT_TRUE(result.err.contains("compiled")) << result.err.toStdString();
    }
}

TEST(KernelFileCli, ACompileErrorIsListedWithTheFilesLineAndNothingRuns) {
    if (!nvrtcHere()) GTEST_SKIP() << "NVRTC is not installed here";
    const QTemporaryDir dir;
    const QString path =
        withBody(dir, "typo.cu", gridStrideLoop("\n    out[i] = gatee[i] * up[i];\n"));
    const CliResult result = runCli({"run", "--kernel-file", path});
    EXPECT_EQ(result.exitCode, 2);
    // The header has 13 lines, the signature one, the grid-stride line one: line 17.
    EXPECT_TRUE(result.out.contains("typo.cu(17): error: identifier \"gatee\" is undefined"))
        << result.out.toStdString();
    EXPECT_TRUE(result.err.contains("did not compile")) << result.err.toStdString();
}

TEST(KernelFileCli, AMalformedHeaderIsRefusedWithItsLine) {
    const QTemporaryDir dir;
    QFile file(dir.filePath("bad.cu"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("// fusescope-kernel 1\n// entry: k\n// reference: swiglu\n// buffer: output\n");
    file.close();
    const CliResult result = runCli({"run", "--kernel-file", file.fileName(), "--compile-only"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.err.contains("bad.cu: line 4: a buffer is \"buffer: ROLE NAME\""))
        << result.err.toStdString();
}

TEST(KernelFileCli, InputsTheReferenceDoesNotHaveAreRefused) {
    const QTemporaryDir dir;
    model::LearnerKernel kernel = starter();
    kernel.buffers[0].name = QStringLiteral("x");
    kernel.passes[0].buffer = QStringLiteral("x");
    const QString path = dir.filePath("x.cu");
    ASSERT_TRUE(model::saveLearnerKernel(kernel, path));
    const CliResult result = runCli({"run", "--kernel-file", path, "--compile-only"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.err.contains("the input \"x\" is none of swiglu's inputs"))
        << result.err.toStdString();
}

TEST(KernelFileCli, WithoutAGpuRunningIsRefusedInWords) {
    if (gpuUsable()) GTEST_SKIP() << "a GPU is usable here";
    const CliResult result = runCli({"run", "--kernel-file", starterPath("lab_swiglu_scratch.cu")});
    EXPECT_EQ(result.exitCode, 3);
    EXPECT_TRUE(result.err.contains("needs a GPU")) << result.err.toStdString();
}

// On the GPU: the starter and the lab's solution beside the shipped variants; the solution has
// two passes fewer and a peak N*4 bytes lower.
TEST(KernelFileCliGpu, StarterAndSolutionAreRecordedBesideTheShippedVariants) {
    if (!gpuUsable()) GTEST_SKIP() << "needs a GPU (no usable CUDA device here)";
    const QTemporaryDir dir;
    const QString solution = withBody(dir, "solution.cu", gridStrideLoop(kSolutionLoop), true);
    const quint64 n = 1 << 22;
    quint64 peaks[2] = {0, 0};
    int passes[2] = {0, 0};
    const QString files[2] = {starterPath("lab_swiglu_scratch.cu"), solution};
    for (int k = 0; k < 2; ++k) {
        const QString json = dir.filePath(QStringLiteral("rec%1.json").arg(k));
        const CliResult result = runCli({"run", "--kernel-file", files[k], "--n",
                                         QString::number(n), "--repeat", "3", "--json", json});
        ASSERT_EQ(result.exitCode, 0) << result.err.toStdString() << result.out.toStdString();
        const auto recording = model::loadRecording(json);
        ASSERT_TRUE(recording) << recording.status().message();
        ASSERT_GE(recording->runs.size(), 3);  // the shipped variants and the learner's
        const model::VariantResult& mine = recording->runs.back();
        EXPECT_EQ(mine.variant, "your kernel");
        EXPECT_TRUE(mine.check.ok);
        EXPECT_GT(mine.timeMs, 0.0);
        peaks[k] = mine.peakBytesInFlight;
        // The allocation chart's events: every buffer allocated, then freed, peaking there.
        std::uint64_t highest = 0;
        for (const fusescope::AllocationEvent& event : mine.allocations)
            highest = std::max(highest, event.inFlightAfter);
        EXPECT_EQ(highest, mine.peakBytesInFlight);
        EXPECT_EQ(mine.allocations.size() % 2, 0);
        EXPECT_EQ(mine.allocations.back().inFlightAfter, 0u);
        passes[k] = mine.passes;
    }
    EXPECT_EQ(passes[0] - passes[1], 2);
    EXPECT_EQ(peaks[0] - peaks[1], n * 4);
}

TEST(KernelFileCliGpu, WrongOutputNamesTheFirstWrongIndex) {
    if (!gpuUsable()) GTEST_SKIP() << "needs a GPU (no usable CUDA device here)";
    const QTemporaryDir dir;
    // Skips element 1000: it keeps the poison.
    const QString path =
        withBody(dir, "wrong.cu",
                 gridStrideLoop(
                     "\n    if (i != 1000) out[i] = gate[i] / (1.0f + expf(-gate[i])) * up[i];\n"));
    expectFirstWrong(path, "first wrong element at index 1000", "got nothing (never written)");
}

TEST(KernelFileCliGpu, ACrashingKernelIsReportedAndTheNextRunWorks) {
    if (!gpuUsable()) GTEST_SKIP() << "needs a GPU (no usable CUDA device here)";
    const QTemporaryDir dir;
    const QString path = withBody(dir, "crash.cu", gridStrideLoop(" out[i + (1 << 30)] = 1.0f;\n"));
    const CliResult crashed =
        runCli({"run", "--kernel-file", path, "--n", "4096", "--repeat", "1"});
    EXPECT_FALSE(crashed.crashed);
    EXPECT_EQ(crashed.exitCode, 3) << crashed.err.toStdString();
    // The driver names the fault (an illegal address, or an address space the access may not
    // use); what the learner must read is that their kernel broke the GPU context.
    EXPECT_TRUE(crashed.err.contains("your kernel failed")) << crashed.err.toStdString();
    EXPECT_TRUE(crashed.err.contains("context is now unusable")) << crashed.err.toStdString();
    expectTheStarterRuns();
}

TEST(KernelFileCliGpu, AHangingKernelIsStoppedByTheTimeLimitAndTheNextRunWorks) {
    if (!gpuUsable()) GTEST_SKIP() << "needs a GPU (no usable CUDA device here)";
    const QTemporaryDir dir;
    const QString path = withBody(
        dir, "hang.cu",
        // A volatile local's loop is compiled away by NVRTC; the clock is read anew each turn.
        kGridStride + QStringLiteral("  const long long began = clock64();\n"
                                     "  while (clock64() - began >= 0) {}\n"
                                     "  for (int i = start; i < N; i += stride) out[i] = 0.0f;\n"));
    QElapsedTimer clock;
    clock.start();
    const CliResult hung = runCli(
        {"run", "--kernel-file", path, "--n", "4096", "--repeat", "1", "--time-limit", "2"}, 60000);
    EXPECT_FALSE(hung.crashed) << "the CLI itself must end after its time limit";
    EXPECT_EQ(hung.exitCode, 3) << hung.err.toStdString() << hung.out.toStdString();
    EXPECT_TRUE(hung.err.contains("did not finish within 2 s"))
        << hung.err.toStdString() << hung.out.toStdString();
    EXPECT_LT(clock.elapsed(), 45000);
    expectTheStarterRuns();
}

namespace {

// A blank kernel for `expression` with `body` inside its grid-stride loop.
QString blankKernelFile(const QTemporaryDir& dir, const char* name, const QString& expression,
                        const QString& body) {
    Result<model::LearnerKernel> kernel =
        model::blankKernelFor(expression, QStringLiteral("blank_kernel"));
    EXPECT_TRUE(kernel) << kernel.status().message();
    if (!kernel) return {};
    QStringList parameters;
    for (const model::LearnerBuffer& buffer : kernel->buffers)
        parameters << QStringLiteral("float* ") + buffer.name;
    kernel->source = QStringLiteral(
                         "extern \"C\" __global__ void blank_kernel(%1, int N) {\n%2"
                         "  for (int i = start; i < N; i += stride) {\n%3\n  }\n}\n")
                         .arg(parameters.join(QStringLiteral(", ")), kGridStride, body);
    const QString path = dir.filePath(QLatin1String(name));
    EXPECT_TRUE(model::saveLearnerKernel(*kernel, path));
    return path;
}

}  // namespace

TEST(KernelFileCli, ABlankKernelWithAnExpressionCompilesWithoutAGpu) {
    if (!nvrtcHere()) GTEST_SKIP() << "NVRTC is not installed here";
    const QTemporaryDir dir;
    const QString path = blankKernelFile(dir, "blank.cu", QStringLiteral("out = x * 2 + y"),
                                         QStringLiteral("    out[i] = x[i] * 2.0f + y[i];"));
    const CliResult result = runCli({"run", "--kernel-file", path, "--compile-only"});
    EXPECT_EQ(result.exitCode, 0) << result.err.toStdString() << result.out.toStdString();
    EXPECT_TRUE(result.err.contains("compiled")) << result.err.toStdString();
}

// Compiles a blank kernel's file that has only its header: this expression, this input.
CliResult compileBlankHeader(const char* expression, const char* input) {
    const QTemporaryDir dir;
    QFile file(dir.filePath("blank.cu"));
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral("// fusescope-kernel 1\n// entry: k\n// expression: %1\n"
                              "// buffer: input %2\n// buffer: output out\n// end\n")
                   .arg(QLatin1String(expression), QLatin1String(input))
                   .toUtf8());
    file.close();
    return runCli({"run", "--kernel-file", file.fileName(), "--compile-only"});
}

TEST(KernelFileCli, ABlankKernelsBadExpressionIsRefusedAtItsCharacter) {
    const CliResult result = compileBlankHeader("out = x * (2 +", "x");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.err.contains("the expression does not parse")) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains("at character 15")) << result.err.toStdString();
}

TEST(KernelFileCli, ABlankKernelsBuffersMustBeItsExpressions) {
    const CliResult result = compileBlankHeader("out = x * 2", "z");
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.err.contains("the input \"z\" is none of expression's inputs"))
        << result.err.toStdString();
}

// On the GPU: a blank kernel runs beside the expression's generated unfused and fused kernels,
// checked against the expression; a wrong one is told its first wrong index, expected and got.
TEST(KernelFileCliGpu, ABlankKernelIsCheckedAgainstItsExpression) {
    if (!gpuUsable()) GTEST_SKIP() << "needs a GPU (no usable CUDA device here)";
    const QTemporaryDir dir;
    const QString expression = QStringLiteral("out = x * 2 + y");
    const QString right = blankKernelFile(dir, "right.cu", expression,
                                          QStringLiteral("    out[i] = x[i] * 2.0f + y[i];"));
    const QString json = dir.filePath(QStringLiteral("blank.json"));
    const CliResult ran =
        runCli({"run", "--kernel-file", right, "--n", "65536", "--repeat", "2", "--json", json});
    ASSERT_EQ(ran.exitCode, 0) << ran.err.toStdString() << ran.out.toStdString();
    const auto recording = model::loadRecording(json);
    ASSERT_TRUE(recording) << recording.status().message();
    QStringList variants;
    for (const model::VariantResult& run : recording->runs)
        variants << model::toQString(run.variant);
    EXPECT_TRUE(variants.contains("unfused") && variants.contains("fused"))
        << variants.join(", ").toStdString();
    EXPECT_EQ(recording->runs.back().variant, "your kernel");
    EXPECT_EQ(recording->runs.back().pipeline, recording->runs.front().pipeline);
    EXPECT_TRUE(recording->runs.back().check.ok);

    const QString wrong =
        blankKernelFile(dir, "wrong.cu", expression,
                        QStringLiteral("    out[i] = i == 77 ? 5.0f : x[i] * 2.0f + y[i];"));
    expectFirstWrong(wrong, "first wrong element at index 77: expected ", ", got 5");
}

// On the GPU with counters: the pass count comes from the kernel's DRAM bytes, so the starter's
// five sweeps and the lab's solution's three are measured, not taken from the declaration.
TEST(KernelFileCliGpu, CountersCountTheLearnersPasses) {
    if (!gpuUsable()) GTEST_SKIP() << "needs a GPU (no usable CUDA device here)";
    const QTemporaryDir dir;
    // The solution, with a declaration that claims nine passes: counters must not believe it.
    model::LearnerKernel solution = starter();
    solution.buffers.removeIf(
        [](const model::LearnerBuffer& b) { return b.role == model::LearnerBufferRole::Scratch; });
    solution.passes.clear();
    for (int k = 0; k < 9; ++k) solution.passes.push_back({false, QStringLiteral("gate")});
    solution.source = QStringLiteral(
                          "extern \"C\" __global__ void swiglu_lab(const float* gate, const "
                          "float* up, float* out, int N) {\n") +
                      gridStrideLoop(kSolutionLoop) + QStringLiteral("}\n");
    const QString solutionPath = dir.filePath(QStringLiteral("solution.cu"));
    ASSERT_TRUE(model::saveLearnerKernel(solution, solutionPath));
    // Arrays four times the L2: what it keeps between the loops moves the count by under a
    // quarter of a pass.
    const quint64 n = quint64{1} << 26;
    const QString files[2] = {starterPath("lab_swiglu_scratch.cu"), solutionPath};
    const int expected[2] = {5, 3};
    for (int k = 0; k < 2; ++k) {
        const QString json = dir.filePath(QStringLiteral("counted%1.json").arg(k));
        const CliResult result =
            runCli({"run", "--kernel-file", files[k], "--n", QString::number(n), "--repeat", "2",
                    "--measure", "counters", "--json", json});
        ASSERT_EQ(result.exitCode, 0) << result.err.toStdString() << result.out.toStdString();
        const auto recording = model::loadRecording(json);
        ASSERT_TRUE(recording) << recording.status().message();
        if (!recording->counterStatus.empty())
            GTEST_SKIP() << "counters refused here: " << recording->counterStatus;
        const model::VariantResult& mine = recording->runs.back();
        ASSERT_EQ(mine.kernels.size(), 1);
        ASSERT_TRUE(mine.kernels[0].counters.has_value());
        EXPECT_TRUE(mine.countersSource.has_value());
        EXPECT_EQ(mine.passes, expected[k])
            << "DRAM read " << mine.kernels[0].counters->dramBytesRead << ", written "
            << mine.kernels[0].counters->dramBytesWritten;
    }
}
