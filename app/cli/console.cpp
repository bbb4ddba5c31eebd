#include "cli/console.h"

#include <unistd.h>
#include <cstdio>

namespace fusescope::cli {
namespace {

void write(std::FILE* stream, const QString& text, const char* end) {
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stream);
    std::fputs(end, stream);
    std::fflush(stream);
}

}  // namespace

void printOut(const QString& text, const char* end) {
    write(stdout, text, end);
}

void printError(const QString& message) {
    write(stderr, QStringLiteral("fusescope-cli: ") + message, "\n");
}

void printNote(const QString& message) {
    write(stderr, message, "\n");
}

void printProgressText(const QString& text) {
    write(stderr, text, "");
}

bool stderrIsTerminal() {
    return isatty(STDERR_FILENO) == 1;
}

}  // namespace fusescope::cli
