// Which panels the page shows. The full page shows all of them; an embed (index.html?embed=1&panels=...) shows
// the ones its author chose, in a compact layout, so an <iframe> in lecture notes holds just the plot and the
// run controls, say.
#pragma once
#include <string>
#include <vector>

struct View {
  bool embed = false;
  bool presets = true, editor = true, controls = true, plot = true, runs = true, status = true;
};

// The panel names, in the order the `panels` parameter lists them.
const std::vector<std::string>& panel_names();

// The view for `embed` and a comma-separated `panels` list ("" = the default: all for the page, controls and plot
// for an embed). Unknown names are reported in `errors` and skipped; if none is known, the default is shown.
View make_view(bool embed, const std::string& panels, std::vector<std::string>& errors);
