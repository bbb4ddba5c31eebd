#include "model/lesson/lesson_plan.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include "expr/parser.h"
#include "model/lab/learner_kernel.h"
#include "model/lesson/lesson_plan_steps.h"
#include "model/lesson/lesson_tile_limit.h"
#include "model/limited_read.h"
#include "model/recording_json.h"
#include "model/tile_sweep_json.h"
#include "pipelines/registry.h"
#include "tiles/tile_model.h"

namespace fusescope::model {
namespace {

// Lesson plans are a few kilobytes; anything far larger is not one.
constexpr qint64 kMaxPlanBytes = qint64{1} << 20;

const QStringList kViews = {QStringLiteral("results"), QStringLiteral("stage"),
                            QStringLiteral("measurement"), QStringLiteral("charts"),
                            QStringLiteral("tiles")};
const QStringList kRevealNumbers = {QStringLiteral("time"),  QStringLiteral("passes"),
                                    QStringLiteral("bytes"), QStringLiteral("speedup"),
                                    QStringLiteral("peak"),  QStringLiteral("gbps")};
const QStringList kCharts = {QStringLiteral("time"), QStringLiteral("bytes"),
                             QStringLiteral("bandwidth")};
const QStringList kKinds = {QStringLiteral("number"), QStringLiteral("winner"),
                            QStringLiteral("order"), QStringLiteral("limit")};

QString orList(const QStringList& words) {
    if (words.size() < 2) return words.join(QString());
    return words.mid(0, words.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") +
           words.constLast();
}

QStringList splitList(const QString& value) {
    QStringList items;
    for (const QString& item : value.split(QLatin1Char(',')))
        if (const QString trimmed = item.trimmed(); !trimmed.isEmpty()) items << trimmed;
    return items;
}

class PlanChecker {
  public:
    PlanChecker(LessonParse& parse, const QString& planPath, const QStringList& folders)
        : parse_(parse), planFolder_(QFileInfo(planPath).absolutePath()), folders_(folders) {}

    void check(const RawStep& raw) {
        raw_ = &raw;
        LessonStep step;
        step.line = raw.line;
        step.title = raw.title;
        step.text = trimmedText(raw.text);
        step.notes = raw.notes.join(QLatin1Char('\n'));
        checkShow(step.show);
        checkQuestion(step);
        checkReveal(step.reveal);
        parse_.plan.steps.push_back(step);
    }

  private:
    static QString trimmedText(QStringList lines) {
        while (!lines.isEmpty() && lines.constFirst().trimmed().isEmpty()) lines.removeFirst();
        while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty()) lines.removeLast();
        return lines.join(QLatin1Char('\n'));
    }
    bool has(const char* name) const { return raw_->fields.contains(QLatin1String(name)); }
    Field field(const char* name) const { return raw_->fields.value(QLatin1String(name)); }
    void error(int line, const QString& message) { parse_.errors.push_back({line, message}); }

    void checkShow(LessonShow& show) {
        show.expression = field("expression").value;
        if (has("expression")) checkExpression(show.expression);
        show.kernelFile = field("kernel").value;
        if (has("kernel")) checkKernel(show);
        show.view = has("view") ? field("view").value : QStringLiteral("results");
        if (!kViews.contains(show.view))
            error(field("view").line,
                  QStringLiteral("view '%1': say %2").arg(show.view, orList(kViews)));
        // The Tile explorer shows a tile sweep: a limit question's.
        if (show.view == QLatin1String("tiles") && !has("tiles"))
            error(field("view").line,
                  QStringLiteral("view 'tiles': only with tiles: (a limit question's tile sweep)"));
        if (!has("pipeline") && !has("recording")) {
            error(raw_->line, QStringLiteral("step '%1' shows nothing: give pipeline: (run live) "
                                             "or recording: (a shipped recording), or both")
                                  .arg(raw_->title));
            return;
        }
        if (has("recording")) checkRecording(show);
        if (has("pipeline")) {
            checkPipeline(show);
        } else {
            // An expression's problem is the typed chain's, checked when it is registered.
            for (const char* name : {"preset", "dimensions", "dtype"})
                if (has(name) && !has("expression"))
                    error(field(name).line,
                          QStringLiteral("%1: only with pipeline: or expression: (a "
                                         "recording has its own problem)")
                              .arg(QLatin1String(name)));
            show.problem.preset = field("preset").value;
            show.problem.dimensions = field("dimensions").value;
            show.problem.dtype = field("dtype").value;
            if (recording_) show.pipeline = toQString(recording_->runs.front().pipeline);
            show.variants = splitList(field("variants").value);
        }
        pipeline_ = findPipeline(show.pipeline.toStdString());
        if (pipeline_ && has("pipeline") && !pipeline_->countsPasses && !has("recording"))
            error(field("pipeline").line,
                  QStringLiteral("pipeline %1 runs at class speed only on a GPU: give "
                                 "recording: for machines without one")
                      .arg(show.pipeline));
        if (pipeline_ && show.variants.isEmpty()) {
            if (recording_ && !has("pipeline")) {
                for (const VariantResult& run : recording_->runs)
                    if (!show.variants.contains(toQString(run.variant)))
                        show.variants << toQString(run.variant);
            } else {
                for (const VariantSpec& variant : pipeline_->variants)
                    show.variants << QString::fromStdString(variant.name);
            }
        }
        if (recording_)
            for (const QString& variant : show.variants)
                if (!recordingHas(show.pipeline, variant))
                    error(field("recording").line,
                          QStringLiteral("recording %1 has no run of %2 %3")
                              .arg(show.recording, show.pipeline, variant));
    }

    // A file named in a field: in `folders`, then beside the plan; empty where it is in neither.
    QString findFile(const QString& name, const QStringList& folders) const {
        QStringList candidates;
        for (const QString& folder : folders) candidates << QDir(folder).filePath(name);
        candidates << QDir(planFolder_).filePath(name);
        for (const QString& candidate : candidates)
            if (QFileInfo(candidate).isFile()) return candidate;
        return {};
    }

    // The file a field names (`noun` says what it is), or empty with the error at its line.
    QString locate(const char* name, const char* noun, const QStringList& folders) {
        const Field named = field(name);
        const QString path = findFile(named.value, folders);
        if (path.isEmpty())
            error(named.line,
                  QStringLiteral("%1 %2 not found (looked in %3 and beside the plan)")
                      .arg(QLatin1String(noun), named.value, folders.join(QStringLiteral(", "))));
        return path;
    }

    void checkKernel(LessonShow& show) {
        const Field kernel = field("kernel");
        show.kernelPath = locate("kernel", "kernel", shippedKernelFolders());
        if (show.kernelPath.isEmpty()) return;
        const Result<LearnerKernel> loaded = loadLearnerKernel(show.kernelPath);
        if (!loaded) {
            error(kernel.line, QString::fromStdString(loaded.status().message()));
            show.kernelPath.clear();
            return;
        }
        if (has("pipeline") && loaded->reference != field("pipeline").value)
            error(kernel.line, QStringLiteral("kernel %1 is checked against pipeline %2, not %3")
                                   .arg(kernel.value, loaded->reference, field("pipeline").value));
    }

    void checkExpression(const QString& text) {
        const expr::ParseResult parsed = expr::parseProgram(text.toStdString());
        if (!parsed)
            error(field("expression").line,
                  QStringLiteral("expression: %1")
                      .arg(QString::fromStdString(parsed.error().message())));
    }

    bool recordingHas(const QString& pipeline, const QString& variant) const {
        for (const VariantResult& run : recording_->runs)
            if (toQString(run.pipeline) == pipeline && toQString(run.variant) == variant)
                return true;
        return false;
    }

    void checkRecording(LessonShow& show) {
        const Field recording = field("recording");
        show.recording = recording.value;
        show.recordingPath = locate("recording", "recording", folders_);
        if (show.recordingPath.isEmpty()) return;
        Result<Recording> loaded = loadRecording(show.recordingPath);
        if (!loaded) {
            error(recording.line, QString::fromStdString(loaded.status().message()));
            show.recordingPath.clear();
            return;
        }
        if (loaded->runs.empty()) {
            error(recording.line, QStringLiteral("recording %1 has no runs").arg(show.recording));
            show.recordingPath.clear();
            return;
        }
        recording_ = *loaded;
    }

    void checkPipeline(LessonShow& show) {
        const Field pipeline = field("pipeline");
        show.pipeline = pipeline.value;
        show.runnable = true;
        const PipelineSpec* spec = findPipeline(pipeline.value.toStdString());
        if (!spec) {
            QStringList known;
            for (const PipelineSpec& candidate : pipelines())
                known << QString::fromStdString(candidate.name);
            error(
                pipeline.line,
                QStringLiteral("unknown pipeline '%1': say %2").arg(pipeline.value, orList(known)));
            return;
        }
        show.variants = splitList(field("variants").value);
        for (const QString& variant : show.variants)
            if (!findVariant(*spec, variant.toStdString())) {
                QStringList known;
                for (const VariantSpec& candidate : spec->variants)
                    known << QString::fromStdString(candidate.name);
                error(field("variants").line, QStringLiteral("pipeline %1 has no variant '%2': "
                                                             "say %3")
                                                  .arg(show.pipeline, variant, orList(known)));
            }
        show.problem.preset = field("preset").value;
        show.problem.dimensions = field("dimensions").value;
        show.problem.dtype = field("dtype").value;
        Result<Problem> problem = problemFromText(*spec, show.problem);
        if (!problem) {
            int line = pipeline.line;
            for (const char* name : {"preset", "dimensions", "dtype"})
                if (has(name)) {
                    line = field(name).line;
                    break;
                }
            error(line, QString::fromStdString(problem.status().message()));
        }
        if (recording_ && toQString(recording_->runs.front().pipeline) != show.pipeline)
            error(field("recording").line,
                  QStringLiteral("recording %1 shows pipeline %2, not %3")
                      .arg(show.recording, toQString(recording_->runs.front().pipeline),
                           show.pipeline));
    }

    void checkVariantField(const char* name, QString& target, const LessonShow& show) {
        const Field f = field(name);
        if (f.value.isEmpty()) {
            error(has(name) ? f.line : field("question").line,
                  QStringLiteral("%1: name the variant the question asks about (%2)")
                      .arg(QLatin1String(name), orList(show.variants)));
            return;
        }
        target = f.value;
        if (!show.variants.contains(f.value))
            error(f.line, QStringLiteral("%1: '%2' is not among the step's variants (%3)")
                              .arg(QLatin1String(name), f.value, orList(show.variants)));
    }

    void checkQuestion(LessonStep& step) {
        if (!has("question")) {
            for (const char* name : {"kind", "unit", "of", "over", "tile", "tiles", "choices"})
                if (has(name))
                    error(field(name).line,
                          QStringLiteral("%1: only with question:").arg(QLatin1String(name)));
            return;
        }
        LessonQuestion question;
        question.line = field("question").line;
        question.text = field("question").value;
        const QString kind = has("kind") ? field("kind").value : QStringLiteral("number");
        if (kind == QLatin1String("winner")) {
            question.kind = QuestionKind::Winner;
        } else if (kind == QLatin1String("order")) {
            question.kind = QuestionKind::Order;
        } else if (kind == QLatin1String("limit")) {
            question.kind = QuestionKind::Limit;
        } else if (kind != QLatin1String("number")) {
            error(field("kind").line,
                  QStringLiteral("kind '%1': say %2").arg(kind, orList(kKinds)));
        }
        if (question.kind != QuestionKind::Limit)
            for (const char* name : {"tile", "tiles", "choices"})
                if (has(name))
                    error(field(name).line,
                          QStringLiteral("%1: only with kind: limit").arg(QLatin1String(name)));
        if (question.kind == QuestionKind::Number) {
            checkNumberQuestion(question, step.show);
        } else if (question.kind == QuestionKind::Limit) {
            checkLimitQuestion(question, step.show);
        } else if (step.show.variants.size() < 2) {
            error(question.line, QStringLiteral("a %1 question needs at least two variants to "
                                                "compare")
                                     .arg(kind));
        }
        step.question = question;
    }

    void checkNumberQuestion(LessonQuestion& question, const LessonShow& show) {
        if (!has("unit")) {
            error(question.line,
                  QStringLiteral("a number question needs unit: (%1)").arg(unitKeys()));
            return;
        }
        const std::optional<AnswerUnit> unit = answerUnitFromKey(field("unit").value);
        if (!unit) {
            error(field("unit").line,
                  QStringLiteral("bad unit '%1': say %2").arg(field("unit").value, unitKeys()));
            return;
        }
        question.unit = *unit;
        if (*unit == AnswerUnit::Passes && pipeline_ && !pipeline_->countsPasses)
            error(field("unit").line,
                  QStringLiteral("bad unit 'passes': pipeline %1 counts bytes, not whole-array "
                                 "passes")
                      .arg(show.pipeline));
        checkVariantField("of", question.variant, show);
        if (*unit == AnswerUnit::Speedup) {
            checkVariantField("over", question.baseline, show);
        } else if (has("over")) {
            error(field("over").line, QStringLiteral("over: only with unit: speedup"));
        }
    }

    // Which resource limits a tunable variant at a tile: the tile, the tile sweep that measured
    // it and the choices offered, all checked against the tile model.
    void checkLimitQuestion(LessonQuestion& question, LessonShow& show) {
        for (const char* name : {"unit", "over"})
            if (has(name))
                error(field(name).line,
                      QStringLiteral("%1: not with kind: limit").arg(QLatin1String(name)));
        checkVariantField("of", question.variant, show);
        const bool choicesOk = checkChoices(question);
        if (!pipeline_ || question.variant.isEmpty()) return;
        if (!tiles::variantTiles(
                {show.pipeline.toStdString(), question.variant.toStdString(), {}})) {
            QStringList tunable;
            for (const auto& [pipeline, variant] : tunableVariants())
                tunable << QStringLiteral("%1 %2").arg(QString::fromStdString(pipeline->name),
                                                       QString::fromStdString(variant->name));
            error(field("of").line, QStringLiteral("of: %1 %2 takes no tiles; a limit question "
                                                   "asks about a tunable variant (%3)")
                                        .arg(show.pipeline, question.variant, orList(tunable)));
            return;
        }
        if (!has("tile") || !has("tiles")) {
            error(question.line,
                  QStringLiteral("a limit question needs tile: (the tiles, as "
                                 "fusescope-cli resources --tile takes them) and "
                                 "tiles: (a shipped tile sweep that measured them)"));
            return;
        }
        show.tile = field("tile").value;
        const Result<tiles::TileConfiguration> configuration =
            stepTileConfiguration(show, question.variant);
        if (!configuration) {
            error(field("tile").line,
                  QStringLiteral("tile: %1")
                      .arg(QString::fromStdString(configuration.status().message())));
            return;
        }
        const Field sweepField = field("tiles");
        show.tileSweep = sweepField.value;
        show.tileSweepPath = locate("tiles", "tile sweep", folders_);
        if (show.tileSweepPath.isEmpty()) return;
        const Result<tiles::TileSweep> sweep = loadTileSweep(show.tileSweepPath);
        if (!sweep) {
            error(sweepField.line, QString::fromStdString(sweep.status().message()));
            show.tileSweepPath.clear();
            return;
        }
        const tiles::TileConfiguration& base = sweep->request.base;
        if (base.pipeline != configuration->pipeline || base.variant != configuration->variant) {
            error(sweepField.line,
                  QStringLiteral("tile sweep %1 measured %2 %3, not %4 %5")
                      .arg(show.tileSweep, QString::fromStdString(base.pipeline),
                           QString::fromStdString(base.variant), show.pipeline, question.variant));
            return;
        }
        const Result<MeasuredAnswer> answer =
            tileLimitAnswer(*sweep, show.tileSweep, *configuration);
        if (!answer) {
            error(
                field("tile").line,
                QStringLiteral("tile: %1").arg(QString::fromStdString(answer.status().message())));
            return;
        }
        if (choicesOk && !question.choices.contains(answer->text))
            error(field("choices").line,
                  QStringLiteral("choices: the tile's limit, %1, is not among them")
                      .arg(answer->text));
    }

    bool checkChoices(LessonQuestion& question) {
        QStringList resources;
        for (const std::string& resource : tiles::limitingResources())
            resources << QString::fromStdString(resource);
        if (!has("choices")) {
            error(question.line,
                  QStringLiteral("a limit question needs choices: (two or more of %1)")
                      .arg(orList(resources)));
            return false;
        }
        question.choices = splitList(field("choices").value);
        bool ok = true;
        for (const QString& choice : question.choices)
            if (!resources.contains(choice)) {
                error(field("choices").line,
                      QStringLiteral("choices: '%1' is not a resource the tile model names; say "
                                     "%2")
                          .arg(choice, orList(resources)));
                ok = false;
            }
        if (question.choices.size() < 2 || question.choices.removeDuplicates() > 0) {
            error(field("choices").line,
                  QStringLiteral("choices: give two or more different resources"));
            ok = false;
        }
        return ok;
    }

    static QString unitKeys() { return orList(answerUnitKeys()); }

    void checkReveal(LessonReveal& reveal) {
        reveal.numbers = splitList(field("reveal").value);
        for (const QString& number : reveal.numbers)
            if (!kRevealNumbers.contains(number))
                error(field("reveal").line, QStringLiteral("reveal: '%1' is not a number FuseScope "
                                                           "shows; say %2")
                                                .arg(number, orList(kRevealNumbers)));
        reveal.chart = field("chart").value;
        if (has("chart") && !kCharts.contains(reveal.chart))
            error(field("chart").line,
                  QStringLiteral("chart '%1': say %2").arg(reveal.chart, orList(kCharts)));
        reveal.moment = field("moment").value;
        if (has("moment")) {
            static const QRegularExpression pass(QStringLiteral("^pass [1-9][0-9]{0,3}$"));
            if (reveal.moment != QLatin1String("end") && reveal.moment != QLatin1String("peak") &&
                !pass.match(reveal.moment).hasMatch())
                error(field("moment").line,
                      QStringLiteral("moment '%1': say end, peak or pass K (K from 1)")
                          .arg(reveal.moment));
        }
    }

    LessonParse& parse_;
    QString planFolder_;
    QStringList folders_;
    const RawStep* raw_ = nullptr;
    std::optional<Recording> recording_;
    const PipelineSpec* pipeline_ = nullptr;
};

}  // namespace

QString LessonParse::errorText() const {
    QStringList lines;
    for (const LessonError& error : errors)
        lines << QStringLiteral("%1:%2: %3").arg(plan.path).arg(error.line).arg(error.message);
    return lines.join(QLatin1Char('\n'));
}

LessonParse parseLessonPlan(const QString& text, const QString& path,
                            const QStringList& recordingFolders) {
    LessonParse parse;
    parse.plan.path = path;
    const QVector<RawStep> raws = readPlanSteps(text, parse);
    for (const RawStep& raw : raws) {
        PlanChecker checker(parse, path, recordingFolders);
        checker.check(raw);
    }
    return parse;
}

LessonParse loadLessonPlan(const QString& path, const QStringList& recordingFolders) {
    Result<QByteArray> bytes = readFileLimited(path, kMaxPlanBytes);
    if (!bytes) {
        LessonParse parse;
        parse.plan.path = path;
        parse.errors.push_back({0, QString::fromStdString(bytes.status().message())});
        return parse;
    }
    return parseLessonPlan(QString::fromUtf8(*bytes), path, recordingFolders);
}

}  // namespace fusescope::model
