#include "model/repeated_options.h"

namespace fusescope::model {

QString repeatedOptionError(const QCommandLineParser& parser, const QStringList& repeatable) {
    for (const QString& name : parser.optionNames()) {
        if (repeatable.contains(name)) continue;
        const QStringList values = parser.values(name);
        if (values.size() > 1)
            return QStringLiteral("--%1 is given %2 times (%3); give it once")
                .arg(name)
                .arg(values.size())
                .arg(values.join(QStringLiteral(", ")));
    }
    return {};
}

}  // namespace fusescope::model
