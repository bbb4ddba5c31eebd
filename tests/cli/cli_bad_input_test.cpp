#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include "cli_process.h"

namespace {

struct BadInput {
    const char* name;
    QStringList arguments;
    QString mustMention;  // the offending value, as the user typed it
    int exitCode;
};

void PrintTo(const BadInput& input, std::ostream* os) {
    *os << input.name;
}

class CliBadInput : public testing::TestWithParam<BadInput> {};

}  // namespace

// Bad input: one line on stderr naming the value, nothing on stdout, a non-zero exit, no crash.
TEST_P(CliBadInput, FailsWithOneLineNamingTheValue) {
    const BadInput& input = GetParam();
    const CliResult result = runCli(input.arguments);
    ASSERT_FALSE(result.crashed) << result.err.toStdString();
    EXPECT_EQ(result.exitCode, input.exitCode) << result.err.toStdString();
    const QString message = result.err.trimmed();
    EXPECT_FALSE(message.isEmpty());
    EXPECT_EQ(message.count('\n'), 0) << "more than one line:\n" << result.err.toStdString();
    EXPECT_TRUE(message.startsWith("fusescope-cli: ")) << message.toStdString();
    EXPECT_TRUE(message.contains(input.mustMention))
        << "'" << input.mustMention.toStdString() << "' not in: " << message.toStdString();
    EXPECT_TRUE(result.out.isEmpty()) << result.out.toStdString();
}

INSTANTIATE_TEST_SUITE_P(
    Run, CliBadInput,
    testing::Values(
        BadInput{"UnknownPipeline", {"run", "--pipeline", "gelu"}, "'gelu'", 2},
        BadInput{"DeviceNotANumber",
                 {"run", "--pipeline", "affine", "--device", "first"},
                 "--device 'first'",
                 2},
        BadInput{"DeviceNegative", {"run", "--pipeline", "affine", "--device", "-1"}, "0 to", 2},
        BadInput{"DeviceWithTheCpuBackend",
                 {"run", "--pipeline", "affine", "--backend", "cpu", "--device", "0"},
                 "--backend is cpu",
                 2},
        BadInput{"SweepDeviceWithTheCpuBackend",
                 {"sweep", "--pipeline", "affine", "--backend", "cpu", "--device", "1"},
                 "--device 1 chooses a GPU",
                 2},
        BadInput{"TilesDeviceWithTheCpuBackend",
                 {"tiles", "--grid", "block_m=16,32", "--backend", "cpu", "--device", "0"},
                 "--backend is cpu",
                 2},
        BadInput{"TilesDeviceOutOfRange",
                 {"tiles", "--grid", "block_m=16", "--device", "1024"},
                 "0 to 1023",
                 2},
        BadInput{"ResourcesDeviceNotANumber",
                 {"resources", "--preset", "classroom", "--device", "first"},
                 "--device 'first'",
                 2},
        BadInput{"ResourcesDeviceAndTableGpu",
                 {"resources", "--preset", "classroom", "--device", "0", "--gpu", "h200"},
                 "give one of them",
                 2},
        BadInput{"EmptyDescription",
                 {"run", "--pipeline", "affine", "--description", "  "},
                 "--description",
                 2},
        BadInput{"UnknownPipelineListsKnown", {"run", "--pipeline", "gelu"}, "swiglu", 2},
        BadInput{"MissingPipeline", {"run"}, "--pipeline", 2},
        BadInput{"UnknownVariant",
                 {"run", "--pipeline", "swiglu", "--variants", "scratch,turbo"},
                 "'turbo'",
                 2},
        BadInput{"NZero", {"run", "--pipeline", "swiglu", "--n", "0"}, "--n 0", 2},
        BadInput{"NNegative", {"run", "--pipeline", "swiglu", "--n", "-5"}, "-5", 2},
        BadInput{"NNotANumber", {"run", "--pipeline", "swiglu", "--n", "lots"}, "'lots'", 2},
        BadInput{"NFraction", {"run", "--pipeline", "swiglu", "--n", "1.5"}, "'1.5'", 2},
        BadInput{"NTooLargeForTheDevice",
                 {"run", "--pipeline", "swiglu", "--backend", "cpu", "--n", "18446744073709551615"},
                 "18446744073709551615",
                 2},
        BadInput{"NTooLargeSaysTheLimit",
                 {"run", "--pipeline", "swiglu", "--backend", "cpu", "--n", "18446744073709551615"},
                 "at most",
                 2},
        BadInput{
            "NPast64Bits",
            {"run", "--pipeline", "swiglu", "--backend", "cpu", "--n", "99999999999999999999999"},
            "99999999999999999999999",
            2},
        BadInput{"UnknownBackend", {"run", "--pipeline", "swiglu", "--backend", "tpu"}, "'tpu'", 2},
        BadInput{"VectorWidth", {"run", "--pipeline", "swiglu", "--vector", "3"}, "--vector 3", 2},
        BadInput{"RepeatZero", {"run", "--pipeline", "swiglu", "--repeat", "0"}, "--repeat 0", 2},
        // Past 32 bits is out of range too, not "not a whole number"; the message gives the range.
        BadInput{"RepeatPast32Bits",
                 {"run", "--pipeline", "swiglu", "--repeat", "4294967297"},
                 "--repeat 4294967297 is out of range: use 1 to 100000",
                 2},
        BadInput{"RepeatNotANumberGivesTheRange",
                 {"run", "--pipeline", "swiglu", "--repeat", "many"},
                 "use 1 to 100000",
                 2},
        BadInput{"SweepRepeatPast32Bits",
                 {"sweep", "--pipeline", "swiglu", "--repeat", "4294967297"},
                 "use 1 to 100000",
                 2},
        BadInput{
            "VectorZero", {"run", "--pipeline", "swiglu", "--vector", "0"}, "must be 1 or 4", 2},
        BadInput{
            "VectorTwo", {"run", "--pipeline", "swiglu", "--vector", "2"}, "must be 1 or 4", 2},
        BadInput{"SweepVectorZero",
                 {"sweep", "--pipeline", "swiglu", "--vector", "0"},
                 "must be 1 or 4",
                 2},
        // /proc/version exists: the reason is where it lies, not "No such file or directory".
        BadInput{"JsonProcVersion",
                 {"run", "--pipeline", "swiglu", "--backend", "cpu", "--json", "/proc/version"},
                 "kernel file system",
                 2},
        BadInput{"SweepFromPastTheDevice",
                 {"sweep", "--pipeline", "swiglu", "--backend", "cpu", "--from", "2^40"},
                 "--from 2^40",
                 2},
        BadInput{"UnknownOption", {"run", "--pipeline", "swiglu", "--fast"}, "fast", 2},
        BadInput{"JsonInMissingFolder",
                 {"run", "--pipeline", "swiglu", "--backend", "cpu", "--json",
                  "/nonexistent-fusescope-folder/out.json"},
                 "/nonexistent-fusescope-folder/out.json",
                 2},
        // /proc takes no new files, even from root (CI runs as root).
        BadInput{"JsonUnwritable",
                 {"run", "--pipeline", "swiglu", "--backend", "cpu", "--json",
                  "/proc/fusescope-out.json"},
                 "/proc/fusescope-out.json",
                 2},
        BadInput{"JsonIsAFolder",
                 {"run", "--pipeline", "swiglu", "--backend", "cpu", "--json", QDir::tempPath()},
                 QDir::tempPath(),
                 2},
        BadInput{"UnknownCommand", {"frobnicate"}, "'frobnicate'", 2},
        BadInput{"NoCommand", {}, "no command", 2}),
    [](const testing::TestParamInfo<BadInput>& param) { return std::string(param.param.name); });

TEST(CliBadOutput, UnwritableJsonIsCheckedBeforeRunningAndLeavesNoFile) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString readOnlyFolder = dir.filePath("read-only");
    ASSERT_TRUE(QDir().mkdir(readOnlyFolder));
    ASSERT_TRUE(QFile::setPermissions(readOnlyFolder, QFile::ReadOwner | QFile::ExeOwner));
    const QString json = readOnlyFolder + "/out.json";
    if (QFile probe(json); probe.open(QIODevice::WriteOnly)) {
        probe.remove();
        GTEST_SKIP() << "this user (root?) can write into a read-only folder";
    }
    const CliResult result =
        runCli({"run", "--pipeline", "swiglu", "--backend", "cpu", "--n", "1000", "--json", json});
    EXPECT_EQ(result.exitCode, 2) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(json)) << result.err.toStdString();
    EXPECT_FALSE(result.err.contains("running")) << "nothing may run before the check";
    EXPECT_FALSE(QFileInfo::exists(json));
}
