#include "ui/lesson/lesson_window.h"

#include <QFileDialog>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QVBoxLayout>

#include "ui/lesson/lesson_presenter.h"

namespace fusescope {

LessonWindow::LessonWindow(std::unique_ptr<LessonDriver> driver, QWidget* parent)
    : QWidget(parent, Qt::Window), driver_(std::move(driver)) {
    setWindowTitle(tr("%1 — FuseScope lesson").arg(driver_->plan().title));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    presenter_ = new LessonPresenter(this);
    layout->addWidget(presenter_);

    notes_ = std::make_unique<QWidget>(nullptr, Qt::Window);
    notes_->setWindowTitle(tr("Teacher's notes — %1").arg(driver_->plan().title));
    auto* notesLayout = new QVBoxLayout(notes_.get());
    notesText_ = new QLabel(notes_.get());
    notesText_->setWordWrap(true);
    notesText_->setTextFormat(Qt::PlainText);
    QFont font = notesText_->font();
    font.setPixelSize(kPresenterBodyPixels);
    notesText_->setFont(font);
    notesLayout->addWidget(notesText_);
    notesLayout->addStretch(1);

    connect(driver_.get(), &LessonDriver::changed, this, &LessonWindow::refresh);
    connect(presenter_, &LessonPresenter::answerGiven, this,
            [this](const QString& answer, int hands) {
                presenter_->setMessage(driver_->addAnswer(answer, hands));
            });
    connect(presenter_, &LessonPresenter::revealAsked, this,
            [this] { presenter_->setMessage(driver_->reveal()); });
    connect(presenter_, &LessonPresenter::forwardAsked, driver_.get(), &LessonDriver::forward);
    connect(presenter_, &LessonPresenter::backAsked, driver_.get(), &LessonDriver::back);
    connect(presenter_, &LessonPresenter::exportAsked, this, &LessonWindow::exportAnswers);
    connect(presenter_, &LessonPresenter::leaveAsked, this, [this] {
        notes_->hide();
        hide();
        emit left();
    });
    refresh();
}

LessonWindow::~LessonWindow() = default;

void LessonWindow::refresh() {
    const LessonStepView view = driver_->view();
    presenter_->setView(view);
    QString notes = view.heading + QStringLiteral("\n\n") +
                    (view.notes.isEmpty() ? tr("(no notes for this step)") : view.notes);
    if (!view.nextStep.isEmpty()) notes += QStringLiteral("\n\n") + view.nextStep;
    notesText_->setText(notes);
}

void LessonWindow::present() {
    showFullScreen();
    presenter_->setFocus();
    const QList<QScreen*> screens = QGuiApplication::screens();
    QScreen* here = screen();
    for (QScreen* other : screens)
        if (other != here) {
            notes_->setGeometry(other->availableGeometry());
            notes_->show();
            break;
        }
}

void LessonWindow::exportAnswers() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the class's answers"), driver_->plan().title + QStringLiteral(".csv"),
        tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    if (const QString error = driver_->exportCsv(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Export the class's answers"), error);
}

}  // namespace fusescope
