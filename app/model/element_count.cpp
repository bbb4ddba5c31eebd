#include "model/element_count.h"

#include <QRegularExpression>

namespace fusescope::model {

ElementCount parseElementCount(const QString& text) {
    static const QRegularExpression grouping(QStringLiteral("[,_ ]"));
    static const QRegularExpression wholeNumber(QStringLiteral("^[+-]?[0-9]+$"));
    static const QRegularExpression powerOfTwo(QStringLiteral("^2\\^([0-9]+)$"));
    QString cleaned = text.trimmed();
    cleaned.remove(grouping);
    ElementCount count;
    if (const QRegularExpressionMatch match = powerOfTwo.match(cleaned); match.hasMatch()) {
        // Three digits or more: past 64 bits (and past what toInt() holds).
        const int exponent = match.captured(1).size() > 2 ? 64 : match.captured(1).toInt();
        if (exponent >= 64)
            count.problem = ElementCount::Problem::PastSixtyFourBits;
        else
            count.value = quint64{1} << exponent;
        return count;
    }
    if (!wholeNumber.match(cleaned).hasMatch()) {
        count.problem = ElementCount::Problem::NotAWholeNumber;
        return count;
    }
    // Anything negative, even past 64 bits, is below one.
    if (cleaned.startsWith(QLatin1Char('-'))) {
        count.problem = ElementCount::Problem::BelowOne;
        return count;
    }
    bool ok = false;
    count.value = cleaned.toULongLong(&ok);
    if (!ok) {
        // Every character is a digit, so the number is past 64 bits.
        count.value = 0;
        count.problem = ElementCount::Problem::PastSixtyFourBits;
    } else if (count.value == 0) {
        count.problem = ElementCount::Problem::BelowOne;
    }
    return count;
}

std::optional<quint64> elementCountValue(const QString& text) {
    const ElementCount count = parseElementCount(text);
    if (!count.ok()) return std::nullopt;
    return count.value;
}

}  // namespace fusescope::model
