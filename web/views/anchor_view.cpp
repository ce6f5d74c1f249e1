#include "web/views/anchor_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "engine/analysis/anchor_analysis.hpp"
#include "imgui.h"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/heatmap.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/wrapped_text.hpp"

namespace {

double last_value(const Member& run, const char* name) {
  const Series* s = run.find_series(name);
  return s && !s->values.empty() ? s->values.back() : NAN;
}

std::string token_text(int t, AnchorTaskKind kind) {
  if (t >= 1 && t <= 4 && (kind == AnchorTaskKind::two_anchor || kind == AnchorTaskKind::composite))
    return std::string(1, char('a' + t - 1));
  return std::to_string(t);
}

// The phase plot in the frame trace (web/draw/drawn.hpp), as drawn: a heat map of rectangles (no texture), a row per weight
// decay from the largest at the top, a column per γ, each cell its mean OOD accuracy; the labels as drawn.
template <class Cells>
void note_phase_plot(const Cells& cells, const std::map<double, int>& gammas, const std::map<double, int>& decays,
                     ImVec2 a, ImVec2 b) {
  if (!drawn_recording()) return;
  DrawnHeatmap h;
  h.id = "##phase";
  h.title = "phase plot: OOD accuracy, x = gamma, y = weight decay";
  h.rect = drawn_rect(a, b);
  h.rows = int(decays.size()), h.cols = int(gammas.size());
  h.values.assign(size_t(h.rows * h.cols), NAN);
  h.lo = INFINITY, h.hi = -INFINITY;
  for (const auto& [key, c] : cells) {
    const double ood = c.ood / c.n;
    h.values[size_t((h.rows - 1 - decays.at(key.second)) * h.cols + gammas.at(key.first))] = ood;
    if (std::isfinite(ood)) h.lo = std::min(h.lo, ood), h.hi = std::max(h.hi, ood);
  }
  char buf[32];
  for (const auto& g : gammas) {
    std::snprintf(buf, sizeof buf, "%g", g.first);
    h.labels.push_back(buf);
  }
  for (const auto& d : decays) {
    std::snprintf(buf, sizeof buf, "wd %g", d.first);
    h.labels.push_back(buf);
  }
  drawn_now().heatmaps.push_back(std::move(h));
}

// Chapter 13's phase plot: one cell per (γ, λ), coloured by OOD accuracy (mean over seeds), hatched where ID
// accuracy < 90%, a ring where commutativity < 70%.
// The phase plot as text: each (γ, weight decay) cell's final accuracies, mean over seeds, as drawn; the summary
// names the cell of the best OOD accuracy.
template <class Cells>
FigureText phase_plot_text(const Cells& cells) {
  FigureText t;
  t.name = tr("Phase plot: OOD accuracy per gamma and weight decay");
  t.columns = {"gamma", tr("weight decay"), tr("OOD accuracy"), tr("ID accuracy"), tr("commutativity")};
  double best = -1, best_gamma = 0, best_decay = 0;
  for (const auto& [key, c] : cells) {
    const double ood = c.ood / c.n;
    t.rows.push_back({figure_number(key.first), figure_number(key.second), figure_number(ood),
                      figure_number(c.id / c.n), figure_number(c.comm / c.n)});
    if (std::isfinite(ood) && ood > best) best = ood, best_gamma = key.first, best_decay = key.second;
  }
  t.summary = best < 0 ? tr("Phase plot: no finite OOD accuracy yet.")
                       : trf("Phase plot of %d cells: the best OOD accuracy is %.2f, at gamma %g and weight decay %g.",
                             int(cells.size()), best, best_gamma, best_decay);
  t.caption = tr("Final values per (gamma, weight decay), mean over seeds.");
  return t;
}

void phase_plot(const Runner& runner) {
  std::map<double, int> gammas, decays;
  struct Cell { double ood = 0, id = 0, comm = 0; int n = 0; };
  std::map<std::pair<double, double>, Cell> cells;
  for (const auto& r : runner.members()) {
    gammas[r->coords().gamma];
    decays[r->coords().weight_decay];
    Cell& c = cells[{r->coords().gamma, r->coords().weight_decay}];
    c.ood += last_value(*r, "ood_accuracy");
    c.id += last_value(*r, "id_accuracy");
    c.comm += last_value(*r, "commutativity");
    c.n++;
  }
  int i = 0;
  for (auto& g : gammas) g.second = i++;
  i = 0;
  for (auto& d : decays) d.second = i++;
  wrapped_text(tr("Phase plot (final values, mean over seeds): colour = OOD accuracy (dark 0, yellow 1); "
                  "hatched: ID accuracy < 90%; ring: commutativity < 70%. x = gamma, y = weight decay."));
  const float cell = std::min(80.0f, (ImGui::GetContentRegionAvail().x - 90) / float(gammas.size()));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float left = 70, rows = float(decays.size());
  for (const auto& [key, c] : cells) {
    const float x0 = o.x + left + cell * float(gammas[key.first]);
    const float y0 = o.y + cell * (rows - 1 - float(decays[key.second]));
    const ImVec2 a(x0, y0), b(x0 + cell - 2, y0 + cell - 2);
    const double ood = c.ood / c.n, id = c.id / c.n, comm = c.comm / c.n;
    dl->AddRectFilled(a, b, std::isfinite(ood) ? sequential_colour(ood) : page_colour::missing);
    if (!(id >= 0.9))
      for (float s = 0; s < 2 * cell; s += 8)  // diagonal hatching, clipped to the cell
        dl->AddLine(ImVec2(a.x + std::max(0.0f, s - cell), a.y + std::min(s, cell - 2)),
                    ImVec2(a.x + std::min(s, cell - 2), a.y + std::max(0.0f, s - cell)), page_colour::hatch);
    if (comm < 0.7) dl->AddCircle(ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2), cell * 0.3f, page_colour::flag, 0, 2);
    char buf[32];
    std::snprintf(buf, sizeof buf, std::isfinite(ood) ? "%.2f" : "-", ood);  // grey cell: no finite accuracy
    dl->AddText(ImVec2(a.x + 4, a.y + 4), page_colour::text, buf);
  }
  for (const auto& [g, col] : gammas) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", g);
    dl->AddText(ImVec2(o.x + left + cell * float(col) + 4, o.y + cell * rows + 2), page_colour::label, buf);
  }
  for (const auto& [d, row] : decays) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "wd %g", d);
    dl->AddText(ImVec2(o.x, o.y + cell * (rows - 1 - float(row)) + cell / 2 - 7), page_colour::label, buf);
  }
  ImGui::Dummy(ImVec2(left + cell * float(gammas.size()), cell * rows + 20));
  figure_text_publish([&] { return phase_plot_text(cells); });
  note_phase_plot(cells, gammas, decays, o, ImVec2(o.x + left + cell * float(gammas.size()), o.y + cell * rows));
}

// A rows × cols heat map of `values` at `cell` pixels per entry at the cursor, as one image (web/draw/heatmap.hpp).
void heat_map(const char* id, const double* values, int rows, int cols, float cell, CellColour colour,
              const HeatmapText& text) {
  const ImVec2 o = ImGui::GetCursorScreenPos(), end(o.x + cell * float(cols), o.y + cell * float(rows));
  heatmap_image(id, values, rows, cols, colour, o, end, text);
  ImGui::Dummy(ImVec2(cell * float(cols), cell * float(rows)));
}

// A slider over `*index` (0-based) that shows index + 1: "layer 1" is the first layer, as the titles say.
void one_based_slider(const char* label, int* index, int count) {
  int shown = *index + 1;
  ImGui::SetNextItemWidth(100);
  if (const std::optional<double> given = semantics_slider(label, shown, 1, std::max(1, count), 1, ""))
    *index = int(*given) - 1;
  if (ImGui::SliderInt(label, &shown, 1, std::max(1, count))) *index = shown - 1;
  *index = std::clamp(*index, 0, count - 1);
  drawn_item_value(label, std::to_string(*index + 1));
}

void sequence_controls(AnchorView& v, const TransformerConfig& c, const AnchorSet& set) {
  ImGui::SetNextItemWidth(200);
  if (const std::optional<double> given =
          semantics_slider(tr_label("sequence"), v.sequence, 0, std::max(0, set.size - 1), 1, ""))
    v.sequence = int(*given);
  ImGui::SliderInt(tr_label("sequence"), &v.sequence, 0, std::max(0, set.size - 1));
  v.sequence = std::clamp(v.sequence, 0, std::max(0, set.size - 1));
  ImGui::SameLine();
  one_based_slider(tr_label("layer"), &v.layer, c.layers);
  ImGui::SameLine();
  one_based_slider(tr_label("head"), &v.head, c.heads);
}

AttentionCut shown_cut(const AnchorView& v) { return {v.layer + 1, v.head + 1, v.cut_target}; }

// The cut's controls, and the answers of the whole set with and without it once "measure" is pressed (two forward
// passes of the set: on a press, not every frame).
void cut_controls(AnchorView& v, Transformer& model, const AnchorSet& set) {
  ImGui::Checkbox(tr_label("cut its attention to"), &v.cut);
  ImGui::SameLine();
  int target = int(v.cut_target);
  ImGui::SetNextItemWidth(80);
  const char* targets[] = {tr(cut_target_name(CutTarget::key)), tr(cut_target_name(CutTarget::anchor))};
  SemanticHint cut{"combo", tr("cut target")};
  cut.value = targets[target];
  cut.choices = {targets[0], targets[1]};
  semantics_next("##cut target", std::move(cut));
  if (const std::optional<std::string> given = semantics_take_value(ImGui::GetID("##cut target")))
    v.cut_target = *given == targets[1] ? CutTarget::anchor : CutTarget::key;
  if (ImGui::Combo("##cut target", &target, targets, 2)) v.cut_target = CutTarget(target);
  if (ImGui::Button(tr_label("measure the cut on this set"))) {
    v.measured_cut = shown_cut(v);
    v.measurement = attention_cut_experiment(model, set, v.measured_cut);
    v.measured = true;
  }
  if (!v.measured) return;
  const CutResult& r = v.measurement;
  const AttentionCut& c = v.measured_cut;
  wrapped_text(trf("layer %d head %d to the %s, %d sequences: right %.1f%% -> %.1f%%, answers changed %.1f%%; "
                   "cut answers: another token of the sequence %.1f%%, elsewhere %.1f%%",
                   c.layer, c.head, tr(cut_target_name(c.target)), r.sequences, 100 * r.intact.label,
                   100 * r.cut.label, 100 * r.changed, 100 * r.cut.other_token, 100 * r.cut.elsewhere));
}

// The chosen sequence's attention in block v.layer, head v.head, after one forward pass of that sequence alone
// (between training steps the model's buffers are free to reuse), with the cut applied when it is on.
void attention_map(AnchorView& v, Transformer& model, const AnchorSet& set, AnchorTaskKind kind) {
  const TransformerConfig& c = model.config();
  if (set.size == 0) return;
  const int T = c.seq_len;
  const int* tokens = &set.tokens[size_t(v.sequence) * size_t(T)];
  const double* logits = v.cut ? forward_with_cut(model, tokens, 1, shown_cut(v)) : model.forward(tokens, 1);
  const int predicted = int(std::max_element(logits, logits + c.outputs) - logits);
  ImGui::Text(tr("label %d, predicted %d"), set.labels[size_t(v.sequence)], predicted);
  const double* probs = model.attention(v.layer) + long(v.head) * T * T;
  const float cell = std::min(28.0f, (ImGui::GetContentRegionAvail().x - 70) / float(T));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  HeatmapText text{v.cut ? trf("attention, layer %d head %d, cut", v.layer + 1, v.head + 1)
                         : trf("attention, layer %d head %d", v.layer + 1, v.head + 1),
                   {}};
  // Key labels on top, query labels on the left; the top ones shrink to their column (at least 9 px) so neighbours
  // never run together ("21 3 99", not "21399").
  float widest = 0;
  for (int t = 0; t < T; t++) widest = std::max(widest, ImGui::CalcTextSize(token_text(tokens[t], kind).c_str()).x);
  const float top_size = std::max(9.0f, ImGui::GetFontSize() * std::min(1.0f, (cell - 2) / std::max(widest, 1.0f)));
  for (int t = 0; t < T; t++) {
    const std::string label = token_text(tokens[t], kind);
    dl->AddText(ImGui::GetFont(), top_size, ImVec2(o.x + 36 + cell * float(t) + 1, o.y), page_colour::label,
                label.c_str());
    dl->AddText(ImVec2(o.x, o.y + 18 + cell * float(t) + cell / 2 - 7), page_colour::label, label.c_str());
    text.labels.push_back(label);
  }
  const ImVec2 map(o.x + 36, o.y + 18);
  colour_bar(ImVec2(map.x + cell * float(T) + 6, map.y), ImVec2(map.x + cell * float(T) + 14, map.y + cell * float(T)),
             sequential_colour, 0, 1, "0", "1", text);
  ImGui::Dummy(ImVec2(0, 18));
  ImGui::SetCursorScreenPos(map);
  heat_map("##attention", probs, T, T, cell, sequential_colour, text);
  wrapped_text(tr("row = query, column = key (post-softmax)"));
}

// The cosines between the rows of layer 1's W_Q, at most 6 px a row, with a colour bar.
void query_cosine_panel(AnchorTrainer& trainer) {
  const std::vector<double> cos = query_cosine_matrix(trainer.model(), 0);
  const int rows = int(std::lround(std::sqrt(double(cos.size()))));
  ImGui::TextUnformatted(tr("W_Q rows, layer 1: cos"));
  ImGui::Text(tr("(mean |cos| %.2f)"), trainer.query_row_cosine(0));
  const float side = std::min(6.0f * float(rows), ImGui::GetContentRegionAvail().x - 40);
  HeatmapText text{tr("cosines of layer 1's W_Q rows"), {}};
  const ImVec2 o = ImGui::GetCursorScreenPos();
  colour_bar(ImVec2(o.x + side + 6, o.y), ImVec2(o.x + side + 14, o.y + side), diverging_colour, -1, 1, "-1", "+1",
             text);
  heat_map("##wq_cosine", cos.data(), rows, rows, side / float(rows), diverging_colour, text);
}

// The run the view opens on: the highest final OOD accuracy (ID accuracy without an OOD set), ties and runs yet
// without a record to the larger γ, then the later member.
int telling_run(const Runner& runner) {
  const auto& runs = runner.members();
  const char* metric = runs.front()->find_series("ood_accuracy") ? "ood_accuracy" : "id_accuracy";
  auto score = [&](int i) {  // accuracies lie in [0, 1]: -1 ranks a run without a record last
    const double x = last_value(*runs[size_t(i)], metric);
    return std::isfinite(x) ? x : -1.0;
  };
  int best = 0;
  for (int i = 1; i < int(runs.size()); i++)
    if (score(i) > score(best) ||
        (score(i) == score(best) && runs[size_t(i)]->coords().gamma >= runs[size_t(best)]->coords().gamma))
      best = i;
  return best;
}

// The attention map shown, as a sentence (its cells are in the frame trace, not in a table a reader could follow).
FigureText attention_text(const Member& run, const AnchorView& v, const std::string& sequence) {
  FigureText t;
  t.summary = trf("Attention of run %s, layer %d head %d, on sequence %d: %s(rows are queries, columns keys).",
                  run.label().c_str(), v.layer + 1, v.head + 1, v.sequence, sequence.c_str());
  return t;
}

void anchor_panels(AnchorView& v, Runner& runner) {
  const auto& runs = runner.members();
  if (runs.empty() || !runs.front()->transformer()) {
    ImGui::TextDisabled("%s", tr("This tab shows Transformer runs (model.kind \"transformer\")."));
    return;
  }
  if (runs.front()->find_series("ood_accuracy")) phase_plot(runner);
  v.run = v.picked ? std::clamp(v.run, 0, int(runs.size()) - 1) : telling_run(runner);
  ImGui::SetNextItemWidth(300);
  const char* run_label = tr_label("run");
  drawn_name_next(run_label);
  drawn_item_value(run_label, runs[size_t(v.run)]->label());
  std::vector<std::string> labels;
  for (const auto& r : runs) labels.push_back(r->label());
  if (const std::optional<std::string> given = semantics_combo(run_label, runs[size_t(v.run)]->label(), labels)) {
    v.run = int(std::find(labels.begin(), labels.end(), *given) - labels.begin());
    v.picked = true;
  }
  if (ImGui::BeginCombo(run_label, runs[size_t(v.run)]->label().c_str())) {
    for (int i = 0; i < int(runs.size()); i++)
      if (ImGui::Selectable(runs[size_t(i)]->label().c_str(), i == v.run)) v.run = i, v.picked = true;
    ImGui::EndCombo();
  }
  AnchorTrainer& trainer = *runs[size_t(v.run)]->transformer();
  const AnchorData& data = trainer.data();
  const AnchorTaskKind kind = runner.spec().task.anchor.kind;
  if (data.ood.size > 0) {
    ImGui::SameLine();
    semantics_radio(tr_label("ID test"), v.set == 0);
    ImGui::RadioButton(tr_label("ID test"), &v.set, 0);
    ImGui::SameLine();
    semantics_radio(tr_label("OOD test"), v.set == 1);
    ImGui::RadioButton(tr_label("OOD test"), &v.set, 1);
  } else {
    v.set = 0;
  }
  const AnchorSet& set = v.set == 1 ? data.ood : data.test;
  sequence_controls(v, trainer.model().config(), set);
  if (set.size > 0) {
    std::string text;
    const int T = set.seq_len;
    for (int t = 0; t < T; t++) text += token_text(set.tokens[size_t(v.sequence) * size_t(T) + size_t(t)], kind) + " ";
    ImGui::Text(v.set == 1 ? tr("OOD sequence %d: %s") : tr("ID test sequence %d: %s"), v.sequence, text.c_str());
    if (!runs.front()->find_series("ood_accuracy"))  // without a phase plot, the attention map is the figure
      figure_text_publish([&] { return attention_text(*runs[size_t(v.run)], v, text); });
  }
  if (ImGui::BeginTable("anchor maps", 3, ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextColumn();
    ImGui::Text(tr("Attention, layer %d head %d"), v.layer + 1, v.head + 1);
    cut_controls(v, trainer.model(), set);
    attention_map(v, trainer.model(), set, kind);
    ImGui::TableNextColumn();
    query_cosine_panel(trainer);
    ImGui::TableNextColumn();
    const EmbeddingProjection p = embedding_pca(trainer.model(), kAnchorKeyMin, kAnchorKeyMax);
    ImGui::TextUnformatted(tr("PCA of embeddings 20..100"));
    ImGui::Text(tr("(%.0f%% + %.0f%% of variance)"), 100 * p.explained[0], 100 * p.explained[1]);
    const int n = kAnchorKeyMax - kAnchorKeyMin + 1;
    double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
    for (int i = 0; i < n; i++)
      for (int a = 0; a < 2; a++) {
        lo[a] = std::min(lo[a], p.xy[size_t(2 * i + a)]);
        hi[a] = std::max(hi[a], p.xy[size_t(2 * i + a)]);
      }
    const float side = std::min(240.0f, ImGui::GetContentRegionAvail().x - 4);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    dl->AddRect(o, ImVec2(o.x + side, o.y + side), page_colour::cell_border);
    for (int i = 0; i < n; i++) {
      const float x = o.x + 8 + (side - 16) * float((p.xy[size_t(2 * i)] - lo[0]) / std::max(hi[0] - lo[0], 1e-12));
      const float y = o.y + 8 + (side - 16) * float((p.xy[size_t(2 * i + 1)] - lo[1]) / std::max(hi[1] - lo[1], 1e-12));
      dl->AddCircleFilled(ImVec2(x, y), 3, sequential_colour(double(i) / (n - 1)));
      if ((i + kAnchorKeyMin) % 10 == 0)
        dl->AddText(ImVec2(x + 4, y - 6), page_colour::label, std::to_string(i + kAnchorKeyMin).c_str());
    }
    ImGui::Dummy(ImVec2(side, side));
    ImGui::TextDisabled("%s", tr("20 dark .. 100 yellow"));
    ImGui::EndTable();
  }
}

}  // namespace

void anchor_view(AnchorView& v, Runner& runner) {
  ImGui::BeginChild("anchor tab");
  anchor_panels(v, runner);
  ImGui::EndChild();
}
