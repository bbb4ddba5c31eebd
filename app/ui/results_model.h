#pragma once
// Table models over a recording: one row per variant, and one row per kernel.
#include <QAbstractTableModel>

#include "model/recording.h"

namespace fusescope {

class VariantResultsModel final : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Variant,
        Kernels,
        Passes,
        ModelBytes,
        TimeMs,
        GBps,
        Tflops,
        RooflinePercent,
        PeakInFlight,
        Check,
        ColumnCount
    };
    // The raw number behind a cell, for sorting and tests.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit VariantResultsModel(QObject* parent = nullptr);

    void setRecording(const model::Recording& recording);
    void appendRun(const model::RunRecord& run);  // while a run is in progress
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant display(const model::RunRecord& run, int column) const;
    QVariant sortValue(const model::RunRecord& run, int column) const;
    static QString timeToolTip(const model::RunRecord& run);

    QVector<model::RunRecord> runs_;
    model::RooflineRecord roofline_;
};

class KernelResultsModel final : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Variant,
        Kernel,
        TimeMs,
        BytesRead,
        BytesWritten,
        Registers,
        SharedBytes,
        LocalBytes,
        Occupancy,
        ColumnCount
    };

    explicit KernelResultsModel(QObject* parent = nullptr);

    void setRecording(const model::Recording& recording);
    void appendRun(const model::RunRecord& run);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        QString variant;
        model::KernelRecord kernel;
    };
    QVector<Row> rows_;
};

}  // namespace fusescope
