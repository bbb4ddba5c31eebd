#include <QJsonArray>
#include <QJsonDocument>

#include "model/atomic_save.h"
#include "model/tile_sweep_json.h"

namespace fusescope::model {
namespace {

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

double number(std::uint64_t value) {
    return static_cast<double>(value);
}

QJsonObject timeJson(const tiles::TimingSpread& t) {
    return {{QStringLiteral("median_ms"), t.medianMs}, {QStringLiteral("q1_ms"), t.q1Ms},
            {QStringLiteral("q3_ms"), t.q3Ms},         {QStringLiteral("min_ms"), t.minMs},
            {QStringLiteral("max_ms"), t.maxMs},       {QStringLiteral("repeats"), t.repeats}};
}

template <typename Map>
QJsonObject mapJson(const Map& values) {
    QJsonObject object;
    for (const auto& [name, value] : values) object.insert(text(name), number(value));
    return object;
}

QJsonObject deviceJson(const tiles::TileSweep& sweep) {
    const tiles::DeviceLimits& l = sweep.limits;
    return {
        {QStringLiteral("name"), text(l.name)},
        {QStringLiteral("live"), l.live},
        {QStringLiteral("device_index"), l.deviceIndex},
        {QStringLiteral("compute_capability"),
         QStringLiteral("%1.%2").arg(l.computeCapabilityMajor).arg(l.computeCapabilityMinor)},
        {QStringLiteral("multiprocessors"), l.multiprocessors},
        {QStringLiteral("max_threads_per_block"), l.maxThreadsPerBlock},
        {QStringLiteral("max_threads_per_sm"), l.maxThreadsPerMultiprocessor},
        {QStringLiteral("max_blocks_per_sm"), l.maxBlocksPerMultiprocessor},
        {QStringLiteral("registers_per_sm"), l.registersPerMultiprocessor},
        {QStringLiteral("max_registers_per_thread"), l.maxRegistersPerThread},
        {QStringLiteral("shared_bytes_per_block"), number(l.sharedBytesPerBlockOptIn)},
        {QStringLiteral("shared_bytes_per_sm"), number(l.sharedBytesPerMultiprocessor)},
        {QStringLiteral("reserved_shared_bytes_per_block"), number(l.reservedSharedBytesPerBlock)},
        {QStringLiteral("copy_gbps"), l.copyBandwidthGBps},
        {QStringLiteral("copy_source"), text(l.copyBandwidthSource)},
        {QStringLiteral("compute_tflops"), l.computeTflops},
        {QStringLiteral("compute_source"), text(l.computeSource)},
        {QStringLiteral("driver"), text(sweep.driverVersion)},
        {QStringLiteral("runtime"), text(sweep.runtimeVersion)},
        {QStringLiteral("compiler"), text(sweep.compilerVersion)}};
}

QJsonObject cellJson(const tiles::TileCell& cell) {
    const tiles::ResourceReport& r = cell.report;
    QJsonObject object{{QStringLiteral("tuning"), mapJson(r.configuration.problem.tuning)}};
    object.insert(QStringLiteral("refusal"),
                  r.refusal
                      ? QJsonValue(QJsonObject{
                            {QStringLiteral("kind"), text(tiles::refusalKindKey(r.refusal->kind))},
                            {QStringLiteral("reason"), text(r.refusal->reason)}})
                      : QJsonValue(QJsonValue::Null));
    object.insert(
        QStringLiteral("launch"),
        QJsonObject{{QStringLiteral("kernel"), text(r.launch.kernelName)},
                    {QStringLiteral("threads"), r.launch.threadsPerBlock},
                    {QStringLiteral("grid_x"), number(r.launch.gridX)},
                    {QStringLiteral("grid_y"), number(r.launch.gridY)},
                    {QStringLiteral("blocks"), number(r.launch.blocks)},
                    {QStringLiteral("dynamic_shared_bytes"), number(r.launch.dynamicSharedBytes)},
                    {QStringLiteral("stages"), r.launch.pipelineStages}});
    const tiles::CompiledResources& c = r.compiled;
    object.insert(QStringLiteral("compiled"),
                  c.known ? QJsonValue(QJsonObject{
                                {QStringLiteral("registers"), c.registersPerThread},
                                {QStringLiteral("local_bytes"), c.localBytesPerThread},
                                {QStringLiteral("static_shared_bytes"), c.staticSharedBytes},
                                {QStringLiteral("max_threads"), c.maxThreadsPerBlock},
                                {QStringLiteral("blocks_per_sm"), c.blocksPerMultiprocessor},
                                {QStringLiteral("occupancy"), c.theoreticalOccupancy},
                                {QStringLiteral("origin"), text(c.origin)},
                                {QStringLiteral("compile_ms"), c.compileMs},
                                {QStringLiteral("choice"), text(c.choice)}})
                          : QJsonValue(QJsonValue::Null));
    object.insert(QStringLiteral("model_bytes"), number(r.modelBytes));
    object.insert(QStringLiteral("model_flops"), r.modelFlops);
    object.insert(QStringLiteral("predicted_ms"), r.predictedMs);
    object.insert(QStringLiteral("predicted_bound"), text(r.predictedBound));
    object.insert(QStringLiteral("idle_sms"), r.idleMultiprocessors);
    object.insert(QStringLiteral("waves"), r.waves);
    object.insert(QStringLiteral("grid_words"), text(r.gridWords));
    object.insert(QStringLiteral("measured"), cell.measured);
    object.insert(QStringLiteral("time"), timeJson(cell.time));
    object.insert(QStringLiteral("gbps"), cell.gbps);
    object.insert(QStringLiteral("tflops"), cell.tflops);
    object.insert(QStringLiteral("requested_bytes"), number(cell.requestedBytes));
    object.insert(QStringLiteral("dram_bytes"),
                  cell.dramBytes ? QJsonValue(*cell.dramBytes) : QJsonValue(QJsonValue::Null));
    object.insert(QStringLiteral("check_ok"), cell.checkOk);
    object.insert(QStringLiteral("check_error"), cell.checkError);
    object.insert(QStringLiteral("check_tolerance"), cell.checkTolerance);
    object.insert(QStringLiteral("error"), text(cell.error));
    QJsonArray limiters;
    for (const std::string& limiter : cell.limiters) limiters.append(text(limiter));
    object.insert(QStringLiteral("limiters"), limiters);
    object.insert(QStringLiteral("best"), cell.best);
    object.insert(QStringLiteral("tied"), cell.tiedWithBest);
    if (cell.peerTime) object.insert(QStringLiteral("peer_time"), timeJson(*cell.peerTime));
    if (!cell.peerNote.empty()) object.insert(QStringLiteral("peer_note"), text(cell.peerNote));
    if (const std::optional<tiles::PeerKernel>& kernel = cell.peerKernel)
        object.insert(
            QStringLiteral("peer_kernel"),
            QJsonObject{{QStringLiteral("threads"), kernel->threadsPerBlock},
                        {QStringLiteral("registers"), kernel->registersPerThread},
                        {QStringLiteral("local_bytes"), kernel->localBytesPerThread},
                        {QStringLiteral("shared_bytes"), number(kernel->sharedBytes)},
                        {QStringLiteral("blocks_per_sm"), kernel->blocksPerMultiprocessor}});
    return object;
}

}  // namespace

QJsonObject tileSweepDocument(const tiles::TileSweep& sweep) {
    const tiles::TileSweepRequest& request = sweep.request;
    QJsonArray axes;
    for (const tiles::TileAxis& axis : request.axes) {
        QJsonArray values;
        for (int value : axis.values) values.append(value);
        axes.append(QJsonObject{{QStringLiteral("tuning"), text(axis.tuning)},
                                {QStringLiteral("values"), values}});
    }
    QJsonArray references;
    for (const tiles::ReferenceTiming& reference : sweep.references)
        references.append(QJsonObject{{QStringLiteral("variant"), text(reference.variant)},
                                      {QStringLiteral("title"), text(reference.title)},
                                      {QStringLiteral("time"), timeJson(reference.time)},
                                      {QStringLiteral("model_bytes"), number(reference.modelBytes)},
                                      {QStringLiteral("model_flops"), reference.modelFlops},
                                      {QStringLiteral("check_ok"), reference.checkOk}});
    QJsonArray cells;
    for (const tiles::TileCell& cell : sweep.cells) cells.append(cellJson(cell));
    const Problem& problem = request.base.problem;
    QJsonObject document{{QStringLiteral("format"), QString::fromLatin1(kTileSweepFormat)},
                         {QStringLiteral("version"), kTileSweepVersion},
                         {QStringLiteral("producer"), text(sweep.producer)},
                         {QStringLiteral("created"), text(sweep.created)},
                         {QStringLiteral("pipeline"), text(request.base.pipeline)},
                         {QStringLiteral("variant"), text(request.base.variant)},
                         {QStringLiteral("dtype"), text(std::string(dtypeName(problem.dtype)))},
                         {QStringLiteral("dimensions"), mapJson(problem.dimensions)},
                         {QStringLiteral("base_tuning"), mapJson(problem.tuning)},
                         {QStringLiteral("axes"), axes},
                         {QStringLiteral("repeats"), request.settings.repeats},
                         {QStringLiteral("warmup"), request.settings.warmup},
                         {QStringLiteral("seed"), static_cast<double>(request.settings.seed)},
                         {QStringLiteral("references_requested"), request.references},
                         {QStringLiteral("device"), deviceJson(sweep)},
                         {QStringLiteral("compile_wall_ms"), sweep.compileWallMs},
                         {QStringLiteral("total_wall_ms"), sweep.totalWallMs},
                         {QStringLiteral("modules_compiled"), sweep.modulesCompiled},
                         {QStringLiteral("modules_cached"), sweep.modulesCached},
                         {QStringLiteral("cancelled"), sweep.cancelled},
                         {QStringLiteral("references"), references},
                         {QStringLiteral("cells"), cells}};
    if (sweep.peer)
        document.insert(QStringLiteral("peer"),
                        QJsonObject{{QStringLiteral("name"), text(sweep.peer->name)},
                                    {QStringLiteral("source"), text(sweep.peer->source)}});
    return document;
}

Status saveTileSweep(const tiles::TileSweep& sweep, const QString& path) {
    return saveBytesAtomically(
        QJsonDocument(tileSweepDocument(sweep)).toJson(QJsonDocument::Indented), path);
}

}  // namespace fusescope::model
