#include "ui/lab/lab_process.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace fusescope {

LabProcess::LabProcess(QObject* parent) : QObject(parent) {
    limit_.setSingleShot(true);
    connect(&limit_, &QTimer::timeout, this, [this] {
        stoppedAs_ = LabOutcome::Kind::TimedOut;
        process_.kill();
    });
    connect(&process_, &QProcess::finished, this, [this](int, QProcess::ExitStatus status) {
        end(stoppedAs_ != LabOutcome::Kind::Finished ? stoppedAs_
            : status == QProcess::CrashExit          ? LabOutcome::Kind::Crashed
                                                     : LabOutcome::Kind::Finished);
    });
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) end(LabOutcome::Kind::NotStarted);
    });
}

LabProcess::~LabProcess() {
    process_.disconnect(this);
    if (process_.state() != QProcess::NotRunning) {
        process_.kill();
        process_.waitForFinished(500);
    }
}

QString LabProcess::cliPath() {
    if (const QString given = qEnvironmentVariable("FUSESCOPE_CLI"); !given.isEmpty()) return given;
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate : {here.filePath(QStringLiteral("fusescope-cli")),
                                     here.filePath(QStringLiteral("../cli/fusescope-cli")),
                                     here.filePath(QStringLiteral("../app/cli/fusescope-cli"))})
        if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("fusescope-cli"));
}

void LabProcess::start(const QStringList& arguments, int timeLimitMs) {
    if (running()) return;
    stoppedAs_ = LabOutcome::Kind::Finished;
    const QString program = cliPath();
    if (program.isEmpty()) {
        LabOutcome outcome;
        outcome.err = tr("fusescope-cli was not found beside the program");
        emit finished(outcome);
        return;
    }
    limit_.start(timeLimitMs);
    process_.start(program, arguments);
}

void LabProcess::cancel() {
    if (!running()) return;
    stoppedAs_ = LabOutcome::Kind::Cancelled;
    process_.kill();
}

bool LabProcess::running() const {
    return process_.state() != QProcess::NotRunning;
}

void LabProcess::end(LabOutcome::Kind kind) {
    limit_.stop();
    LabOutcome outcome;
    outcome.kind = kind;
    outcome.exitCode = process_.exitCode();
    outcome.out = QString::fromUtf8(process_.readAllStandardOutput());
    outcome.err = QString::fromUtf8(process_.readAllStandardError());
    if (kind == LabOutcome::Kind::NotStarted) outcome.err = process_.errorString();
    emit finished(outcome);
}

}  // namespace fusescope
