#include "model/producer.h"

#include "model/version.h"

namespace fusescope::model {

QString producerString(const QString& program) {
    return QStringLiteral("%1 %2").arg(program, QLatin1String(kFuseScopeVersion));
}

}  // namespace fusescope::model
