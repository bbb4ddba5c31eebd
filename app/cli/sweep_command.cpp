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
    OutputOptions output;  // --description and --json
};

struct SweepParser {
    QCommandLineParser parser;
    QCommandLineOption help = helpOption();
    QCommandLineOption pipeline = pipelineOption(QStringLiteral("sweep"));
    QCommandLineOption variants = variantsOption(QStringLiteral("sweep"));
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
    QCommandLineOption json =
        jsonOption(QStringLiteral("the sweep (JSON, format fusescope-sweep)"));
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
    const Result<const PipelineSpec*> pipeline = choosePipeline(
        request, parsePipeline(p.parser.value(p.pipeline)), p.parser.value(p.variants));
    if (!pipeline) return pipeline.status();

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

    if (Status s = storeParsed(
            parseBoundedInteger(QStringLiteral("--steps-per-octave"),
                                p.parser.value(p.stepsPerOctave), 1, kMaxStepsPerOctave),
            request.stepsPerOctave);
        !s)
        return s;
    if (Status s = storeParsed(parseVectorWidth(p.parser.value(p.vector)), request.vectorWidth); !s)
        return s;
    if (Status s = storeParsed(parseRunSettings(p.parser, p.repeat, p.warmup), request.settings);
        !s)
        return s;

    if (Status s = storeParsed(parseTarget(p.parser, p.backend, p.device), request.target); !s)
        return s;
    if (Status s = storeParsed(
            parseOutputOptions(p.parser, p.description, p.json, QStringLiteral("the sweep")),
            options.output);
        !s)
        return s;
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

    if (!options->output.jsonPath.isEmpty()) {
        QJsonObject document =
            model::sweepDocument(*report, options->request, QStringLiteral("fusescope-cli"));
        if (!options->output.description.isEmpty())
            document.insert(QStringLiteral("description"), options->output.description);
        if (Status saved = model::saveSweepDocument(document, options->output.jsonPath); !saved) {
            printError(QString::fromStdString(saved.message()));
            return kExitRuntimeError;
        }
        printNote(QStringLiteral("sweep written to %1").arg(options->output.jsonPath));
    }
    for (const SweepSeries& series : report->series)
        for (const SweepPoint& point : series.points)
            if (!point.checkOk) return kExitCheckFailed;
    return kExitOk;
}

}  // namespace fusescope::cli
