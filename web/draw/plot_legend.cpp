#include "web/draw/plot_legend.hpp"

#include <algorithm>

#include "imgui_internal.h"
#include "web/draw/i18n.hpp"
#include "web/draw/wrapped_text.hpp"

namespace {

constexpr float kSwatch = 26;  // the swatch's room left of a row's text

const std::string& key_of(const PlotCurve& c) { return c.key.empty() ? c.label : c.key; }

// The curves of `group` that `row` (PlotCurve::color_row or shade_row) puts in one row each: a row per distinct value,
// with how many of its runs diverged. Its swatch is its middle curve: a width's middle shade, a shade in the middle
// width's colour.
void axis_rows(const std::vector<PlotCurve>& curves, const std::string& group, std::string PlotCurve::*row,
               int section, LegendRow::Swatch swatch, std::vector<LegendRow>& rows) {
  std::vector<std::string> seen;
  for (const PlotCurve& c : curves) {
    const std::string& value = c.*row;
    if (c.group != group || value.empty() || std::find(seen.begin(), seen.end(), value) != seen.end()) continue;
    seen.push_back(value);
    std::vector<const PlotCurve*> members;
    int diverged = 0;
    for (const PlotCurve& d : curves)
      if (d.group == group && d.*row == value) {
        members.push_back(&d);
        diverged += d.diverged;
      }
    std::string text = value;
    if (diverged) text += "  " + trf("%d of %d diverged", diverged, int(members.size()));
    rows.push_back({LegendRow::curve, text, value, group, section, members[members.size() / 2], swatch});
  }
}

// One source's rows: its heading (an imported set's name), its curves of their own, its widths, its shades.
void group_rows(const std::vector<PlotCurve>& curves, const std::string& group, int& section,
                std::vector<LegendRow>& rows) {
  if (!group.empty()) rows.push_back({LegendRow::heading, group, "", group, 0, nullptr});
  for (const PlotCurve& c : curves)
    if (c.group == group && !c.label.empty() && c.color_row.empty())
      rows.push_back({LegendRow::curve, c.label, key_of(c), group, section, &c});
  // With learning-rate rows, a width's row shows its line pattern and a rate's row its marker (step_view.cpp).
  const bool shades = std::any_of(curves.begin(), curves.end(),
                                  [&](const PlotCurve& c) { return c.group == group && !c.shade_row.empty(); });
  axis_rows(curves, group, &PlotCurve::color_row, ++section, shades ? LegendRow::line : LegendRow::whole, rows);
  axis_rows(curves, group, &PlotCurve::shade_row, ++section, LegendRow::marker, rows);
  ++section;
  if (std::any_of(curves.begin(), curves.end(), [&](const PlotCurve& c) { return c.group == group && c.thin; }))
    rows.push_back({LegendRow::note, tr("thin lines: the seeds of one run"), "", group, 0, nullptr});
}

// Hides every row of `row`'s section but it; when it is already the only one shown, shows them all again.
void solo(const std::vector<LegendRow>& rows, const LegendRow& row, const LegendState& state) {
  bool alone = !state.hidden(row.group, row.key);
  for (const LegendRow& r : rows)
    if (r.kind == LegendRow::curve && r.section == row.section && &r != &row) alone &= state.hidden(r.group, r.key);
  for (const LegendRow& r : rows)
    if (r.kind == LegendRow::curve && r.section == row.section) state.set_hidden(r.group, r.key, !alone && &r != &row);
}

// The row a section shows alone ("" when none): the one visible row of a section of two or more.
std::string solo_key(const std::vector<LegendRow>& rows, const LegendState& state) {
  for (const LegendRow& row : rows) {
    if (row.kind != LegendRow::curve || state.hidden(row.group, row.key)) continue;
    int others = 0, hidden = 0;
    for (const LegendRow& r : rows)
      if (r.kind == LegendRow::curve && r.section == row.section && &r != &row) {
        others++;
        hidden += state.hidden(r.group, r.key);
      }
    if (others > 0 && hidden == others) return row.key;
  }
  return "";
}

// The row's curve in little: its line in its pattern and its marker, as the plot draws them (or the part of them
// the row stands for).
void draw_swatch(ImDrawList* dl, const LegendRow& row, ImVec2 at, float line, bool hidden) {
  const PlotCurve& c = *row.sample;
  const ImU32 color = hidden ? (c.color & 0x00FFFFFFu) | 0x50000000u : c.color;  // faded when hidden
  const ImVec2 a(at.x + 2, at.y + line / 2), b(at.x + kSwatch - 4, at.y + line / 2);
  if (row.swatch != LegendRow::marker)
    draw_curve_line(dl, {a, b}, color, c.thin ? 1.5f : 2.5f, c.dash);
  if (row.swatch != LegendRow::line && c.marker != PlotMarker::none)
    draw_curve_marker(dl, c.marker, ImVec2((a.x + b.x) / 2, a.y), color, c.hollow);
}

// A curve row: swatch, then a selectable text; a click hides, Ctrl+click or a double-click solos.
void curve_row(const std::vector<LegendRow>& rows, const LegendRow& row, const LegendState& state) {
  const bool hidden = state.hidden(row.group, row.key);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  draw_swatch(ImGui::GetWindowDrawList(), row, at, ImGui::GetTextLineHeight(), hidden);
  ImGui::SetCursorScreenPos(ImVec2(at.x + kSwatch, at.y));
  if (hidden) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  const std::string id = row.text + "##" + row.group + "/" + row.key;
  if (ImGui::Selectable(id.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl || io.KeySuper || ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) solo(rows, row, state);
    else state.set_hidden(row.group, row.key, !hidden);
  }
  if (hidden) ImGui::PopStyleColor();
}


// How far apart two row indices are.
size_t gap(size_t a, size_t b) { return a > b ? a - b : b - a; }

// Where each of `columns` columns starts in `rows` (after the leading notes, which run across the whole legend), then
// rows.size(). Each column is filled top to bottom, as a list is read, with about as many rows as the others; where a
// source's heading lies within half a column of a break, the column breaks at the heading instead, so that the source
// reads as one block under its name at the top of a column (not its heading at the foot of one and its rows at the
// top of the next, beside the other source's rows).
std::vector<size_t> column_starts(const std::vector<LegendRow>& rows, int columns) {
  size_t first = 0;
  while (first < rows.size() && rows[first].kind == LegendRow::note) first++;
  const size_t per = (rows.size() - first + size_t(columns) - 1) / size_t(std::max(1, columns));
  std::vector<size_t> starts{first};
  for (int c = 1; c < columns; c++) {
    size_t start = std::min(rows.size(), first + size_t(c) * per);
    const size_t lo = std::max(starts.back() + 1, start - std::min(start, per / 2));
    const size_t hi = std::min(rows.size(), start + per / 2 + 1);
    size_t heading = rows.size();
    for (size_t i = lo; i < hi; i++)
      if (rows[i].kind == LegendRow::heading && (heading == rows.size() || gap(i, start) < gap(heading, start)))
        heading = i;
    if (heading < rows.size()) start = heading;
    starts.push_back(std::max(start, starts.back()));
  }
  starts.push_back(rows.size());
  return starts;
}

// The lines the legend takes: the leading notes, then its longest column.
size_t legend_lines(const std::vector<LegendRow>& rows, int columns) {
  const std::vector<size_t> starts = column_starts(rows, columns);
  size_t longest = 0;
  for (size_t c = 0; c + 1 < starts.size(); c++) longest = std::max(longest, starts[c + 1] - starts[c]);
  return starts.front() + longest;
}

void draw_row(const std::vector<LegendRow>& rows, const LegendRow& row, const LegendState& state) {
  if (row.kind == LegendRow::heading) {
    ImGui::TextUnformatted(row.text.c_str());
    drawn_note_last_text(row.text);
  } else if (row.kind == LegendRow::note) wrapped_text_disabled(row.text);
  else curve_row(rows, row, state);
}

void note_drawn(const std::vector<LegendRow>& rows, const LegendState& state, ImVec2 min, ImVec2 max,
                DrawnPlot* drawn) {
  if (!drawn) return;
  drawn->legend_rect = drawn_rect(min, max);
  for (const LegendRow& row : rows) {
    drawn->legend.push_back(row.text);
    if (row.kind == LegendRow::curve && state.hidden(row.group, row.key)) drawn->legend_hidden.push_back(row.key);
  }
  drawn->legend_solo = solo_key(rows, state);
}

}  // namespace

void curve_swatch(const PlotCurve& c) {
  const LegendRow row{LegendRow::curve, "", "", "", 0, &c};
  const float line = ImGui::GetTextLineHeight();
  draw_swatch(ImGui::GetWindowDrawList(), row, ImGui::GetCursorScreenPos(), line, false);
  ImGui::Dummy(ImVec2(kSwatch - 4, line));
}

std::vector<LegendRow> legend_rows(const std::vector<PlotCurve>& curves, const std::vector<std::string>& notes) {
  std::vector<std::string> groups;  // the page's first, then each imported source
  for (const PlotCurve& c : curves)
    if (std::find(groups.begin(), groups.end(), c.group) == groups.end()) groups.push_back(c.group);
  std::stable_partition(groups.begin(), groups.end(), [](const std::string& g) { return g.empty(); });
  std::vector<LegendRow> rows;
  int section = 0;
  for (const std::string& g : groups) group_rows(curves, g, section, rows);
  const auto clickable =
      std::count_if(rows.begin(), rows.end(), [](const LegendRow& r) { return r.kind == LegendRow::curve; });
  if (clickable >= 2)
    rows.insert(rows.begin(), {LegendRow::note, tr("click: hide, ctrl+click: solo"), "", "", 0, nullptr});
  for (const std::string& n : notes) rows.push_back({LegendRow::note, n, "", "", 0, nullptr});
  return rows;
}

bool LegendState::hidden(const std::string& group, const std::string& key) const {
  return storage && storage->GetBool(ImHashStr((group + "/" + key).c_str(), 0, plot), false);
}

void LegendState::set_hidden(const std::string& group, const std::string& key, bool hide) const {
  if (storage) storage->SetBool(ImHashStr((group + "/" + key).c_str(), 0, plot), hide);
}

LegendState legend_state(const char* plot_id) { return {ImGui::GetStateStorage(), ImGui::GetID(plot_id)}; }

bool curve_hidden(const LegendState& state, const PlotCurve& c) {
  return state.hidden(c.group, key_of(c)) || (!c.color_row.empty() && state.hidden(c.group, c.color_row)) ||
         (!c.shade_row.empty() && state.hidden(c.group, c.shade_row));
}

float legend_width(const std::vector<LegendRow>& rows) {
  float text = 0;
  for (const LegendRow& r : rows)
    if (r.kind != LegendRow::note)
      text = std::max(text, ImGui::CalcTextSize(r.text.c_str()).x + (r.kind == LegendRow::curve ? kSwatch : 0));
  const ImGuiStyle& style = ImGui::GetStyle();
  return std::max(text, 140.0f) + 2 * style.WindowPadding.x + style.ScrollbarSize;
}

float legend_height(const std::vector<LegendRow>& rows, int columns) {
  const float row = ImGui::GetTextLineHeightWithSpacing();
  return float(legend_lines(rows, std::max(1, columns))) * row + 2 * ImGui::GetStyle().WindowPadding.y;
}

void draw_legend(const char* plot_id, const std::vector<LegendRow>& rows, const LegendState& state, ImVec2 min,
                 ImVec2 max, int columns, DrawnPlot* drawn) {
  note_drawn(rows, state, min, max, drawn);
  ImGui::SetCursorScreenPos(min);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, page_colour::legend_background);
  const std::string id = std::string(plot_id) + "##legend";
  const bool open = ImGui::BeginChild(id.c_str(), ImVec2(max.x - min.x, max.y - min.y));
  ImGui::PopStyleColor();
  columns = std::max(1, columns);
  const std::vector<size_t> starts = column_starts(rows, columns);
  if (open)
    for (size_t i = 0; i < starts.front(); i++) wrapped_text_disabled(rows[i].text);
  const size_t lines = legend_lines(rows, columns) - starts.front();
  if (open && ImGui::BeginTable("##rows", columns)) {
    for (size_t line = 0; line < lines; line++)
      for (int c = 0; c < columns; c++) {
        ImGui::TableNextColumn();
        const size_t i = starts[size_t(c)] + line;
        if (i < starts[size_t(c) + 1]) draw_row(rows, rows[i], state);
      }
    ImGui::EndTable();
  }
  ImGui::EndChild();
}
