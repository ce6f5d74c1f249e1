// `muplay gpu-plan`: the training step of a spec's first sweep member as a GPU kernel plan, for timing it outside the
// engine (scripts/gpu-bench.mjs).
#pragma once
#include <string>

#include "engine/base/json.hpp"
#include "engine/spec/spec.hpp"

// An MLP member: {"plan": plan_to_json, "step", "batch_index", "ones", "train_size", "batch", "flops_per_step"};
// "ones" is the buffer of ones a residual net's pre-norm uses as its gain (-1: none), which the host must fill.
// flops_per_step counts the GEMMs: 2·B·fan_in·fan_out each for the forward, ∂L/∂W and (all but the first layer) δ.
// fashion_mnist_dir: as for Runner.
json::Value mlp_gpu_plan_document(const ExperimentSpec& spec, const std::string& fashion_mnist_dir);
// A Transformer member: the form of mlp_gpu_plan_document plus "kind": "transformer", "vocab", "outputs", "seq_len",
// "train_tokens" and "train_labels" (so random data can be made valid). flops_per_step: 3 × the forward's
// (transformer_forward_flops).
json::Value transformer_gpu_plan_document(const ExperimentSpec& spec, const std::string& fashion_mnist_dir);
