#pragma once
// How long work learns that the user cancelled it. The runner makes one from its observer and
// hands it down through the backend to every kernel and buffer fill, which ask it per block of
// work (parallel.h), so a cancel takes effect inside a long loop and not only between kernels.
// What it asks is called from several threads at once, so it must be thread-safe.
#include <functional>
#include <utility>

#include "core/status.h"

namespace fusescope {

class CancelToken {
  public:
    CancelToken() = default;  // never cancelled
    explicit CancelToken(std::function<bool()> asked) : asked_(std::move(asked)) {}

    bool cancelled() const { return asked_ && asked_(); }
    // False for the default token: work that must pay to stay cancellable need not.
    bool canBeCancelled() const { return static_cast<bool>(asked_); }

  private:
    std::function<bool()> asked_;
};

inline Status cancelledStatus() {
    return Status(ErrorCode::Cancelled, "cancelled by the user");
}

}  // namespace fusescope
