// Saves never destroy work and loads never read without end: the two helpers every save and load
// of the programs goes through, against real write failures and special files.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "model/atomic_save.h"
#include "model/limited_read.h"
#include "model/recording_json.h"
#include "support/folder_test.h"
#include "support/write_faults.h"

using namespace fusescope;
using namespace fusescope::model;
using testsupport::contentsOf;
using testsupport::writeFile;

namespace {

const QByteArray kPrevious = "the previous recording, which must survive";

class FileSafety : public testsupport::FolderTest {};

}  // namespace

TEST_F(FileSafety, SaveReplacesThePreviousFile) {
    const QString target = path("rec.json");
    ASSERT_TRUE(writeFile(target, kPrevious));
    ASSERT_TRUE(saveBytesAtomically("new contents", target)) << "";
    EXPECT_EQ(contentsOf(target), QByteArray("new contents"));
    EXPECT_EQ(entries(), QStringList{"rec.json"});  // no temporary file left
}

// A small save sits in Qt's write buffer until the flush, where the disk's refusal shows: it must
// not be committed over the previous file (it was, leaving 0 bytes, on a full disk).
TEST_F(FileSafety, FailedFlushKeepsThePreviousFileAndSaysWhy) {
    const QString target = path("rec.json");
    ASSERT_TRUE(writeFile(target, kPrevious));
    Status saved;
    {
        testsupport::ScopedFileSizeLimit limit(100);
        saved = saveBytesAtomically(QByteArray(3000, 'x'), target);
    }
    EXPECT_FALSE(saved);
    EXPECT_NE(saved.message().find(target.toStdString()), std::string::npos) << saved.message();
    EXPECT_NE(saved.message().find("too large"), std::string::npos) << saved.message();  // EFBIG
    EXPECT_EQ(contentsOf(target), kPrevious);
    EXPECT_EQ(entries(), QStringList{"rec.json"});
}

TEST_F(FileSafety, FailedLargeWriteKeepsThePreviousFile) {
    const QString target = path("rec.json");
    ASSERT_TRUE(writeFile(target, kPrevious));
    Status saved;
    {
        testsupport::ScopedFileSizeLimit limit(4096);
        saved = saveBytesAtomically(QByteArray(1 << 20, 'x'), target);
    }
    EXPECT_FALSE(saved);
    EXPECT_EQ(contentsOf(target), kPrevious);
    EXPECT_EQ(entries(), QStringList{"rec.json"});
}

TEST_F(FileSafety, FailedSaveOfANewFileLeavesNothing) {
    Status saved;
    {
        testsupport::ScopedFileSizeLimit limit(100);
        saved = saveBytesAtomically(QByteArray(3000, 'x'), path("new.json"));
    }
    EXPECT_FALSE(saved);
    EXPECT_TRUE(entries().isEmpty()) << entries().join(' ').toStdString();
}

// The check only looks (stat): a FIFO without a reader cannot block it, and stays a FIFO.
TEST_F(FileSafety, SaveRefusesAFifoWithoutBlocking) {
    const QString fifo = path("pipe");
    ASSERT_TRUE(testsupport::makeFifo(fifo));
    const Status saved = saveBytesAtomically("data", fifo);
    EXPECT_FALSE(saved);
    EXPECT_NE(saved.message().find("FIFO"), std::string::npos) << saved.message();
    EXPECT_TRUE(testsupport::isFifo(fifo));
}

// As root, a save onto /dev/null replaced it with a regular file. Shown on a node with the same
// numbers inside the test's folder.
TEST_F(FileSafety, SaveRefusesADeviceAndLeavesItADevice) {
    const QString device = path("null");
    if (!testsupport::makeNullDevice(device)) GTEST_SKIP() << "mknod needs root";
    const Status saved = saveBytesAtomically("data", device);
    EXPECT_FALSE(saved);
    EXPECT_NE(saved.message().find("character device"), std::string::npos) << saved.message();
    EXPECT_TRUE(testsupport::isCharDevice(device));
}

TEST_F(FileSafety, SaveTargetProblemsNameTheReason) {
    EXPECT_TRUE(saveTargetProblem(path("fine.json")).isEmpty());
    EXPECT_TRUE(saveTargetProblem(dir_.path()).contains("folder"));
    EXPECT_TRUE(saveTargetProblem(path("missing/out.json")).contains("does not exist"));
    EXPECT_TRUE(saveTargetProblem(QString()).contains("no file name"));
    // Only looked at, never written: /proc is a kernel file system (it said "No such file").
    const QString proc = saveTargetProblem(QStringLiteral("/proc/version"));
    EXPECT_TRUE(proc.contains("kernel file system")) << proc.toStdString();
    EXPECT_TRUE(entries().isEmpty());  // the folder probe cleaned up after itself
}

TEST_F(FileSafety, ReadReturnsTheWholeFile) {
    ASSERT_TRUE(writeFile(path("rec.json"), kPrevious));
    const Result<QByteArray> read = readFileLimited(path("rec.json"));
    ASSERT_TRUE(read) << read.status().message();
    EXPECT_EQ(*read, kPrevious);
}

TEST_F(FileSafety, ReadRefusesAFileOverTheLimitBeforeReading) {
    EXPECT_EQ(kMaxRecordingBytes, qint64{512} * 1024 * 1024);
    // Sparse: 512 MiB + 1 byte that take no disk space and would take 512 MiB of memory to read.
    QFile big(path("big.json"));
    ASSERT_TRUE(big.open(QIODevice::WriteOnly));
    ASSERT_TRUE(big.resize(kMaxRecordingBytes + 1));
    big.close();
    const Result<QByteArray> read = readFileLimited(big.fileName());
    ASSERT_FALSE(read);
    EXPECT_NE(read.status().message().find("larger than"), std::string::npos)
        << read.status().message();
    ASSERT_TRUE(writeFile(path("small.json"), "0123456789"));
    EXPECT_FALSE(readFileLimited(path("small.json"), 9));
    EXPECT_TRUE(readFileLimited(path("small.json"), 10));
}

TEST_F(FileSafety, ReadRefusesAFifoWithoutBlocking) {
    const QString fifo = path("pipe");
    ASSERT_TRUE(testsupport::makeFifo(fifo));
    const Result<Recording> loaded = loadRecording(fifo);
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.status().message().find("FIFO"), std::string::npos)
        << loaded.status().message();
}

// `show /dev/zero` grew memory without limit until it aborted.
TEST_F(FileSafety, ReadRefusesADeviceLikeDevZero) {
    const QString zero = path("zero");
    if (!testsupport::makeZeroDevice(zero)) GTEST_SKIP() << "mknod needs root";
    const Result<Recording> loaded = loadRecording(zero);
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.status().message().find("character device"), std::string::npos)
        << loaded.status().message();
}

TEST_F(FileSafety, ReadNamesAMissingFile) {
    const Result<QByteArray> read = readFileLimited(path("missing.json"));
    ASSERT_FALSE(read);
    EXPECT_NE(read.status().message().find("no such file"), std::string::npos);
}
