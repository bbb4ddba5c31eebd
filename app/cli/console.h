#pragma once
// Output of fusescope-cli: results on stdout, messages and progress on stderr, UTF-8.
#include <QString>

namespace fusescope::cli {

void printOut(const QString& text, const char* end = "\n");
// One line on stderr, prefixed with "fusescope-cli: ".
void printError(const QString& message);
// A note on stderr (which backend was chosen and why, where the recording went).
void printNote(const QString& message);
// Raw text on stderr, no newline (progress lines that overwrite themselves).
void printProgressText(const QString& text);

bool stderrIsTerminal();

}  // namespace fusescope::cli
