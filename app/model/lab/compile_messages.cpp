#include "model/lab/compile_messages.h"

#include <QRegularExpression>
#include <QStringList>
#include <algorithm>

namespace fusescope::model {

QVector<CompileMessage> parseCompileLog(const QString& log) {
    static const QRegularExpression heading(
        QStringLiteral(R"(^.*\((\d+)\): (error|warning|catastrophic error)( #[\w-]+)?: (.*)$)"));
    QVector<CompileMessage> messages;
    for (const QString& line : log.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = heading.match(line);
        if (match.hasMatch()) {
            CompileMessage message;
            message.line = match.captured(1).toInt();
            message.severity = match.captured(2) == QLatin1String("warning")
                                   ? CompileSeverity::Warning
                                   : CompileSeverity::Error;
            message.text = match.captured(4).trimmed();
            messages.push_back(message);
        } else if (!messages.isEmpty() && !line.trimmed().isEmpty() &&
                   !line.contains(QLatin1String("detected in the compilation")) &&
                   !line.startsWith(QLatin1String("Remark"))) {
            QString& context = messages.back().context;
            if (!context.isEmpty()) context += QLatin1Char('\n');
            context += line;
        }
    }
    return messages;
}

QVector<CompileMessage> shiftedLines(QVector<CompileMessage> messages, int offset) {
    for (CompileMessage& message : messages) message.line = std::max(1, message.line - offset);
    return messages;
}

}  // namespace fusescope::model
