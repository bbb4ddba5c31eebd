#include "ui/lab/lab_editor.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

namespace fusescope {
namespace {

constexpr int kMessageStyleBase = 0;  // annotation styles: the lexer's default style's font

}  // namespace

LabEditor::LabEditor(QWidget* parent) : QWidget(parent) {
    editor_ = new QsciScintilla;
    editor_->setObjectName(QStringLiteral("labEditor"));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto* lexer = new QsciLexerCPP(editor_);
    lexer->setDefaultFont(fixed);
    lexer->setFont(fixed);
    editor_->setLexer(lexer);
    editor_->setUtf8(true);
    editor_->setMarginType(0, QsciScintilla::NumberMargin);
    editor_->setMarginLineNumbers(0, true);
    editor_->setMarginsFont(fixed);
    editor_->setMarginWidth(0, QStringLiteral("00000"));
    editor_->setMarginWidth(1, 14);
    editor_->setMarginSensitivity(1, false);
    editor_->setAutoIndent(true);
    editor_->setIndentationsUseTabs(false);
    editor_->setIndentationWidth(4);
    editor_->setTabWidth(4);
    editor_->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    editor_->setCaretLineVisible(true);
    editor_->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
    errorMarker_ = editor_->markerDefine(QsciScintilla::Circle, 0);
    warningMarker_ = editor_->markerDefine(QsciScintilla::Circle, 1);
    editor_->setMarkerBackgroundColor(QColor(0xd0, 0x30, 0x30), errorMarker_);
    editor_->setMarkerBackgroundColor(QColor(0xe0, 0xa0, 0x20), warningMarker_);
    connect(editor_, &QsciScintilla::textChanged, this, &LabEditor::textChanged);

    findBar_ = new QWidget;
    auto* findLayout = new QHBoxLayout(findBar_);
    findLayout->setContentsMargins(0, 0, 0, 0);
    findLayout->addWidget(new QLabel(tr("Find:")));
    findEdit_ = new QLineEdit;
    findEdit_->setObjectName(QStringLiteral("labFind"));
    findEdit_->setPlaceholderText(tr("text, Enter for the next match"));
    findLayout->addWidget(findEdit_, 1);
    auto* close = new QToolButton;
    close->setText(tr("Close"));
    findLayout->addWidget(close);
    findBar_->hide();
    connect(findEdit_, &QLineEdit::returnPressed, this, &LabEditor::findNext);
    connect(close, &QToolButton::clicked, findBar_, &QWidget::hide);
    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, &LabEditor::showFind);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(editor_, 1);
    layout->addWidget(findBar_);
}

QString LabEditor::text() const {
    return editor_->text();
}

void LabEditor::setText(const QString& text) {
    editor_->setText(text);
    editor_->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER);
    showMessages({});
}

void LabEditor::showMessages(const QVector<model::CompileMessage>& messages) {
    editor_->markerDeleteAll();
    editor_->clearAnnotations();
    for (const model::CompileMessage& message : messages) {
        const int line = message.line - 1;
        const bool error = message.severity == model::CompileSeverity::Error;
        editor_->markerAdd(line, error ? errorMarker_ : warningMarker_);
        const QString existing = editor_->annotation(line);
        const QString text = (error ? tr("error: ") : tr("warning: ")) + message.text;
        editor_->annotate(line, existing.isEmpty() ? text : existing + QLatin1Char('\n') + text,
                          kMessageStyleBase);
    }
}

void LabEditor::jumpToLine(int line) {
    editor_->setCursorPosition(line - 1, 0);
    editor_->ensureLineVisible(line - 1);
    editor_->setFocus();
}

QList<int> LabEditor::markedLines() const {
    QList<int> lines;
    const unsigned mask = (1u << errorMarker_) | (1u << warningMarker_);
    for (int line = editor_->markerFindNext(0, mask); line >= 0;
         line = editor_->markerFindNext(line + 1, mask))
        lines << line + 1;
    return lines;
}

int LabEditor::cursorLine() const {
    int line = 0, index = 0;
    editor_->getCursorPosition(&line, &index);
    return line + 1;
}

void LabEditor::showFind() {
    findBar_->show();
    findEdit_->setFocus();
    findEdit_->selectAll();
}

bool LabEditor::findNext() {
    const QString wanted = findEdit_->text();
    if (wanted.isEmpty()) return false;
    // From the cursor, wrapping at the end of the text.
    return editor_->findFirst(wanted, false, false, false, true);
}

}  // namespace fusescope
