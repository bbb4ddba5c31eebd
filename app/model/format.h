#pragma once
// Numbers as people read them, shared by the CLI's tables, the GUI and chart captions. The
// locale is fixed (English grouping) so output does not change with the user's settings.
#include <QString>
#include <QtGlobal>
#include <optional>

namespace fusescope::model {

QString formatCount(quint64 value);  // "268,435,456"
QString formatBytes(quint64 bytes);  // "1.07 GB" (decimal units, 3 digits)
// "227.0 KiB": shared memory, in the unit the GPU states its limit in and a refusal names.
QString formatKibibytes(quint64 bytes);
// `count` elements of `elementBytes` each, or nothing where the product passes 64 bits.
std::optional<quint64> bytesForElements(quint64 count, quint64 elementBytes);
QString formatMilliseconds(double ms);          // "0.763" (3 significant digits or more)
QString formatDuration(double ms);              // "763 µs", "12.4 ms", "1.20 s"
QString formatGBps(double gigabytesPerSecond);  // "4,210.5", "0.395" (3 digits or more)
QString formatPercent(double fraction);         // 0.895 -> "89.5%"
QString formatRatioTwoDecimals(double ratio);   // 1.0312 -> "1.03x", 1.1 -> "1.10x"
// How many times faster, slower or larger, as the verdict says it: 1.124 -> "1.12x", 67.98 ->
// "68x" (whole numbers from 10 up: a class reads 145x, not 144.72x); `sign` may be U+00D7.
QString formatTimes(double ratio, QChar sign = QLatin1Char('x'));
QString formatRelativeError(double relativeError);  // "1.2e-07", "0"
QString formatVectorWidth(int width);               // "4 (16-byte loads)"

// Text for a terminal: control characters other than newline and tab (escape sequences from a
// recording's device name, a pipeline name typed by the user) become visible, "\x1b[31m", and so
// do the bidirectional overrides and isolates that reorder what follows them, "\u202e".
QString escapeControlCharacters(const QString& text);

// As escapeControlCharacters, with newlines and tabs escaped too: a name from a file printed in
// a table row can then never start a row of its own.
QString escapeForOneLine(const QString& text);

}  // namespace fusescope::model
