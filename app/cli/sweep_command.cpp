// `fusescope-cli sweep`: the size sweep of issue 3 from the command line. Every input is checked
// before anything is allocated; failures are one line; the table and the file come from the
// same SweepReport, so they always agree.
#include "cli/sweep_command.h"

#include <QCommandLineParser>

#include "analysis/sweep.h"
#include "cli/backend_choice.h"
#include "cli/command.h"
#include "cli/console.h"
#include "cli/run_options.h"
#include "cli/terminal_observer.h"
#include "cli/text_table.h"
#include "model/format.h"
#include "model/recording.h"
#include "model/run_conversion.h"
#include "model/sweep_json.h"
#include "pipelines/registry.h"

namespace fusescope::cli {
namespace {

struct SweepOptions {
    SweepRequest request;
    QString fromText;
    QString toText;  // empty: as far as memory and time allow
    bool toTooLarge = false;
    BackendRequest backend = BackendRequest::Auto;
    QString jsonPath;
};

struct SweepParser {
    QCommandLineParser parser;
    QCommandLineOption help{{QStringLiteral("h"), QStringLiteral("help")},
                            QStringLiteral("This help.")};
    QCommandLineOption pipeline{QStringLiteral("pipeline"),
                                QStringLiteral("The pipeline to sweep (see `fusescope-cli list`)."),
                                QStringLiteral("name")};
    QCommandLineOption variants{QStringLiteral("variants"),
                                QStringLiteral("Variants to sweep, separated by commas, or all "
                                               "(default)."),
                                QStringLiteral("list"), QStringLiteral("all")};
    QCommandLineOption from{QStringLiteral("from"),
                            QStringLiteral("Smallest N: a whole number or 2^k (default 4096)."),
                            QStringLiteral("N"), QStringLiteral("4096")};
    QCommandLineOption to{QStringLiteral("to"),
                          QStringLiteral("Largest N (default: as far as the free memory allows, "
                                         "at most 2^28 on a GPU and 2^24 on the CPU)."),
                          QStringLiteral("N")};
    QCommandLineOption stepsPerOctave{
        QStringLiteral("steps-per-octave"),
        QStringLiteral("Sizes per doubling of N: 1 (factor 2; default) to %1 (2 is factor "
                       "sqrt 2).")
            .arg(kMaxStepsPerOctave),
        QStringLiteral("count"), QStringLiteral("1")};
    QCommandLineOption repeat{QStringLiteral("repeat"),
                              QStringLiteral("Timed repeats per size; the time is their median "
                                             "(default 20)."),
                              QStringLiteral("count"), QStringLiteral("20")};
    QCommandLineOption warmup{QStringLiteral("warmup"),
                              QStringLiteral("Untimed runs before the repeats (default 3)."),
                              QStringLiteral("count"), QStringLiteral("3")};
    QCommandLineOption vector{QStringLiteral("vector"), vectorWidthHelp(), QStringLiteral("width"),
                              QString::number(kDefaultVectorWidth)};
    QCommandLineOption backend{QStringLiteral("backend"),
                               QStringLiteral("auto (CUDA when a GPU is usable, else CPU; "
                                              "default), cuda or cpu."),
                               QStringLiteral("name"), QStringLiteral("auto")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Write the sweep (JSON, format fusescope-sweep) to "
                                           "this file."),
                            QStringLiteral("file")};

    SweepParser() {
        parser.setApplicationDescription(QStringLiteral(
            "Runs variants of a pipeline over N in log steps, from launch-bound sizes past the "
            "L2\nto bandwidth-bound ones, and fits time = launches x overhead + bytes / "
            "bandwidth\nper variant: the fitted overhead per launch, the bandwidth, and the N "
            "where the\ntwo regimes meet."));
        parser.addOptions({help, pipeline, variants, from, to, stepsPerOctave, repeat, warmup,
                           vector, backend, json});
    }

    QString helpText() const {
        QString text = parser.helpText();
        text.replace(0, text.indexOf(QLatin1Char('\n')),
                     QStringLiteral("Usage: fusescope-cli sweep --pipeline <name> [options]"));
        return text +
               QStringLiteral(
                   "\nExample:\n  fusescope-cli sweep --pipeline swiglu --variants fused,scratch "
                   "--from 4096 \\\n      --to 268435456 --steps-per-octave 1 --vector 4 "
                   "--backend auto --json sweep.json\n\n") +
               exitCodeHelp();
    }
};

Result<SweepOptions> parseSweepOptions(const SweepParser& p) {
    SweepOptions options;
    if (!p.parser.positionalArguments().isEmpty())
        return Status(ErrorCode::InvalidArgument,
                      "unexpected argument '" +
                          p.parser.positionalArguments().constFirst().toStdString() +
                          "' (options start with --)");
    Result<const PipelineSpec*> pipeline = parsePipeline(p.parser.value(p.pipeline));
    if (!pipeline) return pipeline.status();
    options.request.pipeline = (*pipeline)->name;
    Result<std::vector<std::string>> variants =
        parseVariants(**pipeline, p.parser.value(p.variants));
    if (!variants) return variants.status();
    options.request.variants = *variants;

    options.fromText = p.parser.value(p.from);
    Result<ElementCountOption> from = parseElementCountOption(QStringLiteral("--from"), options.fromText);
    if (!from) return from.status();
    if (from->tooLarge)
        return Status(ErrorCode::InvalidArgument,
                      "--from " + options.fromText.toStdString() + " is past 64 bits");
    options.request.from = from->value;
    if (p.parser.isSet(p.to)) {
        options.toText = p.parser.value(p.to);
        Result<ElementCountOption> to = parseElementCountOption(QStringLiteral("--to"), options.toText);
        if (!to) return to.status();
        options.toTooLarge = to->tooLarge;
        options.request.to = to->value;
        if (!to->tooLarge && to->value < from->value)
            return Status(ErrorCode::InvalidArgument, "--to " + options.toText.toStdString() +
                                                          " is below --from " +
                                                          options.fromText.toStdString());
    }

    Result<int> steps =
        parseBoundedInteger(QStringLiteral("--steps-per-octave"), p.parser.value(p.stepsPerOctave),
                            1, kMaxStepsPerOctave);
    if (!steps) return steps.status();
    options.request.stepsPerOctave = *steps;
    Result<int> vector = parseVectorWidth(p.parser.value(p.vector));
    if (!vector) return vector.status();
    options.request.vectorWidth = *vector;
    Result<int> repeats =
        parseBoundedInteger(QStringLiteral("--repeat"), p.parser.value(p.repeat), 1, kMaxRepeats);
    if (!repeats) return repeats.status();
    options.request.repeats = *repeats;
    Result<int> warmup =
        parseBoundedInteger(QStringLiteral("--warmup"), p.parser.value(p.warmup), 0, kMaxWarmup);
    if (!warmup) return warmup.status();
    options.request.warmup = *warmup;

    Result<BackendRequest> backend = parseBackendRequest(p.parser.value(p.backend));
    if (!backend) return backend.status();
    options.backend = *backend;
    if (p.parser.isSet(p.json)) {
        options.jsonPath = p.parser.value(p.json);
        if (Status writable = checkWritable(options.jsonPath, QStringLiteral("the sweep"));
            !writable)
            return writable;
    }
    return options;
}

// The sizes against the chosen device, before anything runs.
Result<std::vector<std::uint64_t>> checkSizes(const SweepOptions& options,
                                              const DeviceInfo& device) {
    if (options.toTooLarge) {
        RunRequest smallest;
        smallest.pipeline = options.request.pipeline;
        smallest.variants = options.request.variants;
        smallest.n = 1;
        return Status(ErrorCode::OutOfMemory,
                      "--to " + options.toText.toStdString() + " is too large: at most " +
                          std::to_string(maxElementsFor(smallest, device)) + " elements fit on " +
                          device.name + " with the free memory");
    }
    Result<std::vector<std::uint64_t>> sizes = sweepSizes(options.request, device);
    if (!sizes && sizes.status().code() == ErrorCode::OutOfMemory) {
        // The default end always fits, so without --to it is the start that does not.
        const bool startTooLarge = options.request.to == 0;
        const QString option = startTooLarge ? QStringLiteral("--from ") + options.fromText
                                             : QStringLiteral("--to ") + options.toText;
        return Status(ErrorCode::OutOfMemory,
                      option.toStdString() + ": " + sizes.status().message());
    }
    return sizes;
}

model::DataSource dataSourceOf(const SweepReport& report) {
    return report.device.backend == BackendKind::Cuda ? model::DataSource::TimingModel
                                                      : model::DataSource::CpuBackend;
}

// One array of N elements fits in the L2 up to this N (0: unknown).
std::uint64_t l2Elements(const DeviceInfo& device) {
    return device.l2CacheBytes / kElementBytes;
}

QString regimeCell(const SweepSeries& series, const SweepPoint& point) {
    const std::optional<Regime> regime = series.regimeAt(point);
    return regime ? QString::fromLatin1(regimeName(*regime)) : QStringLiteral("-");
}

QString residualCell(const SweepSeries& series, const SweepPoint& point) {
    const std::optional<double> residual = series.residualAt(point);
    if (!residual) return QStringLiteral("-");
    return QStringLiteral("%1%2")
        .arg(*residual >= 0 ? "+" : "")
        .arg(model::formatPercent(*residual));
}

QString fitLine(const SweepSeries& series) {
    if (!series.fit)
        return QStringLiteral("fit: none, %1").arg(QString::fromStdString(series.fitError));
    const LaunchBandwidthFit& fit = *series.fit;
    QString overhead = fit.overheadClamped
                           ? QStringLiteral(
                                 "overhead ~0 per launch (the fit gave a negative "
                                 "overhead, clamped)")
                           : QStringLiteral("%1 µs per launch").arg(fit.overheadUs, 0, 'f', 3);
    QString line = QStringLiteral("fit: %1, bandwidth %2 GB/s")
                       .arg(overhead, model::formatGBps(fit.bandwidthGBps));
    if (fit.boundaryN > 0)
        line += QStringLiteral(", regimes meet at N ≈ %1")
                    .arg(model::formatCount(static_cast<quint64>(fit.boundaryN + 0.5)));
    line += QStringLiteral(" (rms residual %1 over %2 sizes")
                .arg(model::formatPercent(fit.rmsRelativeResidual))
                .arg(fit.samples);
    if (fit.samplesSetAside > 0)
        line += QStringLiteral("; %1 set aside as not following one bandwidth, see 'vs fit'")
                    .arg(fit.samplesSetAside);
    return line + QLatin1Char(')');
}

QString renderSweep(const SweepReport& report) {
    QStringList lines;
    const PipelineSpec* pipeline = findPipeline(report.pipeline);
    lines << QStringLiteral("%1 · size sweep · %2")
                 .arg(QString::fromStdString(report.pipeline),
                      QString::fromStdString(pipeline ? pipeline->formula : std::string()));
    QStringList details{
        QString::fromStdString(report.device.name),
        QStringLiteral("backend %1").arg(QString::fromLatin1(backendName(report.device.backend))),
        QStringLiteral("float32"),
        QStringLiteral("vector %1").arg(report.vectorWidth),
        QStringLiteral("median of %1 repeats").arg(report.repeats),
        QStringLiteral("data: %1").arg(model::dataSourceLabel(dataSourceOf(report)))};
    lines << details.join(QStringLiteral(" · "));
    const std::uint64_t l2 = l2Elements(report.device);
    if (l2 > 0)
        lines << QStringLiteral("L2 %1 MiB: one array fits up to N = %2 (\"in L2\" below)")
                     .arg(static_cast<double>(report.device.l2CacheBytes) / (1024.0 * 1024.0), 0,
                          'g', 4)
                     .arg(model::formatCount(l2));
    lines << QStringLiteral(
        "model: time = launches x overhead + bytes / bandwidth, fitted per variant on relative "
        "residuals, robustly (sizes one bandwidth cannot describe are set aside)");

    using Align = TextTable::Align;
    for (const SweepSeries& series : report.series) {
        lines << QString()
              << QStringLiteral("%1 (%2 launch%3, %4 bytes per element by the pass model)")
                     .arg(QString::fromStdString(series.variant))
                     .arg(series.launches)
                     .arg(series.launches == 1 ? "" : "es")
                     .arg(series.bytesPerElement, 0, 'g', 6);
        TextTable table;
        table.addColumn(QStringLiteral("N"), Align::Right);
        table.addColumn(QStringLiteral("bytes"), Align::Right);
        table.addColumn(QStringLiteral("time"), Align::Right);
        table.addColumn(QStringLiteral("GB/s"), Align::Right);
        table.addColumn(QStringLiteral("copy GB/s"), Align::Right);
        table.addColumn(QStringLiteral("vs fit"), Align::Right);
        table.addColumn(QStringLiteral("regime"), Align::Left);
        table.addColumn(QStringLiteral("cache"), Align::Left);
        table.addColumn(QStringLiteral("check"), Align::Left);
        for (const SweepPoint& point : series.points)
            table.addRow(
                {model::formatCount(point.n), model::formatBytes(point.bytes),
                 model::formatDuration(point.timeMs), model::formatGBps(point.effectiveGBps()),
                 model::formatGBps(point.rooflineGBps), residualCell(series, point),
                 regimeCell(series, point),
                 l2 > 0 && point.n <= l2 ? QStringLiteral("in L2") : QString(),
                 point.checkOk ? QStringLiteral("OK")
                               : QStringLiteral("FAIL (max rel. error %1)")
                                     .arg(model::formatRelativeError(point.maxRelativeError))});
        lines << table.render(QStringLiteral("  "));
        lines << QStringLiteral("  ") + fitLine(series);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

int sweepCommand(const QStringList& arguments) {
    SweepParser p;
    if (std::optional<int> done =
            parseCommandLine(p.parser, p.help, arguments, [&p] { return p.helpText(); }))
        return *done;
    Result<SweepOptions> options = parseSweepOptions(p);
    if (!options) {
        printError(QString::fromStdString(options.status().message()));
        return kExitUsageError;
    }
    Result<BackendChoice> choice = chooseBackend(options->backend);
    if (!choice) {
        printError(QString::fromStdString(choice.status().message()));
        return kExitRuntimeError;
    }
    Backend& backend = *choice->backend;
    const DeviceInfo device = backend.describe();
    Result<std::vector<std::uint64_t>> sizes = checkSizes(*options, device);
    if (!sizes) {
        printError(QString::fromStdString(sizes.status().message()));
        return kExitUsageError;
    }
    if (!choice->note.isEmpty()) printNote(choice->note);

    Result<SweepReport> report = Status(ErrorCode::Cancelled, "not run");
    {
        InterruptGuard interruptGuard;
        printNote(QStringLiteral("sweeping %1 over %2 sizes, N = %3 to %4, on the %5 backend "
                                 "(%6); Ctrl-C cancels")
                      .arg(QString::fromStdString(options->request.pipeline))
                      .arg(sizes->size())
                      .arg(model::formatCount(sizes->front()), model::formatCount(sizes->back()),
                           QString::fromLatin1(backendName(device.backend)),
                           QString::fromStdString(device.name)));
        TerminalObserver observer;
        report = runSweep(backend, options->request, observer);
        observer.finish();
    }
    if (!report) {
        printError(QString::fromStdString(report.status().message()));
        return exitCodeFor(report.status());
    }
    printOut(renderSweep(*report));

    if (!options->jsonPath.isEmpty()) {
        if (Status saved = model::saveSweepDocument(
                model::sweepDocument(*report, options->request, QStringLiteral("fusescope-cli")),
                options->jsonPath);
            !saved) {
            printError(QString::fromStdString(saved.message()));
            return kExitRuntimeError;
        }
        printNote(QStringLiteral("sweep written to %1").arg(options->jsonPath));
    }
    for (const SweepSeries& series : report->series)
        for (const SweepPoint& point : series.points)
            if (!point.checkOk) return kExitCheckFailed;
    return kExitOk;
}

}  // namespace fusescope::cli
