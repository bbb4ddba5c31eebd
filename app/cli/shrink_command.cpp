// `fusescope-cli shrink IN --json OUT`: makes a recording small enough to ship by merging the
// idle stretches of its PM samples (see model/sample_thinning.h); the file says it was thinned.
#include <QCommandLineParser>

#include "cli/command.h"
#include "cli/console.h"
#include "model/recording_json.h"
#include "model/sample_thinning.h"

namespace fusescope::cli {

int shrinkCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    const QCommandLineOption output(QStringLiteral("json"),
                                    QStringLiteral("Write the smaller recording to this file."),
                                    QStringLiteral("file"));
    const QCommandLineOption idleBelow(
        QStringLiteral("idle-below"),
        QStringLiteral("A sample is idle below this fraction of the run's peak bandwidth, "
                       "0 to 0.5 (default 0.01)."),
        QStringLiteral("fraction"), QStringLiteral("0.01"));
    if (std::optional<int> done = parseCommandLine(
            parser, {output, idleBelow}, arguments,
            QStringLiteral("Usage: fusescope-cli shrink <recording.json> --json <smaller.json>\n"
                           "Merges each idle stretch of a recording's PM samples into one sample "
                           "with the same\nbytes, keeping the samples around every kernel, so the "
                           "charts look the same and the\nfile is much smaller. The new file "
                           "records how many samples each run had.\n\n")))
        return *done;
    const QStringList files = parser.positionalArguments();
    if (files.size() != 1) {
        printError(QStringLiteral("shrink takes one recording, got %1").arg(files.size()));
        return kExitUsageError;
    }
    if (!parser.isSet(output)) {
        printError(QStringLiteral("shrink needs --json <file> for the smaller recording"));
        return kExitUsageError;
    }
    bool numeric = false;
    const double fraction = parser.value(idleBelow).toDouble(&numeric);
    if (!numeric || fraction <= 0.0 || fraction > 0.5) {
        printError(QStringLiteral("--idle-below %1 is not a fraction from 0 to 0.5")
                       .arg(parser.value(idleBelow)));
        return kExitUsageError;
    }
    Result<model::Recording> recording = model::loadRecording(files.constFirst());
    if (!recording) {
        printError(QString::fromStdString(recording.status().message()));
        return kExitUsageError;
    }
    const model::ThinningOutcome outcome = model::mergeIdleSamples(*recording, fraction);
    if (Status saved = model::saveRecording(*recording, parser.value(output)); !saved) {
        printError(QString::fromStdString(saved.message()));
        return kExitRuntimeError;
    }
    printNote(QStringLiteral("samples: %1 -> %2 (idle stretches below %3% of the peak merged); "
                             "written to %4")
                  .arg(outcome.samplesBefore)
                  .arg(outcome.samplesAfter)
                  .arg(fraction * 100.0)
                  .arg(parser.value(output)));
    return kExitOk;
}

}  // namespace fusescope::cli
