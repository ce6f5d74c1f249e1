#include "web/phenomena_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/analysis/phase_diagram.hpp"
#include "engine/metrics/frequency.hpp"
#include "engine/metrics/neurons.hpp"
#include "engine/task/phenomena_tasks.hpp"
#include "imgui.h"
#include "web/drawn.hpp"
#include "web/neuron_polar.hpp"
#include "web/plot.hpp"

namespace {

constexpr float kPanelHeight = 260;

bool records(const Member& run, const char* prefix) {
  for (const Series& s : run.series())
    if (s.name.rfind(prefix, 0) == 0) return true;
  return false;
}

// The net's outputs on a data set: a copy of the model sized for the whole set (the view must not touch the run).
std::vector<double> predict(const Mlp& m, const Dataset& d) {
  Mlp copy(m.dims(), m.activation(), m.scaling(), std::max(d.size, 1));
  copy.set_activation_param(m.activation_param());
  long offset = 0;
  for (int l = 0; l < m.layers(); l++) {
    std::copy(m.weights(l), m.weights(l) + m.layer_size(l), copy.params().begin() + offset);
    offset += m.layer_size(l);
  }
  const double* f = copy.forward(d.x.data(), d.size);
  return std::vector<double>(f, f + long(d.size) * m.dims().back());
}

// The picture of `run` (on data set `d`, or its weights alone when null): computed by `compute` at most once per
// state of the member.
template <class Compute>
const std::vector<double>& picture(PhenomenaView& v, const Member& run, const Dataset* d, Compute compute) {
  NetworkPicture* p = nullptr;
  for (NetworkPicture& q : v.pictures)
    if (q.member == &run && q.data == d) p = &q;
  if (!p) p = &v.pictures.emplace_back(NetworkPicture{&run, d});
  if (p->steps != run.steps_done() || p->records != int(run.recorded_steps().size())) {
    p->values = compute();
    p->steps = run.steps_done();
    p->records = int(run.recorded_steps().size());
  }
  return p->values;
}

const std::vector<double>& outputs(PhenomenaView& v, const Member& run, const Dataset& d) {
  return picture(v, run, &d, [&] { return predict(*run.mlp(), d); });
}

// The (γ, γ′) fits, recomputed when the sweep has stepped since.
const std::vector<PhaseSlope>& phase_slopes_of(PhenomenaView& v, const Runner& runner) {
  if (v.slopes_at != runner.total_steps()) {
    v.slopes = phase_slopes(runner, /*require_converged=*/false);
    v.slopes_at = runner.total_steps();
  }
  return v.slopes;
}

// Red for negative, white at 0, blue for positive, saturating at |v| = scale.
ImU32 diverging_color(double v, double scale) {
  const float t = float(std::clamp(v / scale, -1.0, 1.0));
  const float r = t < 0 ? 1.0f : 1.0f - t, b = t > 0 ? 1.0f : 1.0f + t, g = 1.0f - std::fabs(t);
  return IM_COL32(int(255 * (0.25f + 0.75f * r)), int(255 * (0.25f + 0.75f * g)), int(255 * (0.25f + 0.75f * b)), 255);
}

// Dark blue (0) to yellow (1).
ImU32 heat_color(double t) {
  const float u = float(std::clamp(t, 0.0, 1.0));
  return IM_COL32(int(30 + 225 * u), int(30 + 200 * u), int(120 - 90 * u), 255);
}

// A box with a title at the cursor; returns its plot area (inside a margin for labels).
void frame(const char* id, const char* title, ImVec2 size, ImVec2& a, ImVec2& b) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(ImVec2(origin.x + 50, origin.y), ImGui::GetColorU32(ImGuiCol_Text), title);
  a = ImVec2(origin.x + 50, origin.y + 22);
  b = ImVec2(origin.x + size.x - 10, origin.y + size.y - 30);
  dl->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border));
}

struct Scatter {
  std::vector<double> x, y;
  ImU32 color;
  std::string label;
};

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
      dl->AddCircleFilled(ImVec2(px, py), 2.5f, s.color);
    }
    if (!s.label.empty()) {
      dl->AddCircleFilled(ImVec2(b.x - 110, legend_y + 7), 3, s.color);
      dl->AddText(ImVec2(b.x - 100, legend_y), ImGui::GetColorU32(ImGuiCol_Text), s.label.c_str());
      legend_y += ImGui::GetTextLineHeight();
    }
  }
}

// A rows × cols matrix as coloured cells (row 0 at the top).
void heat_map(const char* id, const char* title, const std::vector<double>& cells, int rows, int cols,
              ImU32 (*color)(double, double), double scale, ImVec2 size) {
  ImVec2 a, b;
  frame(id, title, size, a, b);
  if (rows <= 0 || cols <= 0) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float w = (b.x - a.x) / float(cols), h = (b.y - a.y) / float(rows);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      const ImVec2 p(a.x + w * float(c), a.y + h * float(r));
      dl->AddRectFilled(p, ImVec2(p.x + w + 0.5f, p.y + h + 0.5f), color(cells[size_t(r * cols + c)], scale));
    }
}

ImU32 heat_of(double v, double scale) { return heat_color(v / scale); }

// Frequency principle: Δ_F curves and heat map, the fit, the spectra.
void frequency_panels(PhenomenaView& v, const Runner& runner, const Member& run) {
  std::vector<PlotCurve> curves;
  std::vector<double> steps(run.recorded_steps().begin(), run.recorded_steps().end());
  for (const Series& s : run.series())
    if (s.name.rfind("delta_F/", 0) == 0) curves.push_back(solid_curve(s.name, steps, s.values, 0));
  for (size_t i = 0; i < curves.size(); i++) curves[i].color = curve_color(int(i), int(curves.size()));
  PlotAxes axes;
  axes.title = "relative error Delta_F(k) at the target's peaks";
  axes.x_label = "step";
  axes.y_label = "Delta_F";
  const float half = ImGui::GetContentRegionAvail().x / 2 - 4;
  line_plot("##fp_curves", axes, curves, ImVec2(half, kPanelHeight));
  ImGui::SameLine();
  // Heat map: one row per peak (lowest k on top), one column per record (at most 200, sampled).
  const int rows = int(curves.size()), cols = std::min<int>(200, int(steps.size()));
  std::vector<double> cells(size_t(rows) * size_t(std::max(cols, 0)));
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      const size_t i = size_t(double(c) * double(steps.size() - 1) / std::max(cols - 1, 1));
      cells[size_t(r * cols + c)] = std::min(1.0, curves[size_t(r)].y[i]);
    }
  char title[128];
  std::snprintf(title, sizeof title, "Delta_F: rows k = %s..., steps 0-%d, dark = small",
                curves.empty() ? "" : curves[0].label.substr(8).c_str(), steps.empty() ? 0 : int(steps.back()));
  heat_map("##fp_heat", title, cells, rows, cols, heat_of, 1.0, ImVec2(half, kPanelHeight));

  const Dataset& train = runner.data().train;
  const std::vector<double>& out = outputs(v, run, train);
  std::vector<double> xs;
  for (int i = 0; i < train.size; i++) xs.push_back(train.x[size_t(i) * size_t(train.input_dim)]);
  PlotAxes fit;
  fit.title = "target and network on the train grid";
  fit.x_label = "x";
  fit.y_label = "f(x)";
  fit.log_y = false;
  line_plot("##fp_fit", fit, {solid_curve("target", xs, train.y, IM_COL32(230, 230, 230, 255)),
                              solid_curve("network", xs, out, IM_COL32(255, 140, 40, 255))},
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
  spec_axes.title = "|DFT| of target and network vs frequency k";
  spec_axes.x_label = "k";
  spec_axes.y_label = "|F_k|";
  line_plot("##fp_spectrum", spec_axes, {solid_curve("target", ks, yt, IM_COL32(230, 230, 230, 255)),
                                         solid_curve("network", ks, yn, IM_COL32(255, 140, 40, 255))},
            ImVec2(half, kPanelHeight));
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

// A click inside the last item picks the phase point whose centre is nearest to it (within `radius` px): the view
// then shows that point's widest run.
void pick_on_click(const Runner& runner, PhenomenaView& v, const std::vector<PhaseSlope>& slopes,
                   const std::vector<ImVec2>& centres, float radius) {
  if (!ImGui::IsItemClicked()) return;
  const ImVec2 mouse = ImGui::GetMousePos();
  int nearest = -1;
  float best = radius * radius;
  for (size_t i = 0; i < centres.size(); i++) {
    const float dx = mouse.x - centres[i].x, dy = mouse.y - centres[i].y;
    if (dx * dx + dy * dy <= best) best = dx * dx + dy * dy, nearest = int(i);
  }
  if (nearest < 0) return;
  const int r = widest_run_at(runner, slopes[size_t(nearest)].phase);
  if (r >= 0) v.run = r;
}

// The (γ, γ′) map: each phase point coloured by S_w, with the theory's boundaries γ = 1 (γ′ ≤ 0) and γ′ = γ − 1.
// A ring marks the chosen run's point; click a point to choose it.
void phase_map(const Runner& runner, PhenomenaView& v, ImVec2 size) {
  const std::vector<PhaseSlope>& slopes = phase_slopes_of(v, runner);
  const Member& chosen = *runner.members()[size_t(v.run)];
  ImVec2 a, b;
  frame("##phase_map", "S_w: red linear, blue condensed (click a point)", size, a, b);
  std::vector<ImVec2> centres;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const double g0 = 0, g1 = 2.5, p0 = -1, p1 = 1.5;  // gamma on x, gamma' on y
  auto at = [&](double g, double p) {
    return ImVec2(a.x + float((g - g0) / (g1 - g0)) * (b.x - a.x), b.y - float((p - p0) / (p1 - p0)) * (b.y - a.y));
  };
  const ImU32 line = IM_COL32(200, 200, 200, 255), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddLine(at(1, p0), at(1, 0), line, 2);   // γ = 1, γ′ ≤ 0
  dl->AddLine(at(1, 0), at(g1, g1 - 1), line, 2);  // γ′ = γ − 1
  dl->AddText(at(0.15, 1.3), dim, "linear");
  dl->AddText(at(1.9, -0.8), dim, "condensed");
  dl->AddText(at(1.04, -0.6), dim, "critical");
  char buf[48];
  for (double g : {0.0, 0.5, 1.0, 1.5, 2.0}) {
    std::snprintf(buf, sizeof buf, "%g", g);
    dl->AddText(ImVec2(at(g, p0).x - 4, b.y + 2), dim, buf);
  }
  for (double p : {-1.0, 0.0, 1.0}) {
    std::snprintf(buf, sizeof buf, "%g", p);
    dl->AddText(ImVec2(a.x - 24, at(g0, p).y - 7), dim, buf);
  }
  dl->AddText(ImVec2((a.x + b.x) / 2, b.y + 14), dim, "gamma");
  dl->AddText(ImVec2(a.x - 48, a.y - 18), dim, "gamma'");
  for (const PhaseSlope& ps : slopes) {
    const ImVec2 c = at(ps.phase.gamma, ps.phase.gamma_prime);
    centres.push_back(c);
    const bool known = std::isfinite(ps.slope);
    dl->AddCircleFilled(c, 11, known ? diverging_color(ps.slope, 0.5) : IM_COL32(90, 90, 90, 255));
    dl->AddCircle(c, 11, IM_COL32(20, 20, 20, 255));
    if (same_point(chosen, ps.phase)) dl->AddCircle(c, 15, IM_COL32(255, 200, 60, 255), 0, 2.5f);
    std::snprintf(buf, sizeof buf, known ? "%+.2f" : "?", ps.slope);
    dl->AddText(ImVec2(c.x + 13, c.y - 7), ImGui::GetColorU32(ImGuiCol_Text), buf);
  }
  // frame() drew the map as an invisible button: the last item is the map
  pick_on_click(runner, v, slopes, centres, 14);
}

// Small multiples of the (γ, γ′) map: in each point's cell (γ across, γ′ up) the fit of its widest run on the
// test grid with the data, so jagged (condensed), spline-like (critical) and near-linear (linear) fits sit where
// the map puts them. The chosen run's cell is framed; click a cell to choose it.
void phase_fits(const Runner& runner, PhenomenaView& v, ImVec2 size) {
  const std::vector<PhaseSlope>& slopes = phase_slopes_of(v, runner);
  std::vector<double> gammas, primes;
  for (const PhaseSlope& ps : slopes) {
    gammas.push_back(ps.phase.gamma);
    primes.push_back(ps.phase.gamma_prime);
  }
  std::sort(gammas.begin(), gammas.end());
  gammas.erase(std::unique(gammas.begin(), gammas.end()), gammas.end());
  std::sort(primes.begin(), primes.end());
  primes.erase(std::unique(primes.begin(), primes.end()), primes.end());
  ImVec2 a, b;
  frame("##phase_fits", "fit per point, widest m (click one)", size, a, b);
  if (gammas.empty()) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Dataset& test = runner.data().test;
  const Dataset& train = runner.data().train;
  const float cw = (b.x - a.x) / float(gammas.size()), ch = (b.y - a.y) / float(primes.size());
  const Member& chosen = *runner.members()[size_t(v.run)];
  const double y0 = -1.5, y1 = 1.5;  // the four points' targets lie in [−0.2, 0.6]; room for a jagged fit
  std::vector<ImVec2> centres;
  char buf[48];
  for (const PhaseSlope& ps : slopes) {
    const size_t col = size_t(std::find(gammas.begin(), gammas.end(), ps.phase.gamma) - gammas.begin());
    const size_t row = size_t(primes.end() - std::find(primes.begin(), primes.end(), ps.phase.gamma_prime)) - 1;
    const ImVec2 c0(a.x + cw * float(col) + 3, a.y + ch * float(row) + 3);
    const ImVec2 c1(c0.x + cw - 6, c0.y + ch - 6);
    centres.push_back(ImVec2((c0.x + c1.x) / 2, (c0.y + c1.y) / 2));
    const int r = widest_run_at(runner, ps.phase);
    if (r < 0) continue;
    const Member& run = *runner.members()[size_t(r)];
    dl->AddRect(c0, c1, same_point(chosen, ps.phase) ? IM_COL32(255, 200, 60, 255) : IM_COL32(70, 70, 70, 255));
    auto point = [&](double x, double y) {
      const double t = (std::clamp(y, y0, y1) - y0) / (y1 - y0);
      return ImVec2(c0.x + float((x + 1) / 2) * (c1.x - c0.x), c1.y - float(t) * (c1.y - c0.y));
    };
    const std::vector<double>& out = outputs(v, run, test);
    for (int i = 1; i < test.size; i++)
      dl->AddLine(point(test.x[size_t(i - 1) * size_t(test.input_dim)], out[size_t(i - 1)]),
                  point(test.x[size_t(i) * size_t(test.input_dim)], out[size_t(i)]), IM_COL32(255, 140, 40, 255),
                  1.5f);
    for (int i = 0; i < train.size; i++)
      dl->AddCircleFilled(point(train.x[size_t(i) * size_t(train.input_dim)], train.y[size_t(i)]), 2.5f,
                          IM_COL32(240, 240, 240, 255));
    std::snprintf(buf, sizeof buf, "%g, %g", ps.phase.gamma, ps.phase.gamma_prime);
    dl->AddText(ImVec2(c0.x + 3, c0.y + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), buf);
  }
  pick_on_click(runner, v, slopes, centres, std::max(cw, ch));
}

// The run's train loss beside its neurons: the plateaus of the loss are where the neurons turn and condense.
void loss_panel(const Member& run, float width) {
  const Series* loss = run.find_series("train_loss");
  if (!loss) return;
  std::vector<double> steps(run.recorded_steps().begin(), run.recorded_steps().begin() + long(loss->values.size()));
  PlotAxes axes;
  axes.title = "train loss of the chosen run";
  axes.x_label = "step";
  axes.y_label = "loss";
  line_plot("##neuron_loss", axes, {solid_curve("train loss", steps, loss->values, IM_COL32(255, 140, 40, 255))},
            ImVec2(width, kPanelHeight + 60));
}

// The filtering method: e_low and e_high vs step (any input dimension).
void filter_panel(const Member& run, float width) {
  std::vector<double> steps(run.recorded_steps().begin(), run.recorded_steps().end());
  std::vector<PlotCurve> curves;
  const ImU32 colors[2] = {IM_COL32(240, 200, 60, 255), IM_COL32(70, 110, 240, 255)};
  int i = 0;
  for (const char* name : {"filter/e_low", "filter/e_high"})
    if (const Series* s = run.find_series(name)) curves.push_back(solid_curve(name + 7, steps, s->values, colors[i++]));
  PlotAxes axes;
  axes.title = "filtering method: error of the low / high part";
  axes.x_label = "step";
  axes.y_label = "relative error";
  line_plot("##filter", axes, curves, ImVec2(width, kPanelHeight));
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
  auto grey = [](double v, double) {
    const int g = int(255 * std::clamp((v + 1) / 2, 0.0, 1.0));
    return IM_COL32(g, g, g, 255);
  };
  const float third = width / 3 - 6;
  heat_map("##image_target", "target image", target, side, side, grey, 1.0, ImVec2(third, kPanelHeight));
  ImGui::SameLine();
  heat_map("##image_network", "network (odd columns trained)", network, side, side, grey, 1.0,
           ImVec2(third, kPanelHeight));
  ImGui::SameLine();
  std::vector<double> error(target.size());
  for (size_t p = 0; p < error.size(); p++) error[p] = std::fabs(network[p] - target[p]);
  heat_map("##image_error", "|network - target|, dark = small", error, side, side, heat_of, 0.5,
           ImVec2(third, kPanelHeight));
}

void cosine_panel(PhenomenaView& v, const Member& run, float width) {
  const int n = run.width();
  const std::vector<double>& d = picture(v, run, nullptr, [&] { return cosine_matrix(*run.mlp()); });
  char title[96];
  std::snprintf(title, sizeof title, "cosine matrix, %d neurons (blue +1, red -1)", n);
  heat_map("##cosine", title, d, n, n, diverging_color, 1.0, ImVec2(width, kPanelHeight));
}

void sharpness_panel(const Runner& runner) {
  std::vector<PlotCurve> curves;
  int i = 0;
  const int count = int(runner.members().size());
  for (const auto& r : runner.members()) {
    const Series* s = r->find_series("sharpness");
    if (!s) continue;
    const ImU32 color = curve_color(i++, count);
    std::vector<double> steps(r->recorded_steps().begin(), r->recorded_steps().begin() + long(s->values.size()));
    curves.push_back(solid_curve("sharpness " + r->label(), steps, s->values, color, r->status() == RunStatus::diverged));
    if (!steps.empty() && r->coords().lr > 0)
      curves.push_back(solid_curve("2/eta", {steps.front(), steps.back()}, {2 / r->coords().lr, 2 / r->coords().lr}, color));
  }
  PlotAxes axes;
  axes.title = "sharpness (top Hessian eigenvalue) vs step; flat lines: 2/eta";
  axes.x_label = "step";
  axes.y_label = "lambda_max";
  axes.log_y = false;
  line_plot("##sharpness", axes, curves, ImVec2(0, kPanelHeight));
}

void fit_panel(PhenomenaView& v, const Runner& runner, const Member& run, float width) {
  const Dataset& test = runner.data().test;
  const Dataset& train = runner.data().train;
  if (train.input_dim < 1 || train.input_dim > 2) return;
  const std::vector<double>& out = outputs(v, run, test);
  std::vector<double> xs, train_x;
  for (int i = 0; i < test.size; i++) xs.push_back(test.x[size_t(i) * size_t(test.input_dim)]);
  for (int i = 0; i < train.size; i++) train_x.push_back(train.x[size_t(i) * size_t(train.input_dim)]);
  std::vector<Scatter> sets{{xs, out, IM_COL32(255, 140, 40, 255), "network"},
                            {train_x, train.y, IM_COL32(240, 240, 240, 255), "data"}};
  scatter_plot("##fit", "fit of the chosen run on the test grid", "x", "f(x)", sets, ImVec2(width, kPanelHeight));
}

}  // namespace

void phenomena_view(PhenomenaView& v, const Runner& runner) {
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
    ImGui::TextDisabled("This view shows the phenomena presets (20-29): record fp_delta, fp_filter, weight_rd with "
                        "the two_layer_gamma preset, condensation, or sharpness, or train on an image_2d task.");
    return;
  }
  ImGui::SetNextItemWidth(360);
  drawn_name_next("run");
  if (ImGui::BeginCombo("run", run.label().c_str())) {
    for (int i = 0; i < count; i++)
      if (ImGui::Selectable(runner.members()[size_t(i)]->label().c_str(), i == v.run)) v.run = i;
    ImGui::EndCombo();
  }
  const float half = ImGui::GetContentRegionAvail().x / 2 - 4;
  if (fp) frequency_panels(v, runner, run);
  if (image) image_panels(v, runner, run, ImGui::GetContentRegionAvail().x);
  if (filter) filter_panel(run, half);
  if (phase) {
    phase_map(runner, v, ImVec2(half, kPanelHeight + 40));
    ImGui::SameLine();
    phase_fits(runner, v, ImVec2(half, kPanelHeight + 40));
    fit_panel(v, runner, run, half);
    ImGui::SameLine();
    ImGui::TextWrapped("The chosen run: %s. Its fit on the left, its neurons below (polar: angle of (w, b), radius "
                       "log10 amplitude, at init and now). Near-linear fits and neurons that barely move: linear regime; a few kinks and "
                       "neurons gathered on a few angles: condensed.",
                       run.label().c_str());
  }
  if (neurons) {
    neuron_polar_plot("##neurons", neuron_polar_picture(run), ImVec2(half, kPanelHeight + 60));
    ImGui::SameLine();
    loss_panel(run, half);
    cosine_panel(v, run, half);
  }
  if (sharp) sharpness_panel(runner);
}
