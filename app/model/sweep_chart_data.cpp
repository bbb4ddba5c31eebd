#include "model/sweep_chart_data.h"

namespace fusescope {

double SweepChartSeries::fittedTimeMs(double n) const {
    if (!fit || fit->bandwidthGBps <= 0) return 0.0;
    return launches * fit->overheadUs * 1e-3 + n * bytesPerElement / (fit->bandwidthGBps * 1e6);
}

}  // namespace fusescope
