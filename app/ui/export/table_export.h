#pragma once
// Tables leave the program as CSV (for a spreadsheet) or as an image (for a slide): the model's
// header and every row as shown, sorted as the view shows them. Written atomically.
#include <QByteArray>
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace fusescope {

// RFC 4180: fields with commas, quotes or line breaks are quoted, quotes doubled; UTF-8.
QByteArray tableCsv(const QAbstractItemModel& model);
// A table image's text height and largest size when nothing else asks: reads on a slide.
inline constexpr int kTableTextPixels = 18;
inline constexpr QSize kTablePageSize{1920, 1080};
// The table drawn as grids with their header, text `textPixels` high, none larger than `page`:
// a cell wider than half the page wraps at its spaces, columns that still do not fit go on
// further images (each repeating the first columns, which name the row), and so do rows.
QList<QImage> tableImages(const QAbstractItemModel& model, int textPixels = kTableTextPixels,
                          QSize page = kTablePageSize);
// By the suffix: .csv or .png. A table that needs several images is written as PATH-1.png,
// PATH-2.png, ... Empty on success, else why not; `written` gets the paths written.
QString exportTable(const QAbstractItemModel& model, const QString& path,
                    int textPixels = kTableTextPixels, QSize page = kTablePageSize,
                    QStringList* written = nullptr);

// A widget property: a table that holds what the user declares (the lab's buffers), not a view
// of the open recording. Exports and the checks for stale views leave it out.
inline constexpr char kNotARecordingView[] = "fusescopeNotARecordingView";

// The tables under `root` that have something to export (a name, a column and a row, and not
// kNotARecordingView), in the order they were made; their files are named after them:
// variantTable.csv, kernelTable.png.
QList<QTableView*> exportableTables(QWidget* root);

// A context menu "Export table as CSV… / as image…" on every table view under `root`.
void addTableExportMenus(QWidget* root);

}  // namespace fusescope
