// The page's colours, in one place: Dear ImGui's style (apply_page_style), the named colours the panels draw with
// (page_colour), the line plots' series colours, and the colour maps for values drawn as colours (heat maps, colour
// bars, the phase map's points), one of each kind, so that the same quantity looks the same on every tab.
//
// Contrast (WCAG 2.1 AA), against the darkest background each is drawn on (the page's, a plot's, a tooltip's): every
// text colour at least 4.5:1, every line, marker and control frame at least 3:1. Series colours and their shades keep
// a relative luminance of at least kSeriesMinLuminance, which gives 4.5:1 on all three, so a curve's colour may also
// colour its text (the hover read-out). tests/browser/contrast.test.mjs measures the drawn pixels.
#pragma once
#include "imgui.h"

namespace page_colour {
constexpr ImU32 background = IM_COL32(15, 15, 15, 255);        // the page behind the panels (the frame's clear colour)
constexpr ImU32 text = IM_COL32(255, 255, 255, 255);
constexpr ImU32 text_dim = IM_COL32(160, 160, 160, 255);       // hints, tick labels, a hidden legend row: 5.5:1
constexpr ImU32 error = IM_COL32(255, 115, 115, 255);          // a problem, a diverged run
constexpr ImU32 notice = IM_COL32(255, 217, 77, 255);          // an edit not yet run, a backend note
constexpr ImU32 frame_border = IM_COL32(140, 140, 150, 255);   // every field, box, button and slider: 5.7:1
constexpr ImU32 field = IM_COL32(26, 36, 52, 255);             // inside a field or a progress bar's track
constexpr ImU32 progress = IM_COL32(45, 115, 200, 255);        // a progress bar's fill: white on it 4.8:1, 3.3:1 to the track
constexpr ImU32 plot_frame = IM_COL32(130, 130, 130, 255);     // a plot's box
constexpr ImU32 plot_grid = IM_COL32(255, 255, 255, 28);       // its grid lines (a reading aid, not information)
constexpr ImU32 reference_line = IM_COL32(200, 200, 200, 255); // a reference slope, and its label
constexpr ImU32 legend_background = IM_COL32(20, 20, 24, 210);
constexpr ImU32 limit_curve = IM_COL32(255, 255, 255, 255);    // the width-∞ curve
// The views' own things.
constexpr ImU32 label = IM_COL32(220, 220, 220, 255);          // a heat map's and a phase map's labels
constexpr ImU32 target = IM_COL32(235, 235, 235, 255);         // the data a net fits (solid)
constexpr ImU32 network = IM_COL32(255, 140, 40, 255);         // the net's output and loss (dash-dot beside a target)
constexpr ImU32 initial = IM_COL32(150, 150, 150, 255);        // where a neuron started
constexpr ImU32 path = IM_COL32(80, 170, 255, 255);            // the way it went
constexpr ImU32 chosen = IM_COL32(255, 200, 60, 255);          // the point or cell the reader picked
constexpr ImU32 missing = IM_COL32(110, 110, 110, 255);        // a cell or point without a value: white on it 4.9:1
constexpr ImU32 outline = IM_COL32(20, 20, 20, 255);           // a dark ring around a point, a hatch over a light one
constexpr ImU32 hatch = IM_COL32(255, 255, 255, 110);          // a hatch over a coloured cell
constexpr ImU32 cell_border = IM_COL32(90, 90, 90, 255);
constexpr ImU32 flag = IM_COL32(255, 80, 80, 255);             // a ring that flags a cell (low commutativity)
constexpr ImU32 clusters[2] = {IM_COL32(252, 166, 54, 255), IM_COL32(84, 140, 230, 255)};  // circles, squares
// The abc explorer's regimes.
constexpr ImU32 feature_learning = IM_COL32(115, 230, 115, 255);
constexpr ImU32 kernel = IM_COL32(115, 191, 255, 255);
constexpr ImU32 trivial = IM_COL32(204, 204, 204, 255);
}  // namespace page_colour

// Dear ImGui's dark style with the page's colours and a 1-px frame around every control.
void apply_page_style(ImGuiStyle& style);

// Series colours (a width's, a layer's): at least this relative luminance (4.5:1 on the page's backgrounds).
constexpr float kSeriesMinLuminance = 0.21f;
// The index-th of `count` series' colour: yellow, orange, red, pink, violet, blue, cyan, distinct for up to 8 and
// decreasing in luminance overall, so that under achromatopsia neighbours still differ in grey.
ImU32 curve_color(int index, int count);
// The same for imported runs (web/views/overlay.hpp): another family of colours, greens to teal.
ImU32 imported_color(int index, int count);
// `color` in the `index`-th of `count` shades, darker to lighter: a sweep's learning rates within one width's colour.
// Never darker than kSeriesMinLuminance.
ImU32 shade_color(ImU32 color, int index, int count);
// `color` mixed toward white until its relative luminance is at least `luminance`.
ImU32 at_least_luminance(ImU32 color, float luminance);
// WCAG's relative luminance of an opaque colour.
float relative_luminance(ImU32 color);

// Sequential, for values in [0, 1] (attention weights, accuracies, normalised errors): dark blue (0) to yellow (1).
ImU32 sequential_colour(double t);
// Diverging, for signed values in [-1, 1] (cosines, signed slopes): red (-1), white (0), blue (+1).
ImU32 diverging_colour(double v);
// Grey levels for an image's pixels in [-1, 1]: black (-1) to white (+1).
ImU32 grey_colour(double v);
