#include "model/lesson/lesson_tile_limit.h"

#include <QFileInfo>

#include "model/format.h"
#include "model/problem_options.h"
#include "model/recording_description.h"
#include "model/tile_sweep_json.h"
#include "tiles/tile_model.h"

namespace fusescope::model {
namespace {

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

bool sameTile(const tiles::TileConfiguration& a, const tiles::TileConfiguration& b) {
    return a.pipeline == b.pipeline && a.variant == b.variant &&
           a.problem.dimensions == b.problem.dimensions && a.problem.dtype == b.problem.dtype &&
           tiles::tilesText(a) == tiles::tilesText(b);
}

// "255 registers/thread, 80 B spilled, 1 block per SM (6% occupancy)": the compiled kernel.
QString compiledWords(const tiles::CompiledResources& compiled) {
    if (!compiled.known) return {};
    return QStringLiteral(
               "%1 registers/thread, %2 B/thread spilled, %3 block(s) per SM (%4 "
               "occupancy)")
        .arg(compiled.registersPerThread)
        .arg(compiled.localBytesPerThread)
        .arg(compiled.blocksPerMultiprocessor)
        .arg(formatPercent(compiled.theoreticalOccupancy));
}

}  // namespace

Result<tiles::TileConfiguration> stepTileConfiguration(const LessonShow& show,
                                                       const QString& variant) {
    const PipelineSpec* pipeline = findPipeline(show.pipeline.toStdString());
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument, "no pipeline " + show.pipeline.toStdString());
    // The variant's own tiles, in declaration order: values in order are theirs.
    QStringList names;
    for (const TuningSpec& tuning : pipeline->tunings)
        if (!tuning.variant.empty() && tuning.appliesTo(variant.toStdString()))
            names << text(tuning.name);
    QStringList assignments;
    const QStringList parts = show.tile.split(QLatin1Char(','), Qt::SkipEmptyParts);
    const bool named = show.tile.contains(QLatin1Char('='));
    if (!named && parts.size() != names.size())
        return Status(ErrorCode::InvalidArgument,
                      QStringLiteral("'%1': give %2 values in order (%3) or name=value pairs")
                          .arg(show.tile)
                          .arg(names.size())
                          .arg(names.join(QStringLiteral(", ")))
                          .toStdString());
    for (qsizetype index = 0; index < parts.size(); ++index) {
        const QString name =
            named ? parts[index].section(QLatin1Char('='), 0, 0).trimmed() : names[index];
        if (!names.contains(name))
            return Status(ErrorCode::InvalidArgument,
                          QStringLiteral("%1 is not a tile of %2 (its tiles: %3)")
                              .arg(name, variant, names.join(QStringLiteral(", ")))
                              .toStdString());
        assignments << (named ? parts[index].trimmed()
                              : QStringLiteral("%1=%2").arg(name, parts[index].trimmed()));
    }
    ProblemText problemText = show.problem;
    problemText.tuning = assignments.join(QLatin1Char(','));
    Result<Problem> problem = problemFromText(*pipeline, problemText);
    if (!problem) return problem.status();
    return tiles::TileConfiguration{pipeline->name, variant.toStdString(),
                                    withDefaults(*pipeline, *problem)};
}

Result<MeasuredAnswer> tileLimitAnswer(const tiles::TileSweep& measured, const QString& sweepName,
                                       const tiles::TileConfiguration& configuration) {
    tiles::TileSweep sweep = measured;
    // The limits in this program's words, not in those the file was written with.
    tiles::describeCells(sweep);
    const QString tile = text(tiles::tilesText(configuration));
    for (const tiles::TileCell& cell : sweep.cells) {
        if (!sameTile(cell.report.configuration, configuration)) continue;
        const std::vector<tiles::TileLimit> limits = tiles::limitsOf(cell, sweep);
        if (limits.empty())
            return Status(ErrorCode::InvalidArgument,
                          QStringLiteral("the tile sweep %1 names no limit at %2%3")
                              .arg(sweepName, tile,
                                   cell.report.refusal ? QStringLiteral(" (refused: %1)")
                                                             .arg(text(cell.report.refusal->reason))
                                                       : QString())
                              .toStdString());
        MeasuredAnswer answer;
        answer.text = text(limits.front().resource);
        answer.kind = QStringLiteral("The tile model, on the measured sweep");
        QStringList words;
        for (const tiles::TileLimit& limit : limits)
            words << QStringLiteral("%1 (%2)").arg(text(limit.words), text(limit.resource));
        answer.reason =
            QStringLiteral("The tile model at %1 of %2: limited by %3.")
                .arg(tile, text(configuration.variant), words.join(QStringLiteral("; then ")));
        if (const QString compiled = compiledWords(cell.report.compiled); !compiled.isEmpty())
            answer.reason += QStringLiteral(" The compiled kernel: %1.").arg(compiled);
        if (cell.measured)
            answer.reason +=
                QStringLiteral(" Measured %1.").arg(formatDuration(cell.time.medianMs));
        answer.source =
            QStringLiteral("tile sweep %1 on %2").arg(sweepName, tileSweepDevice(sweep));
        return answer;
    }
    return Status(
        ErrorCode::InvalidArgument,
        QStringLiteral("the tile sweep %1 has no cell at %2 (%3 %4)")
            .arg(sweepName, tile, text(configuration.pipeline), text(configuration.variant))
            .toStdString());
}

Result<MeasuredAnswer> measureTileLimit(const LessonStep& step) {
    if (!step.question || step.question->kind != QuestionKind::Limit)
        return Status(ErrorCode::InvalidArgument, "the step asks no limit question");
    Result<tiles::TileConfiguration> configuration =
        stepTileConfiguration(step.show, step.question->variant);
    if (!configuration) return configuration.status();
    Result<tiles::TileSweep> sweep = loadTileSweep(step.show.tileSweepPath);
    if (!sweep) return sweep.status();
    return tileLimitAnswer(*sweep, QFileInfo(step.show.tileSweepPath).fileName(), *configuration);
}

}  // namespace fusescope::model
