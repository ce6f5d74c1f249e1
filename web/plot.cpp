#include "web/plot.hpp"

#include "web/drawn.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

struct Range {
  double lo = INFINITY, hi = -INFINITY;
  void add(double v) { lo = std::min(lo, v); hi = std::max(hi, v); }
  bool empty() const { return !(lo <= hi); }
};

// Maps data values to pixels on one axis; log axes map log10(v).
struct Scale {
  double lo, hi;  // in axis units (log10 for log axes)
  float p0, p1;   // pixel positions of lo and hi
  bool log;
  double unit(double v) const { return log ? std::log10(v) : v; }
  float pixel(double v) const { return p0 + float((unit(v) - lo) / (hi - lo)) * (p1 - p0); }
};

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

Range axis_range(const std::vector<PlotCurve>& curves, bool use_x, bool log) {
  Range r;
  for (const PlotCurve& c : curves)
    for (size_t i = 0; i < c.x.size() && i < c.y.size(); i++) {
      const double v = use_x ? c.x[i] : c.y[i];
      if (std::isfinite(c.x[i]) && std::isfinite(c.y[i]) && usable(v, log)) r.add(log ? std::log10(v) : v);
    }
  if (r.empty()) return {0, 1};
  if (r.hi - r.lo < 1e-12) { r.lo -= 0.5; r.hi += 0.5; }
  if (log) { r.lo = std::floor(r.lo * 4) / 4; r.hi = std::ceil(r.hi * 4) / 4; }  // quarter-decade padding
  return r;
}

// 1-2-5 steps between lo and hi (about five of them).
std::vector<double> nice_ticks(double lo, double hi) {
  std::vector<double> out;
  const double raw = (hi - lo) / 5, mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
  for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9 * step; t += step) out.push_back(std::fabs(t) < 1e-12 * step ? 0 : t);
  return out;
}

// Tick positions in axis units: decades for log axes spanning more than a decade, else 1-2-5 steps of the values.
std::vector<double> ticks(double lo, double hi, bool log) {
  if (!log) return nice_ticks(lo, hi);
  std::vector<double> out;
  if (hi - lo < 1.5) {  // less than a decade or so: decades alone would leave the axis unlabelled
    for (double v : nice_ticks(std::pow(10, lo), std::pow(10, hi)))
      if (v > 0) out.push_back(std::log10(v));
    return out;
  }
  const double step = std::max(1.0, std::ceil((hi - lo) / 6));
  for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push_back(t);
  return out;
}

std::string tick_label(double t, bool log) {
  char buf[32];
  const bool decade = log && std::fabs(t - std::round(t)) < 1e-9;
  if (decade) std::snprintf(buf, sizeof buf, "1e%d", int(std::lround(t)));
  else std::snprintf(buf, sizeof buf, "%.5g", log ? std::pow(10, t) : t);  // step 6000 reads "6000", not "6e+03"
  return buf;
}

// The ticks of one axis, for the test hook: values in data units and the labels drawn.
void note_tick(DrawnAxis* axis, double t, bool log, const std::string& label) {
  if (!axis) return;
  axis->tick_values.push_back(log ? std::pow(10, t) : t);
  axis->ticks.push_back(label);
}

void draw_axes(ImDrawList* dl, const PlotAxes& axes, const Scale& sx, const Scale& sy, ImVec2 a, ImVec2 b,
               DrawnPlot* drawn) {
  const ImU32 grid = IM_COL32(255, 255, 255, 28), text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (double t : ticks(sx.lo, sx.hi, sx.log)) {
    const float px = sx.p0 + float((t - sx.lo) / (sx.hi - sx.lo)) * (sx.p1 - sx.p0);
    dl->AddLine(ImVec2(px, a.y), ImVec2(px, b.y), grid);
    const std::string s = tick_label(t, sx.log);
    note_tick(drawn ? &drawn->x : nullptr, t, sx.log, s);
    const float w = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(std::min(px - w / 2, b.x - w), b.y + 3), dim, s.c_str());  // the last label ends at the frame
  }
  for (double t : ticks(sy.lo, sy.hi, sy.log)) {
    const float py = sy.p0 + float((t - sy.lo) / (sy.hi - sy.lo)) * (sy.p1 - sy.p0);
    dl->AddLine(ImVec2(a.x, py), ImVec2(b.x, py), grid);
    const std::string s = tick_label(t, sy.log);
    note_tick(drawn ? &drawn->y : nullptr, t, sy.log, s);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(a.x - ts.x - 4, py - ts.y / 2), dim, s.c_str());
  }
  dl->AddRect(a, b, IM_COL32(255, 255, 255, 90));
  const float line = ImGui::GetTextLineHeight();
  const std::string x_label = axes.x_label + (axes.log_x ? " (log)" : "");
  const std::string y_label = axes.y_label + (axes.log_y ? " (log)" : "");
  dl->AddText(ImVec2((a.x + b.x - ImGui::CalcTextSize(x_label.c_str()).x) / 2, b.y + line + 4), text, x_label.c_str());
  dl->AddText(ImVec2(a.x, a.y - line - 2), text, y_label.c_str());  // y label above the axis: ImGui cannot rotate text
  dl->AddText(ImVec2((a.x + b.x - ImGui::CalcTextSize(axes.title.c_str()).x) / 2, a.y - 2 * line - 4), text,
              axes.title.c_str());
}

// A polyline in dashes of 7 px with gaps of 5 px, the pattern running on across the points.
void dashed_polyline(ImDrawList* dl, const std::vector<ImVec2>& points, ImU32 color, float thickness) {
  constexpr float kDash = 7, kGap = 5;
  float phase = 0;  // distance into the current dash + gap period
  for (size_t i = 1; i < points.size(); i++) {
    const ImVec2 a = points[i - 1], b = points[i];
    const float length = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
    for (float done = 0; done < length;) {
      const bool in_dash = phase < kDash;
      const float piece = std::min(length - done, in_dash ? kDash - phase : kDash + kGap - phase);
      if (in_dash) {
        const float t0 = done / length, t1 = (done + piece) / length;
        dl->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                    ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), color, thickness);
      }
      done += piece;
      phase = std::fmod(phase + piece, kDash + kGap);
    }
  }
}

void draw_marker(ImDrawList* dl, PlotMarker marker, ImVec2 p, ImU32 color) {
  constexpr float r = 4.5f, t = 1.8f;
  switch (marker) {
    case PlotMarker::none: break;
    case PlotMarker::square: dl->AddRect(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), color, 0, 0, t); break;
    case PlotMarker::diamond:
      dl->AddQuad(ImVec2(p.x, p.y - r - 1), ImVec2(p.x + r + 1, p.y), ImVec2(p.x, p.y + r + 1), ImVec2(p.x - r - 1, p.y), color, t);
      break;
    case PlotMarker::triangle:
      dl->AddTriangle(ImVec2(p.x, p.y - r - 1), ImVec2(p.x + r + 1, p.y + r), ImVec2(p.x - r - 1, p.y + r), color, t);
      break;
    case PlotMarker::circle: dl->AddCircle(p, r, color, 0, t); break;
  }
}

void draw_curves(ImDrawList* dl, const std::vector<PlotCurve>& curves, const Scale& sx, const Scale& sy, DrawnPlot* drawn) {
  std::vector<ImVec2> points;
  for (const PlotCurve& c : curves) {
    points.clear();
    for (size_t i = 0; i < c.x.size() && i < c.y.size(); i++)
      if (usable(c.x[i], sx.log) && usable(c.y[i], sy.log)) points.emplace_back(sx.pixel(c.x[i]), sy.pixel(c.y[i]));
    if (points.size() >= 2 && c.dashed) dashed_polyline(dl, points, c.color, 2.0f);
    else if (points.size() >= 2) dl->AddPolyline(points.data(), int(points.size()), c.color, ImDrawFlags_None, 2.0f);
    // A vs-step curve has a point per record: markers on each would be a smear, so only short curves get them all.
    if (c.marker != PlotMarker::none && points.size() <= 64) {
      for (const ImVec2& p : points) draw_marker(dl, c.marker, p, c.color);
      if (drawn) drawn->markers += int(points.size());
    } else if (c.marker != PlotMarker::none && !points.empty()) {
      draw_marker(dl, c.marker, points.back(), c.color);
      if (drawn) drawn->markers += 1;
    }
    if (points.size() == 1 && c.marker == PlotMarker::none) dl->AddCircleFilled(points[0], 3, c.color);
    if (c.diverged && !points.empty()) {
      const ImVec2 p = points.back();
      dl->AddLine(ImVec2(p.x - 6, p.y - 6), ImVec2(p.x + 6, p.y + 6), c.color, 2.5f);
      dl->AddLine(ImVec2(p.x - 6, p.y + 6), ImVec2(p.x + 6, p.y - 6), c.color, 2.5f);
    }
  }
}

// The legend's rows: curves without a label (markers such as η*) stay out. The page's own curves come first; an
// imported source's curves follow under a heading row with its name.
struct LegendRow {
  const PlotCurve* curve;     // nullptr for a heading
  const std::string* heading;
};

std::vector<LegendRow> legend_rows(const std::vector<PlotCurve>& curves, float& width) {
  std::vector<LegendRow> rows;
  const std::string* group = nullptr;
  width = 0;
  for (const PlotCurve& c : curves) {
    if (c.label.empty()) continue;
    if (!c.group.empty() && (!group || *group != c.group)) {
      rows.push_back({nullptr, &c.group});
      width = std::max(width, ImGui::CalcTextSize(c.group.c_str()).x - 24);  // headings start at the swatch
    }
    group = &c.group;
    rows.push_back({&c, nullptr});
    width = std::max(width, ImGui::CalcTextSize(c.label.c_str()).x);
  }
  return rows;
}

// The corner of the plot box (top right first) where the legend hides the fewest points of the curves.
ImVec2 legend_corner(const std::vector<PlotCurve>& curves, const Scale& sx, const Scale& sy, ImVec2 a, ImVec2 b, ImVec2 size) {
  const ImVec2 corners[] = {ImVec2(b.x - size.x, a.y), ImVec2(a.x, a.y), ImVec2(b.x - size.x, b.y - size.y),
                            ImVec2(a.x, b.y - size.y)};
  ImVec2 best = corners[0];
  int best_hidden = -1;
  for (const ImVec2& c : corners) {
    int hidden = 0;
    for (const PlotCurve& curve : curves)
      for (size_t i = 0; i < curve.x.size() && i < curve.y.size(); i++) {
        if (!usable(curve.x[i], sx.log) || !usable(curve.y[i], sy.log)) continue;
        const float px = sx.pixel(curve.x[i]), py = sy.pixel(curve.y[i]);
        hidden += px >= c.x && px <= c.x + size.x && py >= c.y && py <= c.y + size.y;
      }
    if (best_hidden < 0 || hidden < best_hidden) {
      best = c;
      best_hidden = hidden;
    }
  }
  return best;
}

void draw_legend(ImDrawList* dl, const std::vector<PlotCurve>& curves, const Scale& sx, const Scale& sy, ImVec2 a, ImVec2 b,
                 DrawnPlot* drawn) {
  float width = 0;
  const std::vector<LegendRow> rows = legend_rows(curves, width);
  if (rows.empty()) return;
  const float line = ImGui::GetTextLineHeight(), margin = 6;
  const ImVec2 size(width + 28, line * float(rows.size()) + 6);  // swatch, text; 3 px above and below the rows
  const ImVec2 corner = legend_corner(curves, sx, sy, a, b, ImVec2(size.x + 2 * margin, size.y + 2 * margin));
  const ImVec2 at(corner.x + margin, corner.y + margin);
  dl->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), IM_COL32(20, 20, 24, 210));
  if (drawn) drawn->legend_rect = drawn_rect(at, ImVec2(at.x + size.x, at.y + size.y));
  for (size_t row = 0; row < rows.size(); row++) {
    const float y = at.y + 3 + line * float(row);
    if (drawn) drawn->legend.push_back(rows[row].heading ? *rows[row].heading : rows[row].curve->label);
    if (rows[row].heading) {
      dl->AddText(ImVec2(at.x + 4, y), ImGui::GetColorU32(ImGuiCol_Text), rows[row].heading->c_str());
      continue;
    }
    const PlotCurve& c = *rows[row].curve;
    const std::vector<ImVec2> swatch = {ImVec2(at.x + 4, y + line / 2), ImVec2(at.x + 22, y + line / 2)};
    if (c.dashed) dashed_polyline(dl, swatch, c.color, 2.0f);
    else dl->AddLine(swatch[0], swatch[1], c.color, 3);
    draw_marker(dl, c.marker, ImVec2(at.x + 13, y + line / 2), c.color);
    dl->AddText(ImVec2(at.x + 28, y), ImGui::GetColorU32(ImGuiCol_Text), c.label.c_str());
  }
}

// Tooltip with each curve's value at the recorded x nearest the mouse.
void hover_readout(const std::vector<PlotCurve>& curves, const Scale& sx, DrawnPlot* drawn) {
  const double mouse_unit = sx.lo + double((ImGui::GetIO().MousePos.x - sx.p0) / (sx.p1 - sx.p0)) * (sx.hi - sx.lo);
  ImGui::BeginTooltip();
  for (const PlotCurve& c : curves) {
    size_t best = 0;
    double best_d = INFINITY;
    for (size_t i = 0; i < c.x.size() && i < c.y.size(); i++) {
      if (!usable(c.x[i], sx.log)) continue;
      const double d = std::fabs(sx.unit(c.x[i]) - mouse_unit);
      if (d < best_d) { best_d = d; best = i; }
    }
    if (best_d == INFINITY) continue;
    char row[256];
    std::snprintf(row, sizeof row, "%s%s%s: x = %g, y = %.4g", c.group.c_str(), c.group.empty() ? "" : ": ",
                  c.label.c_str(), c.x[best], c.y[best]);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.color), "%s", row);
    if (drawn) drawn->hover.push_back(row);
  }
  ImGui::EndTooltip();
}

}  // namespace

PlotCurve solid_curve(std::string label, std::vector<double> x, std::vector<double> y, ImU32 color, bool diverged) {
  PlotCurve c;
  c.label = std::move(label);
  c.x = std::move(x);
  c.y = std::move(y);
  c.color = color;
  c.diverged = diverged;
  return c;
}

ImU32 curve_color(int index, int count) {
  // Samples of the viridis-like "plasma" ramp: ordered, readable on a dark background.
  static const ImU32 ramp[] = {IM_COL32(252, 225, 56, 255), IM_COL32(252, 166, 54, 255), IM_COL32(239, 112, 74, 255),
                               IM_COL32(214, 66, 112, 255), IM_COL32(177, 42, 144, 255), IM_COL32(130, 34, 167, 255),
                               IM_COL32(84, 40, 190, 255),  IM_COL32(60, 90, 220, 255)};
  const int n = int(sizeof ramp / sizeof ramp[0]);
  if (count <= 1) return ramp[2];
  return ramp[std::min(n - 1, index * (n - 1) / std::max(1, count - 1))];
}

ImU32 imported_color(int index, int count) {
  // Greens to teal: apart from the page's yellow-to-blue ramp, so imported runs read as another family of curves.
  static const ImU32 ramp[] = {IM_COL32(205, 245, 135, 255), IM_COL32(150, 230, 120, 255), IM_COL32(95, 210, 125, 255),
                               IM_COL32(55, 190, 150, 255), IM_COL32(35, 165, 170, 255), IM_COL32(30, 135, 175, 255)};
  const int n = int(sizeof ramp / sizeof ramp[0]);
  if (count <= 1) return ramp[2];
  return ramp[std::min(n - 1, index * (n - 1) / std::max(1, count - 1))];
}

ImVec2 line_plot(const char* id, const PlotAxes& axes, const std::vector<PlotCurve>& curves, ImVec2 size) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = avail.x;
  if (size.y <= 0) size.y = avail.y;
  size = ImVec2(std::max(size.x, 160.0f), std::max(size.y, 120.0f));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();

  const float line = ImGui::GetTextLineHeight();
  const ImVec2 a(origin.x + 58, origin.y + 2 * line + 8), b(origin.x + size.x - 10, origin.y + size.y - 2 * line - 10);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Range rx = axis_range(curves, true, axes.log_x);
  Range ry = axis_range(curves, false, axes.log_y);
  if (!axes.log_y) {
    const double pad = axes.y_margin * (ry.hi - ry.lo);
    ry.lo -= pad, ry.hi += pad;
  }
  const Scale sx{rx.lo, rx.hi, a.x, b.x, axes.log_x}, sy{ry.lo, ry.hi, b.y, a.y, axes.log_y};

  DrawnPlot* drawn = nullptr;
  if (drawn_recording()) {
    drawn = &drawn_now().plots.emplace_back();
    drawn->id = id;
    drawn->title = axes.title;
    drawn->rect = drawn_rect(origin, ImVec2(origin.x + size.x, origin.y + size.y));
    drawn->frame = drawn_rect(a, b);
    drawn->x.label = axes.x_label;
    drawn->x.log = axes.log_x;
    drawn->x.lo = axes.log_x ? std::pow(10, rx.lo) : rx.lo;
    drawn->x.hi = axes.log_x ? std::pow(10, rx.hi) : rx.hi;
    drawn->y.label = axes.y_label;
    drawn->y.log = axes.log_y;
    drawn->y.lo = axes.log_y ? std::pow(10, ry.lo) : ry.lo;
    drawn->y.hi = axes.log_y ? std::pow(10, ry.hi) : ry.hi;
  }

  dl->AddRectFilled(a, b, IM_COL32(0, 0, 0, 60));
  draw_axes(dl, axes, sx, sy, a, b, drawn);
  if (curves.empty()) {
    const char* hint = "no data yet: press Run";
    const ImVec2 ts = ImGui::CalcTextSize(hint);
    dl->AddText(ImVec2((a.x + b.x - ts.x) / 2, (a.y + b.y - ts.y) / 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), hint);
    return size;
  }
  dl->PushClipRect(a, b, true);
  draw_curves(dl, curves, sx, sy, drawn);
  draw_legend(dl, curves, sx, sy, a, b, drawn);
  dl->PopClipRect();
  if (hovered) hover_readout(curves, sx, drawn);
  return size;
}
