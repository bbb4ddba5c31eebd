#pragma once
// The self-test's verdicts: the facts of a MachineProbe as one list of checks, each PASS, WARN,
// SKIP or FAIL with what was found and, when something is wrong, the fix in words. The CLI
// prints the list, the window shows it in a dialog; neither decides anything itself.
//
// The rule: FAIL is something a lesson needs that is missing or broken, and makes the machine
// not ready (the CLI exits 1). The CPU backend and the shipped recordings are always needed.
// The GPU items are needed where an NVIDIA GPU is installed (the GPU lesson is meant to run
// there) or when asked for (requireGpu); on a machine without one they are SKIP, since the same
// lesson runs on the CPU backend. Hardware counters, CUPTI, NVRTC (run-time compiled tiles) and,
// for the CLI, the display are WARN at worst: the lesson goes on without them.
#include <QString>
#include <QVector>

#include "selftest/machine_probe.h"

namespace fusescope::selftest {

enum class CheckStatus { Pass, Warn, Skip, Fail };

QString checkStatusText(CheckStatus status);  // "PASS", "WARN", "SKIP", "FAIL"

struct Check {
    QString name;  // "NVIDIA driver", "Pipeline affine on cpu (vector 4)"
    CheckStatus status = CheckStatus::Skip;
    QString found;  // what was found, one sentence
    QString fix;    // what to do about it; empty when nothing needs doing
};

struct VerdictOptions {
    bool requireGpu = false;  // the GPU items are needed even where no NVIDIA GPU is seen
};

QVector<Check> checkList(const MachineProbe& probe, const VerdictOptions& options = {});

// Ready for class: no check failed.
bool machineReady(const QVector<Check>& checks);

// The counts, "9 passed, 0 failed, 2 warnings, 5 skipped".
QString checkSummary(const QVector<Check>& checks);

}  // namespace fusescope::selftest
