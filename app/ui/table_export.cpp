#include "ui/table_export.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QStringList>
#include <QTableView>
#include <algorithm>
#include <cmath>

#include "ui/export_save.h"

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

QImage tableImage(const QAbstractItemModel& model, int textPixels) {
    QFont font;
    font.setPixelSize(textPixels);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font);
    const QFontMetricsF boldMetrics(bold);
    const double pad = textPixels * 0.5;
    const int rows = model.rowCount() + 1;
    const int columns = model.columnCount();
    QVector<double> widths(columns, 0.0);
    double lineHeight = 0.0;
    for (int column = 0; column < columns; ++column) {
        const QString head = model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        widths[column] = boldMetrics.size(0, head).width();
        lineHeight = std::max(lineHeight, boldMetrics.size(0, head).height());
        for (int row = 0; row < model.rowCount(); ++row) {
            const QSizeF size = metrics.size(0, cellText(model, row, column));
            widths[column] = std::max(widths[column], size.width());
            lineHeight = std::max(lineHeight, size.height());
        }
    }
    const double rowHeight = lineHeight + pad;
    double total = 0.0;
    for (double& width : widths) total += (width += 2 * pad);
    QImage image(QSize(std::max(1, int(std::ceil(total))), std::max(1, int(rows * rowHeight) + 1)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    for (int row = 0; row < rows; ++row) {
        const double y = row * rowHeight;
        if (row % 2 == 0 && row > 0)
            painter.fillRect(QRectF(0, y, total, rowHeight), QColor(240, 243, 247));
        double x = 0.0;
        for (int column = 0; column < columns; ++column) {
            const QString text =
                row == 0 ? model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString()
                         : cellText(model, row - 1, column);
            painter.setFont(row == 0 ? bold : font);
            painter.setPen(Qt::black);
            painter.drawText(QRectF(x + pad, y, widths[column] - 2 * pad, rowHeight),
                             Qt::AlignLeft | Qt::AlignVCenter, text);
            x += widths[column];
        }
        painter.setPen(QColor(200, 200, 200));
        painter.drawLine(QPointF(0, y + rowHeight), QPointF(total, y + rowHeight));
    }
    return image;
}

QString exportTable(const QAbstractItemModel& model, const QString& path, int textPixels) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) return saveExportBytes(tableCsv(model), path);
    if (suffix == QLatin1String("png")) return saveImageAsPng(tableImage(model, textPixels), path);
    return QObject::tr("unknown table format '%1': use .csv or .png").arg(suffix);
}

QList<QTableView*> exportableTables(QWidget* root) {
    QList<QTableView*> tables;
    for (QTableView* table : root->findChildren<QTableView*>()) {
        const QAbstractItemModel* model = table->model();
        if (!table->objectName().isEmpty() && model && model->columnCount() > 0 &&
            model->rowCount() > 0)
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
