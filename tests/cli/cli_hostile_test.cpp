// fusescope-cli against a hostile user: options given twice are refused instead of resolved
// silently, bad tile grids and unusable save targets are refused before anything runs, and
// `show` refuses names from files that would break their line or reorder the text.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <utility>

#include "cli_process.h"
#include "support/folder_test.h"

namespace {

const QStringList kSmallRun = {"run",      "--pipeline", "affine",    "--n", "4096",
                               "--repeat", "2",          "--backend", "cpu"};

class CliHostile : public testsupport::FolderTest {};

QString hostileFile(const char* name) {
    return QStringLiteral(FUSESCOPE_HOSTILE_CORPUS_DIR "/recording_loader/") + QLatin1String(name);
}

// Refused with exit 2 and one line naming `words`, within `withinMs`.
void expectRefusal(const QStringList& arguments, const QString& words, qint64 withinMs = 10000) {
    QElapsedTimer clock;
    clock.start();
    const CliResult result = runCli(arguments, 60000);
    EXPECT_LT(clock.elapsed(), withinMs) << arguments.join(' ').toStdString();
    ASSERT_FALSE(result.crashed);
    EXPECT_EQ(result.exitCode, 2) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(words))
        << "'" << words.toStdString() << "' not in: " << result.err.toStdString();
    EXPECT_EQ(result.err.trimmed().count('\n'), 0) << result.err.toStdString();
}

}  // namespace

TEST_F(CliHostile, RepeatedOptionsAreRefusedNotResolved) {
    expectRefusal(kSmallRun + QStringList{"--json", path("a.json"), "--json", path("b.json")},
                  "--json is given 2 times");
    expectRefusal({"run", "--pipeline", "affine", "--pipeline", "swiglu", "--backend", "cpu"},
                  "--pipeline is given 2 times");
    expectRefusal({"run", "--pipeline", "affine", "--n", "4096", "--n", "8192", "--backend", "cpu"},
                  "--n is given 2 times");
    expectRefusal({"sweep", "--pipeline", "affine", "--repeat", "2", "--repeat", "3"},
                  "--repeat is given 2 times");
    EXPECT_FALSE(QFileInfo::exists(path("a.json")));
    EXPECT_FALSE(QFileInfo::exists(path("b.json")));
}

// It ran the references for a minute before refusing the value.
TEST_F(CliHostile, ATileGridValueThatIsNotAllowedIsRefusedBeforeRunning) {
    expectRefusal({"tiles", "--grid", "block_m=7", "--backend", "cpu", "--repeat", "1"},
                  "7 is not an allowed value", 5000);
}

TEST_F(CliHostile, SaveTargetsThatWouldFailAfterTheRunAreRefusedBeforeIt) {
    const QString dangling = path("dangling.json");
    ASSERT_TRUE(QFile::link(path("missing/nowhere.json"), dangling));
    expectRefusal(kSmallRun + QStringList{"--json", dangling}, "does not exist", 5000);
    const QString intoProc = path("into-proc.json");
    ASSERT_TRUE(QFile::link(QStringLiteral("/proc/self/comm"), intoProc));
    expectRefusal(kSmallRun + QStringList{"--json", intoProc}, "kernel file system", 5000);
    expectRefusal(kSmallRun + QStringList{"--json", dir_.path()}, "folder", 5000);
}

// `show /proc/kmsg` blocked for ever.
TEST_F(CliHostile, ShowRefusesKernelFilesAtOnce) {
    const QString file = QFileInfo::exists(QStringLiteral("/proc/kmsg"))
                             ? QStringLiteral("/proc/kmsg")
                             : QStringLiteral("/proc/self/status");
    expectRefusal({"show", file}, "kernel file system", 5000);
}

// A newline in a variant name printed a fake row of the table; a bidi override reversed the
// text after it; terminal escapes cleared the screen. Names are one line of printable text: such
// a file is refused in one line that names the character by its code, never printing it.
TEST_F(CliHostile, ShowRefusesNamesThatBreakOrReorderTheirLine) {
    const std::pair<const char*, const char*> files[] = {
        {"refused-variant-newline.json", "U+000a"},
        {"refused-bidi-overrides.json", "U+202e"},
        {"refused-terminal-escapes.json", "U+001b"}};
    for (const auto& [name, code] : files) {
        expectRefusal({"show", hostileFile(name)}, QString::fromLatin1(code));
        const CliResult result = runCli({"show", hostileFile(name)});
        const QString all = result.out + result.err;
        EXPECT_FALSE(all.contains(QChar(0x202e))) << name;
        EXPECT_FALSE(all.contains(QChar(0x1b))) << name;
        EXPECT_FALSE(all.contains(QLatin1String("fake_row"))) << name;
    }
}
