#pragma once
// A tile sweep against its peer (tiles::PeerTimings: the same tiles timed in another
// implementation, the lesson's Triton kernel): per cell the ratio of the times, and over the
// sweep the cells within the target ratio, the worst, both best configurations and whether
// their best-or-tied sets share a configuration. The explorer and the CLI say these in words.
#include <QString>
#include <optional>
#include <vector>

#include "tiles/tile_types.h"

namespace fusescope::model {

// At most this multiple of the peer's time counts as on par.
inline constexpr double kPeerParRatio = 1.10;

struct TilePeerComparison {
    int bothRan = 0;      // cells measured, checked and with a peer time
    int withinRatio = 0;  // of those, at most kPeerParRatio times the peer's time
    double medianRatio = 0.0;
    double worstRatio = 0.0;
    int worstCell = -1;           // index into the sweep's cells
    int bestCell = -1;            // the sweep's best (its own mark)
    int peerBestCell = -1;        // the lowest peer median
    std::vector<int> sharedTies;  // best or tied with it in both: the sweep's and the peer's
};

// The cell's median over the peer's at its tiles; empty where either is missing.
std::optional<double> peerRatio(const tiles::TileCell& cell);
// Empty where the sweep has no peer or no cell both ran.
std::optional<TilePeerComparison> comparePeer(const tiles::TileSweep& sweep);
// "64/64/64/128": the values of the tunings the swept variant takes, in declaration order.
QString tilesShort(const tiles::TileConfiguration& configuration);
// "BLOCK_M/N/H/I": the order of tilesShort's values, by the tunings' titles.
QString tilesOrder(const tiles::TileConfiguration& configuration);
// "Triton 3.6.0 at the same tiles (BLOCK_M/N/H/I): 41 of 48 within 1.10x its time · median
// 0.94x, worst 1.19x at 64/128/64/64 · best 64/64/64/128 0.257 ms, Triton 3.6.0's
// 32/128/64/128 0.255 ms (1.01x) · tied in both: 32/128/64/128" (best or tied with the best in
// each). Empty where comparePeer is.
QString peerSummary(const tiles::TileSweep& sweep);
// The cell's line for its tooltip: "Triton 3.6.0 at these tiles: 0.255 ms; this kernel takes
// 1.03x its time", or the peer's note; empty where the sweep has no peer.
QString peerCellLine(const tiles::TileCell& cell, const tiles::TileSweep& sweep);
// The peer's compiled kernel at the cell, worded as the cell's own resources are: "Triton
// 3.6.0's kernel: 128 threads per block · registers 255 per thread · spills 0 B per thread ·
// shared memory 81.9 kB · 2 blocks per SM"; empty where the cell has no record of it.
QString peerKernelLine(const tiles::TileCell& cell, const tiles::TileSweep& sweep);
// The same, short, for a table's column: "128 thr 255 reg 2/SM" (spills added where any).
QString peerKernelShort(const tiles::PeerKernel& kernel);

}  // namespace fusescope::model
