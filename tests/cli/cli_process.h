#pragma once
// Runs fusescope-cli with arguments and collects its exit code, stdout and stderr.
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

struct CliResult {
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

CliResult runCli(const QStringList& arguments, int timeoutMs = 120000);
// As runCli, with writes to files past `bytes` failing in the CLI (as on a full disk).
CliResult runCliWithFileSizeLimit(const QStringList& arguments, long bytes);
QString cliPath();

// `fusescope-cli run` of affine at `n` on the CPU backend, 2 repeats, saved as `fileName` in a
// folder of its own (removed with this value); `more` arguments follow.
struct AffineCpuRecording {
    AffineCpuRecording(const char* fileName, const char* n, const QStringList& more = {});
    QTemporaryDir dir;
    QString json;
    CliResult run;
};
