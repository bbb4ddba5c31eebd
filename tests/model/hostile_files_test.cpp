// Files made to hurt: nothing a recording, sweep or tile sweep contains may take the loaders past
// their limits in memory or time, and every refusal names the limit or field it exceeds. The
// hostile corpus (fuzz/hostile/) is checked file by file; the large cases are generated here.
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/atomic_save.h"
#include "model/format.h"
#include "model/json_reader.h"
#include "model/json_shape.h"
#include "model/limited_read.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "model/tile_sweep_json.h"
#include "support/folder_test.h"
#include "support/timing_slack.h"
#include "support/write_faults.h"

using namespace fusescope;
using namespace fusescope::model;
using testsupport::writeFile;

namespace {

class HostileFiles : public testsupport::FolderTest {};

// A refusal's time limit, in ms: longer in an instrumented build (testsupport::timingSlack).
qint64 withSlack(qint64 ms) {
    return static_cast<qint64>(static_cast<double>(ms) * testsupport::timingSlack());
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return file.readAll();
}

QJsonObject validRecording() {
    return QJsonDocument::fromJson(
               readAll(QStringLiteral(FUSESCOPE_FUZZ_CORPUS_DIR
                                      "/recording_loader/cpu-mlp-v2-3x16x24.json")))
        .object();
}

QJsonObject validTileSweep() {
    return QJsonDocument::fromJson(
               readAll(QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-decode1-bf16-h200.json")))
        .object();
}

QJsonObject withFirstRun(QJsonObject recording, const char* key, const QJsonValue& value) {
    QJsonArray runs = recording["runs"].toArray();
    QJsonObject run = runs[0].toObject();
    run[QLatin1String(key)] = value;
    runs[0] = run;
    recording["runs"] = runs;
    return recording;
}

QJsonObject withDevice(QJsonObject recording, const char* key, const QJsonValue& value) {
    QJsonObject device = recording["device"].toObject();
    device[QLatin1String(key)] = value;
    recording["device"] = device;
    return recording;
}

Result<Recording> parse(const QJsonObject& recording) {
    return recordingFromJson(QJsonDocument(recording).toJson(QJsonDocument::Compact),
                             QStringLiteral("hostile.json"));
}

// The first error's text, or a note that there was none.
std::string errorOf(const Result<Recording>& result) {
    return result ? std::string("(loaded)") : result.status().message();
}

bool mentions(const std::string& message, const char* words) {
    return message.find(words) != std::string::npos;
}

QStringList filesOf(const char* target) {
    return testsupport::jsonFilesIn(QStringLiteral(FUSESCOPE_HOSTILE_CORPUS_DIR "/") +
                                    QLatin1String(target));
}

// Each file of the hostile corpus: "refused-*" is refused in one line, "loads-*" loads.
template <typename Load>
void checkCorpus(const char* target, Load load) {
    const QStringList paths = filesOf(target);
    ASSERT_GE(paths.size(), 4) << target;
    for (const QString& path : paths) {
        QElapsedTimer clock;
        clock.start();
        const Status status = load(path);
        const bool refuse = QFileInfo(path).fileName().startsWith(QLatin1String("refused-"));
        EXPECT_EQ(!status.isOk(), refuse) << path.toStdString() << ": " << status.message();
        EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.message();
        EXPECT_LT(status.message().size(), 600u) << status.message();
        EXPECT_LT(clock.elapsed(), withSlack(2000)) << path.toStdString();
    }
}

}  // namespace

TEST_F(HostileFiles, TheRecordingCorpusIsRefusedOrLoads) {
    checkCorpus("recording_loader",
                [](const QString& path) { return loadRecording(path).status(); });
}

TEST_F(HostileFiles, TheSweepCorpusIsRefusedOrLoads) {
    checkCorpus("sweep_loader", [](const QString& path) { return loadSweepFile(path).status(); });
}

TEST_F(HostileFiles, EveryTileSweepSeedLoads) {
    const QDir folder(QStringLiteral(FUSESCOPE_FUZZ_CORPUS_DIR "/tile_sweep_loader"));
    const QStringList names = folder.entryList({QStringLiteral("*.json")}, QDir::Files);
    ASSERT_FALSE(names.isEmpty());
    for (const QString& name : names) {
        const Result<tiles::TileSweep> sweep = loadTileSweep(folder.filePath(name));
        EXPECT_TRUE(sweep) << name.toStdString() << ": " << sweep.status().message();
    }
}

TEST_F(HostileFiles, TheTileSweepCorpusIsRefusedOrLoads) {
    checkCorpus("tile_sweep_loader",
                [](const QString& path) { return loadTileSweep(path).status(); });
}

// The device's backend is one the engine knows; anything else is no run of this program.
TEST_F(HostileFiles, AnUnknownDeviceBackendIsRefusedNamingTheKnownOnes) {
    const Result<Recording> loaded = parse(withDevice(validRecording(), "backend", "tpu"));
    ASSERT_FALSE(loaded);
    EXPECT_TRUE(mentions(errorOf(loaded), "device.backend: unknown backend 'tpu'"))
        << errorOf(loaded);
    EXPECT_TRUE(mentions(errorOf(loaded), "known: cpu, cuda")) << errorOf(loaded);
}

// 100 KB and 1 MB device names took 4.1 and 23 GB in the window.
TEST_F(HostileFiles, ALongDeviceNameIsRefusedNamingTheLimit) {
    const auto withNameOf = [](qsizetype length) {
        return withDevice(validRecording(), "name", QString(length, QLatin1Char('N')));
    };
    const Result<Recording> loaded = parse(withNameOf(100 * 1024));
    ASSERT_FALSE(loaded);
    EXPECT_TRUE(mentions(errorOf(loaded), "limit of 65536 bytes")) << errorOf(loaded);

    const Result<Recording> justOver = parse(withNameOf(kMaxNameLength + 1));
    ASSERT_FALSE(justOver);
    EXPECT_TRUE(mentions(errorOf(justOver), "device.name: 1025 characters long"))
        << errorOf(justOver);
    EXPECT_TRUE(mentions(errorOf(justOver), "limit of 1024")) << errorOf(justOver);

    const Result<Recording> atTheLimit = parse(withNameOf(kMaxNameLength));
    EXPECT_TRUE(atTheLimit) << errorOf(atTheLimit);
}

// 6M samples in a 533 MB file took 3.6 GB: the count is refused before Qt parses anything.
TEST_F(HostileFiles, MoreValuesThanTheLimitAreRefusedBeforeParsing) {
    const QJsonObject recording = withFirstRun(validRecording(), "samples", QJsonArray());
    QByteArray json = QJsonDocument(recording).toJson(QJsonDocument::Compact);
    const QByteArray empty = "\"samples\":[]";
    const qsizetype at = json.indexOf(empty);
    ASSERT_GE(at, 0);
    const JsonShapeLimits limits;
    QByteArray samples = "\"samples\":[";
    samples.reserve(limits.maxValues * 2 + 32);
    for (qint64 k = 0; k <= limits.maxValues; ++k) samples += "0,";
    samples += "0]";
    json.replace(at, empty.size(), samples);
    QElapsedTimer clock;
    clock.start();
    const Result<Recording> loaded = recordingFromJson(json, QStringLiteral("many.json"));
    ASSERT_FALSE(loaded);
    EXPECT_TRUE(mentions(errorOf(loaded), "more than 2000000 JSON values")) << errorOf(loaded);
    EXPECT_LT(clock.elapsed(), withSlack(2000));
}

TEST_F(HostileFiles, DeepNestingAndHugeTextAreRefusedByName) {
    QByteArray nested = "{\"a\":" + QByteArray(100, '[') + QByteArray(100, ']') + "}";
    Status shape = checkJsonShape(nested);
    ASSERT_FALSE(shape);
    EXPECT_TRUE(mentions(shape.message(), "more than 64 deep")) << shape.message();
    // Many strings under the one-string limit, together over the whole-file limit.
    QByteArray text = "[";
    const QByteArray one = '"' + QByteArray(60000, 'x') + "\",";
    for (int k = 0; k < 1200; ++k) text += one;
    text += "0]";
    shape = checkJsonShape(text);
    ASSERT_FALSE(shape);
    EXPECT_TRUE(mentions(shape.message(), "more than 64 MiB")) << shape.message();
    // Escaped quotes do not end a string early.
    EXPECT_TRUE(checkJsonShape(R"({"a":"x\"{[{[","b":[1,2]})"));
}

TEST_F(HostileFiles, AbsurdTimesAreRefusedNotShownAsReal) {
    for (const double time : {-1.0, 0.0, 1e-300, 1e12}) {
        const Result<Recording> loaded = parse(withFirstRun(validRecording(), "time_ms", time));
        ASSERT_FALSE(loaded) << time;
        EXPECT_TRUE(mentions(errorOf(loaded), "runs[0].time_ms")) << errorOf(loaded);
        EXPECT_TRUE(mentions(errorOf(loaded), "no measured time")) << errorOf(loaded);
    }
    const Result<Recording> flops = parse(withFirstRun(validRecording(), "model_flops", 1e300));
    ASSERT_FALSE(flops);
    EXPECT_TRUE(mentions(errorOf(flops), "runs[0].model_flops")) << errorOf(flops);
    EXPECT_TRUE(parse(withFirstRun(validRecording(), "time_ms", 0.25)));
}

// 50,000 values on each axis crashed the window (SIGSEGV in the heatmap); selftest said it
// loaded fine.
TEST_F(HostileFiles, ATileSweepWith50000ValuesPerAxisIsRefusedAtOnce) {
    QJsonObject sweep = validTileSweep();
    QJsonArray values;
    for (int k = 0; k < 50000; ++k) values.append(16);
    QJsonArray axes = sweep["axes"].toArray();
    ASSERT_GE(axes.size(), 2);
    for (qsizetype a = 0; a < 2; ++a) {
        QJsonObject axis = axes[a].toObject();
        axis["values"] = values;
        axes[a] = axis;
    }
    sweep["axes"] = axes;
    const QString file = path("tiles-50000.json");
    ASSERT_TRUE(writeFile(file, QJsonDocument(sweep).toJson(QJsonDocument::Compact)));
    QElapsedTimer clock;
    clock.start();
    const Result<tiles::TileSweep> loaded = loadTileSweep(file);
    ASSERT_FALSE(loaded);
    EXPECT_TRUE(mentions(loaded.status().message(), "axes[0].values: 50000 elements"))
        << loaded.status().message();
    EXPECT_TRUE(mentions(loaded.status().message(), "limit of 64")) << loaded.status().message();
    EXPECT_LT(clock.elapsed(), withSlack(2000));
}

// `count` copies of the seed's runs, without their timelines and allocations (small runs, so
// that the count meets its own limit before the one on JSON values).
QJsonObject recordingOfRuns(int count) {
    QJsonObject recording = validRecording();
    QJsonArray some = recording["runs"].toArray();
    for (qsizetype k = 0; k < some.size(); ++k) {
        QJsonObject run = some[k].toObject();
        run.remove("timeline");
        run.remove("allocations");
        some[k] = run;
    }
    QJsonArray runs;
    for (int k = 0; k < count; ++k) runs.append(some[k % some.size()]);
    recording["runs"] = runs;
    return recording;
}

// A valid recording of 20,000 runs took the window 6 min 40 s: refused at once, by its limit.
TEST_F(HostileFiles, ARecordingOf20000RunsIsRefusedAtOnceNamingTheLimit) {
    const QString many = path("runs-20000.json");
    ASSERT_TRUE(writeFile(many, QJsonDocument(recordingOfRuns(20000)).toJson()));
    QElapsedTimer clock;
    clock.start();
    const Result<Recording> refused = loadRecording(many);
    ASSERT_FALSE(refused);
    EXPECT_TRUE(mentions(errorOf(refused), "runs: 20000 elements, more than the limit of 32"))
        << errorOf(refused);
    EXPECT_LT(clock.elapsed(), withSlack(3000));

    const QString atLimit = path("runs-32.json");
    ASSERT_TRUE(writeFile(atLimit, QJsonDocument(recordingOfRuns(32)).toJson()));
    const Result<Recording> loaded = loadRecording(atLimit);
    ASSERT_TRUE(loaded) << errorOf(loaded);
    EXPECT_EQ(loaded->runs.size(), 32);
}

// `show /proc/kmsg` blocked for ever: kernel file systems are refused before opening.
TEST_F(HostileFiles, ReadsRefuseKernelFileSystems) {
    const QString problem = readSourceProblem(QStringLiteral("/proc/self/status"));
    EXPECT_TRUE(problem.contains("kernel file system")) << problem.toStdString();
    const Result<Recording> loaded = loadRecording(QStringLiteral("/proc/self/status"));
    ASSERT_FALSE(loaded);
    EXPECT_TRUE(mentions(errorOf(loaded), "proc")) << errorOf(loaded);
    if (QFileInfo::exists(QStringLiteral("/proc/kmsg"))) {
        EXPECT_FALSE(loadRecording(QStringLiteral("/proc/kmsg")));  // returns, never blocks
    }
    EXPECT_FALSE(isTileSweepFile(QStringLiteral("/proc/self/status")));
}

// Saves that would fail only after the run: checked on the target itself, through links.
TEST_F(HostileFiles, SaveTargetsAreCheckedThroughLinks) {
    const QString dangling = path("dangling.json");
    ASSERT_TRUE(QFile::link(path("missing/nowhere.json"), dangling));
    const QString danglingProblem = saveTargetProblem(dangling);
    EXPECT_TRUE(danglingProblem.contains("does not exist")) << danglingProblem.toStdString();

    const QString intoProc = path("into-proc.json");
    ASSERT_TRUE(QFile::link(QStringLiteral("/proc/self/comm"), intoProc));
    const QString procProblem = saveTargetProblem(intoProc);
    EXPECT_TRUE(procProblem.contains("kernel file system")) << procProblem.toStdString();

    const QString toFolder = path("to-folder.json");
    ASSERT_TRUE(QDir(dir_.path()).mkdir(QStringLiteral("sub")));
    ASSERT_TRUE(QFile::link(path("sub"), toFolder));
    EXPECT_TRUE(saveTargetProblem(toFolder).contains("folder"));

    const QString fine = path("fine.json");
    ASSERT_TRUE(writeFile(fine, "{}"));
    const QString toFine = path("to-fine.json");
    ASSERT_TRUE(QFile::link(fine, toFine));
    EXPECT_TRUE(saveTargetProblem(toFine).isEmpty()) << saveTargetProblem(toFine).toStdString();
}

TEST_F(HostileFiles, AReadOnlyTargetIsRefusedForAnOrdinaryUser) {
    const QString file = path("read-only.json");
    ASSERT_TRUE(writeFile(file, "{}"));
    ASSERT_TRUE(QFile::setPermissions(file, QFile::ReadOwner));
    if (QFileInfo(file).isWritable()) GTEST_SKIP() << "root may write any file";
    EXPECT_TRUE(saveTargetProblem(file).contains("read-only"));
}

TEST_F(HostileFiles, TextForOneLineEscapesBreaksAndBidiOverrides) {
    EXPECT_EQ(escapeForOneLine(QStringLiteral("fused\n  fake\trow")),
              QStringLiteral("fused\\x0a  fake\\x09row"));
    EXPECT_EQ(escapeForOneLine(QStringLiteral("gate\u202eup\u2066x\u2069")),
              QStringLiteral("gate\\u202eup\\u2066x\\u2069"));
    EXPECT_EQ(escapeControlCharacters(QStringLiteral("a\u202eb\nc")),
              QStringLiteral("a\\u202eb\nc"));
}
