#pragma once
// Tables leave the program as CSV (for a spreadsheet) or as an image (for a slide): the model's
// header and every row as shown, sorted as the view shows them. Written atomically.
#include <QByteArray>
#include <QImage>
#include <QList>
#include <QString>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace fusescope {

// RFC 4180: fields with commas, quotes or line breaks are quoted, quotes doubled; UTF-8.
QByteArray tableCsv(const QAbstractItemModel& model);
// A table image's text height when nothing else asks: reads on a slide.
inline constexpr int kTableTextPixels = 18;
// The table drawn as a grid with its header, text `textPixels` high.
QImage tableImage(const QAbstractItemModel& model, int textPixels = kTableTextPixels);
// By the suffix: .csv or .png. Empty on success, else why not.
QString exportTable(const QAbstractItemModel& model, const QString& path,
                    int textPixels = kTableTextPixels);

// The tables under `root` that have something to export (a name, a column and a row), in the
// order they were made; their files are named after them: variantTable.csv, kernelTable.png.
QList<QTableView*> exportableTables(QWidget* root);

// A context menu "Export table as CSV… / as image…" on every table view under `root`.
void addTableExportMenus(QWidget* root);

}  // namespace fusescope
