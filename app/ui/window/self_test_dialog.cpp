#include "ui/window/self_test_dialog.h"

#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "worker/run_controller.h"

namespace fusescope {
namespace {

QString statusColor(selftest::CheckStatus status) {
    switch (status) {
        case selftest::CheckStatus::Pass:
            return QStringLiteral("#1a7f37");
        case selftest::CheckStatus::Warn:
            return QStringLiteral("#9a6700");
        case selftest::CheckStatus::Skip:
            return QStringLiteral("#57606a");
        case selftest::CheckStatus::Fail:
            return QStringLiteral("#cf222e");
    }
    return QStringLiteral("#cf222e");
}

}  // namespace

selftest::DisplayProbe windowDisplayProbe() {
    selftest::DisplayProbe display;
    display.isWindow = true;
    display.platform = QGuiApplication::platformName();
    // Platforms that draw into memory or nowhere: nobody sees the window.
    static const QStringList kInvisible{QStringLiteral("offscreen"), QStringLiteral("minimal"),
                                        QStringLiteral("minimalegl")};
    display.interactive = !display.platform.isEmpty() && !kInvisible.contains(display.platform);
    return display;
}

QString checkListHtml(const QVector<selftest::Check>& checks) {
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='4' width='100%'>");
    for (const selftest::Check& check : checks) {
        html += QStringLiteral(
                    "<tr><td valign='top'><b><span style='color:%1'>%2</span></b></td>"
                    "<td valign='top'><b>%3</b><br>%4")
                    .arg(statusColor(check.status), selftest::checkStatusText(check.status),
                         check.name.toHtmlEscaped(), check.found.toHtmlEscaped());
        if (!check.fix.isEmpty())
            html += QStringLiteral("<br><i>Fix:</i> %1").arg(check.fix.toHtmlEscaped());
        html += QStringLiteral("</td></tr>");
    }
    return html + QStringLiteral("</table>");
}

SelfTestDialog::SelfTestDialog(RunController* controller, QWidget* parent)
    : QDialog(parent),
      controller_(controller),
      summary_(new QLabel(this)),
      list_(new QTextBrowser(this)),
      again_(new QPushButton(tr("Check &again"), this)) {
    setWindowTitle(tr("Check this machine"));
    summary_->setWordWrap(true);
    list_->setOpenLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(again_, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(again_, &QPushButton::clicked, this, &SelfTestDialog::check);
    connect(controller_, &RunController::selfTestFinished, this, &SelfTestDialog::showProbe);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(list_, 1);
    layout->addWidget(buttons);
    // Fits a 1280x720 screen at 150% scaling (853x480 logical pixels) with room for the frame.
    resize(760, 440);
}

void SelfTestDialog::check() {
    again_->setEnabled(false);
    QString text =
        tr("Checking this machine: the GPU, counters, libraries, a small run of every "
           "pipeline, the shipped recordings…");
    // The worker owns the GPU and takes one job at a time.
    if (controller_->isRunning()) text += tr(" (after the run in progress)");
    summary_->setText(text);
    list_->clear();
    controller_->selfTest(selftest::shippedRecordingFolders());
}

void SelfTestDialog::showProbe(selftest::MachineProbe probe) {
    probe.display = windowDisplayProbe();
    checks_ = selftest::checkList(probe);
    summary_->setText(selftest::checkSummary(checks_));
    list_->setHtml(checkListHtml(checks_));
    again_->setEnabled(true);
}

}  // namespace fusescope
