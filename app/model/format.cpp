#include "model/format.h"

#include <QLocale>
#include <QtNumeric>
#include <algorithm>
#include <cmath>

#include "core/byte_text.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

const QLocale& englishLocale() {
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

// Decimals that show at least `significant` digits of `value` (and none for large values).
int decimalsFor(double value, int significant) {
    const double magnitude = std::fabs(value);
    if (magnitude == 0.0 || !std::isfinite(magnitude)) return significant - 1;
    const int integerDigits = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
    return std::max(0, significant - integerDigits);
}

}  // namespace

QString formatCount(quint64 value) {
    return englishLocale().toString(static_cast<qulonglong>(value));
}

QString formatBytes(quint64 bytes) {
    return QString::fromStdString(bytesText(static_cast<double>(bytes)));
}

QString formatKibibytes(quint64 bytes) {
    return QString::fromStdString(kibibytesText(bytes));
}

QString formatMilliseconds(double ms) {
    return englishLocale().toString(ms, 'f', decimalsFor(ms, 3));
}

QString formatDuration(double ms) {
    if (ms >= 1000.0) {
        const double seconds = ms / 1000.0;
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', decimalsFor(seconds, 3));
    }
    if (ms >= 1.0) return QStringLiteral("%1 ms").arg(ms, 0, 'f', decimalsFor(ms, 3));
    const double microseconds = ms * 1000.0;
    return QStringLiteral("%1 µs").arg(microseconds, 0, 'f', decimalsFor(microseconds, 3));
}

QString formatGBps(double gigabytesPerSecond) {
    return englishLocale().toString(gigabytesPerSecond, 'f',
                                    std::max(1, decimalsFor(gigabytesPerSecond, 3)));
}

QString formatPercent(double fraction) {
    return QStringLiteral("%1%").arg(fraction * 100.0, 0, 'f', 1);
}

QString formatRatioTwoDecimals(double ratio) {
    return QStringLiteral("%1x").arg(ratio, 0, 'f', 2);
}

QString formatTimes(double ratio, QChar sign) {
    // Decided on the rounded value, so 9.996 reads "10x", not "10.00x".
    const bool belowTen = std::abs(std::round(ratio * 100.0) / 100.0) < 10.0;
    return QString::number(ratio, 'f', belowTen ? 2 : 0) + sign;
}

QString formatRelativeError(double relativeError) {
    if (relativeError == 0.0) return QStringLiteral("0");
    return QString::number(relativeError, 'e', 1);
}

std::optional<quint64> bytesForElements(quint64 count, quint64 elementBytes) {
    quint64 bytes = 0;
    if (qMulOverflow(count, elementBytes, &bytes)) return std::nullopt;
    return bytes;
}

namespace {

// Marks, embeddings, overrides and isolates: invisible, and they reorder the text after them.
bool isBidiControl(char16_t code) {
    return code == 0x061c || code == 0x200e || code == 0x200f ||
           (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

QString escaped(const QString& text, bool keepLineBreaks) {
    QString result;
    result.reserve(text.size());
    for (const QChar c : text) {
        const char16_t code = c.unicode();
        const bool lineBreak = code == u'\n' || code == u'\t';
        const bool control =
            (code < 0x20 && !(keepLineBreaks && lineBreak)) || (code >= 0x7f && code <= 0x9f);
        if (control)
            result += QStringLiteral("\\x%1").arg(static_cast<int>(code), 2, 16, QLatin1Char('0'));
        else if (isBidiControl(code))
            result += QStringLiteral("\\u%1").arg(static_cast<int>(code), 4, 16, QLatin1Char('0'));
        else
            result += c;
    }
    return result;
}

}  // namespace

QString escapeControlCharacters(const QString& text) {
    return escaped(text, true);
}

QString escapeForOneLine(const QString& text) {
    return escaped(text, false);
}

QString formatVectorWidth(int width) {
    return QStringLiteral("%1 (%2-byte loads)")
        .arg(width)
        .arg(width * static_cast<int>(sizeof(float)));
}

}  // namespace fusescope::model
