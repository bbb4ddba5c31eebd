#pragma once
// Progress on stderr while a run goes (only when stderr is a terminal) and Ctrl-C as a
// cooperative cancel: the runner polls cancelled() between repeats and frees its buffers.
#include <QElapsedTimer>
#include <QString>

#include "runtime/progress_estimate.h"
#include "runtime/runner.h"

namespace fusescope::cli {

// Installs a SIGINT handler for its lifetime. The first Ctrl-C asks the run to stop; the
// handler then resets itself, so a second Ctrl-C ends the program at once.
class InterruptGuard {
  public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    static bool interrupted();
};

class TerminalObserver : public RunObserver {
  public:
    TerminalObserver();
    ~TerminalObserver() override;

    void progress(double fraction, std::string_view stage) override;
    bool cancelled() const override;
    void finish();  // clears the progress line

  private:
    bool showProgress_ = false;
    bool lineShown_ = false;
    QString lastStageKey_;
    QElapsedTimer sinceLastLine_;
    ProgressClock clock_;
};

}  // namespace fusescope::cli
