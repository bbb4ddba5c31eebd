#include "ui/charts/plot_font_follow.h"

#include <QEvent>
#include <cmath>

#include "ui/charts/plot_axis_rects.h"

namespace fusescope {
namespace {

double fontSize(const QFont& font) {
    return font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize();
}

QFont scaled(QFont font, double factor) {
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    return font;
}

class PlotFontFollower : public QObject {
  public:
    explicit PlotFontFollower(QCustomPlot* plot)
        : QObject(plot), plot_(plot), size_(fontSize(plot->font())) {
        plot->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == plot_ && event->type() == QEvent::FontChange) follow();
        return false;
    }

  private:
    void follow() {
        const double now = fontSize(plot_->font());
        if (size_ <= 0 || now <= 0 || std::abs(now - size_) < 1e-6) {
            size_ = now;
            return;
        }
        const double factor = now / size_;
        size_ = now;
        for (QCPAxisRect* rect : everyAxisRect(*plot_))
            for (QCPAxis* axis : rect->axes()) {
                axis->setLabelFont(scaled(axis->labelFont(), factor));
                axis->setTickLabelFont(scaled(axis->tickLabelFont(), factor));
                axis->setSelectedLabelFont(scaled(axis->selectedLabelFont(), factor));
                axis->setSelectedTickLabelFont(scaled(axis->selectedTickLabelFont(), factor));
            }
        // Every text element and legend on the plot's layers, in the layout or not: a chart takes
        // a caption out of its layout while it has nothing to say, and a legend inside an axis
        // rect is no element of the layout; both must come back at the size of the rest.
        for (int layer = 0; layer < plot_->layerCount(); ++layer)
            for (QCPLayerable* layerable : plot_->layer(layer)->children()) {
                if (auto* text = qobject_cast<QCPTextElement*>(layerable)) {
                    text->setFont(scaled(text->font(), factor));
                    text->setSelectedFont(scaled(text->selectedFont(), factor));
                } else if (auto* legend = qobject_cast<QCPLegend*>(layerable)) {
                    scaleLegend(legend, factor);
                }
            }
        for (int i = 0; i < plot_->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot_->item(i))) {
                text->setFont(scaled(text->font(), factor));
                text->setSelectedFont(scaled(text->selectedFont(), factor));
            }
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }

    static void scaleLegend(QCPLegend* legend, double factor) {
        // The legend passes its font on to its items.
        legend->setFont(scaled(legend->font(), factor));
        legend->setSelectedFont(scaled(legend->selectedFont(), factor));
        legend->setIconSize(
            QSize(static_cast<int>(std::lround(legend->iconSize().width() * factor)),
                  static_cast<int>(std::lround(legend->iconSize().height() * factor))));
    }

    QCustomPlot* plot_;
    double size_;
};

}  // namespace

void followWidgetFont(QCustomPlot* plot) {
    new PlotFontFollower(plot);
}

}  // namespace fusescope
