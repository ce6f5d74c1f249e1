#include "web/views/abc_explorer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui.h"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/wrapped_text.hpp"
#include "web/views/depth_exponents.hpp"

std::vector<ExplorerRow> explorer_rows(const AbcExplorer& e) {
  std::vector<ExplorerRow> rows;
  const size_t layers = e.abc.size();
  for (size_t l = 0; l < layers; l++) {
    const Abc& x = e.abc[l];
    const std::string name =
        l == 0 ? translatable("input") : l + 1 == layers ? translatable("output") : "hidden " + std::to_string(l);
    rows.push_back({name, x, -2 * (x.a + x.b), -(2 * x.a + x.c), false});
  }
  const Abc& input = e.abc.front();
  rows.push_back({translatable("hidden biases"), input, 0, -(2 * input.a + input.c), true});
  rows.push_back({translatable("output bias"), input, 0, 0, true});  // n = d_out: Θ(1) whatever the exponents
  return rows;
}

std::vector<Abc> ntk_to_mup(int hidden_layers, double alpha) {
  std::vector<Abc> abc(size_t(hidden_layers) + 1, Abc{0.5, 0, -2 * alpha});
  abc.front().a = 0;
  abc.back().a = 0.5 + alpha;
  return abc;
}

namespace {

ImVec4 regime_color(Regime r) {
  switch (r) {
    case Regime::feature_learning: return ImGui::ColorConvertU32ToFloat4(page_colour::feature_learning);
    case Regime::kernel: return ImGui::ColorConvertU32ToFloat4(page_colour::kernel);
    case Regime::trivial: return ImGui::ColorConvertU32ToFloat4(page_colour::trivial);
    case Regime::unstable: return ImGui::ColorConvertU32ToFloat4(page_colour::error);
  }
  return ImGui::ColorConvertU32ToFloat4(page_colour::text);
}

// The regime as the panel names it: the engine's word (regime_name), in the page's language.
const char* regime_text(Regime r) {
  switch (r) {
    case Regime::feature_learning: return tr("feature_learning");
    case Regime::kernel: return tr("kernel");
    case Regime::trivial: return tr("trivial");
    case Regime::unstable: return tr("unstable");
  }
  return regime_name(r);
}

// The engine's reason (engine/param/parametrization.cpp: classify), in the page's language: an unstable table's
// reasons are joined by "; ", each one a message of its own.
std::string reason_text(const std::string& reason) {
  std::string out;
  for (size_t from = 0; from <= reason.size();) {
    const size_t end = std::min(reason.find("; ", from), reason.size());
    out += (from ? "; " : "") + tr_message(reason.substr(from, end - from));
    from = end + 2;
  }
  return out;
}

void preset_buttons(AbcExplorer& e) {
  const int layers = e.hidden_layers + 1;
  for (Preset p : {Preset::sp, Preset::sp_lr_over_n, Preset::ntp, Preset::mfp, Preset::mup}) {
    if (p == Preset::mfp && e.hidden_layers != 1) continue;  // defined for one hidden layer
    if (ImGui::SmallButton(preset_name(p))) e.abc = preset_exponents(p, layers, UpdateRule::sgd);
    ImGui::SameLine();
  }
  ImGui::NewLine();
}

void layer_table(AbcExplorer& e) {
  if (!ImGui::BeginTable("abc", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  for (const char* h : {tr("layer"), "a", "b", "c", tr("Var W ~"), tr("LR on W ~")}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  const std::vector<ExplorerRow> rows = explorer_rows(e);
  for (size_t l = 0; l < rows.size(); l++) {
    const ExplorerRow& row = rows[l];
    ImGui::PushID(int(l));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const bool hidden = !row.bias && l > 0 && l + 1 < e.abc.size();  // "hidden 2": its number in a translated format
    ImGui::TextUnformatted(hidden ? trf("hidden %d", int(l)).c_str() : tr(row.layer.c_str()));
    if (row.bias) {  // the input row's exponents, shown, not edited
      for (double v : {row.abc.a, row.abc.b, row.abc.c}) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%.3g", v + 0.0);
      }
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", tr("0 (zero init)"));
    } else {
      Abc& x = e.abc[l];
      for (double* v : {&x.a, &x.b, &x.c}) {
        ImGui::TableNextColumn();
        ImGui::SetNextItemWidth(-1);
        ImGui::PushID(v);
        ImGui::InputDouble("##v", v, 0.25, 0.5, "%.3g");
        ImGui::PopID();
      }
      ImGui::TableNextColumn();
      ImGui::Text("n^%.3g", row.var_exponent + 0.0);  // + 0.0: print 0, not -0
    }
    ImGui::TableNextColumn();
    ImGui::Text("n^%.3g", row.lr_exponent + 0.0);
    ImGui::PopID();
  }
  ImGui::EndTable();
  ImGui::TextDisabled("%s", tr("Biases (model.biases) are input weights with fan-in 1: the input row's rule, n = their "
                               "length."));
}

// The NTK–μP slider and what the point it picks is: the engine's classification of that table, the same words as
// the table's verdict below, so both read alike once the slider has put the table on its line.
void alpha_slider(AbcExplorer& e) {
  const double on_line = line_alpha(e);
  if (std::isfinite(on_line)) e.alpha = float(on_line);  // the slider follows the table (a preset, an edit)
  ImGui::TextUnformatted(tr("Between NTK (\u03b1 = 0) and \u03bcP (\u03b1 = \u00bd): "
                            "a_out = \u00bd + \u03b1, c = \u22122\u03b1"));
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (const std::optional<double> given = semantics_slider("\u03b1", e.alpha, 0, 0.5, 0, "")) {
    e.alpha = float(*given);
    e.abc = ntk_to_mup(e.hidden_layers, e.alpha);
  }
  if (ImGui::SliderFloat("\u03b1", &e.alpha, 0.0f, 0.5f, "%.3f")) e.abc = ntk_to_mup(e.hidden_layers, e.alpha);
  ImGui::SameLine();
  const Classification at = classify(ntk_to_mup(e.hidden_layers, e.alpha));
  const std::string line = trf("\u03b1 = %.3g: %s, features move by n^%.3g", double(e.alpha), regime_text(at.regime),
                               -at.r + 0.0);
  ImGui::TextColored(regime_color(at.regime), "%s", line.c_str());
  drawn_note_text(std::string("explorer slider: ") + line);
  if (!std::isfinite(on_line)) {
    wrapped_text_disabled(tr("(the table is not on this line: moving the slider puts it there)"));
  }
}

}  // namespace

double line_alpha(const AbcExplorer& e) {
  const std::vector<ExplorerRow> rows = explorer_rows(e);
  const double alpha = rows.front().lr_exponent / 2;  // the line's input layer learns at η n^2α
  if (!(alpha >= -1e-9 && alpha <= 0.5 + 1e-9)) return NAN;
  AbcExplorer line = e;
  line.abc = ntk_to_mup(e.hidden_layers, alpha);
  const std::vector<ExplorerRow> want = explorer_rows(line);
  for (size_t l = 0; l < e.abc.size(); l++)
    if (std::fabs(rows[l].var_exponent - want[l].var_exponent) > 1e-9 ||
        std::fabs(rows[l].lr_exponent - want[l].lr_exponent) > 1e-9)
      return NAN;
  return std::clamp(alpha, 0.0, 0.5) + 0.0;  // + 0.0: 0, not -0
}

namespace {

// The panel as text: the verdict and its reason, and the table of exponents per layer.
FigureText explorer_text(const AbcExplorer& e, const Classification& c) {
  FigureText t;
  t.summary = trf("a, b, c per layer: %s, features move by n^-%.3g. %s", regime_text(c.regime), c.r,
                  reason_text(c.reason).c_str());
  t.columns = {tr("layer"), "a", "b", "c", tr("Var W exponent of n"), tr("SGD lr exponent of n")};
  for (const ExplorerRow& row : explorer_rows(e))
    t.rows.push_back({row.layer, figure_number(row.abc.a), figure_number(row.abc.b), figure_number(row.abc.c),
                      figure_number(row.var_exponent + 0.0), figure_number(row.lr_exponent + 0.0)});
  t.caption = tr("The exponents per layer: W = n^-a w, w ~ N(0, n^-2b), learning rate n^-c; Var W and SGD's learning "
                 "rate on W as powers of n.");
  return t;
}

}  // namespace

bool abc_explorer_panel(AbcExplorer& e, const ExperimentSpec* experiment) {
  wrapped_text(tr("W = n^-a w,  w ~ N(0, n^-2b),  SGD learning rate \u03b7 n^-c  (Tensor Programs IV). "
                  "Edit the exponents or start from a preset:"));
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (const std::optional<double> given =
          semantics_slider(tr_label("hidden layers"), e.hidden_layers, 1, 6, 1, std::to_string(e.hidden_layers))) {
    e.hidden_layers = int(*given);
    e.abc.resize(size_t(e.hidden_layers) + 1, Abc{0, 0.5, 0});
  }
  if (ImGui::SliderInt(tr_label("hidden layers"), &e.hidden_layers, 1, 6))
    e.abc.resize(size_t(e.hidden_layers) + 1, Abc{0, 0.5, 0});
  preset_buttons(e);
  layer_table(e);
  if (experiment) depth_exponents_panel(*experiment);
  // The slider sits above the verdict, whose reason changes length with the regime: dragging never moves it.
  ImGui::Separator();
  alpha_slider(e);

  const Classification c = classify(e.abc);
  ImGui::Separator();
  ImGui::TextColored(regime_color(c.regime), "%s", regime_text(c.regime));
  ImGui::SameLine();
  ImGui::TextDisabled(tr("(r = %.3g: features move by n^-r)"), c.r);
  // In English, as the engine words it, whatever the language: the tests read the regime's name off it.
  drawn_note_text(std::string("explorer table: ") + regime_name(c.regime) + ", " + c.reason);
  wrapped_text(reason_text(c.reason));
  figure_text_publish([&] { return explorer_text(e, c); });
  ImGui::Spacing();
  return ImGui::Button(tr_label("Use these exponents in the experiment"));
}
