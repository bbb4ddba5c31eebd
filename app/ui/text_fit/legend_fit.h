#pragma once
// A legend whose entries fit the plot's width: long names elided (the full name stays the
// plottable's), and as many columns as the widest entry leaves room for.
#include "ui/charts/plot.h"

namespace fusescope::text_fit {

// A plottable's legend entry whose name is elided to the room the fitter gives it (the full name
// stays the plottable's, and shows in the plot's tooltip).
class FittedLegendItem : public QCPPlottableLegendItem {
  public:
    FittedLegendItem(QCPLegend* legend, QCPAbstractPlottable* plottable);

    // Pixels the name may take; below zero: all it needs.
    void setTextRoom(int pixels) { textRoom_ = pixels; }
    QString shownName() const;
    bool elided() const;

  protected:
    void draw(QCPPainter* painter) override;
    QSize minimumOuterSizeHint() const override;

  private:
    // Names the plottable by the shown name while it lives.
    class ShownName {
      public:
        ShownName(QCPAbstractPlottable* plottable, const QString& shown);
        ~ShownName();
        ShownName(const ShownName&) = delete;
        ShownName& operator=(const ShownName&) = delete;

      private:
        QCPAbstractPlottable* plottable_;
        QString full_;
    };

    int textRoom_ = -1;
};

// Fits a legend that fills columns first to `width` pixels; its plain entries become fitted ones.
void fitLegend(QCPLegend* legend, double width);

}  // namespace fusescope::text_fit
