#pragma once
// What every chart shares: a bold title and a caption at its top, and the palette's colours on
// its background, axes, grids, legend and text. The window keeps every chart's text inside and
// apart (plot_text_fit.h): the title made here is the first text element it fits (two lines at
// most), the caption the next (as many lines as the plot's height leaves).
#include <QList>
#include <QString>

#include "ui/charts/plot.h"

namespace fusescope {

class ChartBase : public QCustomPlot {
    Q_OBJECT
  public:
    // `title`: the title's text (charts that name what they show at each rebuild give none).
    // Everything is drawn antialiased.
    explicit ChartBase(const QString& title = QString(), QWidget* parent = nullptr);

    // How opaque the base colour behind a legend or a box of text is: the data shows through a
    // little.
    static constexpr int kBoxOpacity = 225;

    // Mid-tone hues that read on light and dark backgrounds alike, in the order series take them.
    static QColor seriesColor(int index);

    QCPTextElement* titleElement() const { return titleElement_; }
    QCPTextElement* captionElement() const { return captionElement_; }
    // The title and the caption as rows 0 and 1 of the layout, above what is there.
    void placeTitleRows();

    // A logarithmic axis with ticks at powers of ten, labelled with `precision` digits at most.
    static void setDecadeAxis(QCPAxis* axis, int precision);
    // `message` alone in the middle of the chart (it has nothing else to show), unclipped; the
    // item, for a caller that styles it further.
    QCPItemText* addCentredMessage(const QString& message);

    QColor textColor() const;
    // The palette of now on the plot's background, and on each of `rects`: its background and
    // its axes (lines, ticks, labels).
    void paintBackgroundAndAxes(const QList<QCPAxisRect*>& rects);
    // Grid lines of `rects`' axes dotted in a faint tone of the text.
    void paintDottedGrids(const QList<QCPAxisRect*>& rects);
    // `legendBox`'s text in the text's colour, on the base colour made `opacity` (0 to 255) opaque
    // (nothing drawn behind it at 0), without a border.
    void paintLegend(QCPLegend* legendBox, int opacity);
    // The title, the caption and `others` in the text's colour.
    void paintTitles(const QList<QCPTextElement*>& others = {});
    // Every text item's text in the text's colour.
    void paintTextItems();

  private:
    QCPTextElement* titleElement_ = nullptr;
    QCPTextElement* captionElement_ = nullptr;
};

}  // namespace fusescope
