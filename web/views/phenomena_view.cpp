#include "web/views/phenomena_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/phase_diagram.hpp"
#include "engine/metrics/frequency.hpp"
#include "engine/metrics/neurons.hpp"
#include "engine/task/phenomena_tasks.hpp"
#include "imgui.h"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/heatmap.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/wrapped_text.hpp"
#include "web/draw/plot.hpp"
#include "web/views/neuron_polar.hpp"
#include "web/views/step_text.hpp"

namespace {

constexpr float kPanelHeight = 260;

// The net's curve beside its target's: dash-dot, so that the two differ by more than colour where they overlap.
PlotCurve dash_dotted(PlotCurve c) {
  c.dash = LineDash::dash_dot;
  return c;
}

bool records(const Member& run, const char* prefix) {
  for (const Series& s : run.series())
    if (s.name.rfind(prefix, 0) == 0) return true;
  return false;
}

// The net's outputs on a data set, through a copy of the run's model (the view must not touch the run's buffers), in
// chunks of the rows the model holds. A copy keeps every setting of the net that trained (its biases, residual
// blocks, ASI, activation parameter, precision); a net rebuilt from its weight matrices drew a net with biases as
// another function.
std::vector<double> predict(const Mlp& m, const Dataset& d) {
  Mlp copy = m;
  const int in = m.dims().front(), out = m.dims().back();
  std::vector<double> f(size_t(d.size) * size_t(out));
  for (int row = 0; row < d.size; row += copy.max_batch()) {
    const int rows = std::min(copy.max_batch(), d.size - row);
    const double* y = copy.forward(d.x.data() + long(row) * in, rows);
    std::copy(y, y + long(rows) * out, f.begin() + long(row) * out);
  }
  return f;
}

// The picture of `run` (on data set `d`, or its weights alone when null): computed by `compute` at most once per
// state of the member.
template <class Compute>
const std::vector<double>& picture(PhenomenaView& v, const Member& run, const Dataset* d, Compute compute) {
  NetworkPicture* p = nullptr;
  for (NetworkPicture& q : v.pictures)
    if (q.member == &run && q.data == d) p = &q;
  if (!p) {
    p = &v.pictures.emplace_back();
    p->member = &run;
    p->data = d;
  }
  if (p->steps != run.steps_done() || p->records != int(run.recorded_steps().size()) ||
      p->adopted != run.parameters_adopted()) {
    p->values = compute();
    p->steps = run.steps_done();
    p->records = int(run.recorded_steps().size());
    p->adopted = run.parameters_adopted();
  }
  return p->values;
}

const std::vector<double>& outputs(PhenomenaView& v, const Member& run, const Dataset& d) {
  return picture(v, run, &d, [&] { return predict(*run.mlp(), d); });
}

// The (γ, γ′) fits, recomputed when the sweep has stepped since.
const std::vector<PhasePointFit>& phase_slopes_of(PhenomenaView& v, const Runner& runner) {
  if (v.slopes_at != runner.state_revision()) {
    v.slopes = phase_point_fits(runner);
    v.slopes_at = runner.state_revision();
  }
  return v.slopes;
}

// An image's error saturates at 0.5: the grey levels span [-1, 1], so 0.5 is already a quarter of the range.
ImU32 error_colour(double e) { return sequential_colour(e / 0.5); }

// A box with a title at the cursor; returns its plot area (inside margins for labels: `right` px on the right). A
// title wider than the box wraps onto more lines, and the area starts below it.
void frame(const char* id, const char* title, ImVec2 size, ImVec2& a, ImVec2& b, float right = 10) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float wrap = size.x - 50 - right;
  const float title_h = ImGui::CalcTextSize(title, nullptr, false, wrap).y;
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(origin.x + 50, origin.y),
              ImGui::GetColorU32(ImGuiCol_Text), title, nullptr, wrap);
  a = ImVec2(origin.x + 50, origin.y + title_h + 8);
  b = ImVec2(origin.x + size.x - right, origin.y + size.y - 30);
  dl->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border));
}

struct Scatter {
  std::vector<double> x, y;
  ImU32 color;
  std::string label;
  bool squares = false;  // its points' shape, so that two sets differ by more than colour: squares or dots
};

void scatter_point(ImDrawList* dl, const Scatter& s, ImVec2 p) {
  if (s.squares) dl->AddRectFilled(ImVec2(p.x - 2.5f, p.y - 2.5f), ImVec2(p.x + 2.5f, p.y + 2.5f), s.color);
  else dl->AddCircleFilled(p, 2.5f, s.color);
}

// Points on linear axes with their ranges; a few tick labels at the corners.
void scatter_plot(const char* id, const char* title, const char* x_label, const char* y_label,
                  const std::vector<Scatter>& sets, ImVec2 size) {
  ImVec2 a, b;
  frame(id, title, size, a, b);
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const Scatter& s : sets)
    for (size_t i = 0; i < s.x.size(); i++)
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
        x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
        y0 = std::min(y0, s.y[i]), y1 = std::max(y1, s.y[i]);
      }
  if (!(x0 <= x1)) return;
  if (x1 - x0 < 1e-12) x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 < 1e-12) y0 -= 0.5, y1 += 0.5;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  char buf[32];
  auto label_at = [&](ImVec2 p, double v) {
    std::snprintf(buf, sizeof buf, "%.3g", v);
    dl->AddText(p, dim, buf);
  };
  label_at(ImVec2(a.x, b.y + 2), x0);
  label_at(ImVec2(b.x - 40, b.y + 2), x1);
  label_at(ImVec2(a.x - 48, b.y - 14), y0);
  label_at(ImVec2(a.x - 48, a.y), y1);
  dl->AddText(ImVec2((a.x + b.x) / 2 - 40, b.y + 14), dim, x_label);
  dl->AddText(ImVec2(a.x + 4, a.y + 2), dim, y_label);
  float legend_y = a.y + 2;
  for (const Scatter& s : sets) {
    for (size_t i = 0; i < s.x.size(); i++) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      const float px = a.x + 4 + float((s.x[i] - x0) / (x1 - x0)) * (b.x - a.x - 8);
      const float py = b.y - 4 - float((s.y[i] - y0) / (y1 - y0)) * (b.y - a.y - 8);
      scatter_point(dl, s, ImVec2(px, py));
    }
    if (!s.label.empty()) {
      scatter_point(dl, s, ImVec2(b.x - 110, legend_y + 7));
      dl->AddText(ImVec2(b.x - 100, legend_y), ImGui::GetColorU32(ImGuiCol_Text), s.label.c_str());
      legend_y += ImGui::GetTextLineHeight();
    }
  }
}

// A rows × cols matrix in a titled box (row 0 at the top), as one image (web/draw/heatmap.hpp).
void heat_map(const char* id, const char* title, const std::vector<double>& cells, int rows, int cols,
              CellColour colour, ImVec2 size) {
  ImVec2 a, b;
  frame(id, title, size, a, b);
  heatmap_image(id, cells.data(), rows, cols, colour, a, b, {title, {}});
}

// Labels rows from the top, skipping rows where the labels would overlap.
void row_labels(const std::vector<std::string>& labels, ImVec2 a, ImVec2 b, HeatmapText& text) {
  const float line = ImGui::GetTextLineHeight(), h = (b.y - a.y) / float(std::max<size_t>(labels.size(), 1));
  const size_t every = size_t(std::ceil(line / std::max(h, 1.0f)));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t r = 0; r < labels.size(); r += every) {
    const float w = ImGui::CalcTextSize(labels[r].c_str()).x;
    dl->AddText(ImVec2(a.x - w - 4, a.y + h * (float(r) + 0.5f) - line / 2), ImGui::GetColorU32(ImGuiCol_Text),
                labels[r].c_str());
    text.labels.push_back(labels[r]);
  }
}

// Δ_F(k) per peak (rows, lowest k on top) against the record (columns, at most 200, sampled), with the rows' k,
// the steps at both ends and a colour bar: dark where the peak is fitted (Δ_F = 0), light from Δ_F ≥ 1 on.
void delta_f_heat_map(const std::vector<PlotCurve>& curves, const std::vector<double>& steps, ImVec2 size) {
  const int rows = int(curves.size()), cols = std::min<int>(200, int(steps.size()));
  std::vector<double> cells(size_t(rows) * size_t(std::max(cols, 0)));
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      const size_t i = size_t(double(c) * double(steps.size() - 1) / std::max(cols - 1, 1));
      cells[size_t(r * cols + c)] = std::min(1.0, curves[size_t(r)].y[i]);
    }
  HeatmapText text{tr("Delta_F(k) per peak k vs step"), {}};
  ImVec2 a, b;
  frame("##fp_heat", text.title.c_str(), size, a, b, 56);
  std::vector<std::string> ks;
  for (const PlotCurve& c : curves) ks.push_back("k = " + c.label.substr(c.label.find('=') + 1));
  row_labels(ks, a, b, text);
  colour_bar(ImVec2(b.x + 8, a.y), ImVec2(b.x + 18, b.y), sequential_colour, 0, 1, "0", ">= 1", text);
  if (!steps.empty()) {
    const std::string first = trf("step %ld", long(steps.front())), last = std::to_string(long(steps.back()));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    dl->AddText(ImVec2(a.x, b.y + 2), dim, first.c_str());
    dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(last.c_str()).x, b.y + 2), dim, last.c_str());
    text.labels.push_back(first);
    text.labels.push_back(last);
  }
  heatmap_image("##fp_heat", cells.data(), rows, cols, sequential_colour, a, b, text);
}

// Frequency principle: Δ_F curves and heat map, the fit, the spectra.
void frequency_panels(PhenomenaView& v, const Runner& runner, const Member& run) {
  std::vector<PlotCurve> curves;
  std::vector<double> steps(run.recorded_steps().begin(), run.recorded_steps().end());
  for (const Series& s : run.series())
    if (s.name.rfind("delta_F/", 0) == 0) curves.push_back(solid_curve(s.name, steps, s.values, 0));
  for (size_t i = 0; i < curves.size(); i++) curves[i] = as_series(std::move(curves[i]), int(i), int(curves.size()));
  PlotAxes axes;
  axes.title = tr("relative error Delta_F(k) at the target's peaks");
  axes.x_label = tr("step");
  axes.y_label = "Delta_F";
  const float half = ImGui::GetContentRegionAvail().x / 2 - 4;
  line_plot("##fp_curves", axes, curves, ImVec2(half, kPanelHeight));
  figure_text_offer([&] { return step_text(axes, curves); });
  ImGui::SameLine();
  delta_f_heat_map(curves, steps, ImVec2(half, kPanelHeight));

  const Dataset& train = runner.data().train;
  const std::vector<double>& out = outputs(v, run, train);
  std::vector<double> xs;
  for (int i = 0; i < train.size; i++) xs.push_back(train.x[size_t(i) * size_t(train.input_dim)]);
  PlotAxes fit;
  fit.title = tr("target and network on the train grid");
  fit.x_label = "x";
  fit.y_label = "f(x)";
  fit.log_y = false;
  fit.y_margin = 0.08;  // the target's peaks clear the frame
  line_plot("##fp_fit", fit, {with_key(solid_curve(tr("target"), xs, train.y, page_colour::target), "target"),
                              dash_dotted(with_key(solid_curve(tr("network"), xs, out, page_colour::network), "network"))},
            ImVec2(half, kPanelHeight));
  ImGui::SameLine();
  const std::vector<double> target_spectrum = dft_magnitudes(train.y.data(), train.size);
  const std::vector<double> net_spectrum = dft_magnitudes(out.data(), train.size);
  const size_t kmax = std::min<size_t>(target_spectrum.size(), 24);
  std::vector<double> ks, yt, yn;
  for (size_t k = 1; k < kmax; k++) {
    ks.push_back(double(k));
    yt.push_back(target_spectrum[k] + 1e-6);
    yn.push_back(net_spectrum[k] + 1e-6);
  }
  PlotAxes spec_axes;
  spec_axes.title = tr("|DFT| of target and network vs frequency k");
  spec_axes.x_label = "k";
  spec_axes.y_label = "|F_k|";
  const PlotCurve target = with_key(solid_curve(tr("target"), ks, yt, page_colour::target), "target");
  const PlotCurve network = dash_dotted(with_key(solid_curve(tr("network"), ks, yn, page_colour::network), "network"));
  line_plot("##fp_spectrum", spec_axes, {target, network}, ImVec2(half, kPanelHeight));
}

// The run that stands for a phase point in the per-point pictures: its widest member (the first seed).
int widest_run_at(const Runner& runner, PhasePoint p) {
  int best = -1;
  for (size_t i = 0; i < runner.members().size(); i++) {
    const MemberCoords& c = runner.members()[i]->coords();
    if (c.phase.gamma != p.gamma || c.phase.gamma_prime != p.gamma_prime) continue;
    if (best < 0 || c.width > runner.members()[size_t(best)]->coords().width) best = int(i);
  }
  return best;
}

bool same_point(const Member& run, PhasePoint p) {
  return run.coords().phase.gamma == p.gamma && run.coords().phase.gamma_prime == p.gamma_prime;
}

// The phase point whose centre is nearest to the mouse, within `radius` px; -1 if none.
int point_under_mouse(const std::vector<ImVec2>& centres, float radius) {
  const ImVec2 mouse = ImGui::GetMousePos();
  int nearest = -1;
  float best = radius * radius;
  for (size_t i = 0; i < centres.size(); i++) {
    const float dx = mouse.x - centres[i].x, dy = mouse.y - centres[i].y;
    if (dx * dx + dy * dy <= best) best = dx * dx + dy * dy, nearest = int(i);
  }
  return nearest;
}

// A click inside the last item picks the phase point under the mouse: the view then shows its widest run.
void pick_on_click(const Runner& runner, PhenomenaView& v, const std::vector<PhasePointFit>& fits,
                   const std::vector<ImVec2>& centres, float radius) {
  if (!ImGui::IsItemClicked()) return;
  const int nearest = point_under_mouse(centres, radius);
  if (nearest < 0) return;
  const int r = widest_run_at(runner, fits[size_t(nearest)].all.phase);
  if (r >= 0) v.run = r;
}

std::string widths_text(const std::vector<double>& widths) {
  std::string s;
  for (double w : widths) s += (s.empty() ? "" : ", ") + std::to_string(long(w));
  return s;
}

// What the map says of a point while the mouse is over it, one row each.
std::vector<std::string> point_rows(const Runner& runner, const PhasePointFit& f) {
  std::vector<std::string> rows;
  const PhasePoint p = f.all.phase;
  rows.push_back(trf("(gamma, gamma') = (%g, %g): theory says %s", p.gamma, p.gamma_prime,
                     tr(phase_regime_name(theoretical_regime(p.gamma, p.gamma_prime)))));
  const int unconverged = f.all.unconverged;
  if (unconverged > 0) {
    std::vector<double> widths(f.unconverged_widths.begin(), f.unconverged_widths.end());
    rows.push_back(trf("unconverged: %d of %d runs stopped at %d steps above the stopping loss (m = %s)", unconverged,
                       f.runs, runner.spec().schedule.steps, widths_text(widths).c_str()));
  } else {
    rows.push_back(trf("every finished run of the %d reached the stopping loss", f.runs));
  }
  const bool all_widths = f.converged_widths.size() == f.all.widths.size();
  if (!std::isfinite(f.slope))
    rows.push_back(trf("S_w: none, %zu of %zu widths converged (unconverged runs are left out)",
                       f.converged_widths.size(), f.all.widths.size()));
  else if (all_widths)
    rows.push_back(trf("S_w = %+.2f over m = %s", f.slope, widths_text(f.converged_widths).c_str()));
  else
    rows.push_back(trf("S_w = %+.2f over the converged m = %s only (unconverged runs are left out)", f.slope,
                       widths_text(f.converged_widths).c_str()));
  if (unconverged > 0 && std::isfinite(f.all.slope))
    rows.push_back(trf("with the unconverged runs the fit would read %+.2f (not shown)", f.all.slope));
  rows.push_back(tr("click: show its widest run"));
  return rows;
}

// S_w's colour: red below 0, blue above, saturated at ±0.5. The ramp rises as √|S_w|, so that S_w = ±0.1 is already
// plainly coloured (a linear ramp drew +0.11 near-white) while 0 stays white.
ImU32 slope_colour(double slope) {
  return diverging_colour(std::copysign(std::sqrt(std::min(1.0, std::fabs(slope) / 0.5)), slope));
}

// Diagonal hatching clipped to a disc: the mark of a point with unconverged runs.
void hatch_disc(ImDrawList* dl, ImVec2 c, float radius, ImU32 colour) {
  for (float o = -radius * 0.9f; o <= radius * 0.9f; o += 4) {  // lines x − y = o·√2 across the disc
    const float half = std::sqrt(std::max(0.0f, radius * radius - o * o)) / std::sqrt(2.0f);
    const float mx = o / std::sqrt(2.0f), my = -o / std::sqrt(2.0f);
    dl->AddLine(ImVec2(c.x + mx - half, c.y + my - half), ImVec2(c.x + mx + half, c.y + my + half), colour, 1.5f);
  }
}

// One point of the map: coloured by the converged widths' S_w (grey without one), hatched with "k/N unconverged"
// under it (kept inside the frame [left, right]) when some runs did not converge. Returns the texts drawn beside it.
std::string draw_point(ImDrawList* dl, ImVec2 c, const PhasePointFit& f, bool chosen, float left, float right) {
  const bool known = std::isfinite(f.slope);
  dl->AddCircleFilled(c, 11, known ? slope_colour(f.slope) : page_colour::missing);
  if (f.all.unconverged > 0) hatch_disc(dl, c, 11, page_colour::outline);
  dl->AddCircle(c, 11, page_colour::outline);
  if (chosen) dl->AddCircle(c, 15, page_colour::chosen, 0, 2.5f);
  char slope[32];
  std::snprintf(slope, sizeof slope, known ? "%+.2f" : "-", f.slope);
  dl->AddText(ImVec2(c.x + 13, c.y - 7), ImGui::GetColorU32(ImGuiCol_Text), slope);
  std::string drawn = slope;
  if (f.all.unconverged > 0) {
    const std::string note = trf("%d/%d unconverged", f.all.unconverged, f.runs);
    const float w = ImGui::CalcTextSize(note.c_str()).x;
    const float x = std::clamp(c.x - w / 2, left + 2, std::max(left + 2, right - w - 2));
    dl->AddText(ImVec2(x, c.y + 12), page_colour::label, note.c_str());
    drawn += " " + note;
  }
  return drawn;
}

// The map's axes: the theory's boundaries, the regions' names, the ticks. Notes the ticks in `trace`.
void phase_axes(ImDrawList* dl, ImVec2 a, ImVec2 b, DrawnPlot& trace) {
  auto at = [&](double g, double p) {
    return ImVec2(a.x + float((g - trace.x.lo) / (trace.x.hi - trace.x.lo)) * (b.x - a.x),
                  b.y - float((p - trace.y.lo) / (trace.y.hi - trace.y.lo)) * (b.y - a.y));
  };
  const ImU32 line = page_colour::label, dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddLine(at(1, trace.y.lo), at(1, 0), line, 2);           // γ = 1, γ′ ≤ 0
  dl->AddLine(at(1, 0), at(trace.x.hi, trace.x.hi - 1), line, 2);  // γ′ = γ − 1
  dl->AddText(at(0.1, 1.1), dim, tr("linear"));
  // Along the bottom, below the points at γ′ = −0.5 and their notes: either side of the line γ = 1.
  const float bottom = b.y - ImGui::GetTextLineHeight() - 2, line_x = at(1, 0).x;
  dl->AddText(ImVec2(line_x - ImGui::CalcTextSize(tr("critical")).x - 4, bottom), dim, tr("critical"));
  dl->AddText(ImVec2(line_x + 4, bottom), dim, tr("condensed"));
  char buf[48];
  for (double g : {0.0, 0.5, 1.0, 1.5, 2.0}) {
    std::snprintf(buf, sizeof buf, "%g", g);
    dl->AddText(ImVec2(at(g, trace.y.lo).x - 4, b.y + 2), dim, buf);
    trace.x.tick_values.push_back(g);
    trace.x.ticks.push_back(buf);
  }
  for (double p : {-1.0, 0.0, 1.0}) {
    std::snprintf(buf, sizeof buf, "%g", p);
    dl->AddText(ImVec2(a.x - 24, at(trace.x.lo, p).y - 7), dim, buf);
    trace.y.tick_values.push_back(p);
    trace.y.ticks.push_back(buf);
  }
  dl->AddText(ImVec2((a.x + b.x) / 2, b.y + 14), dim, "gamma");
  dl->AddText(ImVec2(a.x + 4, a.y + 2), dim, "gamma'");  // inside the frame: above it, a long title ran over it
}

// The (γ, γ′) map: each phase point coloured by S_w, with the theory's boundaries γ = 1 (γ′ ≤ 0) and γ′ = γ − 1.
// A ring marks the chosen run's point; click a point to choose it, hover it for its fit. The frame trace gets it
// as a plot: axes, one marker per point, the texts beside them, the hover rows.
void phase_map(const Runner& runner, PhenomenaView& v, ImVec2 size) {
  const std::vector<PhasePointFit>& fits = phase_slopes_of(v, runner);
  const Member& chosen = *runner.members()[size_t(v.run)];
  DrawnPlot trace;
  trace.id = "##phase_map";
  // The hatch's meaning is in the title, which wraps to the frame's width (a note inside the map ran out of it).
  trace.title = tr("S_w: red linear, blue condensed; hatched: unconverged runs, left out of S_w (click a point)");
  trace.x = {"gamma", false, 0, 2.5, {}, {}};  // gamma on x, gamma' on y
  trace.y = {"gamma'", false, -1.25, 1.5, {}, {}};  // below −1: room for the regions' names under the points
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 a, b;
  frame("##phase_map", trace.title.c_str(), size, a, b);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  phase_axes(dl, a, b, trace);
  std::vector<ImVec2> centres;
  for (const PhasePointFit& f : fits) {
    const PhasePoint p = f.all.phase;
    const ImVec2 c(a.x + float((p.gamma - trace.x.lo) / (trace.x.hi - trace.x.lo)) * (b.x - a.x),
                   b.y - float((p.gamma_prime - trace.y.lo) / (trace.y.hi - trace.y.lo)) * (b.y - a.y));
    centres.push_back(c);
    char at[64];
    std::snprintf(at, sizeof at, "(%g, %g): ", p.gamma, p.gamma_prime);
    trace.notes.push_back(at + draw_point(dl, c, f, same_point(chosen, p), a.x, b.x));
  }
  trace.markers = int(centres.size());
  // frame() drew the map as an invisible button: the last item is the map
  const int hovered = ImGui::IsItemHovered() ? point_under_mouse(centres, 14) : -1;
  if (hovered >= 0) {
    trace.hover = point_rows(runner, fits[size_t(hovered)]);
    ImGui::BeginTooltip();
    for (const std::string& row : trace.hover) ImGui::TextUnformatted(row.c_str());
    ImGui::EndTooltip();
  }
  pick_on_click(runner, v, fits, centres, 14);
  if (!drawn_recording()) return;
  trace.rect = drawn_rect(origin, ImVec2(origin.x + size.x, origin.y + size.y));
  trace.frame = drawn_rect(a, b);
  drawn_now().plots.push_back(std::move(trace));
}

// Small multiples of the (γ, γ′) map: in each point's cell (γ across, γ′ up) the fit of its widest run on the
// test grid with the data, so jagged (condensed), spline-like (critical) and near-linear (linear) fits sit where
// the map puts them. The chosen run's cell is framed; click a cell to choose it.
void phase_fits(const Runner& runner, PhenomenaView& v, ImVec2 size) {
  const std::vector<PhasePointFit>& fits = phase_slopes_of(v, runner);
  std::vector<double> gammas, primes;
  for (const PhasePointFit& f : fits) {
    gammas.push_back(f.all.phase.gamma);
    primes.push_back(f.all.phase.gamma_prime);
  }
  std::sort(gammas.begin(), gammas.end());
  gammas.erase(std::unique(gammas.begin(), gammas.end()), gammas.end());
  std::sort(primes.begin(), primes.end());
  primes.erase(std::unique(primes.begin(), primes.end()), primes.end());
  ImVec2 a, b;
  frame("##phase_fits", tr("fit per point, widest m (click one)"), size, a, b);
  if (gammas.empty()) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Dataset& test = runner.data().test;
  const Dataset& train = runner.data().train;
  const float cw = (b.x - a.x) / float(gammas.size()), ch = (b.y - a.y) / float(primes.size());
  const Member& chosen = *runner.members()[size_t(v.run)];
  const double y0 = -1.5, y1 = 1.5;  // the four points' targets lie in [−0.2, 0.6]; room for a jagged fit
  std::vector<ImVec2> centres;
  char buf[48];
  for (const PhasePointFit& f : fits) {
    const PhaseSlope& ps = f.all;
    const size_t col = size_t(std::find(gammas.begin(), gammas.end(), ps.phase.gamma) - gammas.begin());
    const size_t row = size_t(primes.end() - std::find(primes.begin(), primes.end(), ps.phase.gamma_prime)) - 1;
    const ImVec2 c0(a.x + cw * float(col) + 3, a.y + ch * float(row) + 3);
    const ImVec2 c1(c0.x + cw - 6, c0.y + ch - 6);
    centres.push_back(ImVec2((c0.x + c1.x) / 2, (c0.y + c1.y) / 2));
    const int r = widest_run_at(runner, ps.phase);
    if (r < 0) continue;
    const Member& run = *runner.members()[size_t(r)];
    dl->AddRect(c0, c1, same_point(chosen, ps.phase) ? page_colour::chosen : page_colour::cell_border);
    auto point = [&](double x, double y) {
      const double t = (std::clamp(y, y0, y1) - y0) / (y1 - y0);
      return ImVec2(c0.x + float((x + 1) / 2) * (c1.x - c0.x), c1.y - float(t) * (c1.y - c0.y));
    };
    const std::vector<double>& out = outputs(v, run, test);
    for (int i = 1; i < test.size; i++)
      dl->AddLine(point(test.x[size_t(i - 1) * size_t(test.input_dim)], out[size_t(i - 1)]),
                  point(test.x[size_t(i) * size_t(test.input_dim)], out[size_t(i)]), page_colour::network,
                  1.5f);
    for (int i = 0; i < train.size; i++)
      dl->AddCircleFilled(point(train.x[size_t(i) * size_t(train.input_dim)], train.y[size_t(i)]), 2.5f,
                          page_colour::target);
    std::snprintf(buf, sizeof buf, "%g, %g", ps.phase.gamma, ps.phase.gamma_prime);
    dl->AddText(ImVec2(c0.x + 3, c0.y + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), buf);
  }
  pick_on_click(runner, v, fits, centres, std::max(cw, ch));
}

// The run's train loss beside its neurons: the plateaus of the loss are where the neurons turn and condense.
void loss_panel(const Member& run, float width) {
  const Series* loss = run.find_series("train_loss");
  if (!loss) return;
  std::vector<double> steps(run.recorded_steps().begin(), run.recorded_steps().begin() + long(loss->values.size()));
  PlotAxes axes;
  axes.title = tr("train loss of the chosen run");
  axes.x_label = tr("step");
  axes.y_label = tr("loss");
  const std::vector<PlotCurve> curves{solid_curve(tr("train loss"), steps, loss->values, page_colour::network)};
  line_plot("##neuron_loss", axes, curves, ImVec2(width, kPanelHeight + 60));
  figure_text_offer([&] { return step_text(axes, curves); });
}

// The filtering method: e_low and e_high vs step (any input dimension).
void filter_panel(const Member& run, float width) {
  std::vector<double> steps(run.recorded_steps().begin(), run.recorded_steps().end());
  std::vector<PlotCurve> curves;
  int i = 0;
  for (const char* name : {"filter/e_low", "filter/e_high"})
    if (const Series* s = run.find_series(name)) curves.push_back(as_series(solid_curve(name + 7, steps, s->values, 0), i++, 2));
  PlotAxes axes;
  axes.title = tr("filtering method: error of the low / high part");
  axes.x_label = tr("step");
  axes.y_label = tr("relative error");
  line_plot("##filter", axes, curves, ImVec2(width, kPanelHeight));
  figure_text_offer([&] { return step_text(axes, curves); });
}

// FP-4: the image as a function of the pixel position. Train pixels are the odd columns, test the even ones; the
// network is drawn on both, so the test columns show how it fills in between.
void image_panels(PhenomenaView& v, const Runner& runner, const Member& run, float width) {
  const Dataset& train = runner.data().train;
  const Dataset& test = runner.data().test;
  const int side = image_2d_side(runner.spec().task), half = side / 2;
  if (side == 0) return;
  const std::vector<double>& on_train = outputs(v, run, train);
  const std::vector<double>& on_test = outputs(v, run, test);
  std::vector<double> target(size_t(side * side)), network(target.size());
  for (int r = 0; r < side; r++)
    for (int c = 0; c < side; c++) {
      const size_t i = size_t(r * half + c / 2), p = size_t(r * side + c);
      target[p] = (c % 2 ? train.y : test.y)[i];
      network[p] = (c % 2 ? on_train : on_test)[i];
    }
  const float third = width / 3 - 6;
  heat_map("##image_target", tr("target image"), target, side, side, grey_colour, ImVec2(third, kPanelHeight));
  ImGui::SameLine();
  heat_map("##image_network", tr("network (odd columns trained)"), network, side, side, grey_colour,
           ImVec2(third, kPanelHeight));
  ImGui::SameLine();
  std::vector<double> error(target.size());
  for (size_t p = 0; p < error.size(); p++) error[p] = std::fabs(network[p] - target[p]);
  heat_map("##image_error", tr("|network - target|, dark = small"), error, side, side, error_colour,
           ImVec2(third, kPanelHeight));
}

// The net of the `count` neurons of m with the largest amplitude A_k (in their order in m), the same multipliers:
// cosines of its input weights are those of m's neurons.
Mlp largest_neurons(const Mlp& m, int count) {
  const std::vector<NeuronPoint> points = neuron_scatter(m);
  std::vector<int> order(points.size());
  for (size_t k = 0; k < order.size(); k++) order[k] = int(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](int i, int j) { return points[size_t(i)].amplitude > points[size_t(j)].amplitude; });
  order.resize(size_t(count));
  std::sort(order.begin(), order.end());
  const int in = m.dims()[0];
  Mlp sub({in, count, m.dims()[2]}, m.activation(), m.scaling(), 1);
  for (int k = 0; k < count; k++) {
    const int from = order[size_t(k)];
    std::copy(m.weights(0) + long(from) * in, m.weights(0) + long(from + 1) * in, sub.weights(0) + long(k) * in);
    sub.weights(1)[k] = m.weights(1)[from];  // W₂ is 1 × width (one output)
  }
  return sub;
}

// The sorted cosine matrix of the run's neurons; past kMaxCosineNeurons, of its largest ones. The matrix and its
// sorting (power iteration on it) cost O(m²) per computation: 16 384 neurons would take 2 GiB and seconds.
constexpr int kMaxCosineNeurons = 1024;

void cosine_panel(PhenomenaView& v, const Member& run, float width) {
  const int m = run.width(), n = std::min(m, kMaxCosineNeurons);
  const std::vector<double>& d = picture(v, run, nullptr, [&] {
    return m > n ? cosine_matrix(largest_neurons(*run.mlp(), n)) : cosine_matrix(*run.mlp());
  });
  const std::string title = m > n ? trf("cosine matrix of the %d largest of %d neurons (by amplitude)", n, m)
                                  : trf("cosine matrix, %d neurons, sorted", n);
  HeatmapText text{title, {}};
  ImVec2 a, b;
  frame("##cosine", title.c_str(), ImVec2(width, kPanelHeight), a, b, 56);
  colour_bar(ImVec2(b.x + 8, a.y), ImVec2(b.x + 18, b.y), diverging_colour, -1, 1, "-1", "+1", text);
  heatmap_image("##cosine", d.data(), n, n, diverging_colour, a, b, text);
}

// Each run's sharpness, and its threshold 2/η as a thin dashed line in the run's colour, drawn under it: at the edge
// of stability the sharpness rides on its own threshold, where a solid line of the same colour would hide it.
void sharpness_panel(const Runner& runner) {
  std::vector<PlotCurve> thresholds, curves;
  int i = 0;
  const int count = int(runner.members().size());
  for (const auto& r : runner.members()) {
    const Series* s = r->find_series("sharpness");
    if (!s) continue;
    const ImU32 color = curve_color(i, count);
    std::vector<double> steps(r->recorded_steps().begin(), r->recorded_steps().begin() + long(s->values.size()));
    curves.push_back(with_key(solid_curve(trf("sharpness %s", r->label().c_str()), steps, s->values, color,
                                          r->status() == RunStatus::diverged),
                              "sharpness " + r->label()));
    curves.back().marker = series_marker(i++);  // solid: the dashed line is its threshold
    if (steps.empty() || r->coords().lr <= 0) continue;
    const double limit = 2 / r->coords().lr;
    PlotCurve line = solid_curve("2/eta, " + r->label(), {steps.front(), steps.back()}, {limit, limit}, color);
    line.dash = LineDash::dashed;
    line.thin = true;
    thresholds.push_back(std::move(line));
  }
  curves.insert(curves.begin(), thresholds.begin(), thresholds.end());
  PlotAxes axes;
  axes.title = tr("sharpness (top Hessian eigenvalue) vs step; dashed: 2/eta");
  axes.x_label = tr("step");
  axes.y_label = "lambda_max";
  axes.log_y = false;
  line_plot("##sharpness", axes, curves, ImVec2(0, kPanelHeight));
  figure_text_offer([&] { return step_text(axes, curves); });
}

void fit_panel(PhenomenaView& v, const Runner& runner, const Member& run, float width) {
  const Dataset& test = runner.data().test;
  const Dataset& train = runner.data().train;
  if (train.input_dim < 1 || train.input_dim > 2) return;
  const std::vector<double>& out = outputs(v, run, test);
  std::vector<double> xs, train_x;
  for (int i = 0; i < test.size; i++) xs.push_back(test.x[size_t(i) * size_t(test.input_dim)]);
  for (int i = 0; i < train.size; i++) train_x.push_back(train.x[size_t(i) * size_t(train.input_dim)]);
  std::vector<Scatter> sets{{xs, out, page_colour::network, tr("network")},
                            {train_x, train.y, page_colour::target, tr("data"), true}};
  scatter_plot("##fit", tr("fit of the chosen run on the test grid"), "x", "f(x)", sets, ImVec2(width, kPanelHeight));
}

// The (γ, γ′) map as text: each point's S_w (over its converged widths) and its unconverged runs, as drawn.
FigureText phase_map_text(const std::vector<PhasePointFit>& fits) {
  FigureText t;
  t.name = tr("(gamma, gamma') phase map coloured by the slope S_w");
  t.columns = {"gamma", "gamma'", "S_w", tr("runs"), tr("unconverged runs")};
  const PhasePointFit* low = nullptr;
  const PhasePointFit* high = nullptr;
  for (const PhasePointFit& f : fits) {
    t.rows.push_back({figure_number(f.all.phase.gamma), figure_number(f.all.phase.gamma_prime), figure_number(f.slope),
                      std::to_string(f.runs), std::to_string(f.unconverged_widths.size())});
    if (!std::isfinite(f.slope)) continue;
    if (!low || f.slope < low->slope) low = &f;
    if (!high || f.slope > high->slope) high = &f;
  }
  t.summary = !low ? trf("(gamma, gamma') map of %d points: no slope S_w yet.", int(fits.size()))
                   : trf("(gamma, gamma') map of %d points: S_w from %.2f at (%g, %g) to %.2f at (%g, %g).",
                         int(fits.size()), low->slope, low->all.phase.gamma, low->all.phase.gamma_prime, high->slope,
                         high->all.phase.gamma, high->all.phase.gamma_prime);
  t.caption = tr("Each point's slope S_w of the relative weight change against the width, over its converged widths.");
  return t;
}

void phenomena_panels(PhenomenaView& v, const Runner& runner) {
  if (runner.members().empty()) return;
  const int count = int(runner.members().size());
  v.run = std::clamp(v.run, 0, count - 1);
  const Member& run = *runner.members()[size_t(v.run)];
  const ExperimentSpec& spec = runner.spec();
  const bool one_input_layer = run.mlp() && spec.model.widths.size() == 1 && run.mlp()->dims().back() == 1;
  const bool fp = records(run, "delta_F/"), sharp = records(run, "sharpness"), filter = records(run, "filter/");
  const bool image = spec.task.kind == TaskKind::image_2d;
  const bool phase = spec.parametrization.preset == Preset::two_layer_gamma && records(run, "weight_rd");
  const bool neurons = one_input_layer && (phase || records(run, "condensation"));
  if (!fp && !sharp && !neurons && !filter && !image) {
    figure_hint(tr("This view shows the phenomena presets (20-29): record fp_delta, fp_filter, weight_rd with the "
                  "two_layer_gamma preset, condensation, or sharpness, or train on an image_2d task."));
    return;
  }
  ImGui::SetNextItemWidth(360);
  const char* run_label = tr_label("run");
  drawn_name_next(run_label);
  drawn_item_value(run_label, run.label());
  std::vector<std::string> labels;
  for (int i = 0; i < count; i++) labels.push_back(runner.members()[size_t(i)]->label());
  if (const std::optional<std::string> given = semantics_combo(run_label, run.label(), labels))
    v.run = int(std::find(labels.begin(), labels.end(), *given) - labels.begin());
  if (ImGui::BeginCombo(run_label, run.label().c_str())) {
    for (int i = 0; i < count; i++)
      if (ImGui::Selectable(runner.members()[size_t(i)]->label().c_str(), i == v.run)) v.run = i;
    ImGui::EndCombo();
  }
  const float half = ImGui::GetContentRegionAvail().x / 2 - 4;
  if (fp) frequency_panels(v, runner, run);
  if (image) image_panels(v, runner, run, ImGui::GetContentRegionAvail().x);
  if (filter) filter_panel(run, half);
  if (phase) {
    figure_text_offer([&] { return phase_map_text(phase_slopes_of(v, runner)); });
    phase_map(runner, v, ImVec2(half, kPanelHeight + 40));
    ImGui::SameLine();
    phase_fits(runner, v, ImVec2(half, kPanelHeight + 40));
    fit_panel(v, runner, run, half);
    ImGui::SameLine();
    wrapped_text(trf("The chosen run: %s. Its fit on the left, its neurons below (polar: angle of (w, b), radius "
                     "log10 amplitude, at init and now). Near-linear fits and neurons that barely move: linear "
                     "regime; a few kinks and neurons gathered on a few angles: condensed.",
                     run.label().c_str()));
  }
  if (neurons) {
    neuron_polar_plot("##neurons", neuron_polar_picture(run), ImVec2(half, kPanelHeight + 60));
    ImGui::SameLine();
    loss_panel(run, half);
    cosine_panel(v, run, half);
  }
  if (sharp) sharpness_panel(runner);
}

}  // namespace

std::vector<PhasePointFit> phase_point_fits(const Runner& runner) {
  const std::vector<PhaseSlope> all = phase_slopes(runner, false), converged = phase_slopes(runner, true);
  const bool stops = runner.spec().schedule.stop_loss_ratio > 0;
  std::vector<PhasePointFit> out;
  for (size_t i = 0; i < all.size(); i++) {
    PhasePointFit f;
    f.all = all[i];
    std::vector<double> rd;  // a width is NaN in `converged` when one of its runs did not converge
    for (size_t w = 0; w < converged[i].widths.size(); w++)
      if (std::isfinite(converged[i].mean_log_rd[w])) {
        f.converged_widths.push_back(converged[i].widths[w]);
        rd.push_back(std::exp(converged[i].mean_log_rd[w]));
      }
    f.slope = loglog_slope(f.converged_widths, rd);
    for (const auto& run : runner.members()) {
      if (!same_point(*run, f.all.phase)) continue;
      f.runs++;
      if (stops && run->status() == RunStatus::finished && !run->reached_stop_loss())
        f.unconverged_widths.push_back(run->width());
    }
    std::sort(f.unconverged_widths.begin(), f.unconverged_widths.end());
    out.push_back(f);
  }
  return out;
}

void phenomena_view(PhenomenaView& v, const Runner& runner) {
  ImGui::BeginChild("phenomena tab");
  phenomena_panels(v, runner);
  ImGui::EndChild();
}
