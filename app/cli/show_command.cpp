// `fusescope-cli show FILE`: prints the table of a recording, a size sweep or a tile sweep (made
// here or on a GPU server), exactly as `run`, `sweep` or `tiles` printed it, with the data
// source marked as replayed.
#include <QCommandLineParser>
#include <optional>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/results_table.h"
#include "cli/shared_options.h"
#include "cli/sweep_table.h"
#include "cli/terminal_text.h"
#include "cli/tile_sweep_table.h"
#include "model/recorded_pipelines.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "model/tile_sweep_json.h"

namespace fusescope::cli {
namespace {

void printProvenance(const QString& producer, const QString& createdAt) {
    if (producer.isEmpty() && createdAt.isEmpty()) return;
    printNote(QStringLiteral("recorded by %1 at %2")
                  .arg(producer.isEmpty() ? QStringLiteral("an unknown program") : producer,
                       createdAt.isEmpty() ? QStringLiteral("an unknown time") : createdAt));
}

// The file made safe to print; one that did not load is refused with the reader's message.
template <typename File>
std::optional<File> safeToPrint(const Result<File>& loaded) {
    if (!loaded) {
        printError(QString::fromStdString(loaded.status().message()));
        return std::nullopt;
    }
    return withTerminalSafeText(*loaded);
}

int showSweep(const QString& path) {
    const std::optional<model::SweepFile> safe = safeToPrint(model::loadSweepFile(path));
    if (!safe) return kExitUsageError;
    const model::SweepFile* sweep = &*safe;
    printOut(
        renderSweep(sweep->report,
                    QStringLiteral("%1, replayed").arg(model::dataSourceLabel(sweep->dataSource))));
    printProvenance(sweep->producer, sweep->created);
    for (const SweepSeries& series : sweep->report.series)
        for (const SweepPoint& point : series.points)
            if (!point.checkOk) return kExitCheckFailed;
    return kExitOk;
}

int showTileSweep(const QString& path) {
    const std::optional<tiles::TileSweep> safe = safeToPrint(model::loadTileSweep(path));
    if (!safe) return kExitUsageError;
    printOut(QStringLiteral("tile sweep of %1 %2, replayed")
                 .arg(QString::fromStdString(safe->request.base.pipeline),
                      QString::fromStdString(safe->request.base.variant)));
    for (const QString& line : renderTileSweep(*safe)) printOut(line);
    printProvenance(QString::fromStdString(safe->producer), QString::fromStdString(safe->created));
    for (const tiles::TileCell& cell : safe->cells)
        if (cell.measured && !cell.checkOk) return kExitCheckFailed;
    return kExitOk;
}

int showRecording(const QString& path) {
    const std::optional<model::Recording> safe = safeToPrint(model::openRecording(path));
    if (!safe) return kExitUsageError;
    const model::Recording* recording = &*safe;
    printOut(renderResults(*recording));
    printProvenance(recording->producer, recording->createdAt);
    for (const model::VariantResult& run : recording->runs)
        if (!run.check.ok) return kExitCheckFailed;
    return kExitOk;
}

}  // namespace

int showCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    const QCommandLineOption help = helpOption();
    parser.addOption(help);
    if (std::optional<int> done = parseCommandLine(parser, help, arguments, [] {
            return QStringLiteral(
                       "Usage: fusescope-cli show <recording.json | sweep.json | tiles.json>\n"
                       "Prints the table of a recording written by `fusescope-cli run --json` "
                       "or by the\nFuseScope window, of a sweep written by `fusescope-cli "
                       "sweep --json` or the window,\nor of a tile sweep written by "
                       "`fusescope-cli tiles --json` or the tile explorer\n(with its peer's "
                       "times where benchmarks/tiles_triton.py --annotate added them).\n\n") +
                   exitCodeHelp();
        }))
        return *done;
    const QStringList files = parser.positionalArguments();
    if (files.size() != 1) {
        printError(files.isEmpty()
                       ? QStringLiteral("show needs a recording or sweep file")
                       : QStringLiteral("show takes one file, got %1").arg(files.size()));
        return kExitUsageError;
    }
    const QString& path = files.constFirst();
    if (model::isTileSweepFile(path)) return showTileSweep(path);
    return model::isSweepFile(path) ? showSweep(path) : showRecording(path);
}

}  // namespace fusescope::cli
