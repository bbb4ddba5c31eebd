// Saves and loads of fusescope-cli as a user meets them: a full disk keeps the previous file,
// special files are refused with the reason (and stay what they were), a FIFO never blocks, and
// recordings that are devices or too large are refused before reading. Everything happens inside
// the test's own folder; write failures come from RLIMIT_FSIZE, as on a full disk.
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include "cli_process.h"
#include "model/limited_read.h"
#include "support/folder_test.h"
#include "support/write_faults.h"

using testsupport::contentsOf;

namespace {

const QStringList kSmallRun = {"run",      "--pipeline", "affine",    "--n", "4096",
                               "--repeat", "2",          "--backend", "cpu"};
const QStringList kSmallSweep = {"sweep", "--pipeline", "affine", "--from",    "1024", "--to",
                                 "4096",  "--repeat",   "2",      "--backend", "cpu"};

class CliFiles : public testsupport::FolderTest {};

}  // namespace

// On a full disk `run --json` reported success and left rec.json at 0 bytes.
TEST_F(CliFiles, FullDiskKeepsThePreviousRecordingAndFails) {
    const QString json = path("rec.json");
    const CliResult good = runCli(kSmallRun + QStringList{"--json", json});
    ASSERT_EQ(good.exitCode, 0) << good.err.toStdString();
    const QByteArray previous = contentsOf(json);
    ASSERT_GT(previous.size(), 1000);

    const CliResult full = runCliWithFileSizeLimit(kSmallRun + QStringList{"--json", json}, 512);
    EXPECT_FALSE(full.crashed);
    EXPECT_NE(full.exitCode, 0) << full.err.toStdString();
    EXPECT_TRUE(full.err.contains("cannot write " + json)) << full.err.toStdString();
    EXPECT_FALSE(full.err.contains("recording written")) << full.err.toStdString();
    EXPECT_EQ(contentsOf(json), previous);
    EXPECT_EQ(entries(), QStringList{"rec.json"});  // no temporary file left behind
}

TEST_F(CliFiles, FullDiskKeepsThePreviousSweep) {
    const QString json = path("sweep.json");
    const CliResult good = runCli(kSmallSweep + QStringList{"--json", json});
    ASSERT_EQ(good.exitCode, 0) << good.err.toStdString();
    const QByteArray previous = contentsOf(json);
    ASSERT_FALSE(previous.isEmpty());

    const CliResult full = runCliWithFileSizeLimit(kSmallSweep + QStringList{"--json", json}, 512);
    EXPECT_NE(full.exitCode, 0) << full.err.toStdString();
    EXPECT_TRUE(full.err.contains("cannot write " + json)) << full.err.toStdString();
    EXPECT_EQ(contentsOf(json), previous);
    EXPECT_EQ(entries(), QStringList{"sweep.json"});
}

// A FIFO without a reader blocked the writability check; with one, the reader got nothing.
TEST_F(CliFiles, JsonOntoAFifoIsRefusedAtOnceAndTheFifoStays) {
    const QString fifo = path("pipe");
    ASSERT_TRUE(testsupport::makeFifo(fifo));
    for (const QStringList& command : {kSmallRun, kSmallSweep}) {
        QElapsedTimer timer;
        timer.start();
        const CliResult result = runCli(command + QStringList{"--json", fifo}, 20000);
        EXPECT_FALSE(result.crashed) << "blocked on the FIFO";
        EXPECT_EQ(result.exitCode, 2) << result.err.toStdString();
        EXPECT_TRUE(result.err.contains("FIFO")) << result.err.toStdString();
        EXPECT_FALSE(result.err.contains("running")) << "refused before anything runs";
        EXPECT_LT(timer.elapsed(), 15000);
        EXPECT_TRUE(testsupport::isFifo(fifo));
    }
}

// As root, --json /dev/null and /dev/full replaced the device with a regular file. A node with
// /dev/null's numbers in the test's folder stands in for it.
TEST_F(CliFiles, JsonOntoADeviceIsRefusedAndTheDeviceStays) {
    const QString device = path("null");
    if (!testsupport::makeNullDevice(device)) GTEST_SKIP() << "mknod needs root";
    const CliResult result = runCli(kSmallRun + QStringList{"--json", device});
    EXPECT_EQ(result.exitCode, 2) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains("character device")) << result.err.toStdString();
    EXPECT_TRUE(testsupport::isCharDevice(device));
}

// `show /dev/zero` grew memory until it aborted.
TEST_F(CliFiles, ShowRefusesADeviceAndAFifo) {
    const QString fifo = path("pipe");
    ASSERT_TRUE(testsupport::makeFifo(fifo));
    const CliResult fromFifo = runCli({"show", fifo}, 20000);
    EXPECT_FALSE(fromFifo.crashed) << "blocked on the FIFO";
    EXPECT_EQ(fromFifo.exitCode, 2);
    EXPECT_TRUE(fromFifo.err.contains("FIFO")) << fromFifo.err.toStdString();

    const QString zero = path("zero");
    if (!testsupport::makeZeroDevice(zero)) GTEST_SKIP() << "mknod needs root";
    const CliResult fromZero = runCli({"show", zero}, 20000);
    EXPECT_FALSE(fromZero.crashed);
    EXPECT_EQ(fromZero.exitCode, 2);
    EXPECT_TRUE(fromZero.err.contains("character device")) << fromZero.err.toStdString();
}

TEST_F(CliFiles, ShowRefusesARecordingOverTheLimitBeforeReading) {
    QFile big(path("big.json"));
    ASSERT_TRUE(big.open(QIODevice::WriteOnly));
    ASSERT_TRUE(big.resize(fusescope::model::kMaxRecordingBytes + 1));  // sparse: no disk used
    big.close();
    const CliResult result = runCli({"show", big.fileName()}, 20000);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.err.contains("larger than 512 MiB")) << result.err.toStdString();
}
