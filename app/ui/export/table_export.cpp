#include "ui/export/table_export.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QStringList>
#include <QTableView>
#include <algorithm>
#include <cmath>

#include "ui/export/export_save.h"

namespace fusescope {
namespace {

QString csvField(QString text) {
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
        text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'))) {
        text.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        return QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text;
}

QString cellText(const QAbstractItemModel& model, int row, int column) {
    return model.data(model.index(row, column), Qt::DisplayRole).toString();
}

}  // namespace

QByteArray tableCsv(const QAbstractItemModel& model) {
    QStringList lines;
    QStringList header;
    for (int column = 0; column < model.columnCount(); ++column)
        header << csvField(model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
    lines << header.join(QLatin1Char(','));
    for (int row = 0; row < model.rowCount(); ++row) {
        QStringList fields;
        for (int column = 0; column < model.columnCount(); ++column)
            fields << csvField(cellText(model, row, column));
        lines << fields.join(QLatin1Char(','));
    }
    return (lines.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n")).toUtf8();
}

namespace {

// The height `text` takes laid out in `width`, wrapped at its spaces.
double wrappedHeight(const QFontMetricsF& metrics, const QString& text, double width) {
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
}

// Draws rows [firstRow, endRow) of the columns listed, the header on top.
QImage drawTablePart(const QAbstractItemModel& model, const QFont& font, const QFont& bold,
                     const QVector<double>& widths, const QVector<double>& rowHeights,
                     const QList<int>& columns, int firstRow, int endRow, double pad) {
    double total = 0.0;
    for (int column : columns) total += widths[column];
    double height = rowHeights[0];
    for (int row = firstRow; row < endRow; ++row) height += rowHeights[row + 1];
    QImage image(QSize(std::max(1, int(std::ceil(total))), std::max(1, int(std::ceil(height)))),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    double y = 0.0;
    QList<int> rows{-1};  // -1: the header
    for (int row = firstRow; row < endRow; ++row) rows << row;
    for (int row : rows) {
        const double rowHeight = rowHeights[row + 1];
        if (row >= 0 && (row - firstRow) % 2 == 1)
            painter.fillRect(QRectF(0, y, total, rowHeight), QColor(240, 243, 247));
        double x = 0.0;
        for (int column : columns) {
            const QString text =
                row < 0 ? model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString()
                        : cellText(model, row, column);
            painter.setFont(row < 0 ? bold : font);
            painter.setPen(Qt::black);
            painter.drawText(QRectF(x + pad, y, widths[column] - 2 * pad, rowHeight),
                             Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, text);
            x += widths[column];
        }
        y += rowHeight;
        painter.setPen(QColor(200, 200, 200));
        painter.drawLine(QPointF(0, y - 1), QPointF(total, y - 1));
    }
    return image;
}

}  // namespace

QList<QImage> tableImages(const QAbstractItemModel& model, int textPixels, QSize page) {
    QFont font;
    font.setPixelSize(textPixels);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font);
    const QFontMetricsF boldMetrics(bold);
    const double pad = textPixels * 0.5;
    const int columns = model.columnCount();
    const int rows = model.rowCount();
    // Each column as wide as its widest text, but no wider than half the page: longer text wraps.
    const double widest = std::max(4.0 * textPixels, page.width() / 2.0 - 2 * pad);
    QVector<double> widths(columns, 0.0);
    for (int column = 0; column < columns; ++column) {
        const QString head = model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        double width = boldMetrics.size(0, head).width();
        for (int row = 0; row < rows; ++row)
            width = std::max(width, metrics.size(0, cellText(model, row, column)).width());
        widths[column] = std::min(std::ceil(width), widest);
    }
    // rowHeights[0] is the header's; rowHeights[r + 1] the model's row r.
    QVector<double> rowHeights(rows + 1, metrics.height());
    for (int column = 0; column < columns; ++column) {
        const QString head = model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        rowHeights[0] = std::max(rowHeights[0], wrappedHeight(boldMetrics, head, widths[column]));
        for (int row = 0; row < rows; ++row)
            rowHeights[row + 1] =
                std::max(rowHeights[row + 1],
                         wrappedHeight(metrics, cellText(model, row, column), widths[column]));
    }
    for (double& height : rowHeights) height = std::ceil(height + pad);
    for (double& width : widths) width += 2 * pad;

    // The columns that name a row (the first, and those after it within a quarter of the page:
    // a variant and its kernel) start every group; the others fill groups as wide as the page.
    QList<int> names{0};
    double namesWidth = columns > 0 ? widths[0] : 0.0;
    while (names.size() < columns - 1 && namesWidth + widths[names.size()] <= page.width() / 4.0) {
        namesWidth += widths[names.size()];
        names << int(names.size());
    }
    QList<QList<int>> groups;
    QList<int> group = columns > 0 ? names : QList<int>{};
    double groupWidth = namesWidth;
    for (int column = int(names.size()); column < columns; ++column) {
        if (group.size() > names.size() && groupWidth + widths[column] > page.width()) {
            groups << group;
            group = names;
            groupWidth = namesWidth;
        }
        group << column;
        groupWidth += widths[column];
    }
    if (!group.isEmpty()) groups << group;
    // Rows in pages as high as the page at most, each with the header.
    QList<std::pair<int, int>> rowPages;
    int first = 0;
    double height = rowHeights[0];
    for (int row = 0; row < rows; ++row) {
        if (row > first && height + rowHeights[row + 1] > page.height()) {
            rowPages.push_back({first, row});
            first = row;
            height = rowHeights[0];
        }
        height += rowHeights[row + 1];
    }
    rowPages.push_back({first, rows});

    QList<QImage> images;
    for (const auto& [firstRow, endRow] : rowPages)
        for (const QList<int>& shown : groups)
            images << drawTablePart(model, font, bold, widths, rowHeights, shown, firstRow, endRow,
                                    pad);
    return images;
}

QString exportTable(const QAbstractItemModel& model, const QString& path, int textPixels,
                    QSize page, QStringList* written) {
    const QFileInfo file(path);
    const QString suffix = file.suffix().toLower();
    if (suffix == QLatin1String("csv")) {
        const QString error = saveExportBytes(tableCsv(model), path);
        if (error.isEmpty() && written) *written << path;
        return error;
    }
    if (suffix != QLatin1String("png"))
        return QObject::tr("unknown table format '%1': use .csv or .png").arg(suffix);
    const QList<QImage> images = tableImages(model, textPixels, page);
    for (int index = 0; index < images.size(); ++index) {
        const QString target = images.size() == 1
                                   ? path
                                   : file.dir().filePath(QStringLiteral("%1-%2.%3")
                                                             .arg(file.completeBaseName())
                                                             .arg(index + 1)
                                                             .arg(file.suffix()));
        if (const QString error = saveImageAsPng(images[index], target); !error.isEmpty())
            return error;
        if (written) *written << target;
    }
    return {};
}

QList<QTableView*> exportableTables(QWidget* root) {
    QList<QTableView*> tables;
    for (QTableView* table : root->findChildren<QTableView*>()) {
        const QAbstractItemModel* model = table->model();
        if (!table->objectName().isEmpty() && model && model->columnCount() > 0 &&
            model->rowCount() > 0 && !table->property(kNotARecordingView).toBool())
            tables << table;
    }
    return tables;
}

void addTableExportMenus(QWidget* root) {
    for (QAbstractItemView* view : root->findChildren<QAbstractItemView*>()) {
        if (!view->model() || view->contextMenuPolicy() != Qt::DefaultContextMenu) continue;
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(
            view, &QWidget::customContextMenuRequested, view, [view](const QPoint& at) {
                QMenu menu(view);
                const auto save = [view](const QString& filter, const QString& suffix) {
                    QString path = QFileDialog::getSaveFileName(
                        view, QObject::tr("Export table"),
                        (view->objectName().isEmpty() ? QStringLiteral("table")
                                                      : view->objectName()) +
                            suffix,
                        filter);
                    if (path.isEmpty()) return;
                    if (QFileInfo(path).suffix().isEmpty()) path += suffix;
                    if (const QString error = exportTable(*view->model(), path); !error.isEmpty())
                        QMessageBox::critical(view, QObject::tr("Cannot export table"), error);
                };
                menu.addAction(QObject::tr("Export table as CSV…"), view, [save] {
                    save(QObject::tr("CSV (*.csv)"), QStringLiteral(".csv"));
                });
                menu.addAction(QObject::tr("Export table as image…"), view, [save] {
                    save(QObject::tr("PNG image (*.png)"), QStringLiteral(".png"));
                });
                menu.exec(view->viewport()->mapToGlobal(at));
            });
    }
}

}  // namespace fusescope
