#include "ui/run/run_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTimer>

#include "model/element_count.h"
#include "model/problem_options.h"

// The run panel's problem: the fields a pipeline declares, shown from and read into a Problem.
namespace fusescope {
namespace {

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

}  // namespace

// The fields a pipeline declares: N and the vector width for the elementwise pipelines, named
// dimensions, presets and tiles for the others; the dtypes it runs in.
void RunPanel::showProblemFields(const PipelineSpec& pipeline) {
    const bool elementwise = pipeline.findDimension(kElementCountDimension) != nullptr;
    const bool vector = pipeline.findTuning(kVectorWidthTuning) != nullptr;
    form_->setRowVisible(rowOf(elementCount_), elementwise);
    form_->setRowVisible(rowOf(presets_), elementwise);
    form_->setRowVisible(rowOf(cacheHint_), elementwise);
    form_->setRowVisible(rowOf(shape_), !elementwise);
    form_->setRowVisible(rowOf(problemPresets_), !elementwise && !pipeline.presets.empty());
    form_->setRowVisible(rowOf(tuning_), !vector && !pipeline.tunings.empty());
    form_->setRowVisible(rowOf(vector_), vector);
    dtype_->clear();
    for (DType dtype : pipeline.dtypes)
        dtype_->addItem(QString::fromUtf8(dtypeTitle(dtype)), QString::fromUtf8(dtypeName(dtype)));
    problemPresets_->clear();
    problemPresets_->addItem(tr("Presets"));
    for (const PresetSpec& preset : pipeline.presets) {
        QStringList dims;
        for (const auto& [name, value] : preset.dimensions)
            dims << QStringLiteral("%1=%2").arg(text(name)).arg(value);
        problemPresets_->addItem(text(preset.title), dims.join(QLatin1Char(',')));
    }
    showProblem(pipeline.defaultProblem());
}

int RunPanel::rowOf(QWidget* field) const {
    int row = -1;
    QFormLayout::ItemRole role;
    form_->getWidgetPosition(field, &row, &role);
    if (row >= 0) return row;
    for (int r = 0; r < form_->rowCount(); ++r)
        if (QLayoutItem* item = form_->itemAt(r, QFormLayout::FieldRole))
            if (QLayout* inner = item->layout(); inner && inner->indexOf(field) >= 0) return r;
    return -1;
}

void RunPanel::showProblem(const Problem& problem) {
    const PipelineSpec* pipeline = currentPipeline();
    if (!pipeline || problem.dimensions.empty()) return;
    if (pipeline->findDimension(kElementCountDimension))
        elementCount_->setText(QString::number(problem.dimension(kElementCountDimension)));
    QStringList dims;
    for (const DimensionSpec& dimension : pipeline->dimensions)
        dims << QStringLiteral("%1=%2")
                    .arg(text(dimension.name))
                    .arg(problem.dimension(dimension.name));
    shape_->setText(dims.join(QLatin1Char(',')));
    QStringList tiles;
    for (const TuningSpec& tuning : pipeline->tunings)
        tiles
            << QStringLiteral("%1=%2").arg(text(tuning.name)).arg(problem.tuningValue(tuning.name));
    tuning_->setText(tiles.join(QLatin1Char(',')));
    const int vectorIndex = vector_->findData(problem.tuningValue(kVectorWidthTuning));
    if (vectorIndex >= 0) vector_->setCurrentIndex(vectorIndex);
    const int dtypeIndex = dtype_->findData(QString::fromUtf8(dtypeName(problem.dtype)));
    if (dtypeIndex >= 0) dtype_->setCurrentIndex(dtypeIndex);
    fitFieldsToValues();
}

void RunPanel::fitFieldsToValues() {
    // The tiles (six names and values for the MLP) are wider than any panel: they show from
    // their start, whole in the tooltip.
    tuning_->setCursorPosition(0);
    tuning_->setToolTip(tr("Tile sizes: %1").arg(tuning_->text()));
    for (QLineEdit* field : {elementCount_, shape_}) {
        // The value from its start (M first), and room for all of it: QLineEdit keeps 2 pixels
        // either side of its text inside the frame.
        field->setCursorPosition(0);
        const QMargins margins = field->textMargins();
        const int frame = field->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, field);
        field->setMinimumWidth(field->fontMetrics().horizontalAdvance(field->text()) +
                               margins.left() + margins.right() + 4 + 2 * frame + 2);
    }
    emit leastWidthChanged();
}

void RunPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::FontChange) return;
    fitFormulaFont();
    // A zoom changes the room the values need (after the fields have taken the new font).
    QTimer::singleShot(0, this, &RunPanel::fitFieldsToValues);
}

Result<Problem> RunPanel::currentProblem() const {
    const PipelineSpec* pipeline = currentPipeline();
    if (!pipeline) return Status(ErrorCode::InvalidArgument, "choose a pipeline");
    model::ProblemText problem;
    problem.dtype = dtype_->currentData().toString();
    if (pipeline->findDimension(kElementCountDimension)) {
        if (!model::elementCountValue(elementCount_->text()))
            return Status(ErrorCode::InvalidArgument,
                          "N must be a whole number of at least 1 (e.g. 16777216 or 2^24).");
        problem.dimensions =
            QStringLiteral("%1=%2").arg(QLatin1String(kElementCountDimension.data()),
                                        elementCount_->text().remove(QLatin1Char(',')));
    } else {
        problem.dimensions = shape_->text();
    }
    if (pipeline->findTuning(kVectorWidthTuning))
        problem.tuning = QStringLiteral("%1=%2")
                             .arg(QLatin1String(kVectorWidthTuning.data()))
                             .arg(vector_->currentData().toInt());
    else
        problem.tuning = tuning_->text();
    return model::problemFromText(*pipeline, problem);
}

}  // namespace fusescope
