// The parametrization explorer: edit a, b, c per layer, see whether the choice is stable, trivial, kernel or
// feature learning and why (TP4's inequalities, engine/param/parametrization.hpp), and slide between NTK and μP.
#pragma once
#include <string>
#include <vector>

#include "engine/param/parametrization.hpp"
#include "engine/spec/experiment_spec.hpp"

struct AbcExplorer {
  int hidden_layers = 2;
  std::vector<Abc> abc = preset_exponents(Preset::mup, 3, UpdateRule::sgd);
  float alpha = 0.5f;  // the NTK (0) ↔ μP (½) slider (ntk_to_mup)
};

// One row of the explorer's table: a weight matrix (editable) or the biases (model.biases), whose rule follows the
// input row: a bias is an input weight with fan-in 1 (Tensor Programs V), so it takes (a₁, b₁, c₁) with n = its
// length — the width for hidden biases, d_out (a constant) for the readout's. Exponents of n in the direct form:
// Var W = n^-2(a+b) (biases start at 0), SGD's learning rate on W = n^-(2a+c).
struct ExplorerRow {
  std::string layer;
  Abc abc;
  double var_exponent = 0, lr_exponent = 0;
  bool bias = false;  // read-only, zero-initialized
};
std::vector<ExplorerRow> explorer_rows(const AbcExplorer& e);

// Draws the panel, with the depth exponents of `experiment` under the table when it is a residual MLP
// (web/views/depth_exponents.hpp; null: none). Returns true when the user asks to use these exponents in the experiment.
bool abc_explorer_panel(AbcExplorer& e, const ExperimentSpec* experiment);

// A family between NTP (α = 0) and μP (α = ½, written with a₁ = 0): a = (0, ½, …, ½, ½ + α), b = 0,
// c = −2α. Then r = ½ − α: features move by n^(α − ½).
std::vector<Abc> ntk_to_mup(int hidden_layers, double alpha);

// The α of that line the explorer's table lies on, or NaN when it is off the line. Compared layer by layer on what
// training sees, Var W ~ n^-2(a+b) and SGD's LR on W ~ n^-(2a+c): the symmetry (a+θ, b−θ, c−2θ) changes the
// exponents but not these, and μP's preset is written with other exponents than the line's end.
double line_alpha(const AbcExplorer& e);
