// `fusescope-cli resources` (a configuration's resource report, nothing run) and
// `fusescope-cli tiles` (a tile sweep: compile and time every configuration of a grid, refused
// ones recorded with their reason, and write the file the explorer opens).
#include <QCommandLineParser>
#include <QRegularExpression>
#include <algorithm>
#include <csignal>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/run_options.h"
#include "cli/shared_options.h"
#include "cli/terminal_observer.h"
#include "cli/text_table.h"
#include "cli/tile_sweep_table.h"
#include "model/format.h"
#include "model/problem_options.h"
#include "model/producer.h"
#include "model/tile_sweep_json.h"
#include "tiles/tile_model.h"
#include "tiles/tile_sweep.h"

namespace fusescope::cli {
namespace {

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

// The registry's first tunable variant: the commands' defaults.
tiles::TileConfiguration defaultConfiguration() {
    return tiles::firstTunableConfiguration().value_or(tiles::TileConfiguration{});
}

// The tile tunings of a variant, in declaration order.
std::vector<const TuningSpec*> tileTunings(const PipelineSpec& pipeline,
                                           const std::string& variant) {
    std::vector<const TuningSpec*> found;
    for (const TuningSpec& tuning : pipeline.tunings)
        if (!tuning.variant.empty() && tuning.appliesTo(variant)) found.push_back(&tuning);
    return found;
}

// Every tunable variant with its tiles in order and their allowed values, from the registry.
QString tunableKernelsText() {
    QStringList kernels;
    for (const auto& [pipeline, variant] : tunableVariants()) {
        QStringList tiles;
        for (const TuningSpec* tuning : tileTunings(*pipeline, variant->name))
            tiles << QStringLiteral("%1 (%2)").arg(text(tuning->title),
                                                   text(allowedText(tuning->allowed)));
        kernels << QStringLiteral("--pipeline %1 --variant %2: %3")
                       .arg(text(pipeline->name), text(variant->name), tiles.join(", "));
    }
    return kernels.join(QStringLiteral("; "));
}

// "--pipeline P --variant V", the tiles by name at their defaults, and a grid over the first two
// tiles' allowed values, for the first tunable variant: the help's examples.
struct TileExample {
    QString kernel;
    QString dimensions;  // "M=64,H=1024,I=2816"
    QString values;      // "32,64,64,64"
    QString tiles;       // "block_m=32,block_n=64,..."
    QString grids;
};

TileExample tileExample() {
    TileExample example;
    const tiles::TileConfiguration configuration = defaultConfiguration();
    const PipelineSpec* pipeline = findPipeline(configuration.pipeline);
    if (!pipeline) return example;
    example.kernel = QStringLiteral("--pipeline %1 --variant %2")
                         .arg(text(configuration.pipeline), text(configuration.variant));
    QStringList dimensions, values, tiles, grids;
    for (const DimensionSpec& dimension : pipeline->dimensions)
        dimensions << QStringLiteral("%1=%2").arg(text(dimension.name)).arg(dimension.defaultValue);
    for (const TuningSpec* tuning : tileTunings(*pipeline, configuration.variant)) {
        values << QString::number(tuning->defaultValue);
        tiles << QStringLiteral("%1=%2").arg(text(tuning->name)).arg(tuning->defaultValue);
        if (grids.size() < 2 && tuning->allowed.size() > 1)
            grids << QStringLiteral("--grid %1=%2..%3")
                         .arg(text(tuning->name))
                         .arg(tuning->allowed.front())
                         .arg(tuning->allowed.back());
    }
    example.dimensions = dimensions.join(QLatin1Char(','));
    example.values = values.join(QLatin1Char(','));
    example.tiles = tiles.join(QLatin1Char(','));
    example.grids = grids.join(QLatin1Char(' '));
    return example;
}

// The options both commands share: which configuration, by default the registry's first tunable
// variant.
struct ConfigurationOptions {
    QCommandLineOption pipeline{
        QStringLiteral("pipeline"),
        QStringLiteral("The pipeline (default %1).").arg(text(defaultConfiguration().pipeline)),
        QStringLiteral("name"), text(defaultConfiguration().pipeline)};
    QCommandLineOption variant{
        QStringLiteral("variant"),
        QStringLiteral("The variant whose kernel takes the tiles (default %1).")
            .arg(text(defaultConfiguration().variant)),
        QStringLiteral("name"), text(defaultConfiguration().variant)};
    QCommandLineOption preset{QStringLiteral("preset"),
                              QStringLiteral("A named problem of the pipeline (see "
                                             "`fusescope-cli list`)."),
                              QStringLiteral("name")};
    QCommandLineOption shape{
        QStringLiteral("shape"),
        QStringLiteral("Dimensions by name, e.g. %1.").arg(tileExample().dimensions),
        QStringLiteral("dims")};
    QCommandLineOption dtype{QStringLiteral("dtype"),
                             QStringLiteral("float32 (fp32), bfloat16 (bf16) or tf32 (float32 "
                                            "storage, TF32 tensor-core products)."),
                             QStringLiteral("type")};
    QCommandLineOption tile{
        QStringLiteral("tile"),
        QStringLiteral("The variant's tiles in order (e.g. %1) or by name "
                       "(e.g. %2). The tunable kernels and their tiles: %3.")
            .arg(tileExample().values, tileExample().tiles, tunableKernelsText()),
        QStringLiteral("tiles")};

    QList<QCommandLineOption> all() const {
        return {pipeline, variant, preset, shape, dtype, tile};
    }

    Result<tiles::TileConfiguration> parse(const QCommandLineParser& parser) const {
        Result<const PipelineSpec*> spec = parsePipeline(parser.value(pipeline));
        if (!spec) return spec.status();
        tiles::TileConfiguration configuration;
        configuration.pipeline = (*spec)->name;
        configuration.variant = parser.value(variant).toStdString();
        if (!findVariant(**spec, configuration.variant))
            return Status(ErrorCode::InvalidArgument, "--variant: the " + (*spec)->name +
                                                          " pipeline has no variant " +
                                                          configuration.variant);
        model::ProblemText problemText;
        problemText.preset = parser.value(preset);
        problemText.dimensions = parser.value(shape);
        problemText.dtype = parser.value(dtype);
        problemText.tuning = parser.value(tile);
        Result<Problem> problem = model::problemFromText(**spec, problemText);
        if (!problem) return problem.status();
        configuration.problem = withDefaults(**spec, *problem);
        return configuration;
    }
};

QString describe(const tiles::TileConfiguration& c) {
    const PipelineSpec* pipeline = findPipeline(c.pipeline);
    return QStringLiteral("%1 %2 · %3")
        .arg(text(c.pipeline), text(c.variant),
             pipeline ? text(describeProblem(*pipeline, c.problem, {c.variant})) : QString());
}

QStringList reportLines(const tiles::ResourceReport& r, bool live, const QString& note) {
    QStringList lines;
    lines << QStringLiteral("Configuration  %1").arg(describe(r.configuration));
    lines << QStringLiteral("Device         %1").arg(note);
    if (r.refusal)
        lines << QStringLiteral("REFUSED        %1 (%2): never launched")
                     .arg(text(r.refusal->reason), text(tiles::refusalKindKey(r.refusal->kind)));
    lines << QStringLiteral("Launch         %1 x %2 = %3 blocks of %4 threads (%5)")
                 .arg(r.launch.gridX)
                 .arg(r.launch.gridY)
                 .arg(r.launch.blocks)
                 .arg(r.launch.threadsPerBlock)
                 .arg(text(r.launch.kernelName));
    lines << QStringLiteral("Grid           %1").arg(text(r.gridWords));
    lines << QStringLiteral("Shared memory  %1 dynamic%2%3, limit %4 per block")
                 .arg(model::formatKibibytes(r.launch.dynamicSharedBytes))
                 .arg(r.launch.pipelineStages > 0
                          ? QStringLiteral(" (%1 pipeline stages)").arg(r.launch.pipelineStages)
                          : QString())
                 .arg(r.compiled.known ? QStringLiteral(" + %1 static")
                                             .arg(model::formatKibibytes(static_cast<quint64>(
                                                 r.compiled.staticSharedBytes)))
                                       : QString())
                 .arg(model::formatKibibytes(r.limits.sharedBytesPerBlockOptIn));
    if (r.compiled.known) {
        lines << QStringLiteral("Registers      %1 per thread; spills %2 B per thread")
                     .arg(r.compiled.registersPerThread)
                     .arg(r.compiled.localBytesPerThread);
        lines << QStringLiteral("Occupancy      %1 blocks per SM, theoretical %2")
                     .arg(r.compiled.blocksPerMultiprocessor)
                     .arg(model::formatPercent(r.compiled.theoreticalOccupancy));
        lines << QStringLiteral("Module         %1%2")
                     .arg(text(r.compiled.origin))
                     .arg(r.compiled.compileMs > 0 ? QStringLiteral(", compiled in %1 ms")
                                                         .arg(r.compiled.compileMs, 0, 'f', 0)
                                                   : QString());
    } else if (!r.refusal) {
        lines << QStringLiteral("Registers      %1")
                     .arg(live ? QStringLiteral("not known (the backend gave none)")
                               : QStringLiteral("need an NVIDIA GPU (the kernel is compiled and "
                                                "loaded to know them)"));
    }
    lines << QStringLiteral("Model          %1 moved, %2 GFLOP")
                 .arg(model::formatBytes(r.modelBytes))
                 .arg(r.modelFlops * 1e-9, 0, 'f', 2);
    lines << QStringLiteral("Predicted      %1 (%2 bound): max(bytes / %3, FLOPs / %4)")
                 .arg(model::formatDuration(r.predictedMs), text(r.predictedBound),
                      roofText(r.limits.copyBandwidthGBps, "GB/s", r.limits.copyBandwidthSource),
                      roofText(r.limits.computeTflops, "TFLOP/s", r.limits.computeSource));
    return lines;
}

// The parser both commands start from: --help and the options that pick one tile configuration,
// with Qt's option list under the command's own usage line.
struct ConfigurationParser {
    QCommandLineParser parser;
    QCommandLineOption help = helpOption();
    ConfigurationOptions configuration;

    ConfigurationParser() { parser.addOptions(configuration.all()); }

    QString optionsUnder(const QString& usage) const {
        QString t = parser.helpText();
        t.replace(0, t.indexOf(QLatin1Char('\n')), usage);
        return t;
    }
};

struct ResourcesParser : ConfigurationParser {
    QCommandLineOption gpu{QStringLiteral("gpu"),
                           QStringLiteral("Report the model for this GPU from the table of known "
                                          "GPUs (h200, h100, a100, l4) instead of the GPU here. "
                                          "Used anyway when there is no usable GPU "
                                          "(default h200)."),
                           QStringLiteral("name")};
    QCommandLineOption device = deviceOption();

    ResourcesParser() { parser.addOptions({help, gpu, device}); }

    QString helpText() const {
        const QString t = optionsUnder(
            QStringLiteral("Usage: fusescope-cli resources [options]\n\n"
                           "Prints the resource report of one tile configuration without "
                           "running it: registers, spills, shared memory, blocks per SM, "
                           "occupancy, the grid against the SM count, the model's bytes and "
                           "FLOPs and a predicted time. On an NVIDIA GPU the kernel is "
                           "compiled (NVRTC, cached) and loaded to read its registers; "
                           "elsewhere the model part is printed for a GPU of the table."));
        const TileExample example = tileExample();
        return t +
               QStringLiteral(
                   "\nExamples:\n  fusescope-cli resources %1 --shape %2 --tile %3\n"
                   "  fusescope-cli resources %1 --tile %4 --gpu h200\n\n")
                   .arg(example.kernel, example.dimensions, example.values, example.tiles) +
               exitCodeHelp();
    }
};

int runResources(const QStringList& arguments) {
    ResourcesParser p;
    if (std::optional<int> done =
            parseCommandLine(p.parser, p.help, arguments, [&p] { return p.helpText(); }))
        return *done;
    Result<tiles::TileConfiguration> configuration = p.configuration.parse(p.parser);
    if (!configuration) {
        printError(text(configuration.status().message()));
        return kExitUsageError;
    }
    const QString gpuKey = p.parser.isSet(p.gpu) ? p.parser.value(p.gpu) : QStringLiteral("h200");
    const std::optional<tiles::DeviceLimits> table =
        tiles::knownGpuLimits(gpuKey.toStdString(), configuration->problem.dtype);
    if (!table) {
        printError(QStringLiteral("--gpu %1: not in the table; it knows %2")
                       .arg(gpuKey, text([] {
                                std::string keys;
                                for (const std::string& k : tiles::knownGpuKeys())
                                    keys += (keys.empty() ? "" : ", ") + k;
                                return keys;
                            }())));
        return kExitUsageError;
    }
    Result<std::optional<int>> device =
        parseCudaDevice(p.parser.isSet(p.device), p.parser.value(p.device), BackendChoice::Cuda);
    if (!device) {
        printError(text(device.status().message()));
        return kExitUsageError;
    }
    if (*device && p.parser.isSet(p.gpu)) {
        printError(
            QStringLiteral("--device chooses a GPU of this host for live numbers, --gpu a "
                           "GPU of the table: give one of them"));
        return kExitUsageError;
    }
    const BackendAvailability availability = probeBackends();
    // A GPU the user named must exist: report it instead of quietly falling back to the table.
    if (*device || (!p.parser.isSet(p.gpu) && availability.cudaUsable)) {
        BackendSet backends;
        Result<BackendSelection> selection =
            startBackend(Target{BackendChoice::Cuda, *device}, backends);
        if (!selection) {
            printError(text(selection.status().message()));
            return exitCodeFor(selection.status());
        }
        Result<tiles::ResourceReport> report =
            tiles::reportFor(*selection->backend, *configuration);
        if (!report) {
            printError(text(report.status().message()));
            return exitCodeFor(report.status());
        }
        const QString note = QStringLiteral("%1, GPU %2 (live)")
                                 .arg(text(report->limits.name))
                                 .arg(report->limits.deviceIndex);
        for (const QString& line : reportLines(*report, true, note)) printOut(line);
        return kExitOk;
    }
    const QString why = p.parser.isSet(p.gpu)
                            ? QStringLiteral("chosen with --gpu")
                            : QStringLiteral("live numbers need an NVIDIA GPU: %1")
                                  .arg(text(availability.cudaReason));
    const tiles::ResourceReport report = tiles::modelReport(*configuration, *table);
    for (const QString& line : reportLines(
             report, false,
             QStringLiteral("model only, for the %1 (spec sheet; %2)").arg(text(table->name), why)))
        printOut(line);
    return kExitOk;
}

std::string allowedText(const TuningSpec& tuning) {
    std::string list;
    for (int value : tuning.allowed) list += (list.empty() ? "" : ", ") + std::to_string(value);
    return list;
}

// --grid block_m=16,32,64 or block_m=16..128 (every allowed value in the range).
Result<tiles::TileAxis> parseAxis(const PipelineSpec& pipeline, const QString& value) {
    const qsizetype equals = value.indexOf(QLatin1Char('='));
    if (equals <= 0)
        return Status(ErrorCode::InvalidArgument,
                      "--grid " + value.toStdString() +
                          ": write name=v1,v2,... or name=low..high, e.g. block_m=16..128");
    tiles::TileAxis axis;
    axis.tuning = value.left(equals).trimmed().toStdString();
    const TuningSpec* tuning = pipeline.findTuning(axis.tuning);
    if (!tuning)
        return Status(ErrorCode::InvalidArgument,
                      "--grid: the " + pipeline.name + " pipeline has no tuning " + axis.tuning);
    const QString values = value.mid(equals + 1).trimmed();
    const QRegularExpressionMatch range =
        QRegularExpression(QStringLiteral("^(\\d+)\\.\\.(\\d+)$")).match(values);
    if (range.hasMatch()) {
        const int low = range.captured(1).toInt(), high = range.captured(2).toInt();
        for (int allowed : tuning->allowed)
            if (allowed >= low && allowed <= high) axis.values.push_back(allowed);
    } else {
        for (const QString& part : values.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int v = part.trimmed().toInt(&ok);
            if (!ok)
                return Status(
                    ErrorCode::InvalidArgument,
                    "--grid " + axis.tuning + ": " + part.toStdString() + " is not a whole number");
            // Refused here, before the references run, not after them.
            if (std::find(tuning->allowed.begin(), tuning->allowed.end(), v) ==
                tuning->allowed.end())
                return Status(ErrorCode::InvalidArgument,
                              "--grid " + axis.tuning + ": " + std::to_string(v) +
                                  " is not an allowed value (allowed: " + allowedText(*tuning) +
                                  ")");
            axis.values.push_back(v);
        }
    }
    if (axis.values.empty())
        return Status(ErrorCode::InvalidArgument,
                      "--grid " + axis.tuning + ": no allowed value in " + values.toStdString());
    if (std::ssize(axis.values) > model::kMaxTileAxisValues)
        return Status(ErrorCode::InvalidArgument,
                      "--grid " + axis.tuning + ": " + std::to_string(axis.values.size()) +
                          " values, more than the limit of " +
                          std::to_string(model::kMaxTileAxisValues) + " for one axis");
    return axis;
}

struct TilesParser : ConfigurationParser {
    QCommandLineOption grid{QStringLiteral("grid"),
                            QStringLiteral("An axis of the sweep: a tile and its values, "
                                           "block_m=16,32,64 or block_m=16..128 (the allowed "
                                           "values in that range). Repeat for more axes; tiles "
                                           "on no axis keep --tile's value."),
                            QStringLiteral("axis")};
    QCommandLineOption repeat = repeatOption(QStringLiteral("Timed repeats per configuration; the "
                                                            "time is their median with the "
                                                            "interquartile range"),
                                             10);
    QCommandLineOption warmup = warmupOption(QStringLiteral("Untimed runs first"), 2);
    QCommandLineOption noReferences{QStringLiteral("no-references"),
                                    QStringLiteral("Do not time the pipeline's other variants "
                                                   "(its baseline, its leanest fusion) on the "
                                                   "same scale.")};
    QCommandLineOption backend{QStringLiteral("backend"),
                               QStringLiteral("auto (default), cuda or cpu."),
                               QStringLiteral("name"), QStringLiteral("auto")};
    QCommandLineOption device = deviceOption();
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Write the sweep to this file (the explorer opens it)."),
                            QStringLiteral("path")};

    TilesParser() {
        parser.addOptions({help, grid, repeat, warmup, noReferences, backend, device, json});
    }

    QString helpText() const {
        const QString t = optionsUnder(QStringLiteral(
            "Usage: fusescope-cli tiles --grid <axis> [--grid <axis> ...] [options]\n\n"
            "Sweeps tile configurations of a kernel that compiles at run time for "
            "chosen tiles (--pipeline and --variant; by default the first the "
            "registry declares): every configuration is compiled at run time (NVRTC, in "
            "parallel, cached on "
            "disk), refused ones are recorded with their reason and never launched, "
            "the rest are timed. The table gives each one's median time with its "
            "interquartile range, GB/s, TFLOP/s, registers, spills and occupancy, and "
            "its limiter in words; configurations whose interquartile range overlaps "
            "the best one's are marked as ties. The other variants and the copy and "
            "compute roofs are timed in the same run."));
        const TileExample example = tileExample();
        return t +
               QStringLiteral(
                   "\nExample:\n  fusescope-cli tiles %1 --shape %2 \\\n      %3 "
                   "--repeat 10 --json tiles.json\n\nTunable kernels: %4.\n\n")
                   .arg(example.kernel, example.dimensions, example.grids, tunableKernelsText()) +
               QStringLiteral(
                   "The kernel cache is in the user's cache folder; "
                   "FUSESCOPE_KERNEL_CACHE names another one.\n\n") +
               exitCodeHelp();
    }
};

// The sweep's progress on the terminal, and Ctrl-C as cancel.
class TerminalTileObserver final : public tiles::TileObserver {
  public:
    void progress(double fraction, std::string_view stage, double etaSeconds) override {
        std::string line(stage);
        if (etaSeconds >= 0)
            line += " (about " + std::to_string(static_cast<int>(etaSeconds + 0.5)) + " s left)";
        terminal_.progress(fraction, line);
    }
    bool cancelled() const override { return terminal_.cancelled(); }
    void finish() { terminal_.finish(); }

  private:
    TerminalObserver terminal_;
};

int runTiles(const QStringList& arguments) {
    TilesParser p;
    if (std::optional<int> done = parseCommandLine(
            p.parser, p.help, arguments, [&p] { return p.helpText(); }, p.grid.names()))
        return *done;
    Result<tiles::TileConfiguration> base = p.configuration.parse(p.parser);
    if (!base) {
        printError(text(base.status().message()));
        return kExitUsageError;
    }
    tiles::TileSweepRequest request;
    request.base = *base;
    const PipelineSpec& pipeline = *findPipeline(base->pipeline);
    for (const QString& value : p.parser.values(p.grid)) {
        Result<tiles::TileAxis> axis = parseAxis(pipeline, value);
        if (!axis) {
            printError(text(axis.status().message()));
            return kExitUsageError;
        }
        request.axes.push_back(*axis);
    }
    if (std::ssize(request.axes) > model::kMaxTileAxes) {
        printError(QStringLiteral("--grid is given %1 times, more than the limit of %2 axes")
                       .arg(request.axes.size())
                       .arg(model::kMaxTileAxes));
        return kExitUsageError;
    }
    Result<RunSettings> settings = parseRunSettings(p.parser, p.repeat, p.warmup);
    Result<Target> target =
        settings ? parseTarget(p.parser, p.backend, p.device) : Result<Target>(settings.status());
    if (!target) {
        printError(text(target.status().message()));
        return kExitUsageError;
    }
    request.settings = *settings;
    request.target = *target;
    request.references = !p.parser.isSet(p.noReferences);
    const QString jsonPath = p.parser.value(p.json);
    if (!jsonPath.isEmpty())
        if (Status s = checkWritable(jsonPath, QStringLiteral("the tile sweep")); !s) {
            printError(text(s.message()));
            return kExitUsageError;
        }
    BackendSet backends;
    Result<BackendSelection> selection = startBackend(request.target, backends);
    if (!selection) {
        printError(text(selection.status().message()));
        return exitCodeFor(selection.status());
    }
    if (!selection->autoNote.empty()) printNote(text(selection->autoNote));
    if (selection->backend->kind() == BackendKind::Cuda)
        printNote(
            QStringLiteral("running on GPU %1").arg(selection->backend->describe().deviceIndex));
    TerminalTileObserver observer;
    Result<tiles::TileSweep> sweep = tiles::runTileSweep(*selection->backend, request, observer);
    observer.finish();
    if (!sweep) {
        printError(text(sweep.status().message()));
        return exitCodeFor(sweep.status());
    }
    sweep->producer = model::producerString(QStringLiteral("fusescope-cli")).toStdString();
    for (const QString& line : renderTileSweep(*sweep)) printOut(line);
    if (!jsonPath.isEmpty()) {
        if (Status s = model::saveTileSweep(*sweep, jsonPath); !s) {
            printError(text(s.message()));
            return kExitRuntimeError;
        }
        printNote(QStringLiteral("wrote %1").arg(jsonPath));
    }
    if (sweep->cancelled) return kExitCancelled;
    for (const tiles::TileCell& cell : sweep->cells)
        if (cell.measured && !cell.checkOk) return kExitCheckFailed;
    return kExitOk;
}

}  // namespace

int resourcesCommand(const QStringList& arguments) {
    return runResources(arguments);
}

int tilesCommand(const QStringList& arguments) {
    return runTiles(arguments);
}

}  // namespace fusescope::cli
