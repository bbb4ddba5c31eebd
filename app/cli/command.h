#pragma once
// A subcommand of fusescope-cli: its name, a one-line summary for the top-level help, and the
// function that runs it. `arguments` starts with "fusescope-cli <name>", as a parser expects.
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

#include "core/status.h"

namespace fusescope::cli {

// Documented in every --help. 1 is reserved for "the numbers are in, but an output is wrong".
enum ExitCode : int {
    kExitOk = 0,
    kExitCheckFailed = 1,
    kExitUsageError = 2,
    kExitRuntimeError = 3,
    kExitCancelled = 130,  // the shell's convention for Ctrl-C
};

struct Command {
    const char* name;
    const char* summary;
    int (*run)(const QStringList& arguments);
};

// The exit-code section shared by every help text.
QString exitCodeHelp();

// Parses a command's arguments. Returns the exit code when the command ends there (a parse
// error, printed; an option with a value given twice, unless `repeatable` names it; or --help,
// shown), or nothing when it goes on.
std::optional<int> parseCommandLine(QCommandLineParser& parser, const QCommandLineOption& help,
                                    const QStringList& arguments,
                                    const std::function<QString()>& helpText,
                                    const QStringList& repeatable = {});
// The same for a command whose help is `usage` and the exit-code section: adds --help and then
// `options` to `parser` before parsing.
std::optional<int> parseCommandLine(QCommandLineParser& parser,
                                    const QList<QCommandLineOption>& options,
                                    const QStringList& arguments, const QString& usage);
// The exit code for a failure: cancelled 130, a bad value 2, anything else 3.
int exitCodeFor(const Status& status);

// One function per command, each in its own file (list_command.cpp, run_command.cpp, ...).
int listCommand(const QStringList& arguments);
int runCommand(const QStringList& arguments);
int showCommand(const QStringList& arguments);
int selfTestCommand(const QStringList& arguments);
int shrinkCommand(const QStringList& arguments);
int resourcesCommand(const QStringList& arguments);  // tiles_command.cpp
int tilesCommand(const QStringList& arguments);      // tiles_command.cpp
int exprCommand(const QStringList& arguments);
int lessonCommand(const QStringList& arguments);

}  // namespace fusescope::cli
