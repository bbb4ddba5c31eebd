#pragma once
// The options that `run` and `sweep` spell alike, and their checks: one definition each, so the
// two commands cannot drift apart. Every check gives the one-line error that names the value.
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <optional>
#include <utility>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/run_options.h"
#include "core/status.h"
#include "runtime/backend_selection.h"
#include "runtime/run_settings.h"

namespace fusescope::cli {

QCommandLineOption helpOption();
QCommandLineOption backendOption();
QCommandLineOption deviceOption();
QCommandLineOption descriptionOption();
// --pipeline and --variants, for a command that `verb`s them ("run", "sweep").
QCommandLineOption pipelineOption(const QString& verb);
QCommandLineOption variantsOption(const QString& verb);
// --json: the file `what` is written to ("the recording").
QCommandLineOption jsonOption(const QString& what);
// --repeat and --warmup, as parseRunSettings reads them: `what` says what is repeated, and the
// help ends with the default the option takes when not given.
QCommandLineOption repeatOption(const QString& what, int byDefault);
QCommandLineOption warmupOption(const QString& what, int byDefault);

// Stores a parsed value in `field`, or gives the reason it could not be parsed, so that a
// command reads its options as a list of `if (Status s = storeParsed(...); !s) return s;`.
template <typename T, typename Field>
Status storeParsed(Result<T> parsed, Field& field) {
    if (!parsed) return parsed.status();
    field = std::move(*parsed);
    return Status::ok();
}

// Names the request's pipeline (found by name or registered from an expression, or why neither
// worked) and its --variants list, checked against that pipeline; gives the pipeline.
template <typename Request>
Result<const PipelineSpec*> choosePipeline(Request& request, Result<const PipelineSpec*> pipeline,
                                           const QString& variantList) {
    if (!pipeline) return pipeline;
    request.pipeline = (*pipeline)->name;
    if (Status s = storeParsed(parseVariants(**pipeline, variantList), request.variants); !s)
        return s;
    return pipeline;
}

// Options start with --: a bare word is refused by name.
Status checkNoPositionalArguments(const QCommandLineParser& parser);

// --backend and --device together: a GPU number is refused with the CPU backend.
Result<Target> parseTarget(const QCommandLineParser& parser, const QCommandLineOption& backend,
                           const QCommandLineOption& device);

// --repeat and --warmup; the seed stays the default.
Result<RunSettings> parseRunSettings(const QCommandLineParser& parser,
                                     const QCommandLineOption& repeat,
                                     const QCommandLineOption& warmup);

// --description as one line, and --json's path proven writable before anything runs (`what`
// names the file in the message); each empty where it is not given.
struct OutputOptions {
    QString description;
    QString jsonPath;
};
Result<OutputOptions> parseOutputOptions(const QCommandLineParser& parser,
                                         const QCommandLineOption& description,
                                         const QCommandLineOption& json, const QString& what);

// The chosen backend, started; where it cannot start, the reason is printed and nothing returned
// (the command then exits with kExitRuntimeError).
std::optional<BackendSelection> startBackendOrSayWhy(const Target& target, BackendSet& backends);

// Reads a command's line into `options` with `parse`. Gives the exit code where the command ends
// there: --help shown, or a parse error or a bad value printed.
template <typename Parser, typename Options>
std::optional<int> readOptions(Parser& p, const QStringList& arguments,
                               Result<Options> (*parse)(const Parser&),
                               std::optional<Options>& options) {
    if (std::optional<int> done =
            parseCommandLine(p.parser, p.help, arguments, [&p] { return p.helpText(); }))
        return done;
    Result<Options> parsed = parse(p);
    if (!parsed) {
        printError(QString::fromStdString(parsed.status().message()));
        return kExitUsageError;
    }
    options = std::move(*parsed);
    return std::nullopt;
}

}  // namespace fusescope::cli
