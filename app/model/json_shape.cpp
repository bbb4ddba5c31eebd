#include "model/json_shape.h"

#include <QString>

namespace fusescope::model {
namespace {

Status exceeded(const QString& what) {
    return Status(ErrorCode::InvalidArgument, what.toStdString());
}

}  // namespace

Status checkJsonShape(const QByteArray& json, const JsonShapeLimits& limits) {
    qint64 values = 0;
    qint64 totalStringBytes = 0;
    int depth = 0;
    const char* const begin = json.constData();
    const char* const end = begin + json.size();
    for (const char* p = begin; p < end; ++p) {
        switch (*p) {
            case '"': {
                const char* const start = ++p;
                while (p < end && *p != '"') p += *p == '\\' ? 2 : 1;
                const qint64 length = (p < end ? p : end) - start;
                if (length > limits.maxStringBytes)
                    return exceeded(
                        QStringLiteral("a string at byte %1 is %2 bytes long, more than the "
                                       "limit of %3 bytes for one string")
                            .arg(start - begin)
                            .arg(length)
                            .arg(limits.maxStringBytes));
                totalStringBytes += length;
                if (totalStringBytes > limits.maxTotalStringBytes)
                    return exceeded(QStringLiteral("its strings hold more than %1 MiB, the limit "
                                                   "for the text of one file")
                                        .arg(limits.maxTotalStringBytes >> 20));
                break;
            }
            case '{':
            case '[':
                if (++depth > limits.maxDepth)
                    return exceeded(QStringLiteral("it nests objects and arrays more than %1 "
                                                   "deep, the limit for one file")
                                        .arg(limits.maxDepth));
                [[fallthrough]];
            case ',':
                if (++values > limits.maxValues)
                    return exceeded(QStringLiteral("it holds more than %1 JSON values, the limit "
                                                   "for one file")
                                        .arg(limits.maxValues));
                break;
            case '}':
            case ']':
                --depth;
                break;
            default:
                break;
        }
    }
    return Status::ok();
}

}  // namespace fusescope::model
