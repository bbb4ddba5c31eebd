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
#include <functional>
#include <vector>

#include "ui/charts/plot.h"
#include "ui/charts/plot_axis_rects.h"
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

// Changes to a plot for the time of an export, each undone when the export ends (on an object
// that still exists).
class ExportChanges {
  public:
    ExportChanges() = default;
    ~ExportChanges() {
        for (const std::function<void()>& undo : undo_) undo();
    }
    ExportChanges(const ExportChanges&) = delete;
    ExportChanges& operator=(const ExportChanges&) = delete;

  protected:
    // `restore(object)` when the export ends, unless `object` is gone by then.
    template <typename Object, typename Restore>
    void undoLater(Object* object, Restore restore) {
        undo_.push_back([guarded = QPointer<Object>(object), restore] {
            if (guarded) restore(guarded.data());
        });
    }

  private:
    std::vector<std::function<void()>> undo_;
};

// Sets every text of a plot to a pixel size for the time of an export, and restores it after:
// the first text element (the title) to one size, all other text to another.
class ExportFonts : ExportChanges {
  public:
    ExportFonts(QCustomPlot& plot, double titlePixels, double textPixels) {
        bool title = true;
        for (QCPLayoutElement* element : plot.plotLayout()->elements(true)) {
            if (auto* text = qobject_cast<QCPTextElement*>(element)) {
                resize(text, title ? titlePixels : textPixels);
                title = false;
            } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
                resize(legend, textPixels);  // and its items'
            }
        }
        for (QCPAxisRect* rect : everyAxisRect(plot))
            for (QCPAxis* axis : rect->axes()) {
                undoLater(axis, [label = axis->labelFont(),
                                 ticks = axis->tickLabelFont()](QCPAxis* restored) {
                    restored->setLabelFont(label);
                    restored->setTickLabelFont(ticks);
                });
                axis->setLabelFont(sized(axis->labelFont(), textPixels));
                axis->setTickLabelFont(sized(axis->tickLabelFont(), textPixels));
            }
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* item = qobject_cast<QCPItemText*>(plot.item(i))) resize(item, textPixels);
    }

  private:
    template <typename Holder>
    void resize(Holder* holder, double pixels) {
        undoLater(holder, [font = holder->font()](Holder* restored) { restored->setFont(font); });
        holder->setFont(sized(holder->font(), pixels));
    }
    static QFont sized(QFont font, double pixels) {
        font.setPixelSize(std::max(1, static_cast<int>(std::ceil(pixels))));
        return font;
    }
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
class ExportTexts : ExportChanges {
  public:
    explicit ExportTexts(QCustomPlot& plot) {
        QList<QCPLayerable*> layerables;
        for (QCPLayoutElement* element : plot.plotLayout()->elements(true))
            if (element) layerables << element;
        for (int i = 0; i < plot.itemCount(); ++i) layerables << plot.item(i);
        for (int i = 0; i < plot.plottableCount(); ++i) layerables << plot.plottable(i);
        for (QCPLayerable* layerable : layerables) {
            if (layerable->property(kScreenOnlyProperty).toBool() && layerable->visible())
                hide(layerable);
            const QVariant exportText = layerable->property(kExportTextProperty);
            if (!exportText.isValid()) continue;
            const QString text = exportText.toString();
            if (auto* element = qobject_cast<QCPTextElement*>(layerable)) {
                replaceText(element, text);
            } else if (auto* item = qobject_cast<QCPItemText*>(layerable)) {
                replaceText(item, text);
            } else if (auto* plottable = qobject_cast<QCPAbstractPlottable*>(layerable)) {
                undoLater(plottable, [name = plottable->name()](QCPAbstractPlottable* restored) {
                    restored->setName(name);
                });
                plottable->setName(text);
            }
            if (text.isEmpty() && layerable->visible()) hide(layerable);
        }
    }

  private:
    template <typename Holder>
    void replaceText(Holder* holder, const QString& text) {
        undoLater(holder, [full = fullTextOf(*holder, holder->text())](Holder* restored) {
            restored->setText(full);
        });
        holder->setText(text);
    }
    void hide(QCPLayerable* layerable) {
        undoLater(layerable, [](QCPLayerable* restored) { restored->setVisible(true); });
        layerable->setVisible(false);
    }
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
