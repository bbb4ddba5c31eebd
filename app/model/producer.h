#pragma once
// What a recording names as the program that wrote it.
#include <QString>

namespace fusescope::model {

// "fusescope-cli 0.1.0": the program and the project's version.
QString producerString(const QString& program);

}  // namespace fusescope::model
