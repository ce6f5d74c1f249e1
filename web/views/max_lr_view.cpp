#include "web/views/max_lr_view.hpp"

#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"

MaxLrPicture max_lr_picture(const Runner& runner) {
  MaxLrPicture p;
  const ExperimentSpec& spec = runner.spec();
  if (spec.sweep.lr.size() < 2 || spec.sweep.width.size() < 2) {
    p.why_empty = tr("This view needs a sweep over widths and learning rates (sweep.width and sweep.lr with 2 or more "
                     "values each), as presets 17-max-lr-sp and 17-max-lr-mup have.");
    return p;
  }
  // max_lr_table judges each run by its train loss and its output's size, act_rms/f (engine/analysis/lr_scan.hpp):
  // a sweep without act_rms has no verdict to draw (and the judge would read a series that is not there).
  if (runner.members().empty() || !runner.members().front()->find_series("act_rms/f")) {
    p.why_empty = tr("This view judges each run by train_loss and act_rms: add act_rms to the spec's metrics, as "
                     "presets 17-max-lr-sp and 17-max-lr-mup have.");
    return p;
  }
  if (!runner.done()) {
    p.why_empty = tr("eta_max is read off the finished sweep: run it to the end.");
    return p;
  }
  p.parametrization = preset_name(spec.parametrization.preset);  // the spec's own name (sp, mup, ...)
  p.table = max_lr_table(runner);
  std::vector<double> widths, max_lrs;
  const int count = int(p.table.curves.size());
  for (int i = 0; i < count; i++) {
    const MaxLrCurve& c = p.table.curves[size_t(i)];
    const ImU32 color = curve_color(i, count);
    char found[64];
    std::snprintf(found, sizeof found, "n=%d  eta_max=%.3g", c.width, c.max_lr);
    const std::string label = c.max_lr > 0 && std::isfinite(c.max_lr)
                                  ? found : trf("n=%d  no eta_max: a seed is unstable at every lr", c.width);
    const std::string width = "n=" + std::to_string(c.width);
    p.ratio_curves.push_back(as_series(solid_curve(label, c.lrs, c.loss_ratio, color), i, count));
    p.ratio_curves.back().key = width;
    if (!c.lrs.empty()) {  // the η_max marker: no legend row, hidden with its curve
      p.ratio_curves.push_back(solid_curve("", {c.lrs.back()}, {c.loss_ratio.back()}, color));
      p.ratio_curves.back().key = width;
      p.ratio_curves.back().name = width + " eta_max";
    }
    if (c.max_lr > 0) {
      widths.push_back(c.width);
      max_lrs.push_back(c.max_lr);
    }
  }
  // A seed without eta_max at two widths leaves no slope (NaN): say so rather than print "nan".
  const std::string label = std::isfinite(p.table.slope.mean) && std::isfinite(p.table.slope.sem)
                                ? trf("slope %+.2f +- %.2f", p.table.slope.mean, p.table.slope.sem)
                                : std::string(tr("no slope: a seed lacks eta_max at 2 widths"));
  p.max_lr_curve.push_back(solid_curve(label, widths, max_lrs, curve_color(count - 1, count)));
  p.max_lr_curve.back().name = "eta_max";
  return p;
}

void max_lr_view(const Runner& runner) {
  const MaxLrPicture p = max_lr_picture(runner);
  if (!p.why_empty.empty()) {
    figure_hint(p.why_empty);
    return;
  }
  const float half = ImGui::GetContentRegionAvail().x / 2 - ImGui::GetStyle().ItemSpacing.x;
  PlotAxes ratio;
  ratio.title = trf("%s: L_T / L_0 up to eta_max (mean over seeds)", p.parametrization.c_str());
  ratio.x_label = tr("learning rate");
  ratio.y_label = "L_T / L_0";
  ratio.log_x = true;
  ratio.log_y = false;
  ratio.x_ticks = TickRule::powers_of_two;
  line_plot("##max_lr_ratio", ratio, p.ratio_curves, ImVec2(half, 0));
  ImGui::SameLine();
  PlotAxes scaling;
  scaling.title = trf("%s: eta_max vs width", p.parametrization.c_str());
  scaling.x_label = tr("width n");
  scaling.y_label = "eta_max";
  scaling.log_x = scaling.log_y = true;
  scaling.x_ticks = TickRule::at_values;
  scaling.x_tick_values = distinct_x(p.max_lr_curve);
  line_plot("##max_lr_width", scaling, p.max_lr_curve, ImVec2(0, 0));
  // η_max per width and its slope, then each width's L_T / L_0 up to it (its η_max marker a row of its own).
  figure_text_publish([&] {
    FigureText text = plot_text(ratio, p.ratio_curves, kDrawnCurvePoints);
    text.name = scaling.title;
    text.summary = legend_summary(scaling, p.max_lr_curve) + " " + text.summary;
    return text;
  });
}
