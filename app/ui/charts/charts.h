#pragma once
// The three charts of a run: model bytes per kernel, time per variant against the copy
// roofline, and allocation in flight over the run.
#include "ui/charts/chart_view.h"

namespace fusescope {

class BytesPerKernelChart final : public ChartView {
    Q_OBJECT
  public:
    explicit BytesPerKernelChart(QWidget* parent = nullptr);

  protected:
    void rebuild() override;
};

class TimePerVariantChart final : public ChartView {
    Q_OBJECT
  public:
    explicit TimePerVariantChart(QWidget* parent = nullptr);

  protected:
    void rebuild() override;
};

class AllocationChart final : public ChartView {
    Q_OBJECT
  public:
    explicit AllocationChart(QWidget* parent = nullptr);

  protected:
    void rebuild() override;
};

// The copy roofline's time for `bytes`: what a plain copy of as many bytes takes.
double rooflineTimeMs(const model::Recording& recording, quint64 bytes);

}  // namespace fusescope
