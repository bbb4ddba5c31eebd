#include "cli/console.h"

#include <unistd.h>
#include <cstdio>

#include "model/format.h"

namespace fusescope::cli {
namespace {

void write(std::FILE* stream, const QString& text, const char* end) {
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stream);
    std::fputs(end, stream);
    std::fflush(stream);
}

}  // namespace

// Names from recordings and from the command line reach these; never the terminal's controls.
void printOut(const QString& text, const char* end) {
    write(stdout, model::escapeControlCharacters(text), end);
}

void printError(const QString& message) {
    write(stderr, QStringLiteral("fusescope-cli: ") + model::escapeControlCharacters(message),
          "\n");
}

void printNote(const QString& message) {
    write(stderr, model::escapeControlCharacters(message), "\n");
}

void printProgressText(const QString& text) {
    write(stderr, text, "");
}

bool stderrIsTerminal() {
    return isatty(STDERR_FILENO) == 1;
}

}  // namespace fusescope::cli
