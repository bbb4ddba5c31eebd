#pragma once
// A plain-text table with aligned columns, two spaces apart, for terminals and slides.
#include <QString>
#include <QStringList>
#include <QVector>
#include <initializer_list>

namespace fusescope::cli {

class TextTable {
  public:
    enum class Align { Left, Right };

    struct Column {
        QString header;
        Align align;
    };

    void addColumn(const QString& header, Align align);
    void addColumns(std::initializer_list<Column> columns);
    void addRow(const QStringList& cells);  // one cell per column
    // The header, a rule, and the rows; each line starts with `indent` and has no trailing space.
    QStringList render(const QString& indent = QString()) const;

  private:
    QStringList headers_;
    QVector<Align> alignments_;
    QVector<QStringList> rows_;
};

}  // namespace fusescope::cli
