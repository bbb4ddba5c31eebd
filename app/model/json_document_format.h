#pragma once
// The format name and version at the top of a FuseScope JSON document, checked before the rest is
// read.
#include <QString>

#include "model/json_reader.h"

namespace fusescope::model {

// Throws JsonFieldError where "format" is not `format` ("not a FuseScope <noun> ...") or
// "version" is outside 1 to `newestVersion` ("<noun> version N is not one this FuseScope reads").
void checkDocumentFormat(const JsonReader& document, const char* format, int newestVersion,
                         const QString& noun);

}  // namespace fusescope::model
