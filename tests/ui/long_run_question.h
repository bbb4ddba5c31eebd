#pragma once
// Answers the question Run asks before a long CPU run, once it shows, with `button`; its text
// goes to `text`.
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QString>
#include <QTimer>

namespace fusescope::testing {

inline void answerTheLongRunQuestion(QMessageBox::StandardButton button, QString* text) {
    text->clear();
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, button, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || box->objectName() != QStringLiteral("longRunQuestion")) return;
        *text = box->text();
        box->button(button)->click();
        poll->stop();
        poll->deleteLater();
    });
    poll->start();
}

}  // namespace fusescope::testing
