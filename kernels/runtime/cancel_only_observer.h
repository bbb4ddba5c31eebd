#pragma once
// A run inside a larger job (a tile sweep, an estimate's tiny run) sees the job's cancel but
// reports no progress of its own: the job's progress is the job's to tell.
#include "runtime/runner.h"

namespace fusescope {

// `Source`: anything with `bool cancelled() const` (a RunObserver, a TileObserver), which must
// outlive this observer.
template <typename Source>
class CancelOnlyObserver final : public RunObserver {
  public:
    explicit CancelOnlyObserver(const Source& source) : source_(source) {}
    bool cancelled() const override { return source_.cancelled(); }

  private:
    const Source& source_;
};

}  // namespace fusescope
