#include "web/draw/figure_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "web/draw/i18n.hpp"

namespace {

struct Published {
  FigureText pending, last;
  bool asked = true;   // the page asked for the revision since the last figure built
  bool wanted = false;  // this frame builds the figure
  bool set = false;     // a view set it this frame
  std::string last_text;  // last's JSON, to tell a changed figure from the same one drawn again
  double revision = 0;
};

Published& published() {
  static Published p;
  return p;
}

json::Value numbers(const std::vector<double>& xs) {
  json::Value a = json::Value::make_array();
  for (double x : xs) a.push(std::isfinite(x) ? json::Value::make_number(x) : json::Value());
  return a;
}

json::Value strings(const std::vector<std::string>& items) {
  json::Value a = json::Value::make_array();
  for (const std::string& s : items) a.push(json::Value::make_string(s));
  return a;
}

json::Value rect_json(const DrawnRect& r) {
  json::Value v = json::Value::make_object();
  v.set("x0", json::Value::make_number(r.x0));
  v.set("y0", json::Value::make_number(r.y0));
  v.set("x1", json::Value::make_number(r.x1));
  v.set("y1", json::Value::make_number(r.y1));
  return v;
}

// Everything but the revision.
json::Value text_json(const FigureText& t) {
  json::Value v = json::Value::make_object();
  v.set("view", json::Value::make_string(t.view));
  v.set("name", json::Value::make_string(t.name));
  v.set("summary", json::Value::make_string(t.summary));
  v.set("caption", json::Value::make_string(t.caption));
  v.set("columns", strings(t.columns));
  json::Value rows = json::Value::make_array();
  for (const auto& row : t.rows) rows.push(strings(row));
  v.set("rows", rows);
  json::Value series = json::Value::make_array();
  for (const FigureSeries& s : t.series) {
    json::Value e = json::Value::make_object();
    e.set("name", json::Value::make_string(s.name));
    e.set("x", numbers(s.x));
    e.set("y", numbers(s.y));
    e.set("said", strings(s.said));
    series.push(e);
  }
  v.set("series", series);
  v.set("training", json::Value::make_bool(t.training));
  v.set("milestones", json::Value::make_number(t.milestones));
  v.set("rect", rect_json(t.rect));
  return v;
}

// What the hover read-out calls a curve (web/draw/plot_curve.hpp): its name, else its key, else its label.
const std::string& curve_name(const PlotCurve& c) {
  if (!c.name.empty()) return c.name;
  return c.key.empty() ? c.label : c.key;
}

// An x value as its axis' ticks write it.
std::string x_text(const PlotAxes& axes, double x) {
  return axes.x_ticks == TickRule::powers_of_two ? figure_power_of_two(x) : figure_number(x);
}

}  // namespace

void figure_text_begin(const FigureFrame& frame) {
  Published& p = published();
  p.wanted = p.asked;
  p.asked = false;
  p.set = false;
  if (!p.wanted) return;
  p.pending = FigureText{};
  p.pending.view = frame.view;
  p.pending.name = frame.name;
  p.pending.rect = drawn_rect(frame.min, frame.max);
  p.pending.training = frame.training;
  p.pending.milestones = frame.members_ended;
}

bool figure_text_wanted() { return published().wanted; }
bool figure_text_set_yet() { return published().set; }

void figure_text_set(FigureText text) {
  Published& p = published();
  if (!p.wanted) return;
  text.view = p.pending.view;
  if (text.name.empty()) text.name = p.pending.name;
  text.rect = p.pending.rect;
  text.training = p.pending.training;
  if (text.milestones < 0) text.milestones = p.pending.milestones;
  p.pending = std::move(text);
  p.set = true;
}

void figure_hint(const std::string& why) {
  drawn_hint(why);
  Published& p = published();
  if (p.wanted && p.pending.summary.empty()) p.pending.summary = why;
}

void figure_text_end() {
  Published& p = published();
  if (!p.wanted) return;
  p.wanted = false;
  std::string text = json::write(text_json(p.pending));
  if (text == p.last_text) return;
  p.last_text = std::move(text);
  p.last = std::move(p.pending);
  p.revision++;
}

double figure_text_revision() {
  published().asked = true;
  return published().revision;
}

json::Value figure_text_json() {
  json::Value v = text_json(published().last);
  v.set("revision", json::Value::make_number(published().revision));
  return v;
}

std::vector<size_t> kept_rows(size_t count, size_t most) {
  std::vector<size_t> kept;
  if (count == 0) return kept;
  most = std::max<size_t>(most, 2);  // the first and the last
  const size_t every = count <= most ? 1 : (count - 1 + most - 2) / (most - 1);  // leaves room for the last
  for (size_t i = 0; i < count; i += every) kept.push_back(i);
  if (kept.back() != count - 1) kept.push_back(count - 1);
  return kept;
}

std::string figure_number(double x) {
  if (!std::isfinite(x)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

std::string figure_power_of_two(double x) {
  if (!(x > 0) || !std::isfinite(x)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "2^%.2f", std::log2(x));
  return text;
}

void curve_table(FigureText& t, const PlotAxes& axes, const std::vector<PlotCurve>& curves, size_t per_curve) {
  t.columns = {tr("curve"), axes.x_label, axes.y_label};
  bool thinned = false;
  for (const PlotCurve& c : curves) {
    if (c.label.empty() && c.color_row.empty() && c.name.empty()) continue;
    const size_t count = std::min(c.x.size(), c.y.size());
    if (count == 0) continue;
    const std::vector<size_t> kept = kept_rows(count, per_curve);
    thinned = thinned || kept.size() < count;
    FigureSeries s;
    s.name = curve_name(c);
    for (size_t i : kept) {
      const std::string x = x_text(axes, c.x[i]), y = figure_number(c.y[i]);
      t.rows.push_back({s.name, x, y});
      s.x.push_back(c.x[i]);
      s.y.push_back(c.y[i]);
      s.said.push_back(s.name + ": " + axes.x_label + " = " + x + ", " + axes.y_label + " " + y);
    }
    t.series.push_back(std::move(s));
  }
  t.caption = thinned ? trf("%s: each curve's points; long curves every k-th point and the last (at most %d each).",
                            axes.title.c_str(), int(per_curve))
                      : trf("%s: each curve's points.", axes.title.c_str());
}

std::string legend_summary(const PlotAxes& axes, const std::vector<PlotCurve>& curves) {
  std::string rows;
  for (const PlotCurve& c : curves) {
    if (c.label.empty()) continue;
    if (!rows.empty()) rows += "; ";
    rows += c.label;
  }
  return rows.empty() ? trf("%s: nothing drawn yet.", axes.title.c_str()) : axes.title + ": " + rows + ".";
}

FigureText plot_text(const PlotAxes& axes, const std::vector<PlotCurve>& curves, size_t per_curve) {
  FigureText t;
  t.name = axes.title;
  t.summary = legend_summary(axes, curves);
  curve_table(t, axes, curves, per_curve);
  return t;
}
