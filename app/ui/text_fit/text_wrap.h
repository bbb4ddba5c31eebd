#pragma once
// Text made to fit a width: wrapped at the " · " separators of captions, or elided keeping the
// unit of an axis label.
#include <QFontMetricsF>
#include <QString>

namespace fusescope::text_fit {

// Greedy lines of " · "-separated parts that fit `width`, at most `maxLines`; a part wider than
// the line wraps at its spaces, and what is still too wide is elided.
QString wrapAtSeparators(const QString& text, const QFontMetricsF& metrics, double width,
                         int maxLines);

// `text` elided to `width`; a unit in parentheses at its end ("bytes moved (GB)") stays whole
// where it fits.
QString elideKeepingUnit(const QString& text, const QFontMetricsF& metrics, double width);

// `text` whole where it fits `width`; else its unit in parentheses on a second line where both
// lines fit ("model bytes / time" over "(GB/s)"); else elideKeepingUnit's.
QString breakBeforeUnit(const QString& text, const QFontMetricsF& metrics, double width);

}  // namespace fusescope::text_fit
