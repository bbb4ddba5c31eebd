#pragma once
// What the expression view shows before anything runs, as plain data: the parse error and the
// character it points at, or each variant's predicted ledger (per kernel: arrays read and
// written, passes, requested bytes, bytes live; per variant: totals and the peak in flight) and
// the generated CUDA; and the run request of a chain registered for a run.
#include <QString>
#include <QStringList>
#include <QVector>

#include "core/status.h"
#include "runtime/runner.h"

namespace fusescope::model {

struct ExpressionKernelRow {
    QString kernel;
    QStringList reads;
    QStringList writes;
    int operations = 0;
    int passes = 0;
    quint64 requestedBytes = 0;
    quint64 liveBytes = 0;
};

struct ExpressionVariantLedger {
    QString variant;
    QVector<ExpressionKernelRow> kernels;
    int passes = 0;
    quint64 requestedBytes = 0;
    quint64 peakLiveBytes = 0;      // arrays freed after their last use
    quint64 peakInFlightBytes = 0;  // every array allocated before the first launch
};

struct ExpressionPreview {
    bool ok = false;
    int errorPosition = -1;  // the character the parse error points at, from 0
    QString error;           // "at character 9: expected an expression, found ..."
    QVector<ExpressionVariantLedger> variants;
    QString cuda;  // every variant's kernels at the width asked
};

ExpressionPreview previewExpression(const QString& text, quint64 n, int vectorWidth);

// Registers the chain as the expression pipeline family (replacing the last one) and returns the
// request that runs every variant of it at `n` elements and the vector width; or the parse error.
Result<RunRequest> expressionRunRequest(const QString& text, quint64 n, int vectorWidth);

}  // namespace fusescope::model
