// "vs width": a recorded quantity at one step against the width, on log-log axes, one curve per layer, with the
// fitted slope (the scaling exponent) in the legend. The coordinate check (experiment E3) reads off this view:
// flat lines under μP, growth under SP, shrinkage under NTP. Imported reference sets (web/views/overlay.hpp) add their
// own curves, e.g. a PyTorch run at widths the page cannot train, and a table of the slopes over the page's widths,
// over the imported widths and over both together.
#pragma once
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/run/runner.hpp"
#include "web/draw/plot.hpp"
#include "web/views/imported_runs.hpp"

// One series' fitted log-log slope over the page's widths, over one imported set's, and over both together.
struct WidthSlopes {
  std::string series, source;
  double page = NAN, imported = NAN, together = NAN;
  std::string page_widths, imported_widths;  // "64-512"
};

// What the view draws at one recorded step: the page's curves, then the imported ones (of the series an imported set
// recorded at that step), and the slopes tables' rows (one per imported curve; none without imports).
struct WidthPicture {
  std::string quantity;  // the series family drawn
  int step = 0;
  std::vector<PlotCurve> curves;
  std::vector<WidthSlopes> slopes;
};

struct WidthView {
  // The reader's choices, kept across runs and presets, so SP's step 5 can be compared with μP's. They are clamped
  // only where drawn, never written back: a fresh run has recorded nothing yet, and storing record 0 then would leave
  // the view on step 0 (where act_delta_rms is 0: an empty plot) for the whole next run.
  std::string family;  // which series family (act_delta_rms, act_rms, ...); "" or not recorded: act_delta_rms if recorded
  int record = 1;  // which recorded step
  bool references = false;  // draw the reference slopes n^0, n^±1/2, n^1 through the data
  // The picture drawn, kept until the sweep steps, the family or record changes, the imports change or the page's
  // language does (its labels are in it; cleared by App's reset, since a new runner may have taken exactly as many
  // steps as the old one).
  WidthPicture picture;
  long curves_at = -1;
  int curves_record = -1;
  std::string curves_family;
  double curves_imports = -1;
  int curves_language = -1;  // page_language_changes() when it was made
};

// `imports_revision` counts changes of `imports` (App::imports_revision): the cached picture follows it.
void width_view(WidthView& v, const Runner& runner, const std::vector<const ImportedSet*>& imports, double imports_revision);

// The view's picture for series `family` ("act_delta_rms" → h1, h2, ..., f) at record `record` of the page's runs
// (or of the first imported set's, while the page has recorded nothing).
WidthPicture width_picture(const Runner& runner, const std::vector<const ImportedSet*>& imports,
                           const std::string& family, int record);

// The page's curves: for every series of `family`, its value at record `record` against the width (geometric mean
// over seeds, first learning rate of the sweep). The label holds the fitted slope.
std::vector<PlotCurve> width_curves(const Runner& runner, const std::string& family, int record);
