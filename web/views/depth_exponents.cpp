#include "web/views/depth_exponents.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "web/draw/drawn.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/wrapped_text.hpp"

namespace {

// The rule's line: "depth rule depth_mup (adam): α = 0.5, γ = 0.5".
std::string rule_line(const ExperimentSpec& s, DepthExponents e) {
  return trf("depth rule %s (%s): \u03b1 = %g, \u03b3 = %g", depth_rule_name(s.parametrization.depth_rule),
             optimizer_name(s.optimizer.kind), e.alpha + 0.0, e.gamma + 0.0);  // + 0.0: print 0, not -0
}

void factors_table(const std::vector<DepthFactors>& rows) {
  if (!ImGui::BeginTable("depth factors", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  for (const char* h : {tr("depth L"), tr("branch \u00d7 L^-\u03b1"), tr("block LR \u00d7 L^-\u03b3")})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const DepthFactors& f : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", f.depth);
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", f.branch);
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", f.lr);
    char note[128];
    std::snprintf(note, sizeof note, "explorer depth factors: L=%d: branch %.6g, block lr %.6g", f.depth, f.branch,
                  f.lr);
    drawn_note_text(note);
  }
  ImGui::EndTable();
}

}  // namespace

DepthExponents spec_depth_exponents(const ExperimentSpec& s) {
  const ParametrizationSpec& p = s.parametrization;
  return depth_exponents(p.depth_rule, update_rule(s.optimizer.kind), {p.depth_alpha, p.depth_gamma});
}

std::vector<DepthFactors> spec_depth_factors(const ExperimentSpec& s) {
  std::vector<int> depths = s.sweep.depth.empty() ? std::vector<int>{s.model.depth} : s.sweep.depth;
  std::sort(depths.begin(), depths.end());
  depths.erase(std::unique(depths.begin(), depths.end()), depths.end());
  const DepthExponents e = spec_depth_exponents(s);
  std::vector<DepthFactors> out;
  for (int L : depths) out.push_back({L, std::pow(double(L), -e.alpha), std::pow(double(L), -e.gamma)});
  return out;
}

void depth_exponents_panel(const ExperimentSpec& s) {
  if (!has_residual_blocks(s.model.kind)) return;
  const DepthExponents e = spec_depth_exponents(s);
  ImGui::Separator();
  const std::string intro = trf("Depth exponents of the experiment's residual MLP (not the slider's \u03b1 below): "
                                "h_{l+1} = h_l + L^-\u03b1 W_l \u03c6(h_l), each block's learning rate \u00d7 "
                                "L^-\u03b3, on top of its width rule (%s):", preset_name(s.parametrization.preset));
  wrapped_text(intro);
  const std::string line = rule_line(s, e);
  ImGui::TextUnformatted(line.c_str());
  drawn_note_text("explorer depth: " + line);
  factors_table(spec_depth_factors(s));
}
