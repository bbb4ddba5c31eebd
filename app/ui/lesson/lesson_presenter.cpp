#include "ui/lesson/lesson_presenter.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/stage/memory_stage_widget.h"

namespace fusescope {
namespace {

QFont pixelFont(const QFont& base, int pixels, bool bold = false) {
    QFont font = base;
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

QLabel* wrappedLabel(QWidget* parent, int pixels, bool bold = false) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setFont(pixelFont(label->font(), pixels, bold));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setFocusPolicy(Qt::NoFocus);
    return label;
}

QString escaped(const QString& text) {
    return text.toHtmlEscaped();
}

QString handsText(int hands) {
    return hands == 1 ? QObject::tr("1 hand") : QObject::tr("%1 hands").arg(hands);
}

}  // namespace

LessonPresenter::LessonPresenter(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lessonPresenter"));
    setFocusPolicy(Qt::StrongFocus);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 20, 32, 20);
    layout->setSpacing(10);

    heading_ = wrappedLabel(this, 32, true);
    source_ = wrappedLabel(this, kPresenterBodyPixels);
    source_->setForegroundRole(QPalette::PlaceholderText);
    text_ = wrappedLabel(this, kPresenterBodyPixels);
    text_->setTextFormat(Qt::MarkdownText);
    question_ = wrappedLabel(this, 40, true);
    layout->addWidget(heading_);
    layout->addWidget(source_);
    layout->addWidget(text_);
    layout->addWidget(question_);

    entry_ = new QWidget(this);
    auto* entry = new QHBoxLayout(entry_);
    entry->setContentsMargins(0, 0, 0, 0);
    answer_ = new QLineEdit(entry_);
    answer_->setFont(pixelFont(answer_->font(), kPresenterBodyPixels));
    answer_->setPlaceholderText(tr("the class's answer"));
    answer_->installEventFilter(this);
    hands_ = new QSpinBox(entry_);
    hands_->setFont(pixelFont(hands_->font(), kPresenterBodyPixels));
    hands_->setRange(1, 9999);
    hands_->setPrefix(tr("hands: "));
    hands_->setToolTip(tr("How many in the class gave this answer (a show of hands)"));
    add_ = new QPushButton(tr("Add answer"), entry_);
    add_->setFont(pixelFont(add_->font(), kPresenterBodyPixels));
    reveal_ = new QPushButton(tr("Reveal"), entry_);
    reveal_->setFont(pixelFont(reveal_->font(), kPresenterBodyPixels, true));
    entry->addWidget(answer_, 1);
    entry->addWidget(hands_);
    entry->addWidget(add_);
    entry->addWidget(reveal_);
    layout->addWidget(entry_);
    hint_ = wrappedLabel(this, kPresenterBodyPixels);
    hint_->setForegroundRole(QPalette::PlaceholderText);
    message_ = wrappedLabel(this, kPresenterBodyPixels);
    layout->addWidget(hint_);
    layout->addWidget(message_);

    // The reveal: predictions and numbers on the left; the stage at its moment and the reason on
    // the right.
    auto* reveal = new QHBoxLayout;
    auto* words = new QVBoxLayout;
    measured_ = wrappedLabel(this, 40, true);
    answers_ = wrappedLabel(this, kPresenterBodyPixels);
    answers_->setTextFormat(Qt::RichText);
    numbers_ = wrappedLabel(this, kPresenterBodyPixels);
    words->addWidget(measured_);
    words->addWidget(answers_);
    words->addWidget(numbers_);
    words->addStretch(1);
    reveal->addLayout(words, 2);
    auto* aside = new QVBoxLayout;
    stage_ = new MemoryStageWidget(this);
    stage_->setLessonMode(true);
    stage_->setMinimumSize(200, 150);
    reasonAside_ = wrappedLabel(this, kPresenterBodyPixels);
    aside->addWidget(stage_, 1);
    aside->addWidget(reasonAside_);
    aside->addStretch(0);
    reveal->addLayout(aside, 3);
    layout->addLayout(reveal, 1);

    connect(add_, &QPushButton::clicked, this, &LessonPresenter::submitAnswer);
    connect(answer_, &QLineEdit::returnPressed, this, &LessonPresenter::submitAnswer);
    connect(reveal_, &QPushButton::clicked, this, &LessonPresenter::revealAsked);
}

void LessonPresenter::submitAnswer() {
    if (answer_->text().trimmed().isEmpty()) return;
    emit answerGiven(answer_->text(), hands_->value());
}

void LessonPresenter::setMessage(const QString& message) {
    message_->setText(message);
    message_->setVisible(!message.isEmpty());
    if (message.isEmpty()) {
        answer_->clear();
        hands_->setValue(1);
    }
}

void LessonPresenter::setView(const LessonStepView& view) {
    heading_->setText(view.heading);
    source_->setText(view.status.isEmpty() ? view.source : view.status);
    // Once a question is revealed, the step's text gives way to the measurement.
    text_->setText(view.text);
    text_->setVisible(!view.text.isEmpty() && (view.question.isEmpty() || !view.revealed));
    question_->setText(view.question);
    question_->setVisible(!view.question.isEmpty());
    question_->setFont(pixelFont(question_->font(), view.revealed ? 28 : 40, true));
    const bool asking = !view.question.isEmpty() && !view.revealed;
    entry_->setVisible(asking);
    hint_->setText(view.answerHint);
    hint_->setVisible(asking);
    reveal_->setEnabled(view.canReveal);
    if (!asking) message_->hide();

    QStringList rows;
    for (const LessonAnswerRow& row : view.answers)
        rows << QStringLiteral("<b>%1</b> &nbsp;·&nbsp; %2%3")
                    .arg(escaped(row.answer))
                    .arg(handsText(row.hands))
                    .arg(row.off.isEmpty() ? QString()
                                           : QStringLiteral(" &nbsp;·&nbsp; ") + escaped(row.off));
    const QString heading =
        view.answers.isEmpty()
            ? QString()
            : tr("Predictions (%1):").arg(handsText(view.hands)) + QStringLiteral("<br>");
    answers_->setText(heading + rows.join(QStringLiteral("<br>")));
    answers_->setVisible(!rows.isEmpty());

    measured_->setText(view.revealed && !view.measured.isEmpty()
                           ? QStringLiteral("%1: %2").arg(view.measuredKind, view.measured)
                           : QString());
    measured_->setVisible(view.revealed && !view.measured.isEmpty());
    numbers_->setText(view.numbers.join(QLatin1Char('\n')) +
                      (view.measuredSource.isEmpty()
                           ? QString()
                           : QStringLiteral("\n(%1)").arg(view.measuredSource)));
    numbers_->setVisible(view.revealed && !view.numbers.isEmpty());
    const bool staged = view.revealed && view.stage.has_value();
    reasonAside_->setText(view.reason);
    reasonAside_->setVisible(view.revealed && !view.reason.isEmpty());
    if (staged) {
        stage_->setTimelines(*view.stage, nullptr);
        stage_->setPosition(view.stageMomentNs);
        stage_->show();
    } else {
        stage_->hide();
    }
    if (!asking && answer_->hasFocus()) setFocus();
}

bool LessonPresenter::eventFilter(QObject* watched, QEvent* event) {
    // Esc in the answer field hands the keys back to the presenter before it leaves.
    if (watched == answer_ && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        setFocus();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LessonPresenter::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Space:
        case Qt::Key_Right:
        case Qt::Key_PageDown:
        case Qt::Key_Down:
            emit forwardAsked();
            return;
        case Qt::Key_Left:
        case Qt::Key_PageUp:
        case Qt::Key_Up:
        case Qt::Key_Backspace:
            emit backAsked();
            return;
        case Qt::Key_Escape:
            emit leaveAsked();
            return;
        case Qt::Key_E:
            if (event->modifiers() & Qt::ControlModifier) emit exportAsked();
            return;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (entry_->isVisible()) answer_->setFocus();
            return;
        default:
            QWidget::keyPressEvent(event);
    }
}

}  // namespace fusescope
