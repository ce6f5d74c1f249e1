#include "web/draw/plot_curve.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace {

// The lengths (px) of a pattern's pieces, drawn and skipped in turn, ending at 0; null for a solid line.
const float* dash_pattern(LineDash dash) {
  static const float dotted[] = {2, 4, 0}, dash_dot[] = {9, 3, 2, 3, 0}, dashed[] = {7, 5, 0};
  switch (dash) {
    case LineDash::solid: return nullptr;
    case LineDash::dotted: return dotted;
    case LineDash::dash_dot: return dash_dot;
    case LineDash::dashed: return dashed;
  }
  return nullptr;
}

// A polyline in `pattern`'s pieces, the pattern running on across the points. Each drawn piece is one line: a curve
// of a few hundred pixels costs about as many vertices as a solid one.
void patterned_polyline(ImDrawList* dl, const std::vector<ImVec2>& points, ImU32 color, float thickness,
                        const float* pattern) {
  int piece = 0;       // the pattern's piece the pen is in: even ones draw
  float into = 0;      // how far into it
  for (size_t i = 1; i < points.size(); i++) {
    const ImVec2 a = points[i - 1], b = points[i];
    const float length = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
    for (float done = 0; done < length;) {
      const float step = std::min(length - done, pattern[piece] - into);
      if (piece % 2 == 0) {
        const float t0 = done / length, t1 = (done + step) / length;
        dl->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                    ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), color, thickness);
      }
      done += step;
      into += step;
      if (into >= pattern[piece]) {
        into = 0;
        piece = pattern[piece + 1] > 0 ? piece + 1 : 0;
      }
    }
  }
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

PlotCurve with_key(PlotCurve c, std::string key) {
  c.key = std::move(key);
  return c;
}

LineDash series_dash(int index) {
  static const LineDash dashes[] = {LineDash::solid, LineDash::dotted, LineDash::dash_dot};
  return dashes[size_t(std::max(0, index)) % (sizeof dashes / sizeof dashes[0])];
}

PlotMarker series_marker(int index) {
  static const PlotMarker shapes[] = {PlotMarker::circle, PlotMarker::square, PlotMarker::triangle, PlotMarker::diamond};
  return shapes[size_t(std::max(0, index)) % (sizeof shapes / sizeof shapes[0])];
}

PlotCurve as_series(PlotCurve c, int index, int count) {
  c.color = curve_color(index, count);
  c.dash = series_dash(index);
  c.marker = series_marker(index);
  return c;
}

const char* dash_name(LineDash dash) {
  switch (dash) {
    case LineDash::solid: return "solid";
    case LineDash::dotted: return "dotted";
    case LineDash::dash_dot: return "dash-dot";
    case LineDash::dashed: return "dashed";
  }
  return "solid";
}

const char* marker_name(PlotMarker marker) {
  switch (marker) {
    case PlotMarker::none: return "none";
    case PlotMarker::square: return "square";
    case PlotMarker::diamond: return "diamond";
    case PlotMarker::triangle: return "triangle";
    case PlotMarker::circle: return "circle";
    case PlotMarker::ring: return "ring";
  }
  return "none";
}

std::vector<double> distinct_x(const std::vector<PlotCurve>& curves) {
  std::set<double> x;
  for (const PlotCurve& c : curves) x.insert(c.x.begin(), c.x.end());
  return {x.begin(), x.end()};
}

void draw_curve_line(ImDrawList* dl, const std::vector<ImVec2>& points, ImU32 color, float thickness, LineDash dash) {
  if (points.size() < 2) return;
  if (const float* pattern = dash_pattern(dash)) patterned_polyline(dl, points, color, thickness, pattern);
  else dl->AddPolyline(points.data(), int(points.size()), color, ImDrawFlags_None, thickness);
}

void draw_curve_marker(ImDrawList* dl, PlotMarker marker, ImVec2 p, ImU32 color, bool hollow) {
  const float r = hollow ? 4.5f : 3.8f, t = 1.8f;
  const ImVec2 top(p.x, p.y - r - 1), right(p.x + r + 1, p.y), bottom(p.x, p.y + r + 1), left(p.x - r - 1, p.y);
  const ImVec2 apex(p.x, p.y - r - 1), base_r(p.x + r + 1, p.y + r), base_l(p.x - r - 1, p.y + r);
  switch (marker) {
    case PlotMarker::none: break;
    case PlotMarker::square:
      if (hollow) dl->AddRect(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), color, 0, 0, t);
      else dl->AddRectFilled(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), color);
      break;
    case PlotMarker::diamond:
      if (hollow) dl->AddQuad(top, right, bottom, left, color, t);
      else dl->AddQuadFilled(top, right, bottom, left, color);
      break;
    case PlotMarker::triangle:
      if (hollow) dl->AddTriangle(apex, base_r, base_l, color, t);
      else dl->AddTriangleFilled(apex, base_r, base_l, color);
      break;
    case PlotMarker::circle:
      if (hollow) dl->AddCircle(p, r, color, 0, t);
      else dl->AddCircleFilled(p, r, color);
      break;
    case PlotMarker::ring: dl->AddCircle(p, 9, color, 0, t); break;
  }
}

