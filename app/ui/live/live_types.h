#pragma once
// Plain values the live chart is fed with (from the worker's snapshots or a recording); times are
// ns on the sampling run's clock.
#include <QMetaType>
#include <QString>
#include <QVector>

namespace fusescope::live {

struct LiveSample {
    qint64 startNs = 0;
    qint64 endNs = 0;
    double readBytesPerSecond = 0.0;
    double writeBytesPerSecond = 0.0;
};

struct LiveKernelSpan {
    QString name;
    qint64 startNs = 0;
    qint64 endNs = 0;
};

struct LiveAllocationSpan {
    QString name;
    quint64 bytes = 0;
    qint64 startNs = 0;
    qint64 endNs = 0;  // the free
};

}  // namespace fusescope::live

Q_DECLARE_METATYPE(fusescope::live::LiveSample)
Q_DECLARE_METATYPE(QVector<fusescope::live::LiveSample>)
Q_DECLARE_METATYPE(fusescope::live::LiveKernelSpan)
Q_DECLARE_METATYPE(fusescope::live::LiveAllocationSpan)
