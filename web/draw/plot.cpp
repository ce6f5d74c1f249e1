#include "web/draw/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui_internal.h"  // ImRect
#include "web/draw/drawn.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/opaque_fill.hpp"
#include "web/draw/plot_axes.hpp"
#include "web/draw/plot_legend.hpp"

namespace {

// A curve of the page's with at most this many points gets a dot at each (a width sweep, a learning-rate grid): the
// reader sees where the data is and where the line only joins it. A vs-step curve, a point per record, gets none.
constexpr size_t kDottedPoints = 24;
// The share of an axis' span left free beyond the data at each end: no point sits on the frame.
constexpr double kMargin = 0.05;

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }
double unit_of(double v, bool log) { return log ? std::log10(v) : v; }
double value_of(double unit, bool log) { return log ? std::pow(10, unit) : unit; }

struct Range {
  double lo = INFINITY, hi = -INFINITY;
  void add(double v) { lo = std::min(lo, v); hi = std::max(hi, v); }
  bool empty() const { return !(lo <= hi); }
};

// The extent of the shown curves' points on one axis, in axis units (of all curves when every one is hidden). The x
// axis spans every point with a usable x, even where its y is not (yet) known: a learning-rate grid's axis is the
// grid's from the start of a sweep, not a default.
Range data_range(const std::vector<PlotCurve>& curves, const std::vector<bool>& hidden, bool use_x, bool log_x,
                 bool log_y) {
  Range r;
  for (bool all : {false, true}) {
    for (size_t k = 0; k < curves.size(); k++) {
      if (hidden[k] && !all) continue;
      const PlotCurve& c = curves[k];
      for (size_t i = 0; i < c.x.size() && i < c.y.size(); i++)
        if (usable(c.x[i], log_x) && (use_x || usable(c.y[i], log_y)))
          r.add(use_x ? unit_of(c.x[i], log_x) : unit_of(c.y[i], log_y));
    }
    if (!r.empty()) break;
  }
  return r;
}

// Maps data values to pixels on one axis.
struct Scale {
  AxisExtent e;   // in axis units (log10 for log axes)
  float p0, p1;   // pixel positions of e.lo and e.hi
  bool log;
  float at_unit(double u) const { return p0 + float((u - e.lo) / (e.hi - e.lo)) * (p1 - p0); }
  float pixel(double v) const { return at_unit(unit_of(v, log)); }
};

// The plot's boxes: the frame the data is drawn in and the legend's, beside the frame when that leaves the frame
// most of the width, else under it, in as many columns as fit.
struct Layout {
  ImVec2 a, b;                  // the frame
  ImVec2 legend_min, legend_max;
  int legend_columns = 1;
  bool legend = false;
};

Layout layout(ImVec2 origin, ImVec2 size, const std::vector<LegendRow>& rows) {
  Layout l;
  const float line = ImGui::GetTextLineHeight();
  const float width = legend_width(rows);
  const bool beside = width <= 0.42f * size.x;
  float below = 0;
  l.legend = !rows.empty();
  if (l.legend && !beside) {
    l.legend_columns = std::max(1, int(size.x / width));
    below = std::min(legend_height(rows, l.legend_columns), std::max(3 * line, 0.3f * size.y));
  }
  l.a = ImVec2(origin.x, origin.y + 2 * line + 8);
  l.b = ImVec2(origin.x + size.x - 10 - (l.legend && beside ? width + 8 : 0),
              origin.y + size.y - below - 2 * line - 10);
  if (beside) {
    l.legend_min = ImVec2(origin.x + size.x - width, l.a.y);
    l.legend_max = ImVec2(origin.x + size.x, l.b.y);
  } else {
    l.legend_min = ImVec2(origin.x, origin.y + size.y - below);
    l.legend_max = ImVec2(origin.x + size.x, origin.y + size.y);
  }
  return l;
}

float widest(const std::vector<std::string>& labels) {
  float w = 0;
  for (const std::string& s : labels) w = std::max(w, ImGui::CalcTextSize(s.c_str()).x);
  return w;
}

// The y axis' ticks fit its height (two lines a tick); the x axis' ticks fit its width, measured on a first try.
AxisTicks y_ticks(const PlotAxes& axes, AxisExtent e, float height) {
  return axis_ticks(e, axes.log_y, TickRule::automatic, {}, int(height / (2 * ImGui::GetTextLineHeight())));
}

AxisTicks x_ticks(const PlotAxes& axes, AxisExtent e, float width) {
  AxisTicks t = axis_ticks(e, axes.log_x, axes.x_ticks, axes.x_tick_values, int(width / 20));
  const int fit = int(width / (widest(t.labels) + 14));
  if (int(t.at.size()) > fit) t = axis_ticks(e, axes.log_x, axes.x_ticks, axes.x_tick_values, fit);
  return t;
}

void note_axis(DrawnAxis& axis, const AxisTicks& t, const Scale& s, Range data, const std::string& label) {
  axis.label = label;
  axis.log = s.log;
  axis.lo = value_of(s.e.lo, s.log);
  axis.hi = value_of(s.e.hi, s.log);
  axis.data_lo = data.empty() ? NAN : value_of(data.lo, s.log);
  axis.data_hi = data.empty() ? NAN : value_of(data.hi, s.log);
  for (size_t i = 0; i < t.at.size(); i++) {
    axis.tick_values.push_back(value_of(t.at[i], s.log));
    axis.ticks.push_back(t.labels[i]);
  }
}

void draw_ticks(ImDrawList* dl, const AxisTicks& tx, const AxisTicks& ty, const Scale& sx, const Scale& sy, ImVec2 a,
                ImVec2 b) {
  const ImU32 grid = page_colour::plot_grid, dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (size_t i = 0; i < tx.at.size(); i++) {
    const float px = sx.at_unit(tx.at[i]), w = ImGui::CalcTextSize(tx.labels[i].c_str()).x;
    dl->AddLine(ImVec2(px, a.y), ImVec2(px, b.y), grid);
    // The last label ends at the frame.
    dl->AddText(ImVec2(std::min(px - w / 2, b.x - w), b.y + 3), dim, tx.labels[i].c_str());
  }
  for (size_t i = 0; i < ty.at.size(); i++) {
    const float py = sy.at_unit(ty.at[i]);
    const ImVec2 ts = ImGui::CalcTextSize(ty.labels[i].c_str());
    dl->AddLine(ImVec2(a.x, py), ImVec2(b.x, py), grid);
    dl->AddText(ImVec2(a.x - ts.x - 4, py - ts.y / 2), dim, ty.labels[i].c_str());
  }
}

// Text centred on `centre` within [left, right], its font shrunk (to 10 px at least) when it is wider: a title or an
// axis label is never cut by the plot's edge.
void centred_text(ImDrawList* dl, const std::string& s, float centre, float left, float right, float y, ImU32 color) {
  const float full = ImGui::CalcTextSize(s.c_str()).x, room = right - left;
  const float size = full > room ? std::max(10.0f, ImGui::GetFontSize() * room / full) : ImGui::GetFontSize();
  const float w = full * size / ImGui::GetFontSize();
  const float x = std::clamp(centre - w / 2, left, std::max(left, right - w));
  dl->AddText(ImGui::GetFont(), size, ImVec2(x, y), color, s.c_str());
}

// `left`..`right`: the plot widget's horizontal extent (the title may use all of it).
void draw_labels(ImDrawList* dl, const PlotAxes& axes, ImVec2 a, ImVec2 b, float left, float right) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float line = ImGui::GetTextLineHeight();
  const std::string x_label = axes.log_x ? trf("%s (log)", axes.x_label.c_str()) : axes.x_label;
  const std::string y_label = axes.log_y ? trf("%s (log)", axes.y_label.c_str()) : axes.y_label;
  dl->AddRect(a, b, page_colour::plot_frame);
  centred_text(dl, x_label, (a.x + b.x) / 2, a.x, b.x, b.y + line + 4, text);
  dl->AddText(ImVec2(a.x, a.y - line - 2), text, y_label.c_str());  // y label above the axis: ImGui cannot rotate text
  centred_text(dl, axes.title, (a.x + b.x) / 2, left, right, a.y - 2 * line - 4, text);
}

// What the hover read-out and the frame trace call a curve: its source's name (imported runs), then its own.
std::string readout_name(const PlotCurve& c) {
  const std::string& name = !c.name.empty() ? c.name : !c.key.empty() ? c.key : c.label;
  return c.group.empty() ? name : c.group + ": " + name;
}

// The points of `c` that a plot with these axes draws, into its trace.
void note_points(DrawnCurve& drawn, const PlotCurve& c, bool log_x, bool log_y) {
  for (size_t i = 0; i < c.x.size() && i < c.y.size(); i++)
    if (usable(c.x[i], log_x) && usable(c.y[i], log_y)) {
      drawn.x.push_back(c.x[i]);
      drawn.y.push_back(c.y[i]);
    }
}

// Draws `c` and returns its points as drawn, in pixels.
std::vector<ImVec2> draw_curve(ImDrawList* dl, const PlotCurve& c, const Scale& sx, const Scale& sy, DrawnPlot* drawn) {
  std::vector<ImVec2> points;
  size_t last = 0;  // the last point drawn
  for (size_t i = 0; i < c.x.size() && i < c.y.size(); i++)
    if (usable(c.x[i], sx.log) && usable(c.y[i], sy.log)) {
      points.emplace_back(sx.pixel(c.x[i]), sy.pixel(c.y[i]));
      last = i;
    }
  draw_curve_line(dl, points, c.color, c.thin ? 1.25f : 2.0f, c.dash);
  int markers = 0;
  if (c.marker != PlotMarker::none) {
    // At every point of a short curve (an imported one's may be longer), else at its end: where a run's line stops.
    const size_t from = points.size() <= (c.hollow ? kDrawnCurvePoints : kDottedPoints) ? 0 : points.size() - 1;
    for (size_t i = from; i < points.size(); i++) draw_curve_marker(dl, c.marker, points[i], c.color, c.hollow);
    markers = int(points.size() - std::min(from, points.size()));
  } else if (points.size() == 1) {  // a point of its own (η*, η_max): larger than any series' marker, and ringed
    dl->AddCircleFilled(points[0], 4.5f, c.color);
    dl->AddCircle(points[0], 7, page_colour::text, 0, 1.5f);
    markers = 1;
  } else if (points.size() <= kDottedPoints) {
    for (const ImVec2& p : points) dl->AddCircleFilled(p, 2.5f, c.color);
    markers = int(points.size());
  }
  if (drawn) {
    drawn->markers += markers;
    DrawnCurve& d = drawn->curves.emplace_back();
    d.name = readout_name(c);
    d.points = int(points.size());
    d.last_x = points.empty() ? NAN : c.x[last];
    d.last_y = points.empty() ? NAN : c.y[last];
    d.color = c.color;
    d.dash = dash_name(c.dash);
    d.marker = c.marker != PlotMarker::none ? marker_name(c.marker) : points.size() <= kDottedPoints ? "dot" : "none";
    d.thickness = c.thin ? 1.25f : 2.0f;
    if (int(points.size()) <= kDrawnCurvePoints) note_points(d, c, sx.log, sy.log);
  }
  if (c.diverged && !points.empty()) {
    const ImVec2 p = points.back();
    dl->AddLine(ImVec2(p.x - 6, p.y - 6), ImVec2(p.x + 6, p.y + 6), c.color, 2.5f);
    dl->AddLine(ImVec2(p.x - 6, p.y + 6), ImVec2(p.x + 6, p.y - 6), c.color, 2.5f);
  }
  return points;
}

// Reference lines y ∝ x^slope through the centre of the data (axis units), dashed grey, each labelled where it leaves
// the frame on the right (or at the top or bottom).
void draw_references(ImDrawList* dl, const PlotAxes& axes, Range rx, Range ry, const Scale& sx, const Scale& sy,
                     ImVec2 a, ImVec2 b, DrawnPlot* drawn, std::vector<ImRect>& labels) {
  if (!axes.log_x || !axes.log_y || rx.empty() || ry.empty()) return;
  const double cx = (rx.lo + rx.hi) / 2, cy = (ry.lo + ry.hi) / 2;
  const ImU32 color = page_colour::reference_line;
  for (const PlotReference& r : axes.references) {
    const auto y_at = [&](double u) { return cy + r.slope * (u - cx); };
    draw_curve_line(dl, {ImVec2(sx.at_unit(sx.e.lo), sy.at_unit(y_at(sx.e.lo))), ImVec2(sx.at_unit(sx.e.hi),
              sy.at_unit(y_at(sx.e.hi)))}, color, 1.2f, LineDash::dashed);
    double u_end = sx.e.hi;  // where the line leaves the frame
    if (r.slope != 0 && (y_at(u_end) > sy.e.hi || y_at(u_end) < sy.e.lo))
      u_end = cx + ((r.slope > 0 ? sy.e.hi : sy.e.lo) - cy) / r.slope;
    const ImVec2 ts = ImGui::CalcTextSize(r.label.c_str());
    const ImVec2 at(std::clamp(sx.at_unit(u_end) - ts.x - 4, a.x + 2, b.x - ts.x - 2),
                    std::clamp(sy.at_unit(y_at(u_end)) - ts.y - 2, a.y + 2, b.y - ts.y - 2));
    dl->AddText(at, color, r.label.c_str());
    labels.emplace_back(at, ImVec2(at.x + ts.x, at.y + ts.y));
    if (drawn) {
      char note[160];
      std::snprintf(note, sizeof note, "reference %s: slope %+.2g through (%.4g, %.4g)", r.label.c_str(), r.slope,
                    value_of(cx, true), value_of(cy, true));
      drawn->notes.push_back(note);
    }
  }
}

// What the end of a curve of the page's is labelled with: its width's row ("n=64"), else its short name ("n=32" for
// "n=32  eta*=…", a layer's series for its "… slope" label), else its label; "" for none (an η* dot, an imported run,
// a name too long to sit beside a line).
std::string end_label(const PlotCurve& c) {
  constexpr size_t kLongest = 18;
  if (!c.group.empty()) return "";
  std::string text = !c.color_row.empty() ? c.color_row : !c.name.empty() ? c.name : c.label;
  if (c.color_row.empty() && c.name.empty() && !c.key.empty() && c.label.compare(0, c.key.size(), c.key) == 0)
    text = c.key;
  return c.label.empty() && c.color_row.empty() ? "" : text.size() <= kLongest ? text : "";
}

bool overlaps(const ImRect& r, const std::vector<ImRect>& taken) {
  return std::any_of(taken.begin(), taken.end(), [&](const ImRect& t) { return t.Overlaps(r); });
}

// A curve's points as drawn, in pixels, and whether their x rises (a curve against the step, the width, the learning
// rate: nearly all), which lets a search start at a given x.
struct DrawnLine {
  std::vector<ImVec2> points;
  bool rising = false;
  explicit DrawnLine(std::vector<ImVec2> p) : points(std::move(p)) {
    rising = std::is_sorted(points.begin(), points.end(), [](ImVec2 a, ImVec2 b) { return a.x < b.x; });
  }
};

// Whether a line's segment may pass through `r` (its bounding box meets it).
bool crosses(const DrawnLine& drawn, const ImRect& r) {
  const std::vector<ImVec2>& line = drawn.points;
  const bool rising = drawn.rising;
  size_t i = 1;
  if (rising) {
    const auto from = std::lower_bound(line.begin(), line.end(), r.Min.x, [](ImVec2 p, float x) { return p.x < x; });
    i = std::max<size_t>(1, size_t(from - line.begin()));
  }
  for (; i < line.size(); i++) {
    const ImVec2 p = line[i - 1], q = line[i];
    if (rising && p.x > r.Max.x) break;
    if (ImRect(ImMin(p, q), ImMax(p, q)).Overlaps(r)) return true;
  }
  return false;
}

// Each shown series named at its line's end, in its colour, where the name fits inside the frame beside, above or
// below that end without covering a line (`lines`, as drawn), another name or a reference's label (`taken`); a series
// is named once.
void draw_end_labels(ImDrawList* dl, const std::vector<PlotCurve>& curves, const std::vector<bool>& hidden,
                     const std::vector<DrawnLine>& lines, const Scale& sx, const Scale& sy, ImVec2 a,
                     ImVec2 b, std::vector<ImRect>& taken) {
  std::vector<std::string> named;
  for (size_t k = 0; k < curves.size(); k++) {
    const PlotCurve& c = curves[k];
    const std::string text = hidden[k] ? "" : end_label(c);
    if (text.empty() || std::find(named.begin(), named.end(), text) != named.end()) continue;
    size_t last = c.x.size();
    for (size_t i = 0; i < c.x.size() && i < c.y.size(); i++)
      if (usable(c.x[i], sx.log) && usable(c.y[i], sy.log)) last = i;
    if (last == c.x.size()) continue;
    const ImVec2 p(sx.pixel(c.x[last]), sy.pixel(c.y[last])), size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 tries[] = {ImVec2(p.x + 8, p.y - size.y / 2), ImVec2(p.x - size.x - 6, p.y - size.y - 5),
                            ImVec2(p.x - size.x - 6, p.y + 5), ImVec2(p.x - size.x - 6, p.y - 2 * size.y - 5)};
    for (const ImVec2& at : tries) {
      const ImRect r(at, ImVec2(at.x + size.x, at.y + size.y));
      if (r.Min.x < a.x + 2 || r.Min.y < a.y + 2 || r.Max.x > b.x - 2 || r.Max.y > b.y - 2 || overlaps(r, taken) ||
          std::any_of(lines.begin(), lines.end(), [&](const DrawnLine& line) { return crosses(line, r); }))
        continue;
      dl->AddText(at, c.color, text.c_str());
      taken.push_back(r);
      named.push_back(text);
      break;
    }
  }
}

// More rows would cover the plot they describe (a sweep has dozens of curves).
constexpr size_t kHoverRows = 8;

// Tooltip with the shown curves' values at the recorded x nearest the mouse: a row for each of the kHoverRows curves
// nearest the pointer there, top to bottom, naming the curve and the axes' quantities ("n=64 lr=0.5 seed=0: step =
// 40, train_loss = 0.0073"), then how many more curves pass there.
void hover_readout(const PlotAxes& axes, const std::vector<PlotCurve>& curves, const std::vector<bool>& hidden,
                   const Scale& sx, const Scale& sy, DrawnPlot* drawn) {
  const ImVec2 pointer = ImGui::GetIO().MousePos;
  const double mouse = sx.e.lo + double((pointer.x - sx.p0) / (sx.p1 - sx.p0)) * (sx.e.hi - sx.e.lo);
  struct Row {
    float y;  // the value's pixel row
    std::string text;
    ImU32 color;
  };
  std::vector<Row> rows;
  for (size_t k = 0; k < curves.size(); k++) {
    const PlotCurve& c = curves[k];
    size_t best = 0;
    double best_d = INFINITY;
    for (size_t i = 0; i < c.x.size() && i < c.y.size() && !hidden[k]; i++) {
      if (!usable(c.x[i], sx.log)) continue;
      const double d = std::fabs(unit_of(c.x[i], sx.log) - mouse);
      if (d < best_d) { best_d = d; best = i; }
    }
    if (best_d == INFINITY) continue;
    char row[320];
    std::snprintf(row, sizeof row, "%s: %s = %g, %s = %.4g", readout_name(c).c_str(), axes.x_label.c_str(), c.x[best],
                  axes.y_label.c_str(), c.y[best]);
    const float y = usable(c.y[best], sy.log) ? sy.pixel(c.y[best]) : INFINITY;
    rows.push_back({y, row, c.color});
  }
  const size_t shown = std::min(rows.size(), kHoverRows);
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    return std::fabs(a.y - pointer.y) < std::fabs(b.y - pointer.y);
  });
  std::stable_sort(rows.begin(), rows.begin() + long(shown), [](const Row& a, const Row& b) { return a.y < b.y; });
  ImGui::BeginTooltip();
  for (size_t i = 0; i < shown; i++) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(rows[i].color), "%s", rows[i].text.c_str());
    if (drawn) drawn->hover.push_back(rows[i].text);
  }
  if (rows.size() > shown) {
    const std::string more = trf("+%d more curves here: point nearer one, or hide rows in the legend",
                                 int(rows.size() - shown));
    ImGui::TextDisabled("%s", more.c_str());
    if (drawn) drawn->hover.push_back(more);
  }
  ImGui::EndTooltip();
}

DrawnPlot* note_plot(const char* id, const PlotAxes& axes, ImVec2 origin, ImVec2 size, ImVec2 a, ImVec2 b) {
  if (!drawn_recording()) return nullptr;
  DrawnPlot* drawn = &drawn_now().plots.emplace_back();
  drawn->id = id;
  drawn->title = axes.title;
  drawn->rect = drawn_rect(origin, ImVec2(origin.x + size.x, origin.y + size.y));
  drawn->frame = drawn_rect(a, b);
  drawn->notes = axes.notes;
  return drawn;
}

// The plot's contents in the current window, `size` at `origin`.
void draw_plot(const char* id, const PlotAxes& axes, const std::vector<PlotCurve>& curves, ImVec2 origin, ImVec2 size) {
  const LegendState state = legend_state(id);
  std::vector<bool> hidden;
  for (const PlotCurve& c : curves) hidden.push_back(curve_hidden(state, c));
  const std::vector<LegendRow> rows = curves.empty() ? std::vector<LegendRow>{} : legend_rows(curves, axes.notes);
  Layout l = layout(origin, size, rows);

  Range rx = data_range(curves, hidden, true, axes.log_x, axes.log_y);
  for (double x : axes.x_extent)
    if (usable(x, axes.log_x)) rx.add(unit_of(x, axes.log_x));
  const Range ry = data_range(curves, hidden, false, axes.log_x, axes.log_y);
  const double y_margin = axes.log_y ? kMargin : std::max(kMargin, axes.y_margin);
  const Scale sy{axis_extent(ry.lo, ry.hi, axes.log_y ? axes.min_y_decades : 0, y_margin), l.b.y, l.a.y, axes.log_y};
  const AxisTicks ty = y_ticks(axes, sy.e, l.b.y - l.a.y);
  l.a.x = origin.x + std::max(40.0f, widest(ty.labels) + 10);  // room for the y labels
  const Scale sx{axis_extent(rx.lo, rx.hi, 0, kMargin), l.a.x, l.b.x, axes.log_x};
  const AxisTicks tx = x_ticks(axes, sx.e, l.b.x - l.a.x);

  DrawnPlot* drawn = note_plot(id, axes, origin, size, l.a, l.b);
  if (drawn) {
    note_axis(drawn->x, tx, sx, rx, axes.x_label);
    note_axis(drawn->y, ty, sy, ry, axes.y_label);
  }
  if (l.legend) draw_legend(id, rows, state, l.legend_min, l.legend_max, l.legend_columns, drawn);
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();

  ImDrawList* dl = ImGui::GetWindowDrawList();
  add_opaque_fill(dl, l.a, l.b, darkened_page_background(60 / 255.0f));
  draw_ticks(dl, tx, ty, sx, sy, l.a, l.b);
  draw_labels(dl, axes, l.a, l.b, origin.x, origin.x + size.x);
  // Before a run its members' curves are there (their legend rows name them) but hold no point yet, or only their
  // grid (a learning rate without a loss: NaN): say so, rather than leave an empty box.
  const auto has_point = [](const PlotCurve& c) {
    for (size_t i = 0; i < std::min(c.x.size(), c.y.size()); i++)
      if (std::isfinite(c.x[i]) && std::isfinite(c.y[i])) return true;
    return false;
  };
  if (std::none_of(curves.begin(), curves.end(), has_point)) {
    const char* hint = tr("no data yet: press Run");
    const ImVec2 ts = ImGui::CalcTextSize(hint);
    dl->AddText(ImVec2((l.a.x + l.b.x - ts.x) / 2, (l.a.y + l.b.y - ts.y) / 2), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                hint);
    if (drawn) drawn->notes.push_back(hint);
    if (curves.empty()) return;
  }
  dl->PushClipRect(l.a, l.b, true);
  std::vector<ImRect> labels;  // the text drawn inside the frame
  draw_references(dl, axes, rx, ry, sx, sy, l.a, l.b, drawn, labels);
  std::vector<DrawnLine> lines;
  for (size_t k = 0; k < curves.size(); k++)
    if (!hidden[k]) lines.emplace_back(draw_curve(dl, curves[k], sx, sy, drawn));
  draw_end_labels(dl, curves, hidden, lines, sx, sy, l.a, l.b, labels);
  dl->PopClipRect();
  if (hovered) hover_readout(axes, curves, hidden, sx, sy, drawn);
}

}  // namespace

ImVec2 line_plot(const char* id, const PlotAxes& axes, const std::vector<PlotCurve>& curves, ImVec2 size) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = avail.x;
  if (size.y <= 0) size.y = avail.y;
  size = ImVec2(std::max(size.x, 160.0f), std::max(size.y, 120.0f));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // A child window of the plot's size holds the frame and the legend (a window of its own, laid out inside it), so
  // the caller's layout sees one item of `size`: SameLine after a plot works as after a button. The wheel over it
  // scrolls the panel, as it would without the child.
  if (ImGui::BeginChild(id, size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse))
    draw_plot(id, axes, curves, origin, size);
  ImGui::EndChild();
  return size;
}
