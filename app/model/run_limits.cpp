#include "model/run_limits.h"

#include "platform/parallel.h"
#include "runtime/progress_estimate.h"
#include "runtime/run_estimate.h"

namespace fusescope::model {

int hostThreads() {
    return hardwareThreads();
}

bool runNeedsConfirmation(double estimatedSeconds) {
    return estimatedSeconds > kAskAboveSeconds;
}

QString durationText(double seconds) {
    return QString::fromStdString(describeDuration(seconds));
}

QString progressStageKey(const QString& progressText) {
    const std::string text = progressText.toStdString();
    return QString::fromStdString(std::string(fusescope::progressStageKey(text)));
}

}  // namespace fusescope::model
