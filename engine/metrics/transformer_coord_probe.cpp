// transformer_coords: the coordinate check of Tensor Programs V for a Transformer. On the probe batch (the first
// train sequences), at every record:
//   attn_logits   RMS of the attention logits scale·q_i·k_j over every causal pair (j ≤ i), head and block;
//   stream        RMS of the residual stream the last block writes, over every position and unit;
//   *_delta       the RMS of the same numbers' change since the first record, and of the head's logits (output).
// Under μP each stays of order one as d_model grows; under SP with Adam the changes grow with d_model.
#include <algorithm>
#include <cmath>

#include "engine/metrics/probes.hpp"

namespace {

const std::vector<std::string> kSeries{"transformer_coords/attn_logits", "transformer_coords/stream",
                                       "transformer_coords/attn_logits_delta", "transformer_coords/stream_delta",
                                       "transformer_coords/output_delta"};

// The mean of (a − b)² over `count` values (b null: of a²), accumulated into sum.
void add_squares(const double* a, const double* b, long count, double& sum) {
  for (long i = 0; i < count; i++) {
    const double d = b ? a[i] - b[i] : a[i];
    sum += d * d;
  }
}

class TransformerCoordProbe : public Probe {
 public:
  explicit TransformerCoordProbe(Record& r) : Probe(kSeries) {
    const Transformer& m = r.trainer()->model();
    const TransformerConfig& c = m.config();
    rows_ = std::min({kProbeRows, m.max_batch(), r.trainer()->data().train.size});
    const long pairs = long(c.seq_len) * (c.seq_len + 1) / 2;
    logits_.resize(size_t(long(c.layers) * rows_ * c.heads * pairs));
    logits0_.resize(logits_.size());
    stream0_.resize(size_t(long(rows_) * c.seq_len * c.d_model));
    output0_.resize(size_t(long(rows_) * c.outputs));
  }

  void measure(Record& r, double* out) override {
    Transformer& m = r.trainer()->model();
    const TransformerConfig& c = m.config();
    const double* output = m.forward(r.trainer()->data().train.tokens.data(), rows_);
    collect_logits(m);
    const double* stream = m.hidden(c.layers);
    const long stream_count = long(stream0_.size()), output_count = long(output0_.size());
    if (r.index() == 0) {
      logits0_ = logits_;
      std::copy_n(stream, stream_count, stream0_.data());
      std::copy_n(output, output_count, output0_.data());
    }
    out[0] = rms(logits_.data(), nullptr, long(logits_.size()));
    out[1] = rms(stream, nullptr, stream_count);
    out[2] = rms(logits_.data(), logits0_.data(), long(logits_.size()));
    out[3] = rms(stream, stream0_.data(), stream_count);
    out[4] = rms(output, output0_.data(), output_count);
  }

 private:
  static double rms(const double* a, const double* b, long count) {
    double sum = 0;
    add_squares(a, b, count, sum);
    return std::sqrt(sum / double(count));
  }

  // Every block's causal logits scale·q_i·k_j of the last forward into logits_, in (block, row, head, i, j ≤ i) order.
  void collect_logits(const Transformer& m) {
    const TransformerConfig& c = m.config();
    const int T = c.seq_len, dh = c.head_dim(), width = c.heads * dh;
    double* out = logits_.data();
    for (int l = 0; l < c.layers; l++) {
      const double *q = m.queries(l), *k = m.keys(l);
      for (int b = 0; b < rows_; b++)
        for (int h = 0; h < c.heads; h++)
          for (int i = 0; i < T; i++)
            for (int j = 0; j <= i; j++) {
              const double* qi = q + (long(b) * T + i) * width + h * dh;
              const double* kj = k + (long(b) * T + j) * width + h * dh;
              double dot = 0;
              for (int d = 0; d < dh; d++) dot += qi[d] * kj[d];
              *out++ = m.attention_scale() * dot;
            }
    }
  }

  int rows_ = 0;
  std::vector<double> logits_, logits0_, stream0_, output0_;  // *0_: at the first record
};

}  // namespace

std::unique_ptr<Probe> transformer_coord_probe(Record& r) { return std::make_unique<TransformerCoordProbe>(r); }
