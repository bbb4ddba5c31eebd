#pragma once
// Tables leave the program as CSV (for a spreadsheet) or as an image (for a slide): the model's
// header and every row as shown, sorted as the view shows them. Written atomically.
#include <QByteArray>
#include <QImage>
#include <QString>

class QAbstractItemModel;
class QWidget;

namespace fusescope {

// RFC 4180: fields with commas, quotes or line breaks are quoted, quotes doubled; UTF-8.
QByteArray tableCsv(const QAbstractItemModel& model);
// The table drawn as a grid with its header, text `textPixels` high (18: reads on a slide).
QImage tableImage(const QAbstractItemModel& model, int textPixels = 18);
// By the suffix: .csv or .png. Empty on success, else why not.
QString exportTable(const QAbstractItemModel& model, const QString& path);

// A context menu "Export table as CSV… / as image…" on every table view under `root`.
void addTableExportMenus(QWidget* root);

}  // namespace fusescope
