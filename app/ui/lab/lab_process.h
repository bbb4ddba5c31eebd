#pragma once
// The child process that compiles or runs a learner's kernel (`fusescope-cli run --kernel-file`):
// a kernel that crashes or never ends takes that process down, never the window. A time limit
// kills it, and so does Cancel, at once.
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

namespace fusescope {

struct LabOutcome {
    enum class Kind { Finished, TimedOut, Crashed, Cancelled, NotStarted };
    Kind kind = Kind::NotStarted;
    int exitCode = -1;
    QString out;
    QString err;
};

class LabProcess : public QObject {
    Q_OBJECT
  public:
    explicit LabProcess(QObject* parent = nullptr);
    ~LabProcess() override;

    // The CLI beside the program (or in the build tree's app/cli), or $FUSESCOPE_CLI.
    static QString cliPath();

    void start(const QStringList& arguments, int timeLimitMs);
    void cancel();
    bool running() const;

  signals:
    void finished(const LabOutcome& outcome);

  private:
    void end(LabOutcome::Kind kind);

    QProcess process_;
    QTimer limit_;
    LabOutcome::Kind stoppedAs_ = LabOutcome::Kind::Finished;
};

}  // namespace fusescope
