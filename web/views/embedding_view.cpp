#include "web/views/embedding_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/analysis/infinite_width.hpp"
#include "imgui.h"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/wrapped_text.hpp"
#include "web/draw/opaque_fill.hpp"

namespace {

std::string panel_title(const char* name, const PcaPlane& p, int words) {
  const std::vector<int> labels = skipgram_clusters(words);
  const ChanceLevel chance = chance_separation(p, labels, 200, 0);
  const double separation = cluster_separation(p, labels);
  if (std::isfinite(separation) && std::isfinite(chance.mean))
    return trf("%s\nseparation %.2f (chance %.2f)", name, separation, chance.mean);
  return trf("%s\nno separation: the embeddings are not finite or all equal", name);
}

// One scatter: the points of `p` coloured by cluster, in a square box with the axes named.
void scatter(const EmbeddingPanel& panel, float side) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(panel.title.c_str());
  const ImVec2 a = ImGui::GetCursorScreenPos(), b(a.x + side, a.y + side);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  add_opaque_fill(dl, a, b, darkened_page_background(60 / 255.0f));
  dl->AddRect(a, b, page_colour::plot_frame);
  double extent = 1e-12;
  for (size_t i = 0; i < panel.plane.x.size(); i++)
    extent = std::max({extent, std::abs(panel.plane.x[i]), std::abs(panel.plane.y[i])});
  const float half = side / 2, scale = float(0.9 * half / extent);
  const int words = int(panel.plane.x.size());
  for (int i = 0; i < words; i++) {
    const ImVec2 at(a.x + half + scale * float(panel.plane.x[size_t(i)]), a.y + half - scale * float(panel.plane.y[size_t(i)]));
    // A cluster's shape as well as its colour: the first circles, the second squares.
    const int cluster = skipgram_cluster(i, words);
    if (cluster == 0) dl->AddCircleFilled(at, 3.5f, page_colour::clusters[0]);
    else dl->AddRectFilled(ImVec2(at.x - 3, at.y - 3), ImVec2(at.x + 3, at.y + 3), page_colour::clusters[1]);
  }
  dl->AddText(ImVec2(a.x + 4, b.y - ImGui::GetTextLineHeight() - 2), page_colour::label, "PC1 ->");
  dl->AddText(ImVec2(a.x + 4, a.y + 2), page_colour::label, "PC2 ^");
  ImGui::Dummy(ImVec2(side, side));
  ImGui::EndGroup();
}

// The view as text: each panel's name and its title's numbers (cluster separation, and chance), as drawn.
FigureText embedding_text(const std::vector<EmbeddingPanel>& panels) {
  FigureText t;
  t.name = tr("PCA of the word embeddings, one panel per width");
  t.columns = {tr("panel"), tr("cluster separation")};
  std::string all;
  for (const EmbeddingPanel& p : panels) {
    const size_t cut = p.title.find('\n');
    const std::string name = p.title.substr(0, cut), numbers = cut == std::string::npos ? "" : p.title.substr(cut + 1);
    t.rows.push_back({name, numbers});
    all += (all.empty() ? "" : "; ") + name + ": " + numbers;
  }
  t.summary = panels.empty() ? tr("PCA of the word embeddings: nothing trained yet.")
                             : trf("Cluster separation of the word embeddings per panel: %s.", all.c_str());
  t.caption = tr("Each panel's cluster separation (the squared distance of the cluster means over the mean squared "
                 "spread within a cluster) and its chance level (shuffled labels).");
  return t;
}

}  // namespace

std::vector<EmbeddingPanel> embedding_panels(const Runner& runner, std::string* note) {
  std::vector<EmbeddingPanel> panels;
  const ExperimentSpec& spec = runner.spec();
  const int words = spec.task.input_dim;
  const Member* seed0 = nullptr;
  for (const auto& run : runner.members()) {
    if (run->coords().seed != spec.sweep.seeds.front() || run->coords().lr != runner.members().front()->coords().lr) continue;
    const std::string name = trf("n=%d, step %d", run->width(), run->steps_done());
    const PcaPlane p = pca_plane(embedding_gram(*run->mlp()), words);
    panels.push_back({panel_title(name.c_str(), p, words), p});
    seed0 = run.get();
  }
  std::string why;
  if (seed0 && linear_mean_field(*seed0->mlp(), &why) && spec.optimizer.kind == OptimizerKind::sgd &&
      spec.optimizer.momentum == 0 && spec.optimizer.weight_decay == 0 && spec.schedule.batch_size == 0) {
    const int steps = seed0->steps_done();
    const PcaPlane p = pca_plane(
        embedding_gram_at_infinity(*seed0->mlp(), runner.data().train, seed0->coords().lr, steps), words);
    panels.push_back({panel_title(trf("n=inf, step %d", steps).c_str(), p, words), p});
  } else if (note) {
    *note = why.empty() ? tr("No n=inf panel: it needs plain full-batch SGD on a linear one-hidden-layer net in "
                             "mean-field form (muP/MFP).")
                        : trf("No n=inf panel: it needs plain full-batch SGD on a linear one-hidden-layer net in "
                              "mean-field form (muP/MFP) (%s).",
                              tr_message(why).c_str());
  }
  return panels;
}

void embedding_view(EmbeddingView& v, const Runner& runner) {
  if (runner.spec().task.kind != TaskKind::skipgram) {
    figure_hint(tr("This view needs the skipgram task (presets 16: the word-embedding toy, experiment E9)."));
    return;
  }
  if (v.runner != &runner || v.computed_at != runner.state_revision() || v.language != page_language_changes()) {
    v.note.clear();
    v.panels = embedding_panels(runner, &v.note);
    v.runner = &runner;
    v.computed_at = runner.state_revision();
    v.language = page_language_changes();
  }
  wrapped_text(trf("PCA of the word embeddings (first layer's response to each one-hot word), seed %d. Orange: "
                   "words of cluster A, blue: cluster B. Separation = distance of the cluster means squared over "
                   "the mean squared spread within a cluster; chance = the same with shuffled labels.",
                   int(runner.spec().sweep.seeds.front())));
  if (!v.note.empty()) ImGui::TextDisabled("%s", v.note.c_str());
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = 12, side = std::clamp((avail - 2 * gap) / 3, 120.0f, 260.0f);
  const int per_row = std::max(1, int((avail + gap) / (side + gap)));
  for (size_t i = 0; i < v.panels.size(); i++) {
    if (i % size_t(per_row) != 0) ImGui::SameLine(0, gap);
    scatter(v.panels[i], side);
  }
  figure_text_publish([&] { return embedding_text(v.panels); });
}
