// The model kinds a spec names (model.kind), and the two facts the rest of the engine asks of a kind: which model
// trains it, and whether it has residual blocks. Code outside the models asks these questions rather than naming a
// kind, so a new kind is one row here, one name, and its model.
#pragma once
#include <iterator>
#include <string>

#include "engine/base/enum_names.hpp"

// residual_mlp: an MLP of width model.widths[0] with model.depth residual blocks h_{l+1} = h_l + L^-α W_l φ(h_l)
// (model.block_depth 2: W_l φ(W'_l φ(h_l)); model.block_norm: φ(LN(h_l))) and the readout f = W_out h_{L+1}
// (MlpConfig::residual; the depth rule sets α and the blocks' learning rate).
enum class ModelKind { mlp, transformer, residual_mlp };
inline constexpr EnumName<ModelKind> kModelKindNames[] = {
    {ModelKind::mlp, "mlp"},
    {ModelKind::transformer, "transformer"},
    {ModelKind::residual_mlp, "residual_mlp"},
};
inline const char* model_kind_name(ModelKind k) { return enum_name(kModelKindNames, k); }

struct ModelKindFacts {
  ModelKind kind;
  // Trained by Transformer (engine/model/transformer.hpp) on token tasks, sized by model.transformer; else by Mlp
  // (engine/model/mlp.hpp) on any other task, sized by model.widths.
  bool transformer;
  // An Mlp whose hidden layers are residual blocks: model.depth, block_depth, block_norm and the depth rules apply,
  // and its sweep has a depth axis.
  bool residual_blocks;
};
inline constexpr ModelKindFacts kModelKindFacts[] = {
    {ModelKind::mlp, false, false},
    {ModelKind::transformer, true, false},
    {ModelKind::residual_mlp, false, true},
};
static_assert(std::size(kModelKindFacts) == std::size(kModelKindNames), "one row of facts per model kind");

constexpr const ModelKindFacts& model_kind_facts(ModelKind k) {
  for (const ModelKindFacts& row : kModelKindFacts)
    if (row.kind == k) return row;
  return kModelKindFacts[0];
}
constexpr bool is_transformer(ModelKind k) { return model_kind_facts(k).transformer; }
constexpr bool has_residual_blocks(ModelKind k) { return model_kind_facts(k).residual_blocks; }
// An Mlp of layers of their own widths: what the width-limit curves and per-layer widths are written for.
constexpr bool is_plain_mlp(ModelKind k) { return !is_transformer(k) && !has_residual_blocks(k); }

// The same question of a kind written by name in a JSON document; false for a name no kind has.
inline bool names_transformer(const std::string& kind_name) {
  ModelKind k;
  return enum_value(kModelKindNames, kind_name, k) && is_transformer(k);
}
