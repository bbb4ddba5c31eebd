#include "model/json_document_format.h"

#include <QObject>

namespace fusescope::model {

void checkDocumentFormat(const JsonReader& document, const char* format, int newestVersion,
                         const QString& noun) {
    const QString found = document.string("format");
    if (found != QLatin1String(format))
        throw JsonFieldError(QObject::tr("not a FuseScope %1 (format '%2', expected '%3')")
                                 .arg(noun, found, QLatin1String(format)));
    const int version = document.integer("version");
    if (version < 1 || version > newestVersion)
        throw JsonFieldError(QObject::tr("%1 version %2 is not one this FuseScope reads (1 to %3)")
                                 .arg(noun)
                                 .arg(version)
                                 .arg(newestVersion));
}

}  // namespace fusescope::model
