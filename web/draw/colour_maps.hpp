// The page's colour maps for values drawn as colours (heat maps, colour bars, the phase map's points), one of each
// kind, so that the same quantity looks the same on every tab.
#pragma once
#include "imgui.h"

// Sequential, for values in [0, 1] (attention weights, accuracies, normalised errors): dark blue (0) to yellow (1).
ImU32 sequential_colour(double t);
// Diverging, for signed values in [-1, 1] (cosines, signed slopes): red (-1), white (0), blue (+1).
ImU32 diverging_colour(double v);
// Grey levels for an image's pixels in [-1, 1]: black (-1) to white (+1).
ImU32 grey_colour(double v);
