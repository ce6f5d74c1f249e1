#include "web/views/step_view.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "engine/spec/metric_table.hpp"
#include "web/draw/i18n.hpp"
#include "web/views/overlay.hpp"

namespace {

// A member's coordinates as its label writes them ("n=64 lr=0.5 seed=0"), word by word, without its learning rate and
// seed: what its colour stands for.
std::vector<std::string> colour_words(const Member& run) {
  std::istringstream in(run.label());
  const std::string lr = "lr=", seed = "seed=";
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    if (w.compare(0, lr.size(), lr) != 0 && w.compare(0, seed.size(), seed) != 0) out.push_back(w);
  return out;
}

// Each member's colour row: the words of colour_words that differ between members ("n=64"; "gamma=0.2" for a γ sweep
// at one width), or its first word when none does.
std::vector<std::string> colour_rows(const Runner& runner) {
  const auto& runs = runner.members();
  std::vector<std::vector<std::string>> words;
  for (const auto& run : runs) words.push_back(colour_words(*run));
  std::vector<std::string> rows;
  for (const std::vector<std::string>& w : words) {
    std::string row;
    for (size_t i = 0; i < w.size(); i++) {
      const bool varies =
          std::any_of(words.begin(), words.end(), [&](const auto& o) { return i >= o.size() || o[i] != w[i]; });
      if (varies) row += (row.empty() ? "" : " ") + w[i];
    }
    rows.push_back(row.empty() && !w.empty() ? w[0] : row);
  }
  return rows;
}

template <class T>
int index_in(const std::set<T>& values, const T& v) { return int(std::distance(values.begin(), values.find(v))); }

std::string lr_row(double lr) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "lr=%g", lr);
  return buf;
}

// The distinct colour rows (rows: colour_rows) in the members' order: a row's series index.
std::vector<std::string> distinct_rows(const std::vector<std::string>& rows) {
  std::vector<std::string> distinct;
  for (const std::string& r : rows)
    if (std::find(distinct.begin(), distinct.end(), r) == distinct.end()) distinct.push_back(r);
  return distinct;
}

// Each colour row's colour, before a learning rate's shade: the rows in the members' order along curve_color.
PageColours row_colours(const std::vector<std::string>& rows) {
  const std::vector<std::string> distinct = distinct_rows(rows);
  PageColours out;
  for (size_t i = 0; i < distinct.size(); i++) out[distinct[i]] = curve_color(int(i), int(distinct.size()));
  return out;
}

}  // namespace

std::vector<std::string> metric_names(const Runner* runner) {
  std::vector<std::string> out;
  if (runner && !runner->members().empty())
    for (const Series& s : runner->members()[0]->series()) out.push_back(s.name);
  return out;
}

std::vector<PlotCurve> member_styles(const Runner& runner) {
  const auto& runs = runner.members();
  const std::vector<std::string> rows = colour_rows(runner), row_order = distinct_rows(rows);
  const PageColours base = row_colours(rows);
  std::set<double> lrs;
  std::set<uint64_t> seeds;
  for (const auto& run : runs) {
    lrs.insert(run->coords().lr);
    seeds.insert(run->coords().seed);
  }
  std::vector<PlotCurve> out;
  for (size_t i = 0; i < runs.size(); i++) {
    const Member& run = *runs[i];
    PlotCurve c;
    // The label (the hover's name for it; the legend lists color_row and shade_row instead) says how it ended.
    c.label = run.label();
    if (run.status() == RunStatus::diverged) c.label = trf("%s (diverged at %d)", c.label.c_str(), run.diverged_at());
    if (run.status() == RunStatus::failed) c.label = trf("%s (failed)", c.label.c_str());
    c.name = c.label;
    c.key = run.label();
    c.color_row = rows[i];
    if (lrs.size() > 1) c.shade_row = lr_row(run.coords().lr);
    c.thin = seeds.size() > 1;
    const int lr = index_in(lrs, run.coords().lr);
    c.color = shade_color(base.at(rows[i]), lr, int(lrs.size()));
    // Told apart without colour too: a width's line pattern, a learning rate's marker (the width's, with one rate).
    const int row = int(std::find(row_order.begin(), row_order.end(), rows[i]) - row_order.begin());
    c.dash = series_dash(row);
    c.marker = series_marker(lrs.size() > 1 ? lr : row);
    c.diverged = run.status() == RunStatus::diverged;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<PlotCurve> step_curves(const Runner* runner, const std::vector<const ImportedSet*>& imports,
                                   const std::string& metric) {
  std::vector<PlotCurve> out;
  if (!runner) return out;
  const auto& runs = runner->members();
  std::vector<PlotCurve> styles = member_styles(*runner);
  for (size_t i = 0; i < runs.size(); i++) {
    const Member& run = *runs[i];
    const Series* s = run.find_series(metric);
    if (!s) continue;
    PlotCurve c = std::move(styles[i]);
    c.x.assign(run.recorded_steps().begin(), run.recorded_steps().begin() + long(s->values.size()));
    c.y = s->values;
    out.push_back(std::move(c));
  }
  for (PlotCurve& c : imported_step_curves(imports, metric, row_colours(colour_rows(*runner))))
    out.push_back(std::move(c));
  return out;
}

bool linear_by_default(const std::string& metric) {
  const MetricDef* def = find_metric(metric.substr(0, metric.find('/')));
  return def && def->higher_is_better;
}
