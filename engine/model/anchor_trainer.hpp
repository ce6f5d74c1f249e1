// Training and measuring one Transformer on an anchor-function task: the model, AdamW (or SGD/Adam) with the
// learning-rate schedule and gradient clipping, shuffled mini-batches, and the chapter-13 measurements.
// TransformerMember (engine/run/transformer_member.hpp) drives it for model.kind "transformer" and records its numbers
// as series. Buffers are sized in the constructor: train_step and the measurements allocate nothing.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/model/batch_order.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/model/transformer.hpp"
#include "engine/task/anchor_tasks.hpp"

struct AnchorTrainerConfig {
  TransformerConfig model;
  TransformerInit init;
  OptimizerConfig optimizer;
  LrSchedule schedule;
  double clip_norm = 0;  // 0: no clipping
  int batch_size = 128;  // 0: the whole train set
  Precision precision = Precision::float64;  // of the model's products (Transformer::set_precision)
};

struct Evaluation {
  double loss = 0, accuracy = 0;
  // Mean of p(y+1) / (p(y) + p(y+1)) for label y: the statistical tasks' x+1 share (the book's 80 : 20 is 0.2).
  double plus_one_share = 0;
};

class AnchorTrainer {
 public:
  // `data` must outlive the trainer.
  AnchorTrainer(const AnchorTrainerConfig& config, const AnchorData& data, uint64_t seed);

  // One step at step index t: forward and backward on the next mini-batch, clip, update with the schedule's
  // learning rate. Returns the mini-batch loss before the update (NaN/inf: the run diverged; nothing is updated).
  double train_step(long t);

  // Cross-entropy and accuracy at the last position on the first `limit` sequences of `set` (0: all).
  Evaluation evaluate(const AnchorSet& set, int limit);
  // P[argmax f(x; c, d) = argmax f(x; d, c)] over the OOD set (its sequences with the anchor pair swapped).
  double commutativity();
  // Mean |cos| between distinct rows of block `layer`'s W_Q (condensation, Fig 13.10).
  double query_row_cosine(int layer) const;

  // The two halves of train_step, for a step run elsewhere (engine/run/transformer_member_gpu.cpp): the next
  // mini-batch's row indices (batch_size of them, shuffling at each new epoch), and clip + update from the gradient
  // buffer.
  const int* next_batch_rows();
  void update(long t);
  // Where the mini-batches stand: a copy is a checkpoint, assigning one back rewinds.
  BatchOrder& batch_order() { return batch_order_; }
  const AnchorTrainerConfig& config() const { return config_; }
  Optimizer& optimizer() { return optimizer_; }

  Transformer& model() { return model_; }
  const Transformer& model() const { return model_; }
  const AnchorData& data() const { return data_; }

 private:
  void predict(const int* tokens, int count, int* argmax);

  AnchorTrainerConfig config_;
  const AnchorData& data_;
  Transformer model_;
  Optimizer optimizer_;
  BatchOrder batch_order_;
  int batch_size_;
  std::vector<int> batch_tokens_, batch_labels_;
  std::vector<double> dlogits_;
  std::vector<int> pred_, pred_swapped_;
};

