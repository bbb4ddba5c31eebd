#pragma once
// The backend box's item data for a backend choice, shared by the run panel's files.
#include <QString>

#include "worker/run_command.h"

namespace fusescope {

inline QString backendChoiceItemKey(BackendChoice choice) {
    return QString::fromLatin1(backendChoiceKey(choice));
}

}  // namespace fusescope
