#include "worker/tile_engine.h"

namespace fusescope {
namespace {

class ProductionTileEngine final : public TileEngine {
  public:
    Result<tiles::ResourceReport> report(Backend& backend,
                                         const tiles::TileConfiguration& configuration) override {
        return tiles::reportFor(backend, configuration);
    }
    Result<tiles::TileRunResult> run(Backend& backend,
                                     const tiles::TileConfiguration& configuration,
                                     const RunSettings& settings, RunObserver& observer) override {
        return tiles::runConfiguration(backend, configuration, settings, observer);
    }
    Result<tiles::TileSweep> sweep(Backend& backend, const tiles::TileSweepRequest& request,
                                   tiles::TileObserver& observer) override {
        return tiles::runTileSweep(backend, request, observer);
    }
};

}  // namespace

std::shared_ptr<TileEngine> productionTileEngine() {
    return std::make_shared<ProductionTileEngine>();
}

}  // namespace fusescope
