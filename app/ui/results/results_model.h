#pragma once
// Table models over a recording: one row per variant (and one per variant the run left out, with
// its reason), and one row per kernel.
#include <QAbstractTableModel>

#include "model/recording.h"
#include "model/run_traffic.h"

namespace fusescope {

class VariantResultsModel final : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Variant,
        Kernels,
        Passes,
        RequestedBytes,  // the model's requests, every re-read counted
        DramBytes,       // measured, or the model's distinct bytes
        TimeMs,
        GBps,    // DRAM bytes over the time (requested, said so, where no run has DRAM bytes)
        Tflops,  // useful FLOPs over the time (executed beside them where they differ)
        RooflinePercent,
        PeakInFlight,
        Check,
        ColumnCount
    };
    // The raw number behind a cell, for sorting and tests.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit VariantResultsModel(QObject* parent = nullptr);

    void setRecording(const model::Recording& recording);
    void appendRun(const model::VariantResult& run);  // while a run is in progress
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant display(int row, int column) const;
    QVariant sortValue(int row, int column) const;
    static QString timeToolTip(const model::VariantResult& run);
    QVariant toolTip(int row, int column) const;
    QVariant notRunData(const model::VariantNotRun& variant, int column, int role) const;
    bool anyDram() const;

    std::vector<model::VariantResult> runs_;
    std::vector<model::VariantNotRun> notRun_;  // rows after the runs
    QVector<model::RunTraffic> traffic_;        // one per run
    fusescope::RooflineResult roofline_;
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
    void appendRun(const model::VariantResult& run);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        QString variant;
        KernelResult kernel;
    };
    QVector<Row> rows_;
};

}  // namespace fusescope
