#pragma once
// What a chart shows on screen only. Text that makes sense only with a pointer ("hover a bar")
// has an export text, and cursors and notes about them are screen-only: exported files (slides,
// print) leave them out. Header-only: the views below the GUI library mark their own text.
#include <QObject>
#include <QString>
#include <QVariant>

namespace fusescope {

inline constexpr const char* kExportTextProperty = "fusescopeExportText";
inline constexpr const char* kScreenOnlyProperty = "fusescopeScreenOnly";

// `holder` (a text element, a text item or a plottable, whose name the legend shows) shows
// `exportText` in exported files instead of its text; an empty one hides it there.
inline void setExportText(QObject* holder, const QString& exportText) {
    holder->setProperty(kExportTextProperty, QVariant::fromValue(exportText));
}

// `layerable` (a cursor, a note about it) is drawn on screen only, never in exported files.
inline void markScreenOnly(QObject* layerable) {
    layerable->setProperty(kScreenOnlyProperty, true);
}

}  // namespace fusescope
