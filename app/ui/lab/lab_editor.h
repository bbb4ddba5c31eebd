#pragma once
// The Lab's code editor: QScintilla with the C++ lexer for CUDA C++, line numbers, undo, a find
// bar (Ctrl+F, Enter for the next match), and a marker plus an annotation on every line the
// compiler has something to say about.
#include <QWidget>

#include "model/lab/compile_messages.h"

class QsciScintilla;
class QLineEdit;

namespace fusescope {

class LabEditor : public QWidget {
    Q_OBJECT
  public:
    explicit LabEditor(QWidget* parent = nullptr);

    QsciScintilla* editor() const { return editor_; }
    QLineEdit* findEdit() const { return findEdit_; }
    QString text() const;
    void setText(const QString& text);  // also clears the messages and the undo history
    // Markers and annotations for `messages` (lines of the editor's text); the old ones go.
    void showMessages(const QVector<model::CompileMessage>& messages);
    void jumpToLine(int line);  // 1-based
    // The editor's lines that carry an error or warning marker, 1-based (tests).
    QList<int> markedLines() const;
    int cursorLine() const;  // 1-based
    void showFind();
    bool findNext();

  signals:
    void textChanged();

  private:
    QsciScintilla* editor_ = nullptr;
    QWidget* findBar_ = nullptr;
    QLineEdit* findEdit_ = nullptr;
    int errorMarker_ = 0;
    int warningMarker_ = 1;
};

}  // namespace fusescope
