// Feeds arbitrary bytes to the sweep file reader, and what it accepts to the conversion that the
// sweep chart draws from (fits, regimes and residuals are recomputed there).
#include <QByteArray>
#include <cstddef>
#include <cstdint>

#include "model/sweep_chart_conversion.h"
#include "model/sweep_chart_data.h"
#include "model/sweep_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const fusescope::Result<fusescope::model::SweepFile> sweep =
        fusescope::model::parseSweepFile(bytes);
    if (!sweep) return 0;
    const fusescope::SweepChartData chart = fusescope::model::sweepChartData(*sweep);
    (void)chart;
    return 0;
}
