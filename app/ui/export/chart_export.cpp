#include "ui/export/chart_export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QPointer>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "ui/charts/plot.h"
#include "ui/export/export_save.h"
#include "ui/export/svg_bytes.h"

namespace fusescope {
namespace {

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

// Drawn at `size` / `scale` and scaled up: the file has `size` units, the layout `size` / scale.
QByteArray svgBytes(QCustomPlot& plot, QSize size, double scale = 1.0) {
    const QSize layout = (QSizeF(size) / scale).toSize();
    return paintSvgBytes<QCPPainter>(size, QStringLiteral("FuseScope chart"), QString(),
                                     [&](QCPPainter& painter) {
                                         painter.scale(scale, scale);
                                         plot.toPainter(&painter, layout.width(), layout.height());
                                     });
}

// QCustomPlot's savePdf writes only to a file name; this is the same drawing into memory, one
// page of the chart's size in points.
QByteArray pdfBytes(QCustomPlot& plot, QSize size, double scale = 1.0, int dotsPerInch = 72) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly)) return {};
    {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("FuseScope"));
        writer.setTitle(QStringLiteral("FuseScope chart"));
        // The page is the size the pixels have at the preset's resolution.
        const QSizeF points = QSizeF(size) * 72.0 / dotsPerInch;
        QPageLayout layout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                           QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Point);
        layout.setMode(QPageLayout::FullPageMode);
        writer.setPageLayout(layout);
        QCPPainter painter;
        if (!painter.begin(&writer)) return {};
        painter.setMode(QCPPainter::pmVectorized);
        painter.setWindow(QRect(QPoint(0, 0), size));
        painter.scale(scale, scale);
        const QSize laidOut = (QSizeF(size) / scale).toSize();
        plot.toPainter(&painter, laidOut.width(), laidOut.height());
        painter.end();
    }
    return bytes;
}

// Sets every text of a plot to a pixel size for the time of an export, and restores it after:
// the first text element (the title) to one size, all other text to another.
class ExportFonts {
  public:
    ExportFonts(QCustomPlot& plot, double titlePixels, double textPixels) {
        bool title = true;
        for (QCPLayoutElement* element : plot.plotLayout()->elements(true)) {
            if (auto* text = qobject_cast<QCPTextElement*>(element)) {
                QFont font = text->font();
                texts_.push_back({text, font});
                set(font, title ? titlePixels : textPixels);
                text->setFont(font);
                title = false;
            } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
                legends_.push_back({legend, legend->font()});
                QFont font = legend->font();
                set(font, textPixels);
                legend->setFont(font);  // and its items'
            }
        }
        for (QCPAxisRect* rect : plot.axisRects())
            for (QCPAxis* axis : rect->axes()) {
                axes_.push_back({axis, axis->labelFont(), axis->tickLabelFont()});
                QFont label = axis->labelFont();
                set(label, textPixels);
                axis->setLabelFont(label);
                QFont ticks = axis->tickLabelFont();
                set(ticks, textPixels);
                axis->setTickLabelFont(ticks);
            }
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* item = qobject_cast<QCPItemText*>(plot.item(i))) {
                items_.push_back({item, item->font()});
                QFont font = item->font();
                set(font, textPixels);
                item->setFont(font);
            }
    }
    ~ExportFonts() {
        for (const auto& [text, font] : texts_)
            if (text) text->setFont(font);
        for (const auto& [legend, font] : legends_)
            if (legend) legend->setFont(font);
        for (const auto& [axis, label, ticks] : axes_)
            if (axis) {
                axis->setLabelFont(label);
                axis->setTickLabelFont(ticks);
            }
        for (const auto& [item, font] : items_)
            if (item) item->setFont(font);
    }
    ExportFonts(const ExportFonts&) = delete;
    ExportFonts& operator=(const ExportFonts&) = delete;

  private:
    static void set(QFont& font, double pixels) {
        font.setPixelSize(std::max(1, static_cast<int>(std::ceil(pixels))));
    }
    std::vector<std::pair<QPointer<QCPTextElement>, QFont>> texts_;
    std::vector<std::pair<QPointer<QCPLegend>, QFont>> legends_;
    std::vector<std::tuple<QPointer<QCPAxis>, QFont, QFont>> axes_;
    std::vector<std::pair<QPointer<QCPItemText>, QFont>> items_;
};

// The text a holder shows in full: the text fitter may have elided what is drawn.
QString fullTextOf(const QObject& holder, const QString& shown) {
    const QVariant full = holder.property("fusescopeFullText");
    return full.isValid() && shown == holder.property("fusescopeFitted").toString()
               ? full.toString()
               : shown;
}

// For the time of an export: texts that only make sense on screen are replaced by their export
// text (or hidden), and what is marked screen-only is hidden; all is restored after.
class ExportTexts {
  public:
    explicit ExportTexts(QCustomPlot& plot) {
        QList<QCPLayerable*> layerables;
        for (QCPLayoutElement* element : plot.plotLayout()->elements(true))
            if (element) layerables << element;
        for (int i = 0; i < plot.itemCount(); ++i) layerables << plot.item(i);
        for (int i = 0; i < plot.plottableCount(); ++i) layerables << plot.plottable(i);
        for (QCPLayerable* layerable : layerables) {
            if (layerable->property(kScreenOnlyProperty).toBool() && layerable->visible()) {
                hidden_.push_back(layerable);
                layerable->setVisible(false);
            }
            const QVariant exportText = layerable->property(kExportTextProperty);
            if (!exportText.isValid()) continue;
            const QString text = exportText.toString();
            if (auto* element = qobject_cast<QCPTextElement*>(layerable)) {
                texts_.push_back({element, fullTextOf(*element, element->text())});
                element->setText(text);
            } else if (auto* item = qobject_cast<QCPItemText*>(layerable)) {
                items_.push_back({item, fullTextOf(*item, item->text())});
                item->setText(text);
            } else if (auto* plottable = qobject_cast<QCPAbstractPlottable*>(layerable)) {
                names_.push_back({plottable, plottable->name()});
                plottable->setName(text);
            }
            if (text.isEmpty() && layerable->visible()) {
                hidden_.push_back(layerable);
                layerable->setVisible(false);
            }
        }
    }
    ~ExportTexts() {
        for (const auto& [element, text] : texts_)
            if (element) element->setText(text);
        for (const auto& [item, text] : items_)
            if (item) item->setText(text);
        for (const auto& [plottable, name] : names_)
            if (plottable) plottable->setName(name);
        for (const QPointer<QCPLayerable>& layerable : hidden_)
            if (layerable) layerable->setVisible(true);
    }
    ExportTexts(const ExportTexts&) = delete;
    ExportTexts& operator=(const ExportTexts&) = delete;

  private:
    std::vector<std::pair<QPointer<QCPTextElement>, QString>> texts_;
    std::vector<std::pair<QPointer<QCPItemText>, QString>> items_;
    std::vector<std::pair<QPointer<QCPAbstractPlottable>, QString>> names_;
    std::vector<QPointer<QCPLayerable>> hidden_;
};

}  // namespace

bool plotShowsData(QCustomPlot& plot) {
    for (int i = 0; i < plot.plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot.plottable(i);
        if (!plottable->visible()) continue;
        if (auto* map = qobject_cast<QCPColorMap*>(plottable)) {
            if (!map->data()->isEmpty()) return true;
        } else if (plottable->interface1D() && plottable->interface1D()->dataCount() > 0) {
            return true;
        }
    }
    return false;
}

const QList<ExportPreset>& exportPresets() {
    // Text sizes in the file's pixels. A slide is laid out like a 1280×720 window and drawn at
    // 1.5 times; a half slide (one of two charts side by side on a 1920 slide) at its own size;
    // print as a 7×4.5 inch figure at 300 dpi, laid out like 672×432 screen pixels.
    static const QList<ExportPreset> presets{
        {QStringLiteral("slide"), QObject::tr("Slide 16:9 (1920×1080)"), QSize(1920, 1080), 1.5, 96,
         30.0, 18.0},
        {QStringLiteral("half"), QObject::tr("Half slide (960×720)"), QSize(960, 720), 1.0, 96,
         26.0, 17.0},
        {QStringLiteral("print"), QObject::tr("Print (7×4.5 in at 300 dpi)"), QSize(2100, 1350),
         300.0 / 96.0, 300, 12.0 * 300 / 72, 9.0 * 300 / 72},
    };
    return presets;
}

const ExportPreset* findExportPreset(const QString& key) {
    for (const ExportPreset& preset : exportPresets())
        if (preset.key.compare(key, Qt::CaseInsensitive) == 0) return &preset;
    return nullptr;
}

QString exportPresetKeys() {
    QStringList keys;
    for (const ExportPreset& preset : exportPresets()) keys << preset.key;
    return keys.join(QStringLiteral(", "));
}

QImage renderChart(QCustomPlot& plot, const ExportPreset& preset) {
    QImage image;
    {
        const ExportTexts texts(plot);
        const ExportFonts fonts(plot, preset.titlePixels / preset.scale,
                                preset.textPixels / preset.scale);
        const QSize layout = (QSizeF(preset.pixels) / preset.scale).toSize();
        image = plot.toPixmap(layout.width(), layout.height(), preset.scale).toImage();
    }
    const int dotsPerMeter = qRound(preset.dotsPerInch / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    plot.replot(QCustomPlot::rpQueuedReplot);
    return image;
}

QString exportChart(QCustomPlot& plot, const QString& path, const ExportPreset& preset) {
    const QString suffix = suffixOf(path);
    QString error;
    if (suffix == QLatin1String("png")) {
        error = saveImageAsPng(renderChart(plot, preset), path);
    } else if (suffix == QLatin1String("pdf") || suffix == QLatin1String("svg")) {
        QByteArray bytes;
        {
            const ExportTexts texts(plot);
            const ExportFonts fonts(plot, preset.titlePixels / preset.scale,
                                    preset.textPixels / preset.scale);
            bytes = suffix == QLatin1String("pdf")
                        ? pdfBytes(plot, preset.pixels, preset.scale, preset.dotsPerInch)
                        : svgBytes(plot, preset.pixels, preset.scale);
        }
        error = saveExportBytes(bytes, path);
    } else {
        return QObject::tr("unknown chart format '%1': use .png, .svg or .pdf").arg(suffix);
    }
    plot.replot(QCustomPlot::rpQueuedReplot);
    return error;
}

QList<QCustomPlot*> exportablePlots(QWidget* root) {
    QList<QCustomPlot*> plots;
    for (QCustomPlot* plot : root->findChildren<QCustomPlot*>())
        if (!plot->objectName().isEmpty() && plot->property("fusescopeExportTitle").isValid())
            plots << plot;
    return plots;
}

QString exportFileStem(const QCustomPlot& plot) {
    const QString stem = plot.property("fusescopeFileStem").toString();
    return stem.isEmpty() ? plot.objectName() : stem;
}

QString exportTitle(const QCustomPlot& plot) {
    const QString title = plot.property("fusescopeExportTitle").toString();
    return title.isEmpty() ? plot.objectName() : title;
}

bool isSupportedChartFormat(const QString& path) {
    const QString suffix = suffixOf(path);
    return suffix == QLatin1String("png") || suffix == QLatin1String("svg") ||
           suffix == QLatin1String("pdf");
}

QString exportChart(QCustomPlot& plot, const QString& path, QSize size) {
    const QString suffix = suffixOf(path);
    QString error;
    const ExportTexts texts(plot);
    if (suffix == QLatin1String("png")) {
        // Twice the pixels keeps slides sharp on high-DPI projectors.
        error = saveImageAsPng(plot.toPixmap(size.width(), size.height(), 2.0).toImage(), path);
    } else if (suffix == QLatin1String("pdf")) {
        error = saveExportBytes(pdfBytes(plot, size), path);
    } else if (suffix == QLatin1String("svg")) {
        error = saveExportBytes(svgBytes(plot, size), path);
    } else {
        return QObject::tr("unknown chart format '%1': use .png, .svg or .pdf").arg(suffix);
    }
    // Drawing at the export size changed the layout; restore it for the widget on screen.
    plot.replot(QCustomPlot::rpQueuedReplot);
    return error;
}

}  // namespace fusescope
