#pragma once
// The registry's pipelines as the window reads them: their names, titles, dimensions, presets,
// dtypes, variants and tunings. These are the engine's own declarations (one registry, never a
// copy); the window includes this header, never the engine's, so that app/model stays the one
// door between the window and kernels/ (tests/layers checks the includes).
#include "pipelines/registry.h"  // IWYU pragma: export
// Which variants can run here (a recording may register variants that only it holds).
#include "pipelines/runtime_registry.h"  // IWYU pragma: export
