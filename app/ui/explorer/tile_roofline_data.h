#pragma once
// What the tile roofline draws, as plain values: every measured configuration by arithmetic
// intensity (model FLOPs over DRAM bytes) and achieved TFLOP/s, under the copy roof and the
// measured compute roof, with the path one tile parameter traces while the others stay fixed.
#include <QString>
#include <QVector>
#include <optional>

namespace fusescope {

struct TileRooflinePoint {
    double flopsPerByte = 0.0;
    double tflops = 0.0;
    QString name;     // "BM 64 · BN 64 · BH 32 · BI 64"
    QString tooltip;  // the configuration and its numbers
    int runIndex = -1;
};

struct TileRooflineData {
    QString title;
    QString caption;
    QString dataSource;
    double copyRoofGBps = 0.0;       // 0: unknown, no slanted roof
    double computeRoofTflops = 0.0;  // measured; 0: unknown, no flat roof
    QString computeRoofSource;       // "measured: cuBLAS bf16 GEMM 8192³"
    bool perDramByte = false;        // intensity per DRAM byte (counters), else per model byte
    QVector<TileRooflinePoint> points;
    // The configurations in the order the followed parameter grows, the others as selected.
    QString followedParameter;  // "BLOCK_N"
    QVector<TileRooflinePoint> path;
    std::optional<TileRooflinePoint> baseline;
    std::optional<TileRooflinePoint> leanest;
    QString baselineTitle;  // the legend's words for them: "5 kernels", "production"
    QString leanestTitle;
    QString emptyMessage;
};

}  // namespace fusescope
