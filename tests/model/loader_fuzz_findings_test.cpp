// What fuzzing the loaders found (scripts/fuzz.sh), kept as tests, and the fuzzers' seeds kept
// loadable: a seed that no longer loads would make the fuzzers start from error paths only.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "support/folder_contents.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

QByteArray readSeed(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return file.readAll();
}

QStringList seedsOf(const char* target) {
    return testsupport::jsonFilesIn(QStringLiteral(FUSESCOPE_FUZZ_CORPUS_DIR "/") +
                                    QLatin1String(target));
}

// A valid sweep with one series, its points giving the bandwidth instead of bytes.
QJsonObject sweepWithoutBytes() {
    const QJsonObject point{{"n", 4096}, {"gbps", 10.0}, {"time_ms", 0.006}};
    const QJsonObject series{{"variant", "unfused"},    {"launches", 2},
                             {"bytes_per_element", 16}, {"points", QJsonArray{point}},
                             {"fit", QJsonValue::Null}, {"fit_error", "too few sizes to fit"}};
    return {{"format", "fusescope-sweep"},
            {"version", 1},
            {"pipeline", "affine"},
            {"vector", 1},
            {"repeats", 3},
            {"data_source", "timing+model"},
            {"device", QJsonObject{{"name", "GPU"}}},
            {"series", QJsonArray{series}},
            {"sizes", QJsonArray{4096}}};
}

Result<SweepFile> parse(const QJsonObject& sweep) {
    return parseSweepFile(QJsonDocument(sweep).toJson(QJsonDocument::Compact));
}

}  // namespace

TEST(LoaderSeeds, EveryRecordingSeedLoads) {
    const QStringList seeds = seedsOf("recording_loader");
    ASSERT_FALSE(seeds.isEmpty());
    for (const QString& path : seeds) {
        const Result<Recording> recording = recordingFromJson(readSeed(path), path);
        ASSERT_TRUE(recording) << recording.status().message();
        EXPECT_FALSE(recording->runs.empty()) << path.toStdString();
    }
}

TEST(LoaderSeeds, EverySweepSeedLoads) {
    const QStringList seeds = seedsOf("sweep_loader");
    ASSERT_FALSE(seeds.isEmpty());
    for (const QString& path : seeds) {
        const Result<SweepFile> sweep = parseSweepFile(readSeed(path));
        ASSERT_TRUE(sweep) << path.toStdString() << ": " << sweep.status().message();
        EXPECT_FALSE(sweep->report.series.empty()) << path.toStdString();
    }
}

TEST(SweepLoaderFindings, TheValidBaseLoadsWithBytesFromTheBandwidth) {
    const Result<SweepFile> sweep = parse(sweepWithoutBytes());
    ASSERT_TRUE(sweep) << sweep.status().message();
    ASSERT_EQ(sweep->report.sizes.size(), 1u);
    EXPECT_EQ(sweep->report.sizes[0], 4096u);
    ASSERT_EQ(sweep->report.series.size(), 1u);
    EXPECT_EQ(sweep->report.series[0].points[0].bytes, 60000u);  // 10 GB/s * 6 us
}

// Found by the sweep fuzzer (UBSan: -1 is outside the range of unsigned long): a size that is
// negative, fractional, not a number or past 2^53 was cast to an unsigned integer.
TEST(SweepLoaderFindings, SizesThatAreNoCountAreRefusedByPosition) {
    for (const QJsonValue& bad : {QJsonValue(-1), QJsonValue(0), QJsonValue(2.5), QJsonValue(1e30),
                                  QJsonValue("4096"), QJsonValue(QJsonValue::Null)}) {
        QJsonObject sweep = sweepWithoutBytes();
        sweep["sizes"] = QJsonArray{4096, bad};
        const Result<SweepFile> loaded = parse(sweep);
        ASSERT_FALSE(loaded) << QJsonDocument(sweep).toJson().toStdString();
        EXPECT_NE(loaded.status().message().find("sizes: element 1 is not a size"),
                  std::string::npos)
            << loaded.status().message();
    }
}

// Bytes derived from a bandwidth must be a count too: llround of a value outside long long's
// range is unspecified, and a negative bandwidth gave bytes near 2^64.
TEST(SweepLoaderFindings, BandwidthsThatGiveNoByteCountAreRefused) {
    for (const double gbps : {-10.0, 1e300}) {
        QJsonObject sweep = sweepWithoutBytes();
        QJsonObject series = sweep["series"].toArray()[0].toObject();
        QJsonObject point = series["points"].toArray()[0].toObject();
        point["gbps"] = gbps;
        series["points"] = QJsonArray{point};
        sweep["series"] = QJsonArray{series};
        const Result<SweepFile> loaded = parse(sweep);
        ASSERT_FALSE(loaded) << gbps;
        EXPECT_NE(loaded.status().message().find("series[0].points[0].gbps: gives"),
                  std::string::npos)
            << loaded.status().message();
    }
}
