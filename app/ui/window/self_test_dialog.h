#pragma once
// Help > Check this machine…: the self-test's list of checks (PASS, WARN, SKIP, FAIL and the fix
// in words), the same list `fusescope-cli selftest` prints. The probe runs on the worker thread
// (it owns the GPU); the display is the window's own Qt platform.
#include <QDialog>
#include <QVector>

#include "selftest/check_list.h"

class QLabel;
class QPushButton;
class QTextBrowser;

namespace fusescope {

class RunController;

// The display as the window sees it: Qt's platform, and whether a person can see it.
selftest::DisplayProbe windowDisplayProbe();
// The list as HTML for the dialog: one row per check, the fix under what was found.
QString checkListHtml(const QVector<selftest::Check>& checks);

class SelfTestDialog : public QDialog {
    Q_OBJECT
  public:
    explicit SelfTestDialog(RunController* controller, QWidget* parent = nullptr);

    // Starts a probe; the list shows when the worker answers.
    void check();
    // Shows the verdicts of a probe (its display is replaced by the window's).
    void showProbe(selftest::MachineProbe probe);

    const QVector<selftest::Check>& checks() const { return checks_; }

  private:
    RunController* controller_;
    QLabel* summary_;
    QTextBrowser* list_;
    QPushButton* again_;
    QVector<selftest::Check> checks_;
};

}  // namespace fusescope
