#include "ui/charts/chart_base.h"

#include <array>

#include "ui/charts/axis_colours.h"
#include "ui/charts/chart_title.h"

namespace fusescope {

ChartBase::ChartBase(const QString& title, QWidget* parent) : QCustomPlot(parent) {
    setAntialiasedElements(QCP::aeAll);
    titleElement_ = new QCPTextElement(this, title, chartTitleFont(font()));
    captionElement_ = new QCPTextElement(this, QString(), font());
}

QColor ChartBase::seriesColor(int index) {
    static const std::array<QColor, 6> kColors{QColor(0x3b, 0x82, 0xd6), QColor(0xe8, 0x8a, 0x2e),
                                               QColor(0x2f, 0xa3, 0x6b), QColor(0xc2, 0x41, 0x7a),
                                               QColor(0x8a, 0x63, 0xd2), QColor(0x7f, 0x8c, 0x8d)};
    return kColors[static_cast<std::size_t>(index) % kColors.size()];
}

void ChartBase::setDecadeAxis(QCPAxis* axis, int precision) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(precision);
}

QCPItemText* ChartBase::addCentredMessage(const QString& message) {
    auto* text = new QCPItemText(this);
    text->setClipAxisRect(nullptr);
    text->setClipToAxisRect(false);
    text->position->setType(QCPItemPosition::ptViewportRatio);
    text->position->setCoords(0.5, 0.45);
    text->setPositionAlignment(Qt::AlignCenter);
    text->setTextAlignment(Qt::AlignHCenter);
    text->setText(message);
    return text;
}

void ChartBase::placeTitleRows() {
    plotLayout()->insertRow(0);
    plotLayout()->insertRow(1);
    plotLayout()->addElement(0, 0, titleElement_);
    plotLayout()->addElement(1, 0, captionElement_);
}

QColor ChartBase::textColor() const {
    return palette().color(QPalette::WindowText);
}

void ChartBase::paintBackgroundAndAxes(const QList<QCPAxisRect*>& rects) {
    const QBrush base = palette().brush(QPalette::Base);
    setBackground(base);
    for (QCPAxisRect* rect : rects) {
        rect->setBackground(base);
        colourAxes(*rect, textColor());
    }
}

void ChartBase::paintDottedGrids(const QList<QCPAxisRect*>& rects) {
    QColor grid = textColor();
    grid.setAlpha(40);
    for (QCPAxisRect* rect : rects)
        for (QCPAxis* axis : rect->axes()) axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
}

void ChartBase::paintLegend(QCPLegend* legendBox, int opacity) {
    QColor background = palette().color(QPalette::Base);
    background.setAlpha(opacity);
    legendBox->setBrush(opacity > 0 ? QBrush(background) : QBrush(Qt::NoBrush));
    legendBox->setTextColor(textColor());
    legendBox->setBorderPen(Qt::NoPen);
}

void ChartBase::paintTitles(const QList<QCPTextElement*>& others) {
    const QColor text = textColor();
    titleElement_->setTextColor(text);
    captionElement_->setTextColor(text);
    for (QCPTextElement* element : others) element->setTextColor(text);
}

void ChartBase::paintTextItems() {
    const QColor text = textColor();
    for (int i = 0; i < itemCount(); ++i)
        if (auto* label = qobject_cast<QCPItemText*>(item(i))) label->setColor(text);
}

}  // namespace fusescope
