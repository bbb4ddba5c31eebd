#pragma once
// A time axis kept in milliseconds whose labels turn to seconds past 10,000 ms: "250" s reads at
// a glance where "250000" ms does not. The coordinates never change, only the labels and the
// axis's title, so items and cursors placed in milliseconds stay where they are.
#include <QString>
#include <algorithm>
#include <cmath>

#include "live/live_plot.h"

namespace fusescope {

class TimeTicker final : public QCPAxisTicker {
  public:
    void setDivisor(double divisor) { divisor_ = divisor; }
    double divisor() const { return divisor_; }

  protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override {
        return QCPAxisTicker::getTickLabel(tick / divisor_, locale, formatChar, precision);
    }

  private:
    double divisor_ = 1.0;
};

// Milliseconds up to this span; seconds past it.
inline constexpr double kSecondsFromMs = 10000.0;

// Gives `axis` a TimeTicker in the unit for `range` and the title ("time (ms)" or "time (s)");
// `title` holds %1 for the unit's name.
inline void applyTimeUnit(QCPAxis* axis, const QCPRange& range, const QString& title) {
    auto ticker = axis->ticker().dynamicCast<TimeTicker>();
    if (!ticker) {
        ticker = QSharedPointer<TimeTicker>::create();
        axis->setTicker(ticker);
    }
    const bool seconds = std::max(std::abs(range.lower), std::abs(range.upper)) >= kSecondsFromMs;
    ticker->setDivisor(seconds ? 1000.0 : 1.0);
    const QString wanted = title.arg(seconds ? QStringLiteral("s") : QStringLiteral("ms"));
    if (axis->label() != wanted) axis->setLabel(wanted);
}

// The same, kept in step with the axis's range as it is zoomed or grows.
inline void useTimeUnits(QCPAxis* axis, const QString& title) {
    applyTimeUnit(axis, axis->range(), title);
    QObject::connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), axis,
                     [axis, title](const QCPRange& range) { applyTimeUnit(axis, range, title); });
}

}  // namespace fusescope
