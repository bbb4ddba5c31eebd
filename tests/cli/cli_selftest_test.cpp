// `fusescope-cli selftest` as a user runs it: in a temporary folder, without a display, on this
// machine. On a machine without an NVIDIA GPU (CI) the GPU items are SKIP and the exit code
// follows the recordings; the CPU runs of every pipeline must pass anywhere.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include "cli_process.h"
#include "pipelines/registry.h"

using namespace fusescope;

namespace {

// No NVIDIA kernel module and no device nodes: what the self-test calls "no GPU here".
bool machineHasNoNvidiaGpu() {
    return !QFileInfo::exists("/proc/driver/nvidia/version") &&
           !QFileInfo::exists("/dev/nvidiactl") && !QFileInfo::exists("/dev/nvidia0");
}

class CliSelfTest : public testing::Test {
  protected:
    void SetUp() override { ASSERT_TRUE(dir_.isValid()); }

    // Runs the CLI inside the temporary folder with no display variables.
    CliResult runHere(const QStringList& arguments) {
        QProcess process;
        process.setWorkingDirectory(dir_.path());
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove("DISPLAY");
        environment.remove("WAYLAND_DISPLAY");
        process.setProcessEnvironment(environment);
        process.start(cliPath(), arguments);
        CliResult result;
        result.crashed =
            !process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit;
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    // A folder holding one recording that `run` wrote here, as a shipped folder would.
    QString folderWithARecording() {
        const QString folder = dir_.filePath("recordings");
        EXPECT_TRUE(QDir().mkpath(folder));
        const CliResult made =
            runHere({"run", "--pipeline", QString::fromStdString(pipelines().front().name),
                     "--variants", "all", "--n", "4096", "--repeat", "1", "--warmup", "0",
                     "--backend", "cpu", "--json", folder + "/lesson.json"});
        EXPECT_EQ(made.exitCode, 0) << made.err.toStdString();
        return folder;
    }

    static QString lineOf(const CliResult& result, const QString& name) {
        for (const QString& line : result.out.split('\n'))
            if (line.mid(8).startsWith(name + ":")) return line;
        return {};
    }

    QTemporaryDir dir_;
};

}  // namespace

TEST_F(CliSelfTest, ListsEveryCheckAndIsReadyWithRecordingsOnAMachineWithoutAGpu) {
    const CliResult result = runHere({"selftest", "--recordings", folderWithARecording()});
    ASSERT_FALSE(result.crashed);
    const std::string out = result.out.toStdString();
    for (const PipelineSpec& pipeline : pipelines()) {
        // One line per vector width (elementwise) or per dtype (the MLP), each a pass.
        const QString prefix =
            QStringLiteral("Pipeline %1 on cpu (").arg(QString::fromStdString(pipeline.name));
        int lines = 0;
        for (const QString& line : result.out.split('\n'))
            if (line.contains(prefix)) {
                ++lines;
                EXPECT_TRUE(line.startsWith("  PASS")) << line.toStdString() << "\n" << out;
                EXPECT_TRUE(line.contains("match the reference at ")) << out;
            }
        EXPECT_GE(lines, 2) << pipeline.name << "\n" << out;
    }
    EXPECT_TRUE(lineOf(result, "Pipeline swiglu on cpu (vector 4)")
                    .contains("match the reference at N = 65,536"))
        << out;
    EXPECT_TRUE(
        lineOf(result, "Shipped recordings").startsWith("  PASS  Shipped recordings: 1 load"))
        << out;
    EXPECT_TRUE(lineOf(result, "Display").startsWith("  WARN")) << out;
    for (const char* name :
         {"NVIDIA driver", "CUDA runtime", "GPU access", "Counter permission", "CUPTI", "NVRTC"})
        EXPECT_FALSE(lineOf(result, name).isEmpty()) << name << "\n" << out;
    EXPECT_TRUE(result.out.contains("PASS,") && result.out.contains("FAIL:")) << out;

    const bool anyFail = result.out.contains("\n  FAIL  ");
    EXPECT_EQ(result.exitCode, anyFail ? 1 : 0) << out;
    if (machineHasNoNvidiaGpu()) {
        for (const char* name :
             {"NVIDIA driver", "CUDA runtime", "GPU access", "Pipelines on cuda"})
            EXPECT_TRUE(lineOf(result, name).startsWith("  SKIP")) << name << "\n" << out;
        EXPECT_EQ(result.exitCode, 0) << out;
        EXPECT_TRUE(result.out.contains(": ready for class")) << out;
    }
    // The check writes nothing: the folder holds only the recording made for it.
    EXPECT_EQ(QDir(dir_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
              QStringList{"recordings"});
}

TEST_F(CliSelfTest, NoRecordingsFailWithWhereItLookedAndExitOne) {
    const QString empty = dir_.filePath("empty");
    ASSERT_TRUE(QDir().mkpath(empty));
    const CliResult result = runHere({"selftest", "--recordings", empty});
    ASSERT_FALSE(result.crashed);
    const QString line = lineOf(result, "Shipped recordings");
    EXPECT_TRUE(line.startsWith("  FAIL  Shipped recordings: no shipped recordings found"))
        << result.out.toStdString();
    EXPECT_TRUE(line.contains(empty)) << line.toStdString();
    EXPECT_TRUE(result.out.contains("fix: Reinstall FuseScope")) << result.out.toStdString();
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_TRUE(result.out.contains("NOT ready for class"));
}

TEST_F(CliSelfTest, ARecordingThatDoesNotLoadFails) {
    const QString folder = folderWithARecording();
    QFile broken(folder + "/broken.json");
    ASSERT_TRUE(broken.open(QIODevice::WriteOnly));
    broken.write("{\"format\": \"fusescope-recording\", \"version\": 1");
    broken.close();
    const CliResult result = runHere({"selftest", "--recordings", folder});
    const QString line = lineOf(result, "Shipped recordings");
    EXPECT_TRUE(line.startsWith("  FAIL  Shipped recordings: 1 of 2")) << line.toStdString();
    EXPECT_TRUE(line.contains("broken.json")) << line.toStdString();
    EXPECT_EQ(result.exitCode, 1);
}

// Installed (the package, the bundle, any prefix): the program finds the shipped recordings in
// share/fusescope/recordings beside its bin/ folder, wherever that prefix lies.
TEST_F(CliSelfTest, AnInstalledProgramFindsTheRecordingsBesideItsBinFolder) {
    if (!qEnvironmentVariableIsEmpty("FUSESCOPE_CLI"))
        GTEST_SKIP() << "a bundled program finds its libraries only in its own bundle";
    const QString prefix = dir_.filePath("prefix");
    const QString shipped = prefix + "/share/fusescope/recordings";
    ASSERT_TRUE(QDir().mkpath(prefix + "/bin"));
    ASSERT_TRUE(QDir().mkpath(shipped));
    const QString program = prefix + "/bin/fusescope-cli";
    ASSERT_TRUE(QFile::copy(cliPath(), program));
    ASSERT_TRUE(QFile::rename(folderWithARecording() + "/lesson.json", shipped + "/lesson.json"));
    QProcess process;
    process.setWorkingDirectory(dir_.path());
    process.start(program, {"selftest"});
    ASSERT_TRUE(process.waitForFinished(120000));
    const CliResult result{process.exitCode(), false,
                           QString::fromUtf8(process.readAllStandardOutput()),
                           QString::fromUtf8(process.readAllStandardError())};
    const QString line = lineOf(result, "Shipped recordings");
    EXPECT_EQ(line, "  PASS  Shipped recordings: 1 load from " + QDir(shipped).absolutePath())
        << result.out.toStdString() << result.err.toStdString();
}

TEST_F(CliSelfTest, RequiringTheGpuFailsWhereThereIsNone) {
    if (!machineHasNoNvidiaGpu()) GTEST_SKIP() << "this machine has an NVIDIA GPU";
    const CliResult result =
        runHere({"selftest", "--require-gpu", "--recordings", folderWithARecording()});
    EXPECT_TRUE(lineOf(result, "GPU access").startsWith("  FAIL")) << result.out.toStdString();
    EXPECT_EQ(result.exitCode, 1);
}

TEST_F(CliSelfTest, HelpDocumentsTheVerdictsAndBadUseIsAUsageError) {
    const CliResult help = runHere({"selftest", "--help"});
    EXPECT_EQ(help.exitCode, 0);
    for (const char* text :
         {"--require-gpu", "--recordings", "Exit codes", "SKIP", "WARN", "without an NVIDIA GPU"})
        EXPECT_TRUE(help.out.contains(text)) << text << "\n" << help.out.toStdString();
    EXPECT_TRUE(runHere({"--help"}).out.contains("selftest"));
    EXPECT_EQ(runHere({"selftest", "stray"}).exitCode, 2);
    EXPECT_EQ(runHere({"selftest", "--no-such-option"}).exitCode, 2);
}
