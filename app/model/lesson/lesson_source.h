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
    // A step with a learner's kernel opens it in the Lab; on a GPU the Lab runs it (its own Run,
    // beside the shipped variants), and that run's recording holds the step's numbers.
    QString kernelPath;
    bool kernelRuns = false;
    // "runs live on the GPU", "opens the shipped H200 recording h200-...json (no GPU here)"; a
    // step with a kernel or a tile question says where those come from too.
    QString words;
};

// `canRun` false (a headless render): every step opens its recording.
StepSource chooseStepSource(const LessonStep& step, bool gpuUsable, bool canRun = true);

// The step as it runs live: a step with an expression gets the chain registered as a run-time
// pipeline family (replacing the last one) and that family's pipeline and variants in place of
// its recording's; any other step comes back as it is.
Result<LessonStep> liveStep(const LessonStep& step);

// The step's variants and problem as a run request, with one repeat and no warm-up or roofs
// (`quick`, a check before class) or the backend's defaults.
Result<RunRequest> stepRunRequest(const LessonStep& step, BackendKind backend, bool quick);

}  // namespace fusescope::model
