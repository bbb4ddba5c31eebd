#include "cli/dispatcher.h"

#include <span>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/help_examples.h"
#include "cli/shared_options.h"
#include "cli/sweep_command.h"
#include "model/repeated_options.h"
#include "model/version.h"

namespace fusescope::cli {
namespace {

// Every command of fusescope-cli. A new command lives in its own file; plug it in here.
constexpr Command kCommands[] = {
    {"list", "list pipelines, variants, backends and the device", listCommand},
    {"run", "run the variants of a pipeline, print a table, write a recording", runCommand},
    {"show", "print the table of a recording or a sweep (JSON) made here or by the window",
     showCommand},
    {"sweep", "run variants over N in log steps, fit launch overhead and bandwidth", sweepCommand},
    {"selftest", "check this machine before class: GPU, counters, pipelines, recordings",
     selfTestCommand},
    {"shrink", "merge a recording's idle PM samples so it is small enough to ship", shrinkCommand},
    {"resources", "print a tile configuration's registers, shared memory, occupancy and model",
     resourcesCommand},
    {"tiles", "sweep tile sizes of the lesson's kernel (compiled at run time), write a file",
     tilesCommand},
    {"expr", "parse an elementwise chain, print its predicted ledger and generated CUDA",
     exprCommand},
    {"lesson", "check a lesson plan before class: valid, live or recorded, each live step run once",
     lessonCommand},
};

QString knownCommands() {
    QStringList names;
    for (const Command& command : kCommands) names << QString::fromLatin1(command.name);
    return names.join(QStringLiteral(", "));
}

QString topLevelHelp() {
    QString help = QStringLiteral(
        "Usage: fusescope-cli <command> [options]\n"
        "Runs FuseScope's pipelines (unfused and fused variants) from the command line, "
        "without\n"
        "a display, and writes recordings that the FuseScope window opens.\n"
        "\n"
        "Commands:\n");
    for (const Command& command : kCommands)
        help += QStringLiteral("  %1  %2\n")
                    .arg(QString::fromLatin1(command.name), -8)
                    .arg(QString::fromLatin1(command.summary));
    help += QStringLiteral(
        "\n"
        "Options:\n"
        "  -h, --help     this help; `fusescope-cli <command> --help` for a command's options\n"
        "  -v, --version  the version\n"
        "\n"
        "Example:\n");
    help += QStringLiteral("  %1\n\n").arg(elementwiseRunExample());
    return help + exitCodeHelp();
}

}  // namespace

QString exitCodeHelp() {
    return QStringLiteral(
        "Exit codes:\n"
        "  0    everything ran and every output matched the CPU reference\n"
        "  1    a correctness check failed (the table says which variant and why)\n"
        "  2    usage error: an unknown command, option or value, or an unwritable --json "
        "path\n"
        "  3    runtime error: no usable GPU for --backend cuda, out of memory, a device "
        "error,\n"
        "       or the recording could not be written\n"
        "  130  cancelled with Ctrl-C\n");
}

int dispatch(const QStringList& arguments) {
    const QString first = arguments.size() > 1 ? arguments[1] : QString();
    if (first.isEmpty()) {
        printError(QStringLiteral("no command given (known: %1); see fusescope-cli --help")
                       .arg(knownCommands()));
        return kExitUsageError;
    }
    if (first == QLatin1String("-h") || first == QLatin1String("--help") ||
        first == QLatin1String("help")) {
        printOut(topLevelHelp(), "");
        return kExitOk;
    }
    if (first == QLatin1String("-v") || first == QLatin1String("--version")) {
        printOut(QStringLiteral("fusescope-cli %1").arg(QLatin1String(model::kFuseScopeVersion)));
        return kExitOk;
    }
    for (const Command& command : kCommands)
        if (first == QLatin1String(command.name)) {
            QStringList commandArguments = arguments.mid(1);
            commandArguments[0] = QStringLiteral("fusescope-cli ") + first;
            return command.run(commandArguments);
        }
    printError(QStringLiteral("unknown command '%1' (known: %2)").arg(first, knownCommands()));
    return kExitUsageError;
}

std::optional<int> parseCommandLine(QCommandLineParser& parser, const QCommandLineOption& help,
                                    const QStringList& arguments,
                                    const std::function<QString()>& helpText,
                                    const QStringList& repeatable) {
    if (!parser.parse(arguments)) {
        printError(parser.errorText());
        return kExitUsageError;
    }
    if (const QString repeated = model::repeatedOptionError(parser, repeatable);
        !repeated.isEmpty()) {
        printError(repeated);
        return kExitUsageError;
    }
    if (parser.isSet(help)) {
        printOut(helpText(), "");
        return kExitOk;
    }
    return std::nullopt;
}

std::optional<int> parseCommandLine(QCommandLineParser& parser,
                                    const QList<QCommandLineOption>& options,
                                    const QStringList& arguments, const QString& usage) {
    const QCommandLineOption help = helpOption();
    parser.addOption(help);
    parser.addOptions(options);
    return parseCommandLine(parser, help, arguments, [&usage] { return usage + exitCodeHelp(); });
}

int exitCodeFor(const Status& status) {
    switch (status.code()) {
        case ErrorCode::Cancelled:
            return kExitCancelled;
        case ErrorCode::InvalidArgument:
            return kExitUsageError;
        default:
            return kExitRuntimeError;
    }
}

}  // namespace fusescope::cli
