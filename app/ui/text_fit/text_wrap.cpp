#include "ui/text_fit/text_wrap.h"

#include <QStringList>

namespace fusescope::text_fit {
namespace {

// Greedy lines of words that fit `width`; a single word wider than that stays whole.
QStringList wrapWords(const QString& text, const QFontMetricsF& metrics, double width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString joined = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (metrics.horizontalAdvance(joined) <= width || line.isEmpty()) {
            line = joined;
            continue;
        }
        lines << line;
        line = word;
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

// Where a unit in parentheses at the end of `text` starts (its " ("), or -1 where it has none.
qsizetype unitStart(const QString& text) {
    const qsizetype open = text.lastIndexOf(QStringLiteral(" ("));
    return text.endsWith(QLatin1Char(')')) && open > 0 ? open : -1;
}

}  // namespace

// its spaces, and what is still too wide is elided.
QString wrapAtSeparators(const QString& text, const QFontMetricsF& metrics, double width,
                         int maxLines) {
    const QString separator = QStringLiteral(" · ");
    QStringList lines;
    QString line;
    for (const QString& part : text.split(QLatin1Char('\n')).join(separator).split(separator)) {
        const QString joined = line.isEmpty() ? part : line + separator + part;
        if (metrics.horizontalAdvance(joined) <= width) {
            line = joined;
            continue;
        }
        if (!line.isEmpty()) lines << line;
        line = part;
        if (metrics.horizontalAdvance(part) > width) {
            const QStringList words = wrapWords(part, metrics, width);
            lines << words.mid(0, words.size() - 1);
            line = words.isEmpty() ? QString() : words.last();
        }
    }
    if (!line.isEmpty()) lines << line;
    if (lines.size() > maxLines) {
        QStringList kept = lines.mid(0, maxLines);
        kept.last() = kept.last() + separator + lines.mid(maxLines).join(separator);
        lines = kept;
    }
    for (QString& each : lines) each = metrics.elidedText(each, Qt::ElideRight, width);
    return lines.join(QLatin1Char('\n'));
}

// `text` elided to `width`; a unit in parentheses at its end ("bytes moved (GB)") stays whole
// where it fits: "bytes mo… (GB)" says what the numbers are, "bytes move…" does not.
QString elideKeepingUnit(const QString& text, const QFontMetricsF& metrics, double width) {
    if (metrics.horizontalAdvance(text) <= width) return text;
    const qsizetype open = unitStart(text);
    if (open < 0) return metrics.elidedText(text, Qt::ElideRight, width);
    const QString unit = text.mid(open);
    const double room = width - metrics.horizontalAdvance(unit);
    const QString name = metrics.elidedText(text.left(open), Qt::ElideRight, room);
    if (room > 0 && name.size() > 1) return name + unit;
    // Nothing of the name left: the unit alone, which still says what the numbers are, where it
    // fits ("(GB, log)" rather than "bytes (G…"); else the plain elision.
    const QString unitAlone = unit.trimmed();
    if (metrics.horizontalAdvance(unitAlone) <= width) return unitAlone;
    return metrics.elidedText(text, Qt::ElideRight, width);
}

QString breakBeforeUnit(const QString& text, const QFontMetricsF& metrics, double width) {
    if (metrics.horizontalAdvance(text) <= width) return text;
    if (const qsizetype open = unitStart(text); open > 0) {
        const QString name = text.left(open), unit = text.mid(open + 1);
        if (metrics.horizontalAdvance(name) <= width && metrics.horizontalAdvance(unit) <= width)
            return name + QLatin1Char('\n') + unit;
    }
    return elideKeepingUnit(text, metrics, width);
}

}  // namespace fusescope::text_fit
