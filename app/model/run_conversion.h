#pragma once
// The runner's RunReport (kernels layer, no Qt) as a model Recording.
#include <QDateTime>
#include <QString>

#include "model/recording.h"
#include "runtime/runner.h"

namespace fusescope::model {

// "fusescope-cli 0.1.0": the program and the project's version.
QString producerString(const QString& program);

DataSource dataSourceFrom(MeasurementSource source);
RunRecord runRecordFrom(const VariantResult& variant);

struct ConversionOptions {
    QString producer;
    QDateTime createdAt = QDateTime::currentDateTimeUtc();
};

Recording recordingFrom(const RunReport& report, const ConversionOptions& options);

}  // namespace fusescope::model
