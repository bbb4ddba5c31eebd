// The catalog of shipped recordings, their one-line descriptions and replay labels, the optional
// description and device_index keys, and comparing two recordings. Data: CPU recordings and a
// sweep written by fusescope-cli (tests/model/data), copied into a temporary folder.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include "model/comparison.h"
#include "model/recorded_pipelines.h"
#include "model/recording_catalog.h"
#include "model/recording_description.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "pipelines/runtime_registry.h"
#include "support/folder_test.h"
#include "support/runtime_chain.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

QString dataFile(const char* name) {
    return QStringLiteral(FUSESCOPE_TEST_DATA_DIR "/") + QString::fromLatin1(name);
}

Recording loaded(const char* name) {
    Result<Recording> recording = loadRecording(dataFile(name));
    EXPECT_TRUE(recording) << recording.status().message();
    return recording ? *recording : Recording{};
}

class CatalogTest : public testsupport::FolderTest {
  protected:
    QString copy(const char* name, const QString& folder) {
        QDir().mkpath(folder);
        const QString target = folder + QLatin1Char('/') + QString::fromLatin1(name);
        EXPECT_TRUE(QFile::copy(dataFile(name), target));
        return target;
    }
    void write(const QString& path, const QByteArray& bytes) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        ASSERT_EQ(file.write(bytes), bytes.size());
    }
};

TEST_F(CatalogTest, ListsEveryJsonFileOfTheFirstFolderThatExistsWithWhatItShows) {
    const QString missing = path("not-there");
    const QString first = path("first");
    const QString second = path("second");
    copy("swiglu-cpu.fusescope.json", first);
    copy("affine-cpu.fusescope.json", first);
    copy("affine-sweep-cpu.json", first);
    copy("recording-v1-swiglu-cpu.json", second);

    const RecordingCatalog catalog = findRecordings({missing, first, second});
    EXPECT_EQ(catalog.folder, QDir(first).absolutePath());
    EXPECT_EQ(catalog.foldersSearched, (QStringList{missing, first, second}));
    ASSERT_EQ(catalog.entries.size(), 3);  // by file name, the second folder unread
    const CatalogEntry& affine = catalog.entries[0];
    const CatalogEntry& sweep = catalog.entries[1];
    const CatalogEntry& swiglu = catalog.entries[2];
    EXPECT_EQ(affine.fileName, "affine-cpu.fusescope.json");
    EXPECT_EQ(affine.kind, CatalogKind::Recording);
    EXPECT_EQ(sweep.kind, CatalogKind::Sweep);
    EXPECT_EQ(swiglu.kind, CatalogKind::Recording);
    for (const CatalogEntry& entry : catalog.entries) {
        EXPECT_TRUE(entry.error.isEmpty()) << entry.error.toStdString();
        EXPECT_EQ(entry.backend, "cpu");
        EXPECT_FALSE(entry.deviceName.isEmpty());
        EXPECT_FALSE(entry.createdAt.isEmpty());
        EXPECT_FALSE(entry.description.contains(QLatin1Char('\n')));
    }
    // The file's own description wins; without one it is derived from the runs.
    EXPECT_EQ(swiglu.description,
              "SwiGLU on the CPU backend at N = 65,536: test data for the catalog");
    EXPECT_TRUE(swiglu.title.startsWith("SwiGLU activation (N = 2^16) on "))
        << swiglu.title.toStdString();
    EXPECT_TRUE(affine.title.startsWith("Affine chain (N = 2^16) on "))
        << affine.title.toStdString();
    EXPECT_TRUE(affine.description.startsWith("unfused, fused: N = 65,536 · float32"))
        << affine.description.toStdString();
    EXPECT_TRUE(affine.description.contains("x faster than")) << affine.description.toStdString();
    EXPECT_TRUE(sweep.title.startsWith("Size sweep of Affine chain on "))
        << sweep.title.toStdString();
    EXPECT_TRUE(sweep.description.contains("N = 4,096 to 16,384 (3 sizes)"))
        << sweep.description.toStdString();
}

TEST_F(CatalogTest, FilesThatDoNotLoadCarryTheLoadersMessage) {
    const QString folder = path("recordings");
    QDir().mkpath(folder);
    write(folder + "/broken.json", "{\"format\": \"fusescope-recording\", \"version\": 2}");
    write(folder + "/not-json.json", "hello");
    write(folder + "/tiles.json",
          R"({"format": "fusescope-tile-sweep", "description": "tiles of the fused MLP",
              "device": {"name": "NVIDIA H200", "backend": "cuda"}})");
    const RecordingCatalog catalog = findRecordings({folder});
    ASSERT_EQ(catalog.entries.size(), 3);
    EXPECT_TRUE(catalog.entries[0].error.contains("broken.json"))
        << catalog.entries[0].error.toStdString();
    EXPECT_FALSE(catalog.entries[1].error.isEmpty());
    // Another tool's format is listed by its own words, not refused.
    const CatalogEntry& tiles = catalog.entries[2];
    EXPECT_TRUE(tiles.error.isEmpty()) << tiles.error.toStdString();
    EXPECT_EQ(tiles.kind, CatalogKind::Other);
    EXPECT_EQ(tiles.description, "tiles of the fused MLP");
    EXPECT_EQ(tiles.deviceName, "NVIDIA H200");
}

TEST_F(CatalogTest, NoFolderMeansNoEntries) {
    const RecordingCatalog catalog = findRecordings({path("a"), path("b")});
    EXPECT_TRUE(catalog.folder.isEmpty());
    EXPECT_TRUE(catalog.entries.isEmpty());
}

// A learner's kernel recorded beside SwiGLU's variants carries "your kernel" as an added variant:
// listing the folder (the start page at start-up) leaves SwiGLU as built in; opening the file
// adds the variant, for the views of that recording.
TEST_F(CatalogTest, ListingALearnerKernelRecordingRegistersNothingOpeningItDoes) {
    const QString folder = path("recordings");
    QDir().mkpath(folder);
    const QString lab = folder + QStringLiteral("/lab.fusescope.json");
    ASSERT_TRUE(QFile::copy(
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-lab-solution-2e24.fusescope.json"),
        lab));
    const PipelineSpec* builtIn = findBuiltInPipeline("swiglu");
    ASSERT_NE(builtIn, nullptr);
    const test::RegisteredForTest restored{"swiglu"};

    const RecordingCatalog catalog = findRecordings({folder});
    ASSERT_EQ(catalog.entries.size(), 1);
    EXPECT_TRUE(catalog.entries[0].error.isEmpty()) << catalog.entries[0].error.toStdString();
    EXPECT_EQ(catalog.entries[0].kind, CatalogKind::Recording);
    EXPECT_EQ(findPipeline("swiglu"), builtIn);
    EXPECT_EQ(findVariant(*findPipeline("swiglu"), "your kernel"), nullptr);

    Result<Recording> opened = openRecording(lab);
    ASSERT_TRUE(opened) << opened.status().message();
    ASSERT_NE(findVariant(*findPipeline("swiglu"), "your kernel"), nullptr);
    EXPECT_EQ(findPipeline("swiglu")->variants.size(), builtIn->variants.size() + 1);
}

// Every file that ships loads and says in one line what it shows (what the start page lists and
// the self-test checks).
TEST(ShippedRecordings, EveryOneLoadsWithATitleAndAOneLineDescription) {
    const RecordingCatalog catalog = findRecordings({QStringLiteral(FUSESCOPE_SHIPPED_DIR)});
    ASSERT_FALSE(catalog.folder.isEmpty()) << "no resources/recordings";
    ASSERT_FALSE(catalog.entries.isEmpty());
    for (const CatalogEntry& entry : catalog.entries) {
        EXPECT_TRUE(entry.error.isEmpty()) << entry.error.toStdString();
        EXPECT_NE(entry.kind, CatalogKind::Other) << entry.fileName.toStdString();
        EXPECT_FALSE(entry.title.isEmpty()) << entry.fileName.toStdString();
        EXPECT_FALSE(entry.description.isEmpty()) << entry.fileName.toStdString();
        EXPECT_FALSE(entry.description.contains(QLatin1Char('\n'))) << entry.fileName.toStdString();
        EXPECT_FALSE(entry.deviceName.isEmpty()) << entry.fileName.toStdString();
    }
}

// The start page lists the shipped files by title: no two read the same (six MLP recordings
// differ in their named shape and data type, the two tile sweeps in their shape).
TEST(ShippedRecordings, EveryTitleNamesWhatTellsItApart) {
    const RecordingCatalog catalog = findRecordings({QStringLiteral(FUSESCOPE_SHIPPED_DIR)});
    ASSERT_FALSE(catalog.entries.isEmpty());
    QMap<QString, QString> byTitle;
    for (const CatalogEntry& entry : catalog.entries) {
        EXPECT_FALSE(byTitle.contains(entry.title))
            << entry.fileName.toStdString() << " and " << byTitle.value(entry.title).toStdString()
            << " are both titled '" << entry.title.toStdString() << "'";
        byTitle.insert(entry.title, entry.fileName);
        if (entry.fileName == QLatin1String("h200-mlp-decode-1-bf16.fusescope.json")) {
            EXPECT_EQ(entry.title,
                      "SwiGLU MLP (Llama-3-8B decode, 1 token, bfloat16) on NVIDIA H200");
        }
    }
}

// An MLP recording shipped before the production fusion's tile tunings existed (H200, classroom
// bf16): it is read with the tiles that ran then (128 x 64), not today's default (128 x 128), so
// the model of its traffic stays what ran.
TEST(ShippedRecordings, RunsFromBeforeATuningKeepTheValueOfThatTime) {
    Result<Recording> loaded = loadRecording(
        QStringLiteral(FUSESCOPE_TEST_DATA_DIR "/recording-v2-mlp-before-production-tiles.json"));
    ASSERT_TRUE(loaded) << loaded.status().message();
    ASSERT_FALSE(loaded->runs.empty());
    for (const VariantResult& run : loaded->runs) {
        EXPECT_EQ(run.problem.tuningValue("tile_m"), 128);
        EXPECT_EQ(run.problem.tuningValue("tile_i"), 64);
    }
}

TEST(ShippedRecordings, ATileSweepSaysItsProblemAxesAndBestTiles) {
    const CatalogEntry entry =
        describeFile(QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-decode1-bf16-h200.json"));
    if (!QFileInfo::exists(entry.path)) GTEST_SKIP() << "that tile sweep no longer ships";
    ASSERT_TRUE(entry.error.isEmpty()) << entry.error.toStdString();
    EXPECT_EQ(entry.kind, CatalogKind::TileSweep);
    EXPECT_EQ(entry.title,
              "Tile sweep of SwiGLU MLP (lesson_fused, Llama-3-8B decode, 1 token, bfloat16) on "
              "NVIDIA H200");
    EXPECT_TRUE(entry.description.startsWith("M = 1, H = 4,096, I = 14,336 · bfloat16: "))
        << entry.description.toStdString();
    EXPECT_TRUE(entry.description.contains(" tilings of block_"))
        << entry.description.toStdString();
    EXPECT_TRUE(entry.description.contains("; best ")) << entry.description.toStdString();
}

TEST(RecordingCatalogFolders, ShippedFoldersAreBesideTheProgramThenTheSourceTree) {
    const QStringList folders = shippedRecordingFolders();
    ASSERT_FALSE(folders.isEmpty());
    EXPECT_TRUE(folders.back().endsWith("resources/recordings")) << folders.back().toStdString();
}

TEST(RecordingDescription, ReplayLabelNamesTheDeviceAndTheDay) {
    Recording recording;
    recording.device.name = "NVIDIA H200";
    recording.createdAt = "2026-11-30T05:06:07Z";
    EXPECT_EQ(replayLabel(recording), "replay of a run on NVIDIA H200, 2026-11-30");
    recording.createdAt.clear();
    EXPECT_EQ(replayLabel(recording), "replay of a run on NVIDIA H200");
    recording.device.name.clear();
    EXPECT_EQ(replayLabel(recording), "replay of a run on an unknown device");
}

TEST(RecordingDescription, DerivedFromTheRunsWhenTheFileHasNone) {
    Recording recording = loaded("affine-cpu.fusescope.json");
    ASSERT_EQ(recording.runs.size(), 2);
    recording.runs[0].timeMs = 2.0;  // unfused
    recording.runs[1].timeMs = 0.5;  // fused
    EXPECT_EQ(recordingDescription(recording),
              "unfused, fused: N = 65,536 · float32 · vector 4; fused 4.00x faster than unfused "
              "(500 µs against 2.00 ms)");
    recording.description = "  what it\nshows ";
    EXPECT_EQ(recordingDescription(recording), "what it shows");
}

TEST_F(CatalogTest, DescriptionRoundTripsAndIsLeftOutWhenEmpty) {
    Recording recording = loaded("affine-cpu.fusescope.json");
    EXPECT_TRUE(recording.description.isEmpty());
    const QString target = path("described.json");
    recording.description = "the affine chain, fused against unfused";
    ASSERT_TRUE(saveRecording(recording, target));
    EXPECT_EQ(loadRecording(target)->description, recording.description);
    recording.description.clear();
    Result<QJsonObject> json = recordingToJson(recording);
    ASSERT_TRUE(json);
    EXPECT_FALSE(json->contains("description"));
    // Version 1 files have no description and still open.
    EXPECT_TRUE(loaded("recording-v1-swiglu-cpu.json").description.isEmpty());
}

TEST(RecordingDeviceIndex, TheGpuOfARunRoundTripsAndACpuHasNone) {
    Recording recording = loaded("affine-cpu.fusescope.json");
    Result<QJsonObject> cpu = recordingToJson(recording);
    ASSERT_TRUE(cpu);
    EXPECT_FALSE(cpu->value("device").toObject().contains("device_index"));
    recording.device.backend = fusescope::BackendKind::Cuda;
    recording.device.deviceIndex = 3;
    Result<QByteArray> bytes = recordingToJsonBytes(recording);
    ASSERT_TRUE(bytes);
    Result<Recording> back = recordingFromJson(*bytes, "gpu3.json");
    ASSERT_TRUE(back) << back.status().message();
    EXPECT_EQ(back->device.deviceIndex, 3);
}

TEST(SweepFileKeys, DescriptionAndDeviceIndexAreReadWhereWritten) {
    QFile file(dataFile("affine-sweep-cpu.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QJsonObject document = QJsonDocument::fromJson(file.readAll()).object();
    Result<SweepFile> plain = parseSweepFile(QJsonDocument(document).toJson());
    ASSERT_TRUE(plain) << plain.status().message();
    EXPECT_TRUE(plain->description.isEmpty());
    EXPECT_EQ(plain->report.device.deviceIndex, 0);
    document["description"] = "a sweep";
    QJsonObject device = document["device"].toObject();
    device["device_index"] = 2;
    document["device"] = device;
    Result<SweepFile> described = parseSweepFile(QJsonDocument(document).toJson());
    ASSERT_TRUE(described) << described.status().message();
    EXPECT_EQ(described->description, "a sweep");
    EXPECT_EQ(described->report.device.deviceIndex, 2);
    EXPECT_EQ(sweepDescription(*described), "a sweep");
}

TEST(Comparison, MatchesVariantsByPipelineAndNameWithRatiosBOverA) {
    Recording a = loaded("swiglu-cpu.fusescope.json");
    Recording b = a;
    ASSERT_EQ(a.runs.size(), 3);  // scratch, two_launch, fused
    a.device.name = "CPU A";
    b.device.name = "GPU B";
    b.device.backend = fusescope::BackendKind::Cuda;
    b.createdAt = "2026-11-30T10:00:00Z";
    for (VariantResult& run : a.runs) run.timeMs = 2.0;
    for (VariantResult& run : b.runs) run.timeMs = 0.5;
    b.runs.erase(b.runs.begin() + 1);  // no two_launch in B
    VariantResult extra = b.runs.front();
    extra.variant = "vectorized";
    b.runs.push_back(extra);

    const RecordingComparison comparison = compareRecordings(a, b);
    EXPECT_TRUE(comparison.labelB.startsWith("GPU B, 2026-11-30"))
        << comparison.labelB.toStdString();
    ASSERT_EQ(comparison.variants.size(), 2);
    EXPECT_EQ(comparison.variants[0].variant, "scratch");
    EXPECT_EQ(comparison.variants[1].variant, "fused");
    EXPECT_EQ(comparison.onlyInA, QStringList{"swiglu/two_launch"});
    EXPECT_EQ(comparison.onlyInB, QStringList{"swiglu/vectorized"});
    EXPECT_TRUE(comparison.problemsDiffer.isEmpty());
    const VariantComparison& scratch = comparison.variants[0];
    EXPECT_DOUBLE_EQ(*scratch.timeRatio(), 0.25);
    EXPECT_DOUBLE_EQ(*scratch.bytesRatio(), 1.0);
    EXPECT_DOUBLE_EQ(*scratch.gbpsRatio(), 4.0);
    EXPECT_EQ(scratch.bytesA, a.runs[0].modelBytesRead + a.runs[0].modelBytesWritten);
    EXPECT_EQ(formatRatio(scratch.timeRatio()), "0.250x");

    b.runs[0].problem.dimensions["N"] = 4096;
    EXPECT_EQ(compareRecordings(a, b).problemsDiffer.size(), 1);
    // Only what differs, once for the variants that differ alike.
    b.runs[1].problem.dimensions["N"] = 4096;
    const QStringList differ = compareRecordings(a, b).problemsDiffer;
    ASSERT_EQ(differ.size(), 1);
    EXPECT_EQ(differ.front(), "N = 65,536 against N = 4,096 (every variant)");
    b.runs[1].problem.dimensions["N"] = 8192;
    EXPECT_EQ(compareRecordings(a, b).problemsDiffer,
              (QStringList{"N = 65,536 against N = 4,096 (swiglu/scratch)",
                           "N = 65,536 against N = 8,192 (swiglu/fused)"}));
    a.runs[0].timeMs = 0.0;
    EXPECT_FALSE(compareRecordings(a, b).variants[0].timeRatio().has_value());
}

TEST(Comparison, RatiosReadWithoutExponents) {
    EXPECT_EQ(formatRatio(std::nullopt), "—");
    EXPECT_EQ(formatRatio(1.4444), "1.44x");
    EXPECT_EQ(formatRatio(0.012345), "0.0123x");
    EXPECT_EQ(formatRatio(9.996), "10.0x");
    EXPECT_EQ(formatRatio(0.09996), "0.100x");
    EXPECT_EQ(formatRatio(1234.4), "1234x");
    EXPECT_EQ(formatRatio(1.6), "1.60x");  // a column of ratios keeps its digits
    EXPECT_EQ(formatRatio(1.0), "1.00x");
}

}  // namespace
