#pragma once
// The compiler's log as a list the Lab view shows: one entry per error or warning with its line,
// so a click can jump there. NVRTC writes "file.cu(12): error: what" (warnings carry a number,
// "warning #177-D: what"); the lines after one, up to the next, are its context (the source line
// and a caret), kept with it.
#include <QString>
#include <QVector>

namespace fusescope::model {

enum class CompileSeverity { Error, Warning };

struct CompileMessage {
    int line = 0;  // 1-based, in the text that was compiled
    CompileSeverity severity = CompileSeverity::Error;
    QString text;     // "identifier \"scratc\" is undefined"
    QString context;  // the lines the compiler printed under it
    bool operator==(const CompileMessage&) const = default;
};

QVector<CompileMessage> parseCompileLog(const QString& log);
// A message moved to another numbering: `offset` lines less (the editor's text starts after
// a header that was compiled with it). Messages that land inside the header stay on line 1.
QVector<CompileMessage> shiftedLines(QVector<CompileMessage> messages, int offset);

}  // namespace fusescope::model
