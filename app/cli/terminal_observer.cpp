#include "cli/terminal_observer.h"

#include <csignal>

#include "cli/console.h"

namespace fusescope::cli {
namespace {

volatile std::sig_atomic_t interruptRequested = 0;
struct sigaction previousAction {};

extern "C" void onInterrupt(int) {
    interruptRequested = 1;
}

constexpr qint64 kProgressIntervalMs = 100;  // redraws per second are plenty for a human

}  // namespace

InterruptGuard::InterruptGuard() {
    interruptRequested = 0;
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, &previousAction);
}

InterruptGuard::~InterruptGuard() {
    sigaction(SIGINT, &previousAction, nullptr);
}

bool InterruptGuard::interrupted() {
    return interruptRequested != 0;
}

TerminalObserver::TerminalObserver() : showProgress_(stderrIsTerminal()) {
    sinceLastLine_.start();
}

TerminalObserver::~TerminalObserver() {
    finish();
}

void TerminalObserver::progress(double fraction, std::string_view stage) {
    if (!showProgress_) return;
    const std::string_view key = progressStageKey(stage);
    const QString stageKey = QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
    if (stageKey == lastStageKey_ && sinceLastLine_.elapsed() < kProgressIntervalMs) return;
    lastStageKey_ = stageKey;
    sinceLastLine_.restart();
    QString line = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
    if (const std::string timing = describeProgress(clock_.at(fraction)); !timing.empty())
        line += QStringLiteral(" · ") + QString::fromStdString(timing);
    // \r and "erase to end of line": the line overwrites itself instead of scrolling.
    printProgressText(QStringLiteral("\r\x1b[K[%1%] %2")
                          .arg(static_cast<int>(fraction * 100.0 + 0.5), 3)
                          .arg(line));
    lineShown_ = true;
}

bool TerminalObserver::cancelled() const {
    return InterruptGuard::interrupted();
}

void TerminalObserver::finish() {
    if (!lineShown_) return;
    printProgressText(QStringLiteral("\r\x1b[K"));
    lineShown_ = false;
}

}  // namespace fusescope::cli
