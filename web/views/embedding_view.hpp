// "embeddings": the PCA of the learned word embeddings of the skipgram task (experiment E9), one small scatter
// per width (seed 0, first learning rate) and one for n = ∞ where the engine knows it (linear, one hidden layer,
// mean-field form: μP/MFP), each titled with its cluster separation and that of shuffled labels (chance).
// Under NTK the clouds stay mixed; under μP the two clusters pull apart, more with width.
#pragma once
#include <string>
#include <vector>

#include "engine/analysis/word_embedding.hpp"
#include "engine/run/runner.hpp"

struct EmbeddingPanel {
  std::string title;
  PcaPlane plane;
};

// What the view last computed (PCA is not free: it is redone only when training has moved on).
struct EmbeddingView {
  const Runner* runner = nullptr;
  long computed_at = -1;  // runner->state_revision() when computed
  int language = -1;      // page_language_changes() when computed: the titles are in the page's language
  std::vector<EmbeddingPanel> panels;
  std::string note;  // why there is no n = ∞ panel, if there is none
};

void embedding_view(EmbeddingView& v, const Runner& runner);

// The panels for the runner's current state (also what the page's test hook reports).
std::vector<EmbeddingPanel> embedding_panels(const Runner& runner, std::string* note);
