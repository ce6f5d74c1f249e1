// Finite-difference checks (float64, central differences) of the Transformer's explicit backward pass:
// LayerNorm, causal attention and the embeddings on their own, then the whole model in its variants
// (pre-/post-LN, biases, several heads, GELU, muP multipliers and the 1/d attention scale).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>

#include "engine/model/attention.hpp"
#include "engine/model/layernorm.hpp"
#include "engine/model/loss.hpp"
#include "engine/model/transformer.hpp"

namespace {

constexpr double kStep = 1e-6;

// Largest |analytic − numeric| / max(|numeric|, 1e-4) over the entries of `x`, where loss() reads x.
double worst_error(std::vector<double>& x, const std::vector<double>& analytic, const std::function<double()>& loss) {
  double worst = 0;
  for (size_t i = 0; i < x.size(); i++) {
    const double saved = x[i];
    x[i] = saved + kStep;
    const double up = loss();
    x[i] = saved - kStep;
    const double down = loss();
    x[i] = saved;
    const double numeric = (up - down) / (2 * kStep);
    worst = std::max(worst, std::fabs(analytic[i] - numeric) / std::max(std::fabs(numeric), 1e-4));
  }
  return worst;
}

std::vector<double> normals(Rng& rng, size_t n, double scale = 1) {
  std::vector<double> v(n);
  for (double& x : v) x = scale * rng.normal();
  return v;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); i++) s += a[i] * b[i];
  return s;
}

TEST(TransformerGradients, LayerNorm) {
  const int rows = 4, C = 6;
  Rng rng(1);
  std::vector<double> x = normals(rng, rows * C), g = normals(rng, C), b = normals(rng, C);
  const std::vector<double> w = normals(rng, rows * C);  // loss = Σ w · out
  std::vector<double> out(rows * C), mean(rows), rstd(rows);
  auto loss = [&] {
    layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), rows, C);
    return dot(w, out);
  };
  loss();
  std::vector<double> dx(rows * C, 0.0), dg(C, 0.0), db(C, 0.0);
  layernorm_backward(dx.data(), dg.data(), db.data(), w.data(), x.data(), g.data(), mean.data(), rstd.data(), rows, C);
  EXPECT_LT(worst_error(x, dx, loss), 1e-5);
  EXPECT_LT(worst_error(g, dg, loss), 1e-5);
  EXPECT_LT(worst_error(b, db, loss), 1e-5);
}

TEST(TransformerGradients, CausalAttention) {
  const AttentionShape s{2, 5, 3, 4, 0.5};
  const size_t n = size_t(s.batch * s.T * s.width());
  Rng rng(2);
  std::vector<double> q = normals(rng, n), k = normals(rng, n), v = normals(rng, n);
  const std::vector<double> w = normals(rng, n);
  std::vector<double> y(n), probs(size_t(s.batch * s.heads * s.T * s.T)), dprobs(size_t(s.T * s.T));
  auto loss = [&] {
    attention_forward(y.data(), probs.data(), q.data(), k.data(), v.data(), s, nullptr);
    return dot(w, y);
  };
  loss();
  // Causality: every row is a distribution over positions ≤ its own.
  for (int r = 0; r < s.batch * s.heads * s.T; r++) {
    const int i = r % s.T;
    double sum = 0;
    for (int j = 0; j < s.T; j++) {
      if (j > i) EXPECT_EQ(probs[size_t(r * s.T + j)], 0.0);
      sum += probs[size_t(r * s.T + j)];
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  std::vector<double> dq(n), dk(n), dv(n);
  attention_backward(dq.data(), dk.data(), dv.data(), w.data(), probs.data(), q.data(), k.data(), v.data(), s,
                     dprobs.data());
  EXPECT_LT(worst_error(q, dq, loss), 1e-5);
  EXPECT_LT(worst_error(k, dk, loss), 1e-5);
  EXPECT_LT(worst_error(v, dv, loss), 1e-5);
}

struct Variant {
  const char* name;
  bool pre_ln, biases;
  int heads;
  Activation act;
  Preset preset;
};

// The whole model on a small batch: cross-entropy at the last position, every parameter checked.
double worst_model_error(const Variant& var, const std::string& only_prefix = "") {
  TransformerConfig c;
  c.vocab = 11;
  c.outputs = 7;
  c.seq_len = 5;
  c.layers = 2;
  c.d_model = 8;
  c.heads = var.heads;
  c.d_ff = 12;
  c.activation = var.act;
  c.pre_ln = var.pre_ln;
  c.attention_bias = c.mlp_bias = var.biases;
  TransformerInit init;
  init.preset = var.preset;
  const int batch = 3;
  Transformer model(c, init, batch);
  Rng rng(5);
  model.init(rng);
  // Move every parameter off its init (LayerNorm gains of 1, zero biases) so no term vanishes by symmetry.
  for (double& w : model.params()) w += 0.3 * rng.normal();
  std::vector<int> tokens(size_t(batch * c.seq_len), 0);
  std::vector<int> labels(size_t(batch), 0);
  for (int& t : tokens) t = int(rng.below(uint64_t(c.vocab)));
  for (int& l : labels) l = int(rng.below(uint64_t(c.outputs)));
  std::vector<double> dlogits(size_t(batch * c.outputs));
  auto loss = [&] {
    return cross_entropy_loss(model.forward(tokens.data(), batch), labels.data(), batch, c.outputs, nullptr, nullptr);
  };
  cross_entropy_loss(model.forward(tokens.data(), batch), labels.data(), batch, c.outputs, dlogits.data(), nullptr);
  model.backward(dlogits.data(), batch);
  const std::vector<double> analytic = model.grads();
  double worst = 0;
  for (const TransformerTensor& t : model.tensors()) {
    if (t.name.rfind(only_prefix, 0) != 0) continue;
    std::vector<double> slice(model.params().begin() + t.offset, model.params().begin() + t.offset + t.size());
    const std::vector<double> grad(analytic.begin() + t.offset, analytic.begin() + t.offset + t.size());
    auto slice_loss = [&] {
      std::copy(slice.begin(), slice.end(), model.params().begin() + t.offset);
      return loss();
    };
    const double e = worst_error(slice, grad, slice_loss);
    std::copy(slice.begin(), slice.end(), model.params().begin() + t.offset);
    EXPECT_LT(e, 1e-5) << var.name << " " << t.name;
    worst = std::max(worst, e);
  }
  return worst;
}

TEST(TransformerGradients, Embeddings) {
  EXPECT_LT(worst_model_error({"pre-LN", true, false, 1, Activation::relu, Preset::sp}, "wte"), 1e-5);
  EXPECT_LT(worst_model_error({"pre-LN", true, false, 1, Activation::relu, Preset::sp}, "wpe"), 1e-5);
}

TEST(TransformerGradients, WholeModelVariants) {
  const Variant variants[] = {
      {"pre-LN, no biases, 1 head, relu, SP", true, false, 1, Activation::relu, Preset::sp},
      {"post-LN, biases, 2 heads, gelu, SP", false, true, 2, Activation::gelu, Preset::sp},
      {"pre-LN, biases, 4 heads, gelu, muP", true, true, 4, Activation::gelu, Preset::mup},
      {"post-LN, no biases, 2 heads, relu, muP", false, false, 2, Activation::relu, Preset::mup},
  };
  for (const Variant& v : variants) EXPECT_LT(worst_model_error(v), 1e-5) << v.name;
}

TEST(TransformerGradients, AttentionEditIsApplied) {
  // Masking the first key everywhere in block 0 changes the output; clearing the edit restores it bit for bit.
  TransformerConfig c;
  c.vocab = 11, c.outputs = 7, c.seq_len = 5, c.layers = 2, c.d_model = 8, c.d_ff = 12;
  Transformer model(c, TransformerInit{}, 2);
  Rng rng(9);
  model.init(rng);
  const std::vector<int> tokens{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> plain(model.forward(tokens.data(), 2), model.forward(tokens.data(), 2) + 14);
  model.set_attention_edit(0, [](int, int, double* probs, int T) {
    for (int i = 1; i < T; i++) {  // drop key 0 and renormalize the row
      const double keep = 1 - probs[i * T];
      probs[i * T] = 0;
      for (int j = 1; j <= i; j++) probs[i * T + j] /= keep;
    }
  });
  const double* edited = model.forward(tokens.data(), 2);
  EXPECT_EQ(model.attention(0)[1 * 5 + 0], 0.0);
  double change = 0;
  for (int i = 0; i < 14; i++) change += std::fabs(edited[i] - plain[size_t(i)]);
  EXPECT_GT(change, 1e-6);
  model.set_attention_edit(0, nullptr);
  const double* again = model.forward(tokens.data(), 2);
  for (int i = 0; i < 14; i++) EXPECT_EQ(again[i], plain[size_t(i)]);
}

}  // namespace

// More sequences than the model's buffers hold is a clear error, not a write past them.
TEST(TransformerGradients, ABatchLargerThanItsBuffersIsRefused) {
  TransformerConfig c;
  c.vocab = 11, c.outputs = 7, c.seq_len = 5, c.layers = 1, c.d_model = 8, c.d_ff = 12;
  Transformer model(c, TransformerInit{}, 2);
  const std::vector<int> tokens(15, 1);
  EXPECT_NO_THROW(model.forward(tokens.data(), 2));
  try {
    model.forward(tokens.data(), 3);
    FAIL() << "a batch of 3 sequences in a model of 2";
  } catch (const std::length_error& e) {
    EXPECT_STREQ(e.what(), "Transformer::forward: a batch of 3 sequences; its buffers hold 0 to 2");
  }
}
