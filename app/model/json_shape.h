#pragma once
// Limits on a JSON document's shape, checked by one pass over the bytes before Qt parses them:
// the parsed form takes about 120 bytes per value, so a file within the size limit could still
// take gigabytes (six million samples) or feed the window a megabyte-long name.
#include <QByteArray>
#include <QtGlobal>

#include "core/status.h"

namespace fusescope::model {

struct JsonShapeLimits {
    // Members, array elements and containers together (about 120 bytes each once parsed). The
    // largest real recordings hold about 20,000.
    qint64 maxValues = 2'000'000;
    // One string (a name, a description), in bytes as written.
    qint64 maxStringBytes = 64 << 10;
    // Every string of the document together, in bytes as written.
    qint64 maxTotalStringBytes = qint64{64} << 20;
    // Objects and arrays inside one another.
    int maxDepth = 64;
};

// InvalidArgument naming the limit the document exceeds ("it holds more than 2000000 JSON values,
// the limit for one file"), or ok. Malformed JSON passes: the parser reports it with its place.
Status checkJsonShape(const QByteArray& json, const JsonShapeLimits& limits = {});

}  // namespace fusescope::model
