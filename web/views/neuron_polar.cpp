#include "web/views/neuron_polar.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/metrics/neurons.hpp"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/i18n.hpp"

namespace {

constexpr ImU32 kInitColor = page_colour::initial;
constexpr ImU32 kNowColor = page_colour::network;
constexpr ImU32 kPathColor = page_colour::path;

std::vector<PolarPoint> polar_points(const Mlp& net) {
  std::vector<PolarPoint> out;
  for (const NeuronPoint& p : neuron_scatter(net))
    out.push_back({p.angle, p.amplitude > 0 ? std::log10(p.amplitude) : -INFINITY});
  return out;
}

// The frame trace's record of the view (web/draw/drawn.hpp): a curve per path and one each for the init and now points,
// in (angle, log10 A).
void note_polar(const char* id, const char* title, ImVec2 origin, ImVec2 size, const NeuronPolarPicture& p) {
  if (!drawn_recording()) return;
  DrawnPlot& trace = drawn_now().plots.emplace_back();
  trace.id = id;
  trace.title = title;
  trace.rect = drawn_rect(origin, ImVec2(origin.x + size.x, origin.y + size.y));
  auto curve = [&](std::string name, const std::vector<PolarPoint>& points) {
    DrawnCurve c;
    c.name = std::move(name), c.last_x = NAN, c.last_y = NAN;
    for (const PolarPoint& q : points)
      if (std::isfinite(q.log10_amplitude)) c.points++, c.last_x = q.angle, c.last_y = q.log10_amplitude;
    trace.curves.push_back(c);
  };
  for (size_t k = 0; k < p.paths.paths.size(); k++) curve("path " + std::to_string(k), p.paths.paths[k]);
  curve("init", p.init);
  curve("now", p.now);
}

// The run's net (every setting, biases included) with other parameters: its initial ones.
Mlp with_params(const Mlp& m, const std::vector<double>& params) {
  Mlp copy = m;
  copy.params() = params;
  return copy;
}

}  // namespace

NeuronPolarPicture neuron_polar_picture(const Member& run) {
  NeuronPolarPicture p;
  p.paths = neuron_paths(run);
  if (!run.initial_params().empty()) p.init = polar_points(with_params(*run.mlp(), run.initial_params()));
  p.now = polar_points(*run.mlp());
  double lowest = INFINITY, highest = -INFINITY;
  auto see = [&](const PolarPoint& q) {
    if (std::isfinite(q.log10_amplitude))
      lowest = std::min(lowest, q.log10_amplitude), highest = std::max(highest, q.log10_amplitude);
  };
  for (const auto& path : p.paths.paths) std::for_each(path.begin(), path.end(), see);
  std::for_each(p.init.begin(), p.init.end(), see);
  std::for_each(p.now.begin(), p.now.end(), see);
  if (std::isfinite(lowest)) {
    p.floor = std::floor(lowest);
    p.top = highest - p.floor;
  }
  return p;
}

void neuron_polar_plot(const char* id, const NeuronPolarPicture& p, ImVec2 size) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float line = ImGui::GetTextLineHeight();
  char buf[32];
  const std::string title = trf("neurons (polar): angle atan2(b, w), radius log10 A %+g", -p.floor);
  dl->AddText(origin, text, title.c_str());
  note_polar(id, title.c_str(), origin, size, p);
  // The disc: below the title, above the axis note, left of the legend.
  const float legend_w = 150, radius = std::max(10.0f, std::min(size.x - legend_w, size.y - 3 * line) / 2 - 16);
  const ImVec2 c(origin.x + 16 + 2 * line + radius, origin.y + 1.5f * line + 8 + radius);
  const double rings = std::max(1.0, std::ceil(p.top));
  auto at = [&](const PolarPoint& q) {
    const float r = radius * float(std::max(0.0, q.log10_amplitude - p.floor) / rings);
    return ImVec2(c.x + r * float(std::cos(q.angle)), c.y - r * float(std::sin(q.angle)));
  };
  // Rings at every decade of A (labelled last, above the points).
  for (int k = 1; k <= int(rings); k++)
    dl->AddCircle(c, radius * float(k / rings), ImGui::GetColorU32(ImGuiCol_Border), 64);
  // Spokes every 45 degrees, labelled with the angle.
  for (int deg = -135; deg <= 180; deg += 45) {
    const float t = float(deg * M_PI / 180), cx = std::cos(t), sy = -std::sin(t);
    dl->AddLine(c, ImVec2(c.x + radius * cx, c.y + radius * sy), ImGui::GetColorU32(ImGuiCol_Border));
    std::snprintf(buf, sizeof buf, "%d", deg);
    const ImVec2 extent = ImGui::CalcTextSize(buf);
    dl->AddText(ImVec2(c.x + (radius + 10) * cx - extent.x / 2, c.y + (radius + 8) * sy - extent.y / 2), dim, buf);
  }
  for (const auto& path : p.paths.paths)
    for (size_t i = 1; i < path.size(); i++)
      if (std::isfinite(path[i - 1].log10_amplitude) && std::isfinite(path[i].log10_amplitude))
        dl->AddLine(at(path[i - 1]), at(path[i]), kPathColor, 2.0f);
  for (const auto* set : {&p.init, &p.now})
    for (const PolarPoint& q : *set)
      if (std::isfinite(q.log10_amplitude)) dl->AddCircleFilled(at(q), 2.5f, set == &p.init ? kInitColor : kNowColor);
  // At most 5 rings labelled with log10 A, between the −45 and −90 degree spokes (at −67.5 degrees).
  const int label_every = int(std::ceil(rings / 5));
  for (int k = label_every; k <= int(rings); k += label_every) {
    const float r = radius * float(k / rings);
    std::snprintf(buf, sizeof buf, "%g", p.floor + k);
    dl->AddText(ImVec2(c.x + r * 0.383f + 2, c.y + r * 0.924f - line / 2), text, buf);
  }
  dl->AddText(ImVec2(origin.x, origin.y + size.y - line), dim,
              tr("angle in degrees; rings: log10 A (A = |a| ||(w, b)||)"));
  // Legend.
  const float lx = origin.x + size.x - legend_w;
  float ly = origin.y + 1.5f * line + 8;
  auto entry = [&](ImU32 color, bool dot, const char* label) {
    if (dot) dl->AddCircleFilled(ImVec2(lx + 6, ly + line / 2), 3.5f, color);
    else dl->AddLine(ImVec2(lx, ly + line / 2), ImVec2(lx + 12, ly + line / 2), color, 2.0f);
    dl->AddText(ImVec2(lx + 18, ly), text, label);
    ly += line + 2;
  };
  if (!p.init.empty()) entry(kInitColor, true, tr("init"));
  entry(kNowColor, true, tr("now"));
  if (!p.paths.paths.empty()) entry(kPathColor, false, tr("path (records)"));
}
