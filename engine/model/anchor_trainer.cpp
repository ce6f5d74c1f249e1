#include "engine/model/anchor_trainer.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/loss.hpp"

namespace {

constexpr int kEvalChunk = 128;  // sequences per evaluation forward pass

int capacity(const AnchorTrainerConfig& c, const AnchorData& d) {
  const int batch = c.batch_size == 0 ? d.train.size : c.batch_size;
  return std::max(batch, kEvalChunk);
}

}  // namespace

AnchorTrainer::AnchorTrainer(const AnchorTrainerConfig& config, const AnchorData& data, uint64_t seed)
    : config_(config),
      data_(data),
      model_(config.model, config.init, capacity(config, data)),
      optimizer_(config.optimizer, transformer_slices(model_), long(model_.params().size())),
      batch_size_(config.batch_size == 0 ? data.train.size : config.batch_size) {
  model_.set_precision(config.precision);
  Rng init_rng = Rng::stream(seed, /*purpose=*/2);
  model_.init(init_rng);
  batch_order_ = BatchOrder(Rng::stream(seed, /*purpose=*/3), data.train.size, batch_size_ < data.train.size);
  const int T = config.model.seq_len;
  batch_tokens_.resize(size_t(batch_size_) * size_t(T));
  batch_labels_.resize(size_t(batch_size_));
  dlogits_.resize(size_t(model_.max_batch()) * size_t(config.model.outputs));
  pred_.resize(size_t(data.ood.size));
  pred_swapped_.resize(size_t(data.ood.size));
}

const int* AnchorTrainer::next_batch_rows() { return batch_order_.next(batch_size_); }

void AnchorTrainer::update(long t) {
  std::vector<double>& g = model_.grads();
  if (config_.clip_norm > 0) clip_grad_norm(g.data(), long(g.size()), config_.clip_norm);
  optimizer_.step(model_.params().data(), g.data(), lr_schedule_factor(config_.schedule, t));
}

double AnchorTrainer::train_step(long t) {
  const AnchorSet& train = data_.train;
  const int T = train.seq_len;
  const int* rows = next_batch_rows();
  for (int b = 0; b < batch_size_; b++) {
    const int i = rows[b];
    std::copy_n(&train.tokens[size_t(i) * size_t(T)], T, &batch_tokens_[size_t(b) * size_t(T)]);
    batch_labels_[size_t(b)] = train.labels[size_t(i)];
  }
  const double* logits = model_.forward(batch_tokens_.data(), batch_size_);
  const double loss = cross_entropy_loss(logits, batch_labels_.data(), batch_size_, config_.model.outputs,
                                         dlogits_.data(), nullptr);
  if (!std::isfinite(loss)) return loss;
  model_.backward(dlogits_.data(), batch_size_);
  update(t);
  return loss;
}

Evaluation AnchorTrainer::evaluate(const AnchorSet& set, int limit) {
  const int count = limit > 0 ? std::min(limit, set.size) : set.size;
  const int V = config_.model.outputs;
  double sum = 0, share = 0;
  int hits = 0;
  for (int start = 0; start < count; start += model_.max_batch()) {
    const int n = std::min(model_.max_batch(), count - start);
    const double* logits = model_.forward(&set.tokens[size_t(start) * size_t(set.seq_len)], n);
    // p(y+1) / (p(y) + p(y+1)) = 1 / (1 + exp(z_y − z_{y+1})): the softmax's normalizer cancels.
    for (int b = 0; b < n; b++) {
      const int y = set.labels[size_t(start + b)];
      const double* z = logits + long(b) * V;
      if (y + 1 < V) share += 1 / (1 + std::exp(z[y] - z[y + 1]));
    }
    int correct = 0;
    sum += n * cross_entropy_loss(logits, &set.labels[size_t(start)], n, V, nullptr, &correct);
    hits += correct;
  }
  if (count == 0) return {NAN, NAN, NAN};
  return {sum / count, double(hits) / count, share / count};
}

void AnchorTrainer::predict(const int* tokens, int count, int* argmax) {
  const int T = config_.model.seq_len, V = config_.model.outputs;
  for (int start = 0; start < count; start += model_.max_batch()) {
    const int n = std::min(model_.max_batch(), count - start);
    const double* logits = model_.forward(tokens + long(start) * T, n);
    for (int b = 0; b < n; b++) {
      const double* z = logits + long(b) * V;
      argmax[start + b] = int(std::max_element(z, z + V) - z);
    }
  }
}

double AnchorTrainer::commutativity() {
  const AnchorSet& ood = data_.ood;
  if (ood.size == 0) return NAN;
  predict(ood.tokens.data(), ood.size, pred_.data());
  predict(ood.swapped.data(), ood.size, pred_swapped_.data());
  int same = 0;
  for (int i = 0; i < ood.size; i++) same += pred_[size_t(i)] == pred_swapped_[size_t(i)];
  return double(same) / ood.size;
}

double AnchorTrainer::query_row_cosine(int layer) const {
  const TransformerTensor* wq = model_.find_tensor("h" + std::to_string(layer) + ".wq");
  const double* w = model_.params().data() + wq->offset;
  const int rows = wq->rows, cols = wq->cols;
  double sum = 0;
  long pairs = 0;
  for (int i = 0; i < rows; i++)
    for (int j = i + 1; j < rows; j++) {
      double dot = 0, ni = 0, nj = 0;
      for (int c = 0; c < cols; c++) {
        dot += w[long(i) * cols + c] * w[long(j) * cols + c];
        ni += w[long(i) * cols + c] * w[long(i) * cols + c];
        nj += w[long(j) * cols + c] * w[long(j) * cols + c];
      }
      if (ni > 0 && nj > 0) sum += std::fabs(dot) / std::sqrt(ni * nj);
      pairs++;
    }
  return pairs ? sum / double(pairs) : NAN;
}
