#pragma once
// Where a lesson step's numbers come from on this machine: a live run of its variants (every
// pipeline on a GPU, the pipelines that count whole-array passes on the CPU backend), or its
// shipped recording, with the words that say which.
#include <QString>

#include "core/status.h"
#include "model/lesson/lesson_plan.h"
#include "runtime/runner.h"

namespace fusescope::model {

struct StepSource {
    bool live = false;
    BackendKind backend = BackendKind::Cpu;  // live only
    QString recordingPath;                   // not live: the recording it opens
    // "runs live on the GPU", "opens the shipped H200 recording h200-...json (no GPU here)"; a
    // step whose expression or learner kernel this build cannot run yet says what it shows
    // instead.
    QString words;
};

// `canRun` false (a headless render): every step opens its recording.
StepSource chooseStepSource(const LessonStep& step, bool gpuUsable, bool canRun = true);

// The step's variants and problem as a run request, with one repeat and no warm-up or roofs
// (`quick`, a check before class) or the backend's defaults.
Result<RunRequest> stepRunRequest(const LessonStep& step, BackendKind backend, bool quick);

}  // namespace fusescope::model
