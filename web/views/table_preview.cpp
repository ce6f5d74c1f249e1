#include "web/views/table_preview.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "engine/task/table_task.hpp"
#include "imgui.h"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"

namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

// In the page's language when the window opens (the words are kept: counting them goes through every row).
std::string values_in_words(const Table& t, int column) {
  if (!t.problem[size_t(column)].empty() && t.text[size_t(column)].empty())
    return tr_message(t.problem[size_t(column)]);  // NaN
  if (!t.problem[size_t(column)].empty()) {
    const std::set<std::string> distinct(t.text[size_t(column)].begin(), t.text[size_t(column)].end());
    return trf("text, %zu distinct values", distinct.size());
  }
  double lo = INFINITY, hi = -INFINITY;
  for (int r = 0; r < t.rows; r++) {
    lo = std::min(lo, t.values[size_t(r) * size_t(t.columns) + size_t(column)]);
    hi = std::max(hi, t.values[size_t(r) * size_t(t.columns) + size_t(column)]);
  }
  return number(lo) + " … " + number(hi);
}

// Rows per class of a classification table, "setosa 50, versicolor 50, virginica 50".
std::string class_counts(const TaskConfig& task) {
  const std::vector<std::string> names = table_classes(task);
  const std::vector<int> counts = table_class_counts(task);
  std::string out;
  for (size_t k = 0; k < names.size() && k < 12; k++)
    out += (k ? ", " : "") + names[k] + " " + std::to_string(counts[k]);
  return out + (names.size() > 12 ? ", …" : "");
}

void columns_table(TablePreview& p) {
  const Table& t = p.file->table;
  const float height = std::min(ImGui::GetTextLineHeightWithSpacing() * float(t.columns + 1.5f),
                                ImGui::GetTextLineHeightWithSpacing() * 10);
  if (!ImGui::BeginTable("columns", 4, ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter,
                         ImVec2(0, height)))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(tr_label("column"));
  ImGui::TableSetupColumn(tr_label("values"));
  ImGui::TableSetupColumn(tr_label("input"));
  ImGui::TableSetupColumn(tr_label("target"));
  ImGui::TableHeadersRow();
  std::vector<int>& inputs = p.choice.inputs;
  for (int k = 0; k < t.columns; k++) {
    ImGui::PushID(k);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted((std::to_string(k) + "  " + t.names[size_t(k)]).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(p.column_values[size_t(k)].c_str());
    ImGui::TableNextColumn();
    bool input = std::find(inputs.begin(), inputs.end(), k) != inputs.end();
    const std::string input_id = "##input " + t.names[size_t(k)], target_id = "##target " + t.names[size_t(k)];
    semantics_next(input_id.c_str(), SemanticHint("checkbox", trf("input: %s", t.names[size_t(k)].c_str())));
    if (ImGui::Checkbox(input_id.c_str(), &input)) {
      if (input) inputs.insert(std::upper_bound(inputs.begin(), inputs.end(), k), k);
      else inputs.erase(std::find(inputs.begin(), inputs.end(), k));
    }
    ImGui::TableNextColumn();
    SemanticHint target{"radio", trf("target: %s", t.names[size_t(k)].c_str())};
    target.selected = p.choice.targets == std::vector<int>{k};
    semantics_next(target_id.c_str(), std::move(target));
    if (ImGui::RadioButton(target_id.c_str(), p.choice.targets == std::vector<int>{k})) {
      p.choice.targets = {k};
      inputs.erase(std::remove(inputs.begin(), inputs.end(), k), inputs.end());
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

void choices(TablePreview& p) {
  const int rows = p.file->table.rows;
  int type = int(p.choice.type);
  ImGui::TextUnformatted(tr("The target is"));
  ImGui::SameLine();
  semantics_radio(tr_label("a number (regression)"), type == int(TableType::regression));
  ImGui::RadioButton(tr_label("a number (regression)"), &type, int(TableType::regression));
  ImGui::SameLine();
  semantics_radio(tr_label("a class (classification)"), type == int(TableType::classification));
  ImGui::RadioButton(tr_label("a class (classification)"), &type, int(TableType::classification));
  p.choice.type = TableType(type);
  ImGui::SetNextItemWidth(12 * ImGui::GetFontSize());
  if (const std::optional<double> given = semantics_slider(tr_label("train rows"), p.train_size, 1,
                                                           std::max(1, rows - 1), 1, std::to_string(p.train_size))) {
    p.train_size = int(*given);
    p.test_size = rows - p.train_size;
  }
  if (ImGui::SliderInt(tr_label("train rows"), &p.train_size, 1, std::max(1, rows - 1)))
    p.test_size = rows - p.train_size;
  ImGui::SameLine();
  ImGui::Text(tr("test rows: %d"), p.test_size);
  ImGui::SetNextItemWidth(6 * ImGui::GetFontSize());
  if (const std::optional<std::string> given = semantics_take_value(ImGui::GetID(tr_label("split seed"))))
    p.seed = std::atoi(given->c_str());
  SemanticHint seed{"number"};
  seed.value = std::to_string(p.seed);
  semantics_next(tr_label("split seed"), std::move(seed));
  ImGui::InputInt(tr_label("split seed"), &p.seed);
  p.seed = std::max(0, p.seed);
  int scale = int(p.choice.standardize);
  ImGui::SetNextItemWidth(12 * ImGui::GetFontSize());
  // In Standardize's order: none, inputs, inputs_and_targets.
  const char* const scaled[] = {tr("nothing"), tr("the inputs"), tr("the inputs and targets")};
  if (const std::optional<std::string> given = semantics_combo(tr_label("scale to mean 0, variance 1"), scaled[scale],
                                                               {scaled, scaled + IM_ARRAYSIZE(scaled)}))
    scale = int(std::find(scaled, scaled + IM_ARRAYSIZE(scaled), *given) - scaled);
  ImGui::Combo(tr_label("scale to mean 0, variance 1"), &scale, scaled, IM_ARRAYSIZE(scaled));
  p.choice.standardize = Standardize(scale);
}

}  // namespace

TablePreview table_preview(std::shared_ptr<const TableFile> file, const std::string& name) {
  TablePreview p;
  p.open = true;
  p.file = file;
  p.name = name;
  p.choice = guess_table_spec(file->table);
  p.train_size = std::max(1, int(std::lround(kGuessedTrainShare * file->table.rows)));
  p.train_size = std::min(p.train_size, std::max(1, file->table.rows - 1));
  p.test_size = file->table.rows - p.train_size;
  for (int k = 0; k < file->table.columns; k++) p.column_values.push_back(values_in_words(file->table, k));
  return p;
}

TaskConfig table_preview_task(const TablePreview& p) {
  TaskConfig task;
  task.kind = TaskKind::table;
  task.table = p.choice;
  task.table.file = p.name;
  task.table.sha256 = p.file->sha256;
  task.table.bytes = int(p.file->bytes);
  task.table_file = p.file;
  task.input_dim = std::max(1, int(p.choice.inputs.size()));
  task.train_size = p.train_size;
  task.test_size = std::max(1, p.test_size);
  task.seed = uint64_t(p.seed);
  return task;
}

TablePreviewAction table_preview_window(TablePreview& p) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x / 2, vp->Pos.y + vp->Size.y / 2), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  // A fixed width and the height of what it holds, which grows when a problem or the classes are shown.
  const float width = std::min(vp->Size.x - 16, 44 * ImGui::GetFontSize());
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, vp->Size.y - 16));
  // Its title in the page's language, its id the same in both.
  const char* title = tr_label("Data");
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  TablePreviewAction action = TablePreviewAction::none;
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize))
    return action;
  const Table& t = p.file->table;
  ImGui::Text(tr("%s: %d rows, %d columns, %zu bytes"), p.name.c_str(), t.rows, t.columns, p.file->bytes);
  // The engine's note and problems: drawn in the page's language, noted in English for the tests.
  if (!t.note.empty())
    drawn_wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "(" + tr_message(t.note) + ")",
                       "data: (" + t.note + ")");
  columns_table(p);
  choices(p);
  const TaskConfig task = table_preview_task(p);
  const std::vector<std::string> problems = table_task_errors(task);
  if (problems.empty() && p.choice.type == TableType::classification)
    drawn_wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_Text), trf("Classes: %s", class_counts(task).c_str()),
                       "data: Classes: " + class_counts(task));
  if (!problems.empty())
    drawn_wrapped_text(ImGui::ColorConvertU32ToFloat4(page_colour::error), tr_message(problems.front()), "data: " + problems.front());
  ImGui::TextDisabled("%s", tr("The file stays in this browser: nothing is uploaded."));
  ImGui::BeginDisabled(!problems.empty());
  if (ImGui::Button(tr_label("Use this data"))) action = TablePreviewAction::use;
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(tr_label("Cancel")) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) action = TablePreviewAction::cancel;
  if (action != TablePreviewAction::none) {
    p.open = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
  return action;
}
