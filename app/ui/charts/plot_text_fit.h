#pragma once
// Keeps a QCustomPlot's text readable at any size: title and caption elements wrap at their
// " · " separators and are elided (the full text in a tooltip), axis labels are elided to their
// axis, numeric axes get as many ticks as their labels have room for, the legend wraps into rows
// that fit, and text items that would overlap are moved apart. Installed once per plot; it works
// on every replot.
#include "ui/charts/plot.h"

namespace fusescope {

// The fitter lives as long as the plot (it is the plot's child).
void fitPlotTextAlways(QCustomPlot* plot);

// `caption` is read, not hovered: the fitter gives it the lines its text needs, up to a third of
// the plot's height, where other captions give up lines on a short plot.
void keepCaptionWhole(QCPTextElement* caption);

}  // namespace fusescope
