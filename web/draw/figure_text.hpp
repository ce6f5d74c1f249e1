// The figure a view draws, as text: a one-sentence summary that states its point with the run's numbers, and a table
// of what is drawn (each curve's points, or the quantities the view derives: η* per width, fitted slopes), in the
// page's language. Each view builds it from the same data it draws (web/views/*_text.*), never from numbers computed
// beside them; web/js/figure_text.js puts it in the page's DOM for screen readers (a summary, a real table, a live
// region), Export → View data (CSV) writes the table, and web/js/audio_trace.js plays its series as pitch.
//
// One figure per frame: the view publishes it between figure_text_begin and figure_text_end (web/app/ui.cpp's
// view_content), and builds it only in a frame after the page asked. The revision moves only when what the figure
// says changes, so the page asks cheaply and rebuilds its DOM rarely.
#pragma once
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/plot.hpp"

// One drawn curve as numbers, for the audio trace: its name, its points in data units, and what a point's move
// speaks ("η = 2^-1, loss 0.0071"), one text per point.
struct FigureSeries {
  std::string name;
  std::vector<double> x, y;
  std::vector<std::string> said;
};

struct FigureText {
  std::string view;     // the tab's id ("lr", "width"), set by the frame: the CSV's file name names it
  std::string name;     // what the figure is (its plot's title): the figure element's accessible name
  std::string summary;  // one sentence with the run's numbers
  std::string caption;  // what the table holds, and which rows it left out
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<FigureSeries> series;
  // Parts of the figure complete, which the page announces one by one: widths whose runs all ended (vs learning
  // rate); -1: the frame's count, the sweep's members that ended.
  int milestones = -1;
  bool training = false;  // the page trains (set by the frame): the figure is still forming
  DrawnRect rect;         // where the view is drawn, in CSS pixels (set by the frame)
};

// What the tab is and where it is drawn, and the run's state: the frame's part of every figure.
struct FigureFrame {
  std::string view, name;  // the tab's id ("lr") and title in the page's language
  ImVec2 min, max;         // the view's area, in ImGui's units
  bool training = false;   // the page trains
  int members_ended = 0;   // the sweep's members that finished, diverged or failed
};

// Bracket one tab's content.
void figure_text_begin(const FigureFrame& frame);
void figure_text_end();

// Whether this frame builds the figure: only after the page asked for the revision since the last one built, so a
// figure costs nothing in the frames between the page's polls.
bool figure_text_wanted();
// Sets the view's figure (its view, rect and training taken from the frame's, its name too when it has none).
void figure_text_set(FigureText text);
// Whether a figure was set this frame.
bool figure_text_set_yet();

// The view's figure, `build()` called only in a frame that builds it.
template <class Build>
void figure_text_publish(Build build) {
  if (figure_text_wanted()) figure_text_set(build());
}
// The same, unless the view set a figure already this frame: a view of several plots offers each, the first one
// drawn is its figure.
template <class Build>
void figure_text_offer(Build build) {
  if (figure_text_wanted() && !figure_text_set_yet()) figure_text_set(build());
}
// A view that draws no figure says why: drawn_hint (web/draw/drawn.hpp), and the figure's summary unless one was set.
void figure_hint(const std::string& why);

// A count of the changes of the figure built last (the page's poll: it asks for the next frame's figure).
double figure_text_revision();
// {"revision", "view", "name", "summary", "caption", "columns", "rows", "series": [{"name", "x", "y", "said"}],
// "training", "milestones", "rect"}; non-finite numbers are null.
json::Value figure_text_json();

// The rows a per-step curve keeps in a figure's table: enough to follow its shape, few enough to read.
constexpr size_t kFigureRowsPerCurve = 21;

// The rows of a long table kept: every row when there are at most `most`, else every k-th and the last (k the
// smallest step that keeps at most `most`). Returns the indices kept.
std::vector<size_t> kept_rows(size_t count, size_t most);

// A number as the figure's text writes it: 4 significant digits ("0.007123", "1.5e+04"); "-" when not finite.
std::string figure_number(double x);
// A learning rate as the plot's ticks write it: "2^-0.50" (two decimals of its log2).
std::string figure_power_of_two(double x);

// A summary that reads the plot's legend: its title, then each curve's legend row (what it is and the number it
// carries: a slope, an η_max), "; " between them, as drawn.
std::string legend_summary(const PlotAxes& axes, const std::vector<PlotCurve>& curves);

// The table of every curve of a line plot, one row per point ("curve", x, y), a per-step curve thinned to at most
// `per_curve` rows (kept_rows, the caption says so); and its series for the audio trace. A curve with neither a
// legend row nor a name is left out. Fills columns, rows, series and the caption.
void curve_table(FigureText& t, const PlotAxes& axes, const std::vector<PlotCurve>& curves, size_t per_curve);

// A line plot's figure: named by its title, its legend as the summary (legend_summary), every curve's points as the
// table (curve_table).
FigureText plot_text(const PlotAxes& axes, const std::vector<PlotCurve>& curves, size_t per_curve);
