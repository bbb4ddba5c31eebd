// The answer units' words: the key a plan writes and the label beside a number.
#include "model/lesson/lesson_plan.h"
#include "model/lesson/lesson_plan_steps.h"

namespace fusescope::model {
namespace {

struct UnitWords {
    AnswerUnit unit;
    const char* key;
    const char* label;
};
constexpr UnitWords kUnits[] = {
    {AnswerUnit::Passes, "passes", "passes"},
    {AnswerUnit::Bytes, "bytes", "bytes requested (pass model)"},
    {AnswerUnit::Speedup, "speedup", "x faster"},
    {AnswerUnit::PeakMegabytes, "peak-mb", "MB peak in flight"},
    {AnswerUnit::GBps, "gbps", "GB/s requested"},
    {AnswerUnit::Milliseconds, "ms", "ms"},
};

}  // namespace

QString answerUnitKey(AnswerUnit unit) {
    for (const UnitWords& words : kUnits)
        if (words.unit == unit) return QLatin1String(words.key);
    return {};
}

std::optional<AnswerUnit> answerUnitFromKey(const QString& key) {
    for (const UnitWords& words : kUnits)
        if (key == QLatin1String(words.key)) return words.unit;
    return std::nullopt;
}

QString answerUnitLabel(AnswerUnit unit) {
    for (const UnitWords& words : kUnits)
        if (words.unit == unit) return QLatin1String(words.label);
    return {};
}

QStringList answerUnitKeys() {
    QStringList keys;
    for (const UnitWords& words : kUnits) keys << QLatin1String(words.key);
    return keys;
}

}  // namespace fusescope::model
