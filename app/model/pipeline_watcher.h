#pragma once
// The registry's list of pipelines as a Qt signal: changed() after a pipeline is registered,
// replaced or unregistered while the program runs (an expression, a recording's description, a
// learner's kernel), delivered on this object's thread whichever thread registered, once for a
// burst of changes.
#include <QObject>
#include <atomic>
#include <cstdint>

namespace fusescope::model {

class PipelineWatcher final : public QObject {
    Q_OBJECT
  public:
    explicit PipelineWatcher(QObject* parent = nullptr);
    ~PipelineWatcher() override;

  signals:
    void changed();

  private:
    std::uint64_t watch_ = 0;
    std::atomic<bool> pending_ = false;
};

}  // namespace fusescope::model
