#pragma once
// The user's choices in the run panel, remembered by QSettings between sessions: pipeline,
// variants, N, vector width, backend, GPU, repeats, warm-up and CPU threads of a RunCommand.
#include <QSettings>

#include "model/run_limits.h"
#include "worker/run_command.h"

namespace fusescope {

// Starts from a default RunCommand with the CPU backend's repeats and warm-up (until the GPU
// probe answers, runs would go to the CPU); a missing or unusable value keeps the default.
RunCommand loadRunChoices(const QSettings& settings);
void saveRunChoices(QSettings& settings, const RunCommand& choices);

}  // namespace fusescope
