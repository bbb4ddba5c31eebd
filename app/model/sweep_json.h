#pragma once
// The sweep file, format "fusescope-sweep" version 1 (described in app/cli/sweep_command.h):
// written from the engine's SweepReport by both `fusescope-cli sweep` and the GUI's Size sweep
// tab, so the two always write the same file.
#include <QJsonObject>
#include <QString>

#include "analysis/sweep.h"
#include "core/status.h"

namespace fusescope::model {

inline constexpr char kSweepFormat[] = "fusescope-sweep";
inline constexpr int kSweepVersion = 1;

// The data source of a sweep's numbers: timing + model on a GPU, the CPU backend otherwise.
QString sweepDataSourceKey(const SweepReport& report);

// `producer` names the program: "fusescope-cli" or "fusescope" (its version is appended).
QJsonObject sweepDocument(const SweepReport& report, const SweepRequest& request,
                          const QString& producer);
// Written atomically (saveBytesAtomically); the error names the path.
Status saveSweepDocument(const QJsonObject& document, const QString& path);

}  // namespace fusescope::model
