#pragma once
// The rule both programs' command lines follow: an option that takes a value is given once.
// QCommandLineParser keeps the last of two values silently, and which one was meant is unknown.
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace fusescope::model {

// Empty when no option with a value was given more than once (those `repeatable` names may be),
// else the one-line message: "--open is given 2 times (a.json, b.json); give it once".
QString repeatedOptionError(const QCommandLineParser& parser, const QStringList& repeatable = {});

}  // namespace fusescope::model
