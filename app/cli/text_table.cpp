#include "cli/text_table.h"

#include <algorithm>

namespace fusescope::cli {
namespace {

constexpr int kColumnGap = 2;  // at least two spaces, so cells with one space still split cleanly

}  // namespace

void TextTable::addColumn(const QString& header, Align align) {
    headers_ << header;
    alignments_ << align;
}

void TextTable::addColumns(std::initializer_list<Column> columns) {
    for (const Column& column : columns) addColumn(column.header, column.align);
}

void TextTable::addRow(const QStringList& cells) {
    rows_ << cells;
}

QStringList TextTable::render(const QString& indent) const {
    QVector<qsizetype> widths(headers_.size());
    for (qsizetype c = 0; c < headers_.size(); ++c) {
        widths[c] = headers_[c].size();
        for (const QStringList& row : rows_) widths[c] = std::max(widths[c], row.value(c).size());
    }
    const auto line = [&](const QStringList& cells) {
        QString text = indent;
        for (qsizetype c = 0; c < headers_.size(); ++c) {
            const QString cell = cells.value(c);
            const auto width = static_cast<int>(widths[c]);
            if (c > 0) text += QString(kColumnGap, QLatin1Char(' '));
            text += alignments_[c] == Align::Right ? cell.rightJustified(width)
                                                   : cell.leftJustified(width);
        }
        while (text.endsWith(QLatin1Char(' '))) text.chop(1);
        return text;
    };
    QStringList lines;
    lines << line(headers_);
    qsizetype ruleWidth = kColumnGap * std::max<qsizetype>(0, headers_.size() - 1);
    for (qsizetype width : widths) ruleWidth += width;
    lines << indent + QString(ruleWidth, QLatin1Char('-'));
    for (const QStringList& row : rows_) lines << line(row);
    return lines;
}

}  // namespace fusescope::cli
