#include "worker/run_command.h"

namespace fusescope {

QString backendChoiceKey(BackendChoice choice) {
    switch (choice) {
        case BackendChoice::Auto:
            return QStringLiteral("auto");
        case BackendChoice::Cuda:
            return QStringLiteral("cuda");
        case BackendChoice::Cpu:
            return QStringLiteral("cpu");
    }
    return QStringLiteral("auto");
}

BackendChoice backendChoiceFromKey(const QString& key, bool* ok) {
    const QString lower = key.trimmed().toLower();
    if (ok) *ok = true;
    if (lower == QLatin1String("cuda")) return BackendChoice::Cuda;
    if (lower == QLatin1String("cpu")) return BackendChoice::Cpu;
    if (lower != QLatin1String("auto") && ok) *ok = false;
    return BackendChoice::Auto;
}

}  // namespace fusescope
