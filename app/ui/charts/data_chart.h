#pragma once
// A dumb chart of one value of `Data`: it keeps what it is given and draws it again whole, on
// each new value and when the palette changes (the colours are taken from it as it draws).
#include <QEvent>

#include "ui/charts/chart_base.h"

namespace fusescope {

template <typename Data>
class DataChart : public ChartBase {
  public:
    explicit DataChart(QWidget* parent) : ChartBase(QString(), parent) {}

    void setData(const Data& data) {
        data_ = data;
        rebuild();
    }
    const Data& data() const { return data_; }

  protected:
    // Everything drawn again from data_.
    virtual void rebuild() = 0;

    void changeEvent(QEvent* event) override {
        ChartBase::changeEvent(event);
        if (event->type() == QEvent::PaletteChange) rebuild();
    }

    Data data_;
};

}  // namespace fusescope
