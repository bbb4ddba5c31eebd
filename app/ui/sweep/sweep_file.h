#pragma once
// Reads a sweep file (format "fusescope-sweep", version 1, written by `fusescope-cli sweep`;
// the format is described in app/cli/sweep_command.h) into what the sweep chart draws, so a
// sweep measured on a GPU server is charted on a laptop.
#include <QByteArray>
#include <QString>

#include "core/status.h"
#include "ui/sweep/sweep_chart_data.h"

namespace fusescope {

inline constexpr char kSweepFileFormat[] = "fusescope-sweep";
inline constexpr int kSweepFileVersion = 1;

// Errors are one line naming the file's problem and, for a bad field, its path
// ("series[1].points[3].time_ms").
Result<SweepChartData> parseSweepFile(const QByteArray& json);
Result<SweepChartData> loadSweepFile(const QString& path);

}  // namespace fusescope
