// Which panels the page shows. The full page shows all of them; an embed (index.html?embed=1&panels=...) shows
// the ones its author chose, in a compact layout, so an <iframe> in lecture notes holds just the plot and the
// run controls, say.
#pragma once
#include <string>
#include <vector>

struct View {
  bool embed = false;
  bool presets = true, editor = true, controls = true, plot = true, runs = true, status = true;
  bool phenomena = false;  // an embed only: the phenomena tab's pictures under the plot (the full page has the tab)
  bool backend = true;     // the backend choice and its note; an embed shows it only when asked (a student needs neither)
};

// How the full page shares its room between panels; the splitters (web/draw/splitter.hpp) move these with the mouse.
// Shares, not pixels, so a resized window keeps the proportions the reader chose.
struct PanelShares {
  float left = 0.34f;    // the left column's part of the window's width (the right column has the rest)
  float presets = 0.3f;  // the presets list's part of the left column's height (the spec editor has the rest)
};

// The panel names, in the order the `panels` parameter lists them.
const std::vector<std::string>& panel_names();

// The view for `embed` and a comma-separated `panels` list ("" = the default: all for the page, controls and plot
// for an embed). Unknown names are reported in `errors` and skipped; if none is known, the default is shown.
View make_view(bool embed, const std::string& panels, std::vector<std::string>& errors);
