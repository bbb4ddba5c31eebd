// `fusescope-cli sweep`: the size sweep from the command line. Every input is checked
// before anything is allocated; failures are one line; the table and the file come from the
// same SweepReport, so they always agree.
#include "cli/sweep_command.h"

#include <QCommandLineParser>
#include <QJsonObject>

#include "analysis/sweep.h"
#include "cli/command.h"
#include "cli/console.h"
#include "cli/help_examples.h"
#include "cli/run_options.h"
#include "cli/shared_options.h"
#include "cli/sweep_table.h"
#include "cli/terminal_observer.h"
#include "model/format.h"
#include "model/recording.h"
#include "model/sweep_json.h"
#include "pipelines/registry.h"
#include "runtime/backend_selection.h"

namespace fusescope::cli {
namespace {

struct SweepOptions {
    SweepRequest request;
    QString fromText;
    QString toText;  // empty: as far as memory and time allow
    bool toTooLarge = false;
    QString jsonPath;
    QString description;  // --description, written into the sweep file
};

struct SweepParser {
    QCommandLineParser parser;
    QCommandLineOption help = helpOption();
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
    QCommandLineOption repeat =
        repeatOption(QStringLiteral("Timed repeats per size; the time is their median"), 20);
    QCommandLineOption warmup = warmupOption(QStringLiteral("Untimed runs before the repeats"), 3);
    QCommandLineOption vector{QStringLiteral("vector"), vectorWidthHelp(), QStringLiteral("width"),
                              QString::number(kDefaultVectorWidth)};
    QCommandLineOption backend = backendOption();
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Write the sweep (JSON, format fusescope-sweep) to "
                                           "this file."),
                            QStringLiteral("file")};
    QCommandLineOption device = deviceOption();
    QCommandLineOption description = descriptionOption();

    SweepParser() {
        parser.setApplicationDescription(QStringLiteral(
            "Runs variants of a pipeline over N in log steps, from launch-bound sizes past the "
            "L2\nto bandwidth-bound ones, and fits time = launches x overhead + bytes / "
            "bandwidth\nper variant: the fitted overhead per launch, the bandwidth, and the N "
            "where the\ntwo regimes meet."));
        parser.addOptions({help, pipeline, variants, from, to, stepsPerOctave, repeat, warmup,
                           vector, backend, device, json, description});
    }

    QString helpText() const {
        QString text = parser.helpText();
        text.replace(0, text.indexOf(QLatin1Char('\n')),
                     QStringLiteral("Usage: fusescope-cli sweep --pipeline <name> [options]"));
        return text + QStringLiteral("\nExample:\n  %1\n\n").arg(sweepExample()) + exitCodeHelp();
    }
};

Result<SweepOptions> parseSweepOptions(const SweepParser& p) {
    SweepOptions options;
    SweepRequest& request = options.request;
    if (Status bare = checkNoPositionalArguments(p.parser); !bare) return bare;
    Result<const PipelineSpec*> pipeline = parsePipeline(p.parser.value(p.pipeline));
    if (!pipeline) return pipeline.status();
    request.pipeline = (*pipeline)->name;
    Result<std::vector<std::string>> variants =
        parseVariants(**pipeline, p.parser.value(p.variants));
    if (!variants) return variants.status();
    request.variants = *variants;

    options.fromText = p.parser.value(p.from);
    Result<ElementCountOption> from =
        parseElementCountOption(QStringLiteral("--from"), options.fromText);
    if (!from) return from.status();
    if (from->tooLarge)
        return Status(ErrorCode::InvalidArgument,
                      "--from " + options.fromText.toStdString() + " is past 64 bits");
    request.from = from->value;
    if (p.parser.isSet(p.to)) {
        options.toText = p.parser.value(p.to);
        Result<ElementCountOption> to =
            parseElementCountOption(QStringLiteral("--to"), options.toText);
        if (!to) return to.status();
        options.toTooLarge = to->tooLarge;
        request.to = to->value;
        if (!to->tooLarge && to->value < from->value)
            return Status(ErrorCode::InvalidArgument, "--to " + options.toText.toStdString() +
                                                          " is below --from " +
                                                          options.fromText.toStdString());
    }

    Result<int> steps =
        parseBoundedInteger(QStringLiteral("--steps-per-octave"), p.parser.value(p.stepsPerOctave),
                            1, kMaxStepsPerOctave);
    if (!steps) return steps.status();
    request.stepsPerOctave = *steps;
    Result<int> vector = parseVectorWidth(p.parser.value(p.vector));
    if (!vector) return vector.status();
    request.vectorWidth = *vector;
    Result<RunSettings> settings = parseRunSettings(p.parser, p.repeat, p.warmup);
    if (!settings) return settings.status();
    request.settings = *settings;

    Result<Target> target = parseTarget(p.parser, p.backend, p.device);
    if (!target) return target.status();
    request.target = *target;
    Result<OutputOptions> output =
        parseOutputOptions(p.parser, p.description, p.json, QStringLiteral("the sweep"));
    if (!output) return output.status();
    options.description = output->description;
    options.jsonPath = output->jsonPath;
    return options;
}

// The sizes against the chosen device, before anything runs.
Result<std::vector<std::uint64_t>> checkSizes(const SweepOptions& options,
                                              const DeviceInfo& device) {
    if (options.toTooLarge) {
        RunRequest smallest;
        smallest.pipeline = options.request.pipeline;
        smallest.variants = options.request.variants;
        if (const PipelineSpec* pipeline = findPipeline(smallest.pipeline))
            smallest.problem = pipeline->defaultProblem();
        return Status(ErrorCode::OutOfMemory,
                      "--to " + options.toText.toStdString() + " is too large: at most " +
                          std::to_string(maxSizeFor(smallest, device)) + " elements fit on " +
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

}  // namespace

int sweepCommand(const QStringList& arguments) {
    SweepParser p;
    std::optional<SweepOptions> options;
    if (std::optional<int> done = readOptions(p, arguments, parseSweepOptions, options))
        return *done;
    BackendSet backends;
    const std::optional<BackendSelection> selection =
        startBackendOrSayWhy(options->request.target, backends);
    if (!selection) return kExitRuntimeError;
    Backend& backend = *selection->backend;
    const DeviceInfo device = backend.describe();
    Result<std::vector<std::uint64_t>> sizes = checkSizes(*options, device);
    if (!sizes) {
        printError(QString::fromStdString(sizes.status().message()));
        return kExitUsageError;
    }
    if (!selection->autoNote.empty()) printNote(QString::fromStdString(selection->autoNote));

    Result<SweepReport> report = Status(ErrorCode::Cancelled, "not run");
    {
        InterruptGuard interruptGuard;
        const PipelineSpec* pipeline = findPipeline(options->request.pipeline);
        printNote(QStringLiteral("sweeping %1 over %2 sizes, %3 = %4 to %5, on the %6 backend "
                                 "(%7); Ctrl-C cancels")
                      .arg(QString::fromStdString(options->request.pipeline))
                      .arg(sizes->size())
                      .arg(pipeline ? QString::fromStdString(pipeline->sizeDimension)
                                    : QStringLiteral("N"),
                           model::formatCount(sizes->front()), model::formatCount(sizes->back()),
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
    printOut(renderSweep(*report, model::dataSourceLabel(model::sweepDataSource(*report))));

    if (!options->jsonPath.isEmpty()) {
        QJsonObject document =
            model::sweepDocument(*report, options->request, QStringLiteral("fusescope-cli"));
        if (!options->description.isEmpty())
            document.insert(QStringLiteral("description"), options->description);
        if (Status saved = model::saveSweepDocument(document, options->jsonPath); !saved) {
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
