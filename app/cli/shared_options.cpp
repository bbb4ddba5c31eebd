#include "cli/shared_options.h"

#include "cli/console.h"
#include "cli/run_options.h"
#include "runtime/runner.h"

namespace fusescope::cli {

QCommandLineOption helpOption() {
    return QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")},
                              QStringLiteral("This help."));
}

QCommandLineOption backendOption() {
    return QCommandLineOption(QStringLiteral("backend"),
                              QStringLiteral("auto (CUDA when a GPU is usable, else CPU; "
                                             "default), cuda or cpu."),
                              QStringLiteral("name"), QStringLiteral("auto"));
}

QCommandLineOption deviceOption() {
    return QCommandLineOption(QStringLiteral("device"), cudaDeviceHelp(), QStringLiteral("N"));
}

QCommandLineOption descriptionOption() {
    return QCommandLineOption(QStringLiteral("description"), descriptionHelp(),
                              QStringLiteral("text"));
}

QCommandLineOption pipelineOption(const QString& verb) {
    return QCommandLineOption(
        QStringLiteral("pipeline"),
        QStringLiteral("The pipeline to %1 (see `fusescope-cli list`).").arg(verb),
        QStringLiteral("name"));
}

QCommandLineOption variantsOption(const QString& verb) {
    return QCommandLineOption(
        QStringLiteral("variants"),
        QStringLiteral("Variants to %1, separated by commas, or all (default).").arg(verb),
        QStringLiteral("list"), QStringLiteral("all"));
}

QCommandLineOption jsonOption(const QString& what) {
    return QCommandLineOption(QStringLiteral("json"),
                              QStringLiteral("Write %1 to this file.").arg(what),
                              QStringLiteral("file"));
}

namespace {

QCommandLineOption countOption(const char* name, const QString& what, int byDefault) {
    return QCommandLineOption(QLatin1String(name),
                              QStringLiteral("%1 (default %2).").arg(what).arg(byDefault),
                              QStringLiteral("count"), QString::number(byDefault));
}

}  // namespace

QCommandLineOption repeatOption(const QString& what, int byDefault) {
    return countOption("repeat", what, byDefault);
}

QCommandLineOption warmupOption(const QString& what, int byDefault) {
    return countOption("warmup", what, byDefault);
}

Status checkNoPositionalArguments(const QCommandLineParser& parser) {
    if (parser.positionalArguments().isEmpty()) return Status::ok();
    return Status(ErrorCode::InvalidArgument,
                  "unexpected argument '" +
                      parser.positionalArguments().constFirst().toStdString() +
                      "' (options start with --)");
}

Result<Target> parseTarget(const QCommandLineParser& parser, const QCommandLineOption& backend,
                           const QCommandLineOption& device) {
    Target target;
    Result<BackendChoice> choice = parseBackendChoice(parser.value(backend));
    if (!choice) return choice.status();
    target.backend = *choice;
    Result<std::optional<int>> cudaDevice =
        parseCudaDevice(parser.isSet(device), parser.value(device), *choice);
    if (!cudaDevice) return cudaDevice.status();
    target.cudaDevice = *cudaDevice;
    return target;
}

Result<RunSettings> parseRunSettings(const QCommandLineParser& parser,
                                     const QCommandLineOption& repeat,
                                     const QCommandLineOption& warmup) {
    RunSettings settings;
    Result<int> repeats =
        parseBoundedInteger(QStringLiteral("--repeat"), parser.value(repeat), 1, kMaxRepeats);
    if (!repeats) return repeats.status();
    settings.repeats = *repeats;
    Result<int> warmups =
        parseBoundedInteger(QStringLiteral("--warmup"), parser.value(warmup), 0, kMaxWarmup);
    if (!warmups) return warmups.status();
    settings.warmup = *warmups;
    return settings;
}

Result<OutputOptions> parseOutputOptions(const QCommandLineParser& parser,
                                         const QCommandLineOption& description,
                                         const QCommandLineOption& json, const QString& what) {
    OutputOptions options;
    if (parser.isSet(description)) {
        Result<QString> line = parseDescription(parser.value(description));
        if (!line) return line.status();
        options.description = *line;
    }
    if (parser.isSet(json)) {
        options.jsonPath = parser.value(json);
        if (Status writable = checkWritable(options.jsonPath, what); !writable) return writable;
    }
    return options;
}

std::optional<BackendSelection> startBackendOrSayWhy(const Target& target, BackendSet& backends) {
    Result<BackendSelection> selection = startBackend(target, backends);
    if (!selection) {
        printError(QString::fromStdString(selection.status().message()));
        return std::nullopt;
    }
    return std::move(*selection);
}

}  // namespace fusescope::cli
