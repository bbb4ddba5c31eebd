#pragma once
// The user's choices in the run panel, as a value: remembered by QSettings between sessions.
#include <QSettings>
#include <QString>
#include <QStringList>
#include <optional>

#include "runtime/runner.h"
#include "worker/run_command.h"

namespace fusescope {

struct RunChoices {
    QString pipeline;
    QStringList variants;
    quint64 n = 1u << 24;
    int vectorWidth = 4;
    BackendChoice backend = BackendChoice::Auto;
    // Until the GPU probe answers, runs would go to the CPU: its defaults come first.
    int repeats = runDefaultsFor(BackendKind::Cpu).repeats;
    int warmup = runDefaultsFor(BackendKind::Cpu).warmup;
    int cpuThreads = 0;  // 0: every hardware thread
};

RunChoices loadRunChoices(const QSettings& settings);
void saveRunChoices(QSettings& settings, const RunChoices& choices);

}  // namespace fusescope
