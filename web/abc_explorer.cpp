#include "web/abc_explorer.hpp"

#include <cstdio>
#include <string>

#include "imgui.h"

std::vector<ExplorerRow> explorer_rows(const AbcExplorer& e) {
  std::vector<ExplorerRow> rows;
  const size_t layers = e.abc.size();
  for (size_t l = 0; l < layers; l++) {
    const Abc& x = e.abc[l];
    const std::string name = l == 0 ? "input" : l + 1 == layers ? "output" : "hidden " + std::to_string(l);
    rows.push_back({name, x, -2 * (x.a + x.b), -(2 * x.a + x.c), false});
  }
  const Abc& input = e.abc.front();
  rows.push_back({"hidden biases", input, 0, -(2 * input.a + input.c), true});
  rows.push_back({"output bias", input, 0, 0, true});  // n = d_out: Θ(1) whatever the exponents
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
    case Regime::feature_learning: return ImVec4(0.45f, 0.9f, 0.45f, 1);
    case Regime::kernel: return ImVec4(0.45f, 0.75f, 1.0f, 1);
    case Regime::trivial: return ImVec4(0.8f, 0.8f, 0.8f, 1);
    case Regime::unstable: return ImVec4(1.0f, 0.45f, 0.45f, 1);
  }
  return ImVec4(1, 1, 1, 1);
}

// ImGui's built-in font has no Greek letters: spell out the engine's Θ.
std::string without_greek(std::string text) {
  for (size_t at; (at = text.find("\xCE\x98")) != std::string::npos;) text.replace(at, 2, "Theta");
  return text;
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
  for (const char* h : {"layer", "a", "b", "c", "Var W ~", "LR on W ~"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  const std::vector<ExplorerRow> rows = explorer_rows(e);
  for (size_t l = 0; l < rows.size(); l++) {
    const ExplorerRow& row = rows[l];
    ImGui::PushID(int(l));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s", row.layer.c_str());
    if (row.bias) {  // the input row's exponents, shown, not edited
      for (double v : {row.abc.a, row.abc.b, row.abc.c}) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%.3g", v + 0.0);
      }
      ImGui::TableNextColumn();
      ImGui::TextDisabled("0 (zero init)");
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
  ImGui::TextDisabled("Biases (model.biases) are input weights with fan-in 1: the input row's rule, n = their length.");
}

}  // namespace

bool abc_explorer_panel(AbcExplorer& e) {
  ImGui::TextWrapped("W = n^-a w,  w ~ N(0, n^-2b),  SGD learning rate eta n^-c  (Tensor Programs IV). "
                     "Edit the exponents or start from a preset:");
  ImGui::SetNextItemWidth(120);
  if (ImGui::SliderInt("hidden layers", &e.hidden_layers, 1, 6)) e.abc.resize(size_t(e.hidden_layers) + 1, Abc{0, 0.5, 0});
  preset_buttons(e);
  layer_table(e);

  const Classification c = classify(e.abc);
  ImGui::Separator();
  ImGui::TextColored(regime_color(c.regime), "%s", regime_name(c.regime));
  ImGui::SameLine();
  ImGui::TextDisabled("(r = %.3g: features move by n^-r)", c.r);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(without_greek(c.reason).c_str());
  ImGui::PopTextWrapPos();

  ImGui::Separator();
  ImGui::TextUnformatted("Between NTK and muP: a_out = 1/2 + alpha, c = -2 alpha");
  ImGui::SetNextItemWidth(220);
  if (ImGui::SliderFloat("alpha", &e.alpha, 0.0f, 0.5f, "%.3f")) e.abc = ntk_to_mup(e.hidden_layers, e.alpha);
  ImGui::SameLine();
  ImGui::TextDisabled("predicted feature change ~ n^%.3g", e.alpha - 0.5);
  ImGui::Spacing();
  return ImGui::Button("Use these exponents in the experiment");
}
