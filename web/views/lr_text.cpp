#include "web/views/lr_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/analysis/analysis.hpp"
#include "web/draw/i18n.hpp"
#include "web/views/lr_curves.hpp"

namespace {

// Whether the legend shows the net's η*: a finite one, and while its runs train only once finished runs bracket it.
bool eta_shown(const LrNets& p, size_t i) {
  const LrCurve& c = p.nets[i];
  return c.grid_min >= 0 && std::isfinite(c.best_lr) && (!p.training[i] || c.bracketed);
}

// "2^-0.50 at n = 32, 2^-0.81 at n = 64": the η* shown, in the nets' order.
std::string eta_list(const LrNets& p) {
  std::string out;
  for (size_t i = 0; i < p.nets.size(); i++) {
    if (!eta_shown(p, i)) continue;
    if (!out.empty()) out += ", ";
    out += trf("%s at %s", figure_power_of_two(p.nets[i].best_lr).c_str(), lr_net_name(p.nets[i]).c_str());
  }
  return out;
}

// How η* moves as the width grows, from the numbers: its move between neighbouring widths per doubling of the width
// (in octaves), and the fitted slope of log2 η* against log2 n. Only for one depth: nets of several depths are
// compared in the vs depth view.
std::string eta_direction(const LrNets& p) {
  std::vector<double> widths, etas;
  for (size_t i = 0; i < p.nets.size(); i++)
    if (eta_shown(p, i)) {
      if (p.nets[i].depth != p.nets.front().depth) return "";
      widths.push_back(p.nets[i].width);
      etas.push_back(p.nets[i].best_lr);
    }
  if (widths.size() < 2) return "";
  const double slope = loglog_slope(widths, etas);  // the same in any base: octaves per doubling
  std::vector<double> moves;  // per doubling of the width, between neighbours
  for (size_t i = 1; i < widths.size(); i++)
    moves.push_back(std::log2(etas[i] / etas[i - 1]) / std::log2(widths[i] / widths[i - 1]));
  const double first = moves.front(), last = moves.back();
  // A move under a quarter octave per doubling is within the grid's half-octave steps: η* stays put.
  constexpr double kFlat = 0.25;
  if (std::all_of(moves.begin(), moves.end(), [](double m) { return std::fabs(m) < kFlat; }))
    return trf("it stays put as the width grows (log2 eta* moves %+.2f per doubling of n): it transfers", slope);
  const size_t k = widths.size();
  if (k >= 3 && std::fabs(last) < kFlat && std::fabs(last) < std::fabs(first) / 2)
    return trf("it settles as the width grows (%+.2f per doubling of n at first, %+.2f over the last)", first, last);
  return slope < 0 ? trf("it shrinks as the width grows (%+.2f per doubling of n): it does not transfer", slope)
                   : trf("it grows with the width (%+.2f per doubling of n): it does not transfer", slope);
}

std::string summary(const LrNets& p) {
  const size_t done = size_t(std::count(p.training.begin(), p.training.end(), false));
  const std::string etas = eta_list(p);
  if (done < p.nets.size()) {
    const std::string so_far = p.so_far_step > 0 ? trf("step %d", p.so_far_step) : tr("nothing recorded yet");
    return etas.empty() ? trf("%d of %d widths done (%s); no eta* known yet.", int(done), int(p.nets.size()),
                              so_far.c_str())
                        : trf("%d of %d widths done (%s); eta* so far: %s.", int(done), int(p.nets.size()),
                              so_far.c_str(), etas.c_str());
  }
  if (etas.empty()) return tr("eta* per width: none, no finite loss at any learning rate.");
  const std::string direction = eta_direction(p);
  return direction.empty() ? trf("eta* per width: %s.", etas.c_str())
                           : trf("eta* per width: %s; %s.", etas.c_str(), direction.c_str());
}

// The learning rates of every net, ascending: the table's columns.
std::vector<double> all_lrs(const std::vector<LrCurve>& nets) {
  std::vector<double> lrs;
  for (const LrCurve& c : nets) lrs.insert(lrs.end(), c.lrs.begin(), c.lrs.end());
  std::sort(lrs.begin(), lrs.end());
  lrs.erase(std::unique(lrs.begin(), lrs.end()), lrs.end());
  return lrs;
}

// How the net's η* was found, as its dot's hover says.
std::string how_found(const LrNets& p, size_t i) {
  const LrCurve& c = p.nets[i];
  if (!eta_shown(p, i)) return p.training[i] ? tr("runs not finished") : tr("no finite loss at any lr");
  if (at_grid_edge(c)) return tr(kGridEdgeFlag);
  return c.bracketed ? tr("parabola vertex") : tr("grid minimum");
}

}  // namespace

FigureText lr_text(const LrNets& p, const PlotAxes& axes) {
  FigureText t;
  t.name = axes.title;
  t.summary = summary(p);
  t.milestones = int(std::count(p.training.begin(), p.training.end(), false));
  const std::vector<double> lrs = all_lrs(p.nets);
  t.columns = {tr("net"), tr("eta*"), tr("eta* (decimal)"), trf("%s at eta*", axes.y_label.c_str()), tr("found as")};
  for (double lr : lrs) t.columns.push_back(trf("%s at eta = %s", axes.y_label.c_str(), figure_power_of_two(lr).c_str()));
  for (size_t i = 0; i < p.nets.size(); i++) {
    const LrCurve& c = p.nets[i];
    const bool shown = eta_shown(p, i);
    char decimal[32];
    std::snprintf(decimal, sizeof decimal, "%.3g", c.best_lr);  // as the legend writes it
    std::vector<std::string> row = {lr_net_name(c), shown ? figure_power_of_two(c.best_lr) : "-",
                                    shown ? decimal : "-", shown ? figure_number(c.best_loss) : "-", how_found(p, i)};
    FigureSeries s;
    s.name = lr_net_name(c);
    for (double lr : lrs) {
      const auto at = std::find(c.lrs.begin(), c.lrs.end(), lr);
      if (at == c.lrs.end()) {
        row.push_back("");
        continue;
      }
      const double loss = c.losses[size_t(at - c.lrs.begin())];
      row.push_back(figure_number(loss));
      s.x.push_back(lr);
      s.y.push_back(loss);
      s.said.push_back(s.name + ": eta = " + figure_power_of_two(lr) + ", " + axes.y_label + " " + figure_number(loss));
    }
    t.rows.push_back(std::move(row));
    t.series.push_back(std::move(s));
  }
  t.caption = trf("%s: eta* and the loss at each learning rate, one row per net (the curves drawn; imported runs "
                  "left out).", axes.title.c_str());
  return t;
}
