#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>
#include <QStringList>
#include <cmath>

#include "model/json_document_format.h"
#include "model/json_reader.h"
#include "model/limited_read.h"
#include "model/tile_sweep_json.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

// Tile sweeps are a few hundred KiB; a file claiming more is not one.
constexpr qint64 kMaxTileSweepBytes = qint64{64} << 20;
// No tile is larger; a larger value in a file is no tile size.
constexpr int kMaxTileValue = 1 << 20;
// Longer is no measured time (about 28 hours).
constexpr double kLongestTimeMs = 1e8;

std::string text(const QString& value) {
    return value.toStdString();
}

// The array at `key`, refused when it holds more than `limit` elements.
QJsonArray boundedArray(const JsonReader& reader, const char* key, qsizetype limit) {
    return reader.boundedArray(key, limit);
}

std::optional<QJsonArray> optionalBoundedArray(const JsonReader& reader, const char* key,
                                               qsizetype limit) {
    if (!reader.optionalArray(key)) return std::nullopt;
    return boundedArray(reader, key, limit);
}

tiles::TimingSpread readTime(const JsonReader& time) {
    tiles::TimingSpread t;
    t.medianMs = time.numberIn("median_ms", 0, kLongestTimeMs);
    t.q1Ms = time.optionalNumber("q1_ms").value_or(t.medianMs);
    t.q3Ms = time.optionalNumber("q3_ms").value_or(t.medianMs);
    t.minMs = time.optionalNumber("min_ms").value_or(t.q1Ms);
    t.maxMs = time.optionalNumber("max_ms").value_or(t.q3Ms);
    t.repeats = time.optionalInteger("repeats").value_or(0);
    if (!(t.q1Ms <= t.medianMs && t.medianMs <= t.q3Ms))
        time.fail("median_ms", QStringLiteral("must lie between q1_ms and q3_ms"));
    return t;
}

// {"name": whole number, ...}
template <typename Value>
std::map<std::string, Value, std::less<>> readMap(const JsonReader& object) {
    std::map<std::string, Value, std::less<>> values;
    for (const QString& key : object.keys()) {
        const QByteArray name = key.toUtf8();
        if constexpr (std::is_same_v<Value, int>)
            values[key.toStdString()] = object.integer(name.constData());
        else
            values[key.toStdString()] = object.count(name.constData());
    }
    return values;
}

tiles::DeviceLimits readLimits(const JsonReader& d, tiles::TileSweep& sweep) {
    tiles::DeviceLimits l;
    l.name = text(d.string("name"));
    l.live = d.optionalBoolean("live").value_or(false);
    l.deviceIndex = d.optionalInteger("device_index").value_or(0);
    if (l.deviceIndex < 0) d.fail("device_index", QStringLiteral("must not be negative"));
    const QStringList capability =
        d.optionalString("compute_capability").value_or(QString()).split(QLatin1Char('.'));
    if (capability.size() == 2) {
        l.computeCapabilityMajor = capability[0].toInt();
        l.computeCapabilityMinor = capability[1].toInt();
    }
    l.multiprocessors = d.integer("multiprocessors");
    if (l.multiprocessors < 1) d.fail("multiprocessors", QStringLiteral("must be at least 1"));
    l.maxThreadsPerBlock = d.optionalInteger("max_threads_per_block").value_or(1024);
    l.maxThreadsPerMultiprocessor = d.optionalInteger("max_threads_per_sm").value_or(2048);
    l.maxBlocksPerMultiprocessor = d.optionalInteger("max_blocks_per_sm").value_or(32);
    l.registersPerMultiprocessor = d.optionalInteger("registers_per_sm").value_or(65536);
    l.maxRegistersPerThread = d.optionalInteger("max_registers_per_thread").value_or(255);
    l.sharedBytesPerBlockOptIn = d.optionalCount("shared_bytes_per_block").value_or(0);
    l.sharedBytesPerMultiprocessor = d.optionalCount("shared_bytes_per_sm").value_or(0);
    l.reservedSharedBytesPerBlock = d.optionalCount("reserved_shared_bytes_per_block").value_or(0);
    l.copyBandwidthGBps = d.optionalNumber("copy_gbps").value_or(0.0);
    l.copyBandwidthSource = text(d.optionalString("copy_source").value_or(QString()));
    l.computeTflops = d.optionalNumber("compute_tflops").value_or(0.0);
    l.computeSource = text(d.optionalString("compute_source").value_or(QString()));
    sweep.driverVersion = text(d.optionalString("driver").value_or(QString()));
    sweep.runtimeVersion = text(d.optionalString("runtime").value_or(QString()));
    sweep.compilerVersion = text(d.optionalString("compiler").value_or(QString()));
    return l;
}

tiles::CompiledResources readCompiled(const JsonReader& c) {
    tiles::CompiledResources r;
    r.known = true;
    r.registersPerThread = c.integer("registers");
    r.localBytesPerThread = c.integer("local_bytes");
    r.staticSharedBytes = c.optionalInteger("static_shared_bytes").value_or(0);
    r.maxThreadsPerBlock = c.optionalInteger("max_threads").value_or(0);
    r.blocksPerMultiprocessor = c.integer("blocks_per_sm");
    r.theoreticalOccupancy = c.number("occupancy");
    r.origin = text(c.optionalString("origin").value_or(QString()));
    r.compileMs = c.optionalNumber("compile_ms").value_or(0.0);
    r.choice = text(c.optionalString("choice").value_or(QString()));
    if (r.theoreticalOccupancy < 0 || r.theoreticalOccupancy > 1)
        c.fail("occupancy", QStringLiteral("must lie in [0, 1]"));
    return r;
}

// Within what any GPU reports: a block of at most 1,024 threads, 255 registers a thread, 1 MiB
// of shared memory or of local memory a thread, 64 blocks an SM.
tiles::PeerKernel readPeerKernel(const JsonReader& k) {
    tiles::PeerKernel kernel;
    const auto bounded = [&](const char* key, int low, int high) {
        return static_cast<int>(k.checkRange(key, k.integer(key), low, high));
    };
    constexpr int kMebibyte = 1 << 20;
    kernel.threadsPerBlock = bounded("threads", 1, 1024);
    kernel.registersPerThread = bounded("registers", 1, 255);
    kernel.localBytesPerThread = bounded("local_bytes", 0, kMebibyte);
    kernel.sharedBytes = static_cast<std::uint64_t>(bounded("shared_bytes", 0, kMebibyte));
    kernel.blocksPerMultiprocessor = bounded("blocks_per_sm", 0, 64);
    return kernel;
}

tiles::TileCell readCell(const JsonReader& c, const tiles::TileSweep& sweep) {
    tiles::TileCell cell;
    tiles::ResourceReport& r = cell.report;
    r.configuration = sweep.request.base;
    for (const auto& [name, value] : readMap<int>(c.object("tuning")))
        r.configuration.problem.tuning[name] = value;
    r.limits = sweep.limits;
    if (const std::optional<JsonReader> refusal = c.optionalObject("refusal")) {
        const QString kind = refusal->string("kind");
        const std::optional<tiles::RefusalKind> known = tiles::refusalKindFromKey(text(kind));
        // A newer writer's kind still shows its reason.
        r.refusal = tiles::TileRefusal{known.value_or(tiles::RefusalKind::NotTunable),
                                       text(refusal->string("reason", kMaxFreeTextLength))};
    }
    if (const std::optional<JsonReader> launch = c.optionalObject("launch")) {
        r.launch.kernelName = text(launch->optionalString("kernel").value_or(QString()));
        r.launch.threadsPerBlock = launch->optionalInteger("threads").value_or(0);
        r.launch.gridX = launch->optionalCount("grid_x").value_or(0);
        r.launch.gridY = launch->optionalCount("grid_y").value_or(0);
        r.launch.blocks = launch->optionalCount("blocks").value_or(0);
        r.launch.dynamicSharedBytes = launch->optionalCount("dynamic_shared_bytes").value_or(0);
        r.launch.pipelineStages = launch->optionalInteger("stages").value_or(0);
    }
    if (const std::optional<JsonReader> compiled = c.optionalObject("compiled"))
        r.compiled = readCompiled(*compiled);
    r.modelBytes = c.count("model_bytes");
    r.modelFlops = c.number("model_flops");
    r.predictedMs = c.optionalNumber("predicted_ms").value_or(0.0);
    r.predictedBound = text(c.optionalString("predicted_bound").value_or(QString()));
    r.idleMultiprocessors = c.optionalInteger("idle_sms").value_or(0);
    r.waves = c.optionalNumber("waves").value_or(0.0);
    r.gridWords = text(c.optionalString("grid_words").value_or(QString()));
    cell.measured = c.boolean("measured");
    if (cell.measured) cell.time = readTime(c.object("time"));
    cell.gbps = c.optionalNumber("gbps").value_or(0.0);
    cell.tflops = c.optionalNumber("tflops").value_or(0.0);
    cell.requestedBytes = c.optionalCount("requested_bytes").value_or(r.modelBytes);
    cell.dramBytes = c.optionalNumber("dram_bytes");
    cell.checkOk = c.optionalBoolean("check_ok").value_or(false);
    cell.checkError = c.optionalNumber("check_error").value_or(0.0);
    cell.checkTolerance = c.optionalNumber("check_tolerance").value_or(0.0);
    cell.error = text(c.optionalString("error", kMaxFreeTextLength).value_or(QString()));
    if (const std::optional<QJsonArray> limiters =
            optionalBoundedArray(c, "limiters", kMaxTileLimiters))
        for (const QJsonValue& limiter : *limiters) {
            if (!limiter.isString() || limiter.toString().size() > kMaxNameLength)
                c.fail("limiters", QStringLiteral("each limiter is a string of at most %1 "
                                                  "characters")
                                       .arg(kMaxNameLength));
            cell.limiters.push_back(text(limiter.toString()));
        }
    cell.best = c.optionalBoolean("best").value_or(false);
    cell.tiedWithBest = c.optionalBoolean("tied").value_or(false);
    if (cell.measured && r.refusal) c.fail("measured", QStringLiteral("a refused cell never runs"));
    if (const std::optional<JsonReader> peerTime = c.optionalObject("peer_time")) {
        cell.peerTime = readTime(*peerTime);
        if (!(cell.peerTime->medianMs > 0))
            peerTime->fail("median_ms", QStringLiteral("must be above zero"));
    }
    cell.peerNote = text(c.optionalString("peer_note", kMaxFreeTextLength).value_or(QString()));
    if (const std::optional<JsonReader> peerKernel = c.optionalObject("peer_kernel"))
        cell.peerKernel = readPeerKernel(*peerKernel);
    return cell;
}

tiles::TileSweep readDocument(const JsonReader& document) {
    checkDocumentFormat(document, kTileSweepFormat, kTileSweepVersion, QObject::tr("tile sweep"));
    tiles::TileSweep sweep;
    sweep.producer = text(document.optionalString("producer").value_or(QString()));
    sweep.created = text(document.optionalString("created").value_or(QString()));
    tiles::TileSweepRequest& request = sweep.request;
    request.base.pipeline = text(document.string("pipeline"));
    request.base.variant = text(document.string("variant"));
    const QString dtype = document.string("dtype");
    const std::optional<DType> parsed = parseDType(dtype.toStdString());
    if (!parsed) document.fail("dtype", QObject::tr("unknown data type '%1'").arg(dtype));
    request.base.problem.dtype = *parsed;
    request.base.problem.dimensions = readMap<std::uint64_t>(document.object("dimensions"));
    if (const std::optional<JsonReader> tuning = document.optionalObject("base_tuning"))
        request.base.problem.tuning = readMap<int>(*tuning);
    // A sweep written before a tuning was declared (the production fusion's tiles) ran with the
    // value of that time.
    if (const PipelineSpec* pipeline = findPipeline(request.base.pipeline))
        request.base.problem = withRecordedTunings(*pipeline, request.base.problem);
    if (const std::optional<QJsonArray> axes = optionalBoundedArray(document, "axes", kMaxTileAxes))
        for (qsizetype k = 0; k < axes->size(); ++k) {
            const JsonReader axis = document.element(*axes, "axes", k);
            tiles::TileAxis value;
            value.tuning = text(axis.string("tuning"));
            for (const QJsonValue& v : boundedArray(axis, "values", kMaxTileAxisValues)) {
                const double number = v.toDouble(-1);
                if (!v.isDouble() || !(number >= 0 && number <= kMaxTileValue) ||
                    std::floor(number) != number)
                    axis.fail("values", QStringLiteral("each value is a whole number from 0 to %1")
                                            .arg(kMaxTileValue));
                value.values.push_back(static_cast<int>(number));
            }
            request.axes.push_back(std::move(value));
        }
    request.settings.repeats = document.optionalInteger("repeats").value_or(0);
    request.settings.warmup = document.optionalInteger("warmup").value_or(0);
    request.settings.seed = static_cast<std::uint32_t>(document.optionalCount("seed").value_or(0));
    request.references = document.optionalBoolean("references_requested").value_or(true);
    sweep.limits = readLimits(document.object("device"), sweep);
    sweep.compileWallMs = document.optionalNumber("compile_wall_ms").value_or(0.0);
    sweep.totalWallMs = document.optionalNumber("total_wall_ms").value_or(0.0);
    sweep.modulesCompiled = document.optionalInteger("modules_compiled").value_or(0);
    sweep.modulesCached = document.optionalInteger("modules_cached").value_or(0);
    sweep.cancelled = document.optionalBoolean("cancelled").value_or(false);
    if (const std::optional<QJsonArray> references =
            optionalBoundedArray(document, "references", kMaxTileReferences))
        for (qsizetype k = 0; k < references->size(); ++k) {
            const JsonReader r = document.element(*references, "references", k);
            tiles::ReferenceTiming reference;
            reference.variant = text(r.string("variant"));
            reference.title = text(r.optionalString("title").value_or(QString()));
            reference.time = readTime(r.object("time"));
            reference.modelBytes = r.optionalCount("model_bytes").value_or(0);
            reference.modelFlops = r.optionalNumber("model_flops").value_or(0.0);
            reference.checkOk = r.optionalBoolean("check_ok").value_or(false);
            sweep.references.push_back(std::move(reference));
        }
    if (const std::optional<JsonReader> peer = document.optionalObject("peer"))
        sweep.peer = tiles::PeerTimings{
            text(peer->string("name")),
            text(peer->optionalString("source", kMaxFreeTextLength).value_or(QString()))};
    const QJsonArray cells = boundedArray(document, "cells", kMaxTileCells);
    for (qsizetype k = 0; k < cells.size(); ++k)
        sweep.cells.push_back(readCell(document.element(cells, "cells", k), sweep));
    return sweep;
}

}  // namespace

Result<tiles::TileSweep> parseTileSweep(const QByteArray& json) {
    return readJsonObject<tiles::TileSweep>(
        json, "not a FuseScope tile sweep (no JSON object)",
        [](const JsonReader& reader) { return readDocument(reader); });
}

Result<tiles::TileSweep> loadTileSweep(const QString& path) {
    Result<QByteArray> bytes = readFileLimited(path, kMaxTileSweepBytes);
    if (!bytes) return bytes.status();
    Result<tiles::TileSweep> sweep = parseTileSweep(*bytes);
    if (!sweep)
        return Status(sweep.status().code(), path.toStdString() + ": " + sweep.status().message());
    return sweep;
}

bool isTileSweepFile(const QString& path) {
    // QJsonDocument writes keys in order, so the format may come after the cells: read it all
    // (tile sweeps are small; larger files are not one).
    const Result<QByteArray> bytes = readFileLimited(path, kMaxTileSweepBytes);
    return bytes && bytes->contains(QByteArray("\"") + kTileSweepFormat + "\"");
}

}  // namespace fusescope::model
