// `fusescope-cli show FILE`: prints the table of a recording (made here or on a GPU server),
// exactly as `run` printed it, with the data source marked as replayed.
#include <QCommandLineParser>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/results_table.h"
#include "model/recording_json.h"

namespace fusescope::cli {

int showCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("This help."));
    parser.addOption(help);
    if (std::optional<int> done = parseCommandLine(parser, help, arguments, [] {
            return QStringLiteral(
                       "Usage: fusescope-cli show <recording.json>\n"
                       "Prints the table of a recording written by `fusescope-cli run "
                       "--json` or by the\nFuseScope window.\n\n") +
                   exitCodeHelp();
        }))
        return *done;
    const QStringList files = parser.positionalArguments();
    if (files.size() != 1) {
        printError(files.isEmpty()
                       ? QStringLiteral("show needs a recording file")
                       : QStringLiteral("show takes one recording file, got %1").arg(files.size()));
        return kExitUsageError;
    }
    Result<model::Recording> recording = model::loadRecording(files.constFirst());
    if (!recording) {
        printError(QString::fromStdString(recording.status().message()));
        return kExitUsageError;
    }
    printOut(renderResults(*recording));
    if (!recording->producer.isEmpty() || !recording->createdAt.isEmpty())
        printNote(QStringLiteral("recorded by %1 at %2")
                      .arg(recording->producer.isEmpty() ? QStringLiteral("an unknown program")
                                                         : recording->producer,
                           recording->createdAt.isEmpty() ? QStringLiteral("an unknown time")
                                                          : recording->createdAt));
    for (const model::RunRecord& run : recording->runs)
        if (!run.checkOk) return kExitCheckFailed;
    return kExitOk;
}

}  // namespace fusescope::cli
