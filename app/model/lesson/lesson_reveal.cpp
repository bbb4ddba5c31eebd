#include "model/lesson/lesson_reveal.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>

#include "model/captions.h"
#include "model/format.h"
#include "model/fusion_verdict.h"
#include "model/lesson/lesson_tile_limit.h"
#include "model/measurement_gaps.h"
#include "model/stage/stage_state.h"
#include "model/stage/stage_timeline.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

const VariantResult* findRun(const Recording& recording, const QString& pipeline,
                             const QString& variant) {
    for (const VariantResult& run : recording.runs)
        if (toQString(run.pipeline) == pipeline && toQString(run.variant) == variant) return &run;
    return nullptr;
}

QString joinWords(const std::vector<std::string>& names) {
    QStringList words;
    for (const std::string& name : names) words << QString::fromStdString(name);
    return words.join(QStringLiteral(", "));
}

// "unfused launches 2 kernels: scale reads x, writes tmp; shift reads tmp, writes out. That is
// 4 passes by the pass model."
QString passModelWords(const VariantResult& run) {
    const PipelineSpec* pipeline = findPipeline(run.pipeline);
    const VariantSpec* variant = pipeline ? findVariant(*pipeline, run.variant) : nullptr;
    if (!variant) return {};
    const std::vector<KernelSpec> kernels = variant->kernelsFor(run.problem);
    QStringList parts;
    for (const KernelSpec& kernel : kernels) {
        if (pipeline->countsPasses)
            parts << QStringLiteral("%1 reads %2, writes %3")
                         .arg(QString::fromStdString(kernel.name), joinWords(kernel.passReads),
                              joinWords(kernel.passWrites));
        else
            parts << QString::fromStdString(kernel.name);
    }
    if (pipeline->countsPasses)
        return QStringLiteral(
                   "%1 launches %2 kernel%3: %4. That is %5 whole-array passes by the "
                   "pass model.")
            .arg(toQString(run.variant))
            .arg(kernels.size())
            .arg(kernels.size() == 1 ? "" : "s")
            .arg(parts.join(QStringLiteral("; ")))
            .arg(run.passes);
    return QStringLiteral("%1 launches %2 kernel%3 (%4): %5 requested by the pass model.")
        .arg(toQString(run.variant))
        .arg(kernels.size())
        .arg(kernels.size() == 1 ? "" : "s")
        .arg(parts.join(QStringLiteral(", ")))
        .arg(formatBytes(run.modelBytesRead + run.modelBytesWritten));
}

QString gapWords(const Recording& recording, const VariantResult& run) {
    for (const RunGapView& gap : measurementGaps(recording))
        if (gap.pipeline == toQString(run.pipeline) && gap.variant == toQString(run.variant) &&
            !gap.reasons.isEmpty())
            return QStringLiteral("Measured DRAM traffic of %1 differs from the model: %2")
                .arg(toQString(run.variant), gap.reasons.join(QStringLiteral("; ")));
    return {};
}

// The verdict's sentences about the step's variants only: a sentence that names another
// variant of the pipeline is about a comparison the class is not looking at, and so are the
// sentences that go on explaining it (up to the next that starts with one of the step's variants).
QString verdictOnVariants(const Recording& recording, const LessonShow& show) {
    const PipelineSpec* pipeline = findPipeline(show.pipeline.toStdString());
    if (!pipeline) return {};
    QStringList others;
    for (const VariantSpec& variant : pipeline->variants)
        if (!show.variants.contains(QString::fromStdString(variant.name)))
            others << QString::fromStdString(variant.name);
    static const QRegularExpression sentenceEnd(QStringLiteral("(?<=\\.)\\s+"));
    QStringList kept;
    bool continuingDropped = false;
    for (const QString& sentence : fusionVerdict(recording).split(sentenceEnd)) {
        bool aboutOthers = false;
        for (const QString& other : others)
            if (sentence.contains(QRegularExpression(
                    QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(other)))))
                aboutOthers = true;
        bool startsWithStepVariant = false;
        for (const QString& variant : show.variants)
            if (sentence.startsWith(variant + QLatin1Char(' '))) startsWithStepVariant = true;
        if (aboutOthers || (continuingDropped && !startsWithStepVariant)) {
            continuingDropped = true;
            continue;
        }
        continuingDropped = false;
        kept << sentence;
    }
    return kept.join(QLatin1Char(' '));
}

// The stage time that answers the question: the end of the kernels, the first instant the
// most bytes are in flight, or the end of pass K.
std::optional<qint64> momentOf(const VariantResult& run, const QString& moment) {
    if (moment.isEmpty()) return std::nullopt;
    Result<StageTimeline> timeline = buildStageTimeline(run);
    if (!timeline) return std::nullopt;
    if (moment == QLatin1String("end")) return timeline->kernelsEndNs;
    if (moment == QLatin1String("peak")) {
        quint64 best = 0;
        qint64 when = 0;
        for (const StageArray& array : timeline->arrays) {
            quint64 inFlight = 0;
            for (const StageArray& other : timeline->arrays)
                if (other.existsAt(array.allocatedAtNs)) inFlight += other.bytes;
            if (inFlight > best) {
                best = inFlight;
                when = array.allocatedAtNs;
            }
        }
        return when;
    }
    const int pass = moment.section(QLatin1Char(' '), 1).toInt();
    if (pass < 1 || pass > timeline->sweeps.size()) return timeline->kernelsEndNs;
    return timeline->sweeps[pass - 1].endNs;
}

double numberOf(AnswerUnit unit, const VariantResult& run, const VariantResult* baseline) {
    switch (unit) {
        case AnswerUnit::Passes:
            return run.passes;
        case AnswerUnit::Bytes:
            return double(run.modelBytesRead + run.modelBytesWritten);
        case AnswerUnit::Speedup:
            return run.timeMs > 0 && baseline ? baseline->timeMs / run.timeMs : 0.0;
        case AnswerUnit::PeakMegabytes:
            return double(run.peakBytesInFlight) / 1e6;
        case AnswerUnit::GBps:
            return run.effectiveGBps();
        case AnswerUnit::Milliseconds:
            return run.timeMs;
    }
    return 0.0;
}

QString numberText(AnswerUnit unit, double value) {
    switch (unit) {
        case AnswerUnit::Passes:
            return qRound64(value) == 1 ? QStringLiteral("1 pass")
                                        : QStringLiteral("%1 passes").arg(qRound64(value));
        case AnswerUnit::Bytes:
            return formatBytes(quint64(std::llround(value))) + QStringLiteral(" requested");
        case AnswerUnit::Speedup:
            return formatTimes(value) + QStringLiteral(" faster");
        case AnswerUnit::PeakMegabytes:
            return QStringLiteral("%1 MB peak in flight").arg(value, 0, 'f', 1);
        case AnswerUnit::GBps:
            return formatGBps(value) + QStringLiteral(" GB/s requested");
        case AnswerUnit::Milliseconds:
            return formatDuration(value);
    }
    return {};
}

// A difference in the question's unit: "2 passes", "1.5x", "120 MB".
QString differenceText(AnswerUnit unit, double value) {
    switch (unit) {
        case AnswerUnit::Speedup:
            return formatTimes(value);
        case AnswerUnit::Bytes:
            return formatBytes(quint64(std::llround(value)));
        case AnswerUnit::PeakMegabytes:
            return QStringLiteral("%1 MB").arg(value, 0, 'f', 1);
        case AnswerUnit::GBps:
            return formatGBps(value) + QStringLiteral(" GB/s");
        default:
            return numberText(unit, value);
    }
}

// The unit words people type after a number, as multipliers into the question's unit.
std::optional<double> unitScale(AnswerUnit unit, const QString& word) {
    if (word.isEmpty()) return 1.0;
    const QString w = word.toLower();
    switch (unit) {
        case AnswerUnit::Passes:
            if (w == QLatin1String("passes") || w == QLatin1String("pass")) return 1.0;
            break;
        case AnswerUnit::Bytes:
            if (w == QLatin1String("b") || w == QLatin1String("bytes")) return 1.0;
            if (w == QLatin1String("kb")) return 1e3;
            if (w == QLatin1String("mb")) return 1e6;
            if (w == QLatin1String("gb")) return 1e9;
            if (w == QLatin1String("tb")) return 1e12;
            break;
        case AnswerUnit::Speedup:
            if (w == QLatin1String("x") || w == QLatin1String("times")) return 1.0;
            break;
        case AnswerUnit::PeakMegabytes:
            if (w == QLatin1String("mb")) return 1.0;
            if (w == QLatin1String("gb")) return 1e3;
            if (w == QLatin1String("kb")) return 1e-3;
            break;
        case AnswerUnit::GBps:
            if (w == QLatin1String("gb/s") || w == QLatin1String("gbps")) return 1.0;
            if (w == QLatin1String("tb/s")) return 1e3;
            break;
        case AnswerUnit::Milliseconds:
            if (w == QLatin1String("ms")) return 1.0;
            if (w == QLatin1String("us") || w == QStringLiteral("µs")) return 1e-3;
            if (w == QLatin1String("s")) return 1e3;
            break;
    }
    return std::nullopt;
}

QStringList variantsOf(const QString& typed) {
    QStringList names;
    static const QRegularExpression separators(QStringLiteral("[,<]"));
    for (const QString& name : typed.split(separators))
        if (const QString trimmed = name.trimmed(); !trimmed.isEmpty()) names << trimmed;
    return names;
}

}  // namespace

Result<MeasuredAnswer> measureAnswer(const LessonStep& step, const Recording& recording) {
    // A tile's limit is the tile sweep's, not the step's runs'.
    if (step.question && step.question->kind == QuestionKind::Limit) return measureTileLimit(step);
    MeasuredAnswer answer;
    const LessonShow& show = step.show;
    QVector<const VariantResult*> runs;
    for (const QString& variant : show.variants) {
        const VariantResult* run = findRun(recording, show.pipeline, variant);
        if (!run)
            return Status(ErrorCode::InvalidArgument,
                          QStringLiteral("the results have no run of %1 %2")
                              .arg(show.pipeline, variant)
                              .toStdString());
        runs << run;
    }
    if (runs.empty())
        return Status(ErrorCode::InvalidArgument, "the step shows no variant to measure");
    std::vector<const VariantResult*> byTime(runs.begin(), runs.end());
    std::stable_sort(
        byTime.begin(), byTime.end(),
        [](const VariantResult* a, const VariantResult* b) { return a->timeMs < b->timeMs; });
    for (const VariantResult* run : byTime) answer.order << toQString(run->variant);

    const VariantResult* subject = byTime.front();
    QStringList reasons;
    if (step.question && step.question->kind == QuestionKind::Number) {
        const LessonQuestion& question = *step.question;
        subject = findRun(recording, show.pipeline, question.variant);
        const VariantResult* baseline = question.unit == AnswerUnit::Speedup
                                            ? findRun(recording, show.pipeline, question.baseline)
                                            : nullptr;
        if (!subject || (question.unit == AnswerUnit::Speedup && !baseline))
            return Status(ErrorCode::InvalidArgument,
                          "the results lack the variant the question asks about");
        answer.value = numberOf(question.unit, *subject, baseline);
        answer.text = numberText(question.unit, answer.value);
        reasons << passModelWords(*subject);
        if (baseline) reasons << passModelWords(*baseline);
    } else {
        answer.text = step.question && step.question->kind == QuestionKind::Winner
                          ? answer.order.constFirst()
                          : answer.order.join(QStringLiteral(", "));
        // Where passes are counted they are the reason; elsewhere the verdict says it.
        const PipelineSpec* pipeline = findPipeline(show.pipeline.toStdString());
        if (pipeline && pipeline->countsPasses)
            for (const VariantResult* run : byTime) reasons << passModelWords(*run);
    }
    // The reason that fits the question: what bounds the time for a question of time, what
    // reached DRAM for a question of traffic; the pass model for every question.
    const bool aboutTime = !step.question || step.question->kind != QuestionKind::Number ||
                           step.question->unit == AnswerUnit::Speedup ||
                           step.question->unit == AnswerUnit::Milliseconds;
    const bool aboutTraffic =
        step.question && step.question->kind == QuestionKind::Number &&
        (step.question->unit == AnswerUnit::Bytes || step.question->unit == AnswerUnit::GBps);
    if (aboutTime)
        if (const QString verdict = verdictOnVariants(recording, show); !verdict.isEmpty())
            reasons << verdict;
    if (aboutTraffic)
        if (const QString gaps = gapWords(recording, *subject); !gaps.isEmpty()) reasons << gaps;
    reasons.removeAll(QString());
    answer.reason = reasons.join(QLatin1Char(' '));
    answer.source = QStringLiteral("%1 on %2")
                        .arg(dataSourceBadge(recording, *subject), deviceLabel(recording.device));
    answer.momentVariant = toQString(subject->variant);
    answer.momentNs = momentOf(*subject, step.reveal.moment);
    return answer;
}

QStringList revealNumbers(const LessonStep& step, const Recording& recording) {
    QStringList lines;
    const VariantResult* slowest = nullptr;
    for (const QString& variant : step.show.variants)
        if (const VariantResult* run = findRun(recording, step.show.pipeline, variant))
            if (!slowest || run->timeMs > slowest->timeMs) slowest = run;
    for (const QString& variant : step.show.variants) {
        const VariantResult* run = findRun(recording, step.show.pipeline, variant);
        if (!run) continue;
        QStringList parts;
        for (const QString& number : step.reveal.numbers) {
            if (number == QLatin1String("time"))
                parts << formatDuration(run->timeMs);
            else if (number == QLatin1String("passes") && run->passesCounted)
                parts << numberText(AnswerUnit::Passes, run->passes);
            else if (number == QLatin1String("bytes"))
                parts << numberText(AnswerUnit::Bytes, numberOf(AnswerUnit::Bytes, *run, nullptr));
            else if (number == QLatin1String("speedup") && slowest)
                parts << numberText(AnswerUnit::Speedup,
                                    numberOf(AnswerUnit::Speedup, *run, slowest)) +
                             QStringLiteral(" than ") + toQString(slowest->variant);
            else if (number == QLatin1String("peak"))
                parts << numberText(AnswerUnit::PeakMegabytes,
                                    numberOf(AnswerUnit::PeakMegabytes, *run, nullptr));
            else if (number == QLatin1String("gbps"))
                parts << numberText(AnswerUnit::GBps, numberOf(AnswerUnit::GBps, *run, nullptr));
        }
        if (!parts.isEmpty())
            lines << QStringLiteral("%1: %2").arg(variant, parts.join(QStringLiteral(" · ")));
    }
    return lines;
}

Result<QString> normalizeAnswer(const LessonStep& step, const QString& typed) {
    const QString text = typed.trimmed();
    if (text.isEmpty()) return Status(ErrorCode::InvalidArgument, "the answer is empty");
    if (!step.question) return Status(ErrorCode::InvalidArgument, "this step asks nothing");
    const LessonQuestion& question = *step.question;
    if (question.kind == QuestionKind::Number) {
        static const QRegularExpression number(
            QStringLiteral("^([0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\\s*([A-Za-zµ/]*)$"));
        const QRegularExpressionMatch match = number.match(text);
        if (!match.hasMatch())
            return Status(ErrorCode::InvalidArgument, QStringLiteral("'%1' is not a number (in %2)")
                                                          .arg(text, answerUnitLabel(question.unit))
                                                          .toStdString());
        const std::optional<double> scale = unitScale(question.unit, match.captured(2));
        if (!scale)
            return Status(ErrorCode::InvalidArgument,
                          QStringLiteral("bad unit '%1' for a question in %2")
                              .arg(match.captured(2), answerUnitLabel(question.unit))
                              .toStdString());
        return QString::number(match.captured(1).toDouble() * *scale, 'g', 12);
    }
    if (question.kind == QuestionKind::Limit) {
        for (const QString& choice : question.choices)
            if (choice.compare(text, Qt::CaseInsensitive) == 0) return choice;
        return Status(ErrorCode::InvalidArgument,
                      QStringLiteral("'%1' is not among the choices (%2)")
                          .arg(text, question.choices.join(QStringLiteral(", ")))
                          .toStdString());
    }
    const QStringList names = variantsOf(text);
    for (const QString& name : names)
        if (!step.show.variants.contains(name))
            return Status(ErrorCode::InvalidArgument,
                          QStringLiteral("'%1' is not a variant of this step (%2)")
                              .arg(name, step.show.variants.join(QStringLiteral(", ")))
                              .toStdString());
    if (question.kind == QuestionKind::Winner) {
        if (names.size() != 1) return Status(ErrorCode::InvalidArgument, "name one variant");
        return names.constFirst();
    }
    if (names.size() != step.show.variants.size() ||
        QSet<QString>(names.begin(), names.end()).size() != names.size())
        return Status(ErrorCode::InvalidArgument,
                      QStringLiteral("order all %1 variants, each once, fastest first")
                          .arg(step.show.variants.size())
                          .toStdString());
    return names.join(QStringLiteral(", "));
}

Judgement judgeAnswer(const LessonStep& step, const QString& answer,
                      const MeasuredAnswer& measured) {
    Judgement judgement;
    judgement.normalized = answer;
    if (!step.question) return judgement;
    const LessonQuestion& question = *step.question;
    if (question.kind == QuestionKind::Number) {
        const double predicted = answer.toDouble();
        const double tolerance = question.unit == AnswerUnit::Passes ? 0.5 : 0.1 * measured.value;
        judgement.right = std::abs(predicted - measured.value) <= tolerance;
        if (measured.value != 0.0)
            judgement.relativeOff = (predicted - measured.value) / measured.value;
        if (judgement.right) {
            judgement.offText = QStringLiteral("right");
        } else if (judgement.relativeOff) {
            judgement.offText =
                QStringLiteral("%1 %2 (%3 %4)")
                    .arg(
                        differenceText(question.unit, std::abs(predicted - measured.value)),
                        predicted > measured.value ? QStringLiteral("high") : QStringLiteral("low"),
                        formatPercent(std::abs(*judgement.relativeOff)),
                        predicted > measured.value ? QStringLiteral("over")
                                                   : QStringLiteral("under"));
        } else {
            judgement.offText = QStringLiteral("measured 0");
        }
        return judgement;
    }
    if (question.kind == QuestionKind::Limit) {
        judgement.right = answer == measured.text;
        judgement.offText = judgement.right
                                ? QStringLiteral("right")
                                : QStringLiteral("wrong: %1 limits this tile").arg(measured.text);
        return judgement;
    }
    if (question.kind == QuestionKind::Winner) {
        judgement.right = answer == measured.order.constFirst();
        judgement.offText =
            judgement.right
                ? QStringLiteral("right")
                : QStringLiteral("wrong: %1 is fastest").arg(measured.order.constFirst());
        return judgement;
    }
    const QStringList names = variantsOf(answer);
    int inPlace = 0;
    for (int i = 0; i < names.size() && i < measured.order.size(); ++i)
        if (names[i] == measured.order[i]) ++inPlace;
    judgement.right = inPlace == measured.order.size();
    judgement.offText =
        judgement.right
            ? QStringLiteral("right")
            : QStringLiteral("%1 of %2 in place").arg(inPlace).arg(measured.order.size());
    return judgement;
}

}  // namespace fusescope::model
