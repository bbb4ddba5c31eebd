#pragma once
// The runner's RunReport (kernels layer, no Qt) as a model Recording.
#include <QDateTime>
#include <QString>

#include "model/recording.h"
#include "runtime/runner.h"

namespace fusescope::model {

// "fusescope-cli 0.1.0": the program and the project's version.
QString producerString(const QString& program);

DeviceRecord deviceRecordFrom(const DeviceInfo& device);
DataSource dataSourceFrom(MeasurementSource source);
RunRecord runRecordFrom(const VariantResult& variant);
// One PM sample and one timeline span (the worker converts streamed batches with these).
SampleRecord sampleRecordFrom(const BandwidthSample& sample);
TimelineSpan spanRecordFrom(const fusescope::TimelineSpan& span);

struct ConversionOptions {
    QString producer;
    QDateTime createdAt = QDateTime::currentDateTimeUtc();
};

Recording recordingFrom(const RunReport& report, const ConversionOptions& options);

}  // namespace fusescope::model
