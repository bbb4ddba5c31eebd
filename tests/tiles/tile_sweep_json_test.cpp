// The tile sweep file: a round trip keeps every field, the reader tolerates what it does not
// know and refuses what it cannot read, and the shipped H200 sweeps load.
#include <gtest/gtest.h>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

#include "model/tile_sweep_json.h"
#include "tiles/tile_model.h"

namespace fusescope::model {
namespace {

tiles::TileSweep sampleSweep() {
    tiles::TileSweep sweep;
    tiles::TileSweepRequest& r = sweep.request;
    r.base.pipeline = "mlp";
    r.base.variant = "lesson_fused";
    r.base.problem.dimensions = {{"M", 3}, {"H", 1000}, {"I", 2750}};
    r.base.problem.dtype = DType::Bfloat16;
    r.base.problem.tuning = {{"block_m", 16}, {"block_n", 64}, {"block_h", 64},
                             {"block_i", 64}, {"tile_m", 128}, {"tile_i", 64}};
    r.axes = {{"block_n", {64, 128}}};
    r.settings.repeats = 7;
    r.settings.warmup = 2;
    r.settings.seed = 99;
    sweep.limits = *tiles::knownGpuLimits("h200", DType::Bfloat16);
    sweep.limits.live = true;
    sweep.limits.deviceIndex = 3;
    sweep.limits.copyBandwidthGBps = 4030.5;
    sweep.limits.copyBandwidthSource = "measured copy in this run";
    sweep.deviceName = "NVIDIA H200";
    sweep.driverVersion = "13.0";
    sweep.compilerVersion = "NVRTC 13.0";
    sweep.references.push_back({"production",
                                "Production",
                                {0.04, 0.039, 0.045, 0.038, 0.05, 7},
                                123456789,
                                1.5e10,
                                true});
    const std::vector<tiles::TileConfiguration> configurations = tiles::configurationsOf(r);
    tiles::TileCell measured;
    measured.report = tiles::modelReport(configurations[0], sweep.limits);
    measured.report.compiled = {
        true, 128,   24,      0,      128,
        2,    0.125, "nvrtc", 1399.5, "no register bound kept: 0.700 ms, against 0.712 ms"};
    measured.measured = true;
    measured.time = {0.5, 0.49, 0.52, 0.48, 0.6, 7};
    measured.gbps = 7000.25;
    measured.tflops = 110.5;
    measured.requestedBytes = measured.report.modelBytes;
    measured.dramBytes = 5.5e8;
    measured.checkOk = true;
    measured.checkError = 3e-3;
    measured.checkTolerance = 2e-2;
    measured.limiters = {"spills 24 B/thread", "63 blocks on 132 SMs: 69 SMs idle"};
    measured.best = true;
    measured.peerTime = tiles::TimingSpread{0.45, 0.44, 0.46, 0.43, 0.47, 10};
    measured.peerKernel = tiles::PeerKernel{128, 255, 8, 81920, 2};
    tiles::TileCell refused;
    refused.report = tiles::modelReport(configurations[1], sweep.limits);
    refused.report.refusal =
        tiles::TileRefusal{tiles::RefusalKind::SharedMemory, "shared memory 288.0 KiB > 227 KiB"};
    refused.peerNote = "Triton refused: out of resource: shared memory";
    sweep.cells = {measured, refused};
    sweep.peer = tiles::PeerTimings{"Triton 3.6.0", "the lesson's kernel at the same tiles"};
    sweep.compileWallMs = 14434.3;
    sweep.totalWallMs = 25184.9;
    sweep.modulesCompiled = 2;
    sweep.producer = "fusescope-cli test";
    sweep.created = "2026-11-30T17:31:29Z";
    return sweep;
}

TEST(TileSweepJson, RoundTripKeepsEveryField) {
    const tiles::TileSweep sweep = sampleSweep();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tiles.json"));
    ASSERT_TRUE(saveTileSweep(sweep, path));
    EXPECT_TRUE(isTileSweepFile(path));
    Result<tiles::TileSweep> loaded = loadTileSweep(path);
    ASSERT_TRUE(loaded) << loaded.status().message();
    const tiles::TileSweep& back = *loaded;
    EXPECT_EQ(back.request, sweep.request);
    EXPECT_EQ(back.limits.name, "NVIDIA H200");
    EXPECT_TRUE(back.limits.live);
    EXPECT_EQ(back.limits.deviceIndex, 3);
    EXPECT_EQ(back.limits.multiprocessors, 132);
    EXPECT_EQ(back.limits.sharedBytesPerBlockOptIn, sweep.limits.sharedBytesPerBlockOptIn);
    EXPECT_DOUBLE_EQ(back.limits.copyBandwidthGBps, 4030.5);
    EXPECT_EQ(back.limits.copyBandwidthSource, "measured copy in this run");
    EXPECT_EQ(back.compilerVersion, "NVRTC 13.0");
    ASSERT_EQ(back.references.size(), 1u);
    EXPECT_EQ(back.references[0].time, sweep.references[0].time);
    EXPECT_EQ(back.references[0].modelBytes, 123456789u);
    ASSERT_EQ(back.cells.size(), 2u);
    const tiles::TileCell& m = back.cells[0];
    EXPECT_EQ(m.report.configuration, sweep.cells[0].report.configuration);
    EXPECT_EQ(m.time, sweep.cells[0].time);
    EXPECT_TRUE(m.report.compiled.known);
    EXPECT_EQ(m.report.compiled.localBytesPerThread, 24);
    EXPECT_EQ(m.report.compiled.origin, "nvrtc");
    EXPECT_DOUBLE_EQ(m.report.compiled.compileMs, 1399.5);
    EXPECT_EQ(m.report.compiled.choice, "no register bound kept: 0.700 ms, against 0.712 ms");
    EXPECT_EQ(m.report.launch.blocks, sweep.cells[0].report.launch.blocks);
    EXPECT_EQ(m.report.gridWords, sweep.cells[0].report.gridWords);
    EXPECT_EQ(m.report.modelBytes, sweep.cells[0].report.modelBytes);
    EXPECT_DOUBLE_EQ(*m.dramBytes, 5.5e8);
    EXPECT_EQ(m.limiters, sweep.cells[0].limiters);
    EXPECT_TRUE(m.best);
    EXPECT_FALSE(m.tiedWithBest);
    ASSERT_TRUE(m.peerTime.has_value());
    EXPECT_EQ(*m.peerTime, *sweep.cells[0].peerTime);
    EXPECT_TRUE(m.peerNote.empty());
    ASSERT_TRUE(m.peerKernel.has_value());
    EXPECT_EQ(*m.peerKernel, *sweep.cells[0].peerKernel);
    EXPECT_EQ(back.peer, sweep.peer);
    const tiles::TileCell& r = back.cells[1];
    EXPECT_FALSE(r.peerTime.has_value());
    EXPECT_EQ(r.peerNote, sweep.cells[1].peerNote);
    EXPECT_FALSE(r.peerKernel.has_value());
    EXPECT_FALSE(r.measured);
    ASSERT_TRUE(r.report.refusal.has_value());
    EXPECT_EQ(*r.report.refusal, *sweep.cells[1].report.refusal);
    EXPECT_FALSE(r.dramBytes.has_value());
    EXPECT_EQ(back.modulesCompiled, 2);
    EXPECT_EQ(back.created, sweep.created);
}

QByteArray withChange(const std::function<void(QJsonObject&)>& change) {
    QJsonObject document = tileSweepDocument(sampleSweep());
    change(document);
    return QJsonDocument(document).toJson();
}

TEST(TileSweepJson, UnknownKeysAndMissingOptionalOnesAreFine) {
    Result<tiles::TileSweep> sweep = parseTileSweep(withChange([](QJsonObject& d) {
        d.insert(QStringLiteral("from_the_future"), 1);
        d.remove(QStringLiteral("references"));
        d.remove(QStringLiteral("compile_wall_ms"));
        QJsonArray cells = d.value(QStringLiteral("cells")).toArray();
        QJsonObject cell = cells[0].toObject();
        cell.remove(QStringLiteral("limiters"));
        cell.insert(QStringLiteral("new_metric"), 3.5);
        cells[0] = cell;
        d.insert(QStringLiteral("cells"), cells);
    }));
    ASSERT_TRUE(sweep) << sweep.status().message();
    EXPECT_TRUE(sweep->references.empty());
    EXPECT_TRUE(sweep->cells[0].limiters.empty());
}

TEST(TileSweepJson, ASweepWithoutPeerTimesHasNone) {
    Result<tiles::TileSweep> sweep = parseTileSweep(withChange([](QJsonObject& d) {
        d.remove(QStringLiteral("peer"));
        QJsonArray cells = d.value(QStringLiteral("cells")).toArray();
        for (qsizetype k = 0; k < cells.size(); ++k) {
            QJsonObject cell = cells[k].toObject();
            cell.remove(QStringLiteral("peer_time"));
            cell.remove(QStringLiteral("peer_note"));
            cells[k] = cell;
        }
        d.insert(QStringLiteral("cells"), cells);
    }));
    ASSERT_TRUE(sweep) << sweep.status().message();
    EXPECT_FALSE(sweep->peer.has_value());
    for (const tiles::TileCell& cell : sweep->cells) {
        EXPECT_FALSE(cell.peerTime.has_value());
        EXPECT_TRUE(cell.peerNote.empty());
    }
    // Written again, it says nothing of a peer.
    const QJsonObject written = tileSweepDocument(*sweep);
    EXPECT_FALSE(written.contains(QStringLiteral("peer")));
    EXPECT_FALSE(written.value(QStringLiteral("cells"))
                     .toArray()[0]
                     .toObject()
                     .contains(QStringLiteral("peer_time")));
}

TEST(TileSweepJson, RefusesAPeerTimeOfZeroAndAPeerWithoutAName) {
    Result<tiles::TileSweep> zero = parseTileSweep(withChange([](QJsonObject& d) {
        QJsonArray cells = d.value(QStringLiteral("cells")).toArray();
        QJsonObject cell = cells[0].toObject();
        cell.insert(QStringLiteral("peer_time"), QJsonObject{{QStringLiteral("median_ms"), 0.0}});
        cells[0] = cell;
        d.insert(QStringLiteral("cells"), cells);
    }));
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.status().message().find("cells[0].peer_time"), std::string::npos)
        << zero.status().message();
    Result<tiles::TileSweep> nameless = parseTileSweep(withChange([](QJsonObject& d) {
        d.insert(QStringLiteral("peer"),
                 QJsonObject{{QStringLiteral("source"), QStringLiteral("x")}});
    }));
    ASSERT_FALSE(nameless);
    EXPECT_NE(nameless.status().message().find("peer"), std::string::npos)
        << nameless.status().message();
}

TEST(TileSweepJson, RefusesAPeerKernelOutsideWhatAGpuReports) {
    const auto withPeerKernel = [](const char* key, int value) {
        return parseTileSweep(withChange([&](QJsonObject& d) {
            QJsonArray cells = d.value(QStringLiteral("cells")).toArray();
            QJsonObject cell = cells[0].toObject();
            QJsonObject kernel{{QStringLiteral("threads"), 128},
                               {QStringLiteral("registers"), 255},
                               {QStringLiteral("local_bytes"), 0},
                               {QStringLiteral("shared_bytes"), 81920},
                               {QStringLiteral("blocks_per_sm"), 2}};
            kernel.insert(QLatin1String(key), value);
            cell.insert(QStringLiteral("peer_kernel"), kernel);
            cells[0] = cell;
            d.insert(QStringLiteral("cells"), cells);
        }));
    };
    Result<tiles::TileSweep> fine = withPeerKernel("blocks_per_sm", 0);  // not known: allowed
    ASSERT_TRUE(fine) << fine.status().message();
    ASSERT_TRUE(fine->cells[0].peerKernel.has_value());
    EXPECT_EQ(fine->cells[0].peerKernel->blocksPerMultiprocessor, 0);
    for (const auto& [key, value] :
         {std::pair{"registers", 256}, std::pair{"threads", 0}, std::pair{"threads", 2048},
          std::pair{"local_bytes", -4}, std::pair{"blocks_per_sm", 65}}) {
        Result<tiles::TileSweep> refused = withPeerKernel(key, value);
        ASSERT_FALSE(refused) << key << " " << value;
        EXPECT_NE(refused.status().message().find(std::string("cells[0].peer_kernel.") + key),
                  std::string::npos)
            << refused.status().message();
    }
}

TEST(TileSweepJson, RefusesWhatItCannotReadWithThePath) {
    Result<tiles::TileSweep> newer =
        parseTileSweep(withChange([](QJsonObject& d) { d.insert(QStringLiteral("version"), 2); }));
    ASSERT_FALSE(newer);
    EXPECT_NE(newer.status().message().find("version 2"), std::string::npos);
    Result<tiles::TileSweep> other = parseTileSweep(withChange([](QJsonObject& d) {
        d.insert(QStringLiteral("format"), QStringLiteral("fusescope-sweep"));
    }));
    ASSERT_FALSE(other);
    Result<tiles::TileSweep> badTime = parseTileSweep(withChange([](QJsonObject& d) {
        QJsonArray cells = d.value(QStringLiteral("cells")).toArray();
        QJsonObject cell = cells[0].toObject();
        QJsonObject time = cell.value(QStringLiteral("time")).toObject();
        time.insert(QStringLiteral("q1_ms"), 9.0);  // above the median
        cell.insert(QStringLiteral("time"), time);
        cells[0] = cell;
        d.insert(QStringLiteral("cells"), cells);
    }));
    ASSERT_FALSE(badTime);
    EXPECT_NE(badTime.status().message().find("cells[0].time"), std::string::npos)
        << badTime.status().message();
    EXPECT_FALSE(parseTileSweep("{"));
    EXPECT_FALSE(parseTileSweep("[]"));
}

TEST(TileSweepJson, TheShippedH200SweepsLoad) {
    const QDir folder(QStringLiteral(FUSESCOPE_SHIPPED_RECORDINGS_DIR));
    const QStringList files = folder.entryList({QStringLiteral("tiles-*.json")}, QDir::Files);
    ASSERT_FALSE(files.isEmpty()) << "no tile sweep in " << folder.path().toStdString();
    bool sawSweepOf48 = false;
    for (const QString& name : files) {
        Result<tiles::TileSweep> sweep = loadTileSweep(folder.filePath(name));
        ASSERT_TRUE(sweep) << sweep.status().message();
        EXPECT_TRUE(sweep->limits.live) << name.toStdString();
        int measured = 0;
        for (const tiles::TileCell& cell : sweep->cells)
            if (cell.measured) {
                ++measured;
                EXPECT_TRUE(cell.checkOk) << name.toStdString();
                EXPECT_TRUE(cell.report.compiled.known) << name.toStdString();
            }
        EXPECT_GT(measured, 0) << name.toStdString();
        sawSweepOf48 = sawSweepOf48 || sweep->cells.size() >= 48;
    }
    EXPECT_TRUE(sawSweepOf48);
}

}  // namespace
}  // namespace fusescope::model
