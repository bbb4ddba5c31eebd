#pragma once
// A variant list filled in as a user would: every variant ticked but one, so that the run or
// sweep shows that the choice, not the whole list, is what goes to the worker.
#include <QListWidget>
#include <QString>
#include <QStringList>

#include "pipelines/registry.h"

namespace testsupport {

// Ticks every row of `list` but the second (where there are three or more rows) and returns the
// names of the ticked variants; row r shows `pipeline`'s variant r.
inline QStringList tickAllButTheSecond(QListWidget* list, const fusescope::PipelineSpec& pipeline) {
    QStringList chosen;
    for (int row = 0; row < list->count(); ++row) {
        const bool skip = list->count() >= 3 && row == 1;
        list->item(row)->setCheckState(skip ? Qt::Unchecked : Qt::Checked);
        if (!skip) chosen << QString::fromStdString(pipeline.variants[row].name);
    }
    return chosen;
}

}  // namespace testsupport
