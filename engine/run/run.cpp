#include "engine/run/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/gpu/gpu_training.hpp"
#include "engine/kernels/spectral.hpp"
#include "engine/metrics/neurons.hpp"
#include "engine/model/loss.hpp"
#include "engine/task/phenomena_tasks.hpp"

std::string phenomena_cpu_only(const ExperimentSpec& s) {
  if (s.optimizer.kind == OptimizerKind::gd_auto) return "the optimizer gd_auto";
  if (s.schedule.stop_loss_ratio > 0) return "schedule.stop_loss_ratio";
  const Activation a = s.model.activation;
  if (a != Activation::relu && a != Activation::tanh && a != Activation::gelu && a != Activation::linear &&
      a != Activation::sigmoid)
    return std::string("the activation ") + activation_name(a);
  if (std::find(s.metrics.begin(), s.metrics.end(), "sharpness") != s.metrics.end()) return "the sharpness metric";
  if (s.model.asi) return "model.asi";
  if (s.model.dropout > 0) return "model.dropout";
  if (s.task.gradient_loss) return "task.gradient_loss";
  return "";
}

const char* run_status_name(RunStatus s) {
  switch (s) {
    case RunStatus::running: return "running";
    case RunStatus::finished: return "finished";
    case RunStatus::diverged: return "diverged";
    case RunStatus::failed: return "failed";
  }
  return "?";
}

namespace {

constexpr int kMaxProbe = 128;
constexpr int kAutoStepEvery = 100;         // gd_auto re-estimates λ_max this often (spec/phenomena.md §6.3)
constexpr double kAutoStepTolerance = 0.01;  // and undoes a step that raises the loss by more than 1%
constexpr int kAutoStepIters = 50;
constexpr double kAutoStepTol = 1e-3;

bool wants(const ExperimentSpec& s, const char* metric) {
  return std::find(s.metrics.begin(), s.metrics.end(), metric) != s.metrics.end();
}

// Transformer runs measure the train set on its first sequences only: a full pass over 10 000 sequences at every
// record would cost more than the training between records.
constexpr int kTransformerTrainEval = 1000;

Mlp make_model(const ExperimentSpec& s, const MemberCoords& c, int capacity) {
  if (s.model.kind == ModelKind::transformer) {
    const int width = c.width > 0 ? c.width : s.model.transformer.d_model;
    return Mlp({1, width, 1}, Activation::linear, {TensorScaling{}, TensorScaling{}}, 1);
  }
  std::vector<int> dims = model_dims(s, c.width);
  std::vector<TensorScaling> scaling = spec_scaling(s, dims, c.phase);
  if (s.model.asi) {
    // two copies of the net of `dims`, each scaled as that net, side by side; the output is (√2/2)(h − h′)
    for (size_t l = 1; l + 1 < dims.size(); l++) dims[l] *= 2;
    scaling.back().multiplier *= std::sqrt(0.5);
  }
  Mlp m(dims, s.model.activation, scaling, capacity);
  m.set_antisymmetric(s.model.asi);
  m.set_activation_param(s.model.activation_param);
  m.set_dropout(s.model.dropout);
  m.set_precision(s.precision);
  return m;
}

// Metrics that look at the whole train set at once need the model's buffers to hold it.
bool needs_whole_train_set(const ExperimentSpec& s) {
  return wants(s, "fp_delta") || wants(s, "sharpness") || s.optimizer.kind == OptimizerKind::gd_auto;
}

OptimizerConfig optimizer_config(const ExperimentSpec& s, const MemberCoords& c) {
  OptimizerConfig o = s.optimizer;
  o.lr = c.lr;
  return o;
}

}  // namespace

Run::Run(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords)
    : spec_(spec),
      data_(data),
      coords_(coords),
      mlp_(make_model(spec, coords,
                       std::max(spec.schedule.batch_size == 0 || needs_whole_train_set(spec) ? data.train.size
                                                                                              : spec.schedule.batch_size,
                                std::min(data.train.size, kMaxProbe)))),
      optimizer_(optimizer_config(spec, coords), layer_slices(mlp_), long(mlp_.params().size())),
      batch_rng_(Rng::stream(coords.seed, /*purpose=*/3)) {
  Rng init_rng = Rng::stream(coords.seed, /*purpose=*/2);
  mlp_.init(init_rng);

  const Dataset& train = data_.train;
  batch_size_ = spec.schedule.batch_size == 0 ? train.size : spec.schedule.batch_size;
  probe_size_ = std::min(train.size, kMaxProbe);
  want_test_ = wants(spec, "test_loss");
  want_accuracy_ = wants(spec, "test_accuracy");
  want_act_ = wants(spec, "act_rms");
  want_delta_ = wants(spec, "act_delta_rms");
  want_weight_delta_ = wants(spec, "weight_delta_spectral");
  want_batch_mean_ = wants(spec, "batch_loss_mean");
  if (spec.model.kind == ModelKind::transformer) {
    init_transformer();
    return;
  }

  if (batch_size_ < train.size) {
    order_.resize(size_t(train.size));
    for (int i = 0; i < train.size; i++) order_[size_t(i)] = i;
    order_pos_ = train.size;  // shuffle on first use
    batch_x_.resize(size_t(batch_size_) * size_t(train.input_dim));
    batch_y_.resize(size_t(batch_size_) * size_t(train.outputs));
    batch_labels_.resize(size_t(batch_size_));
  }
  dout_.resize(size_t(mlp_.max_batch()) * size_t(data_.outputs));

  // Series: one slot per recorded step, reserved now so recording never allocates.
  const size_t records = size_t(spec.schedule.steps / spec.schedule.record_every + 2);
  auto add = [&](const std::string& name) {
    series_.push_back({name, {}});
    series_.back().values.reserve(records);
    return int(series_.size()) - 1;
  };
  train_loss_ = add("train_loss");
  if (want_test_) test_loss_ = add("test_loss");
  if (want_accuracy_) test_accuracy_ = add("test_accuracy");
  if (want_batch_mean_) batch_mean_ = add("batch_loss_mean");
  auto layer_name = [&](int l) { return l + 1 == mlp_.layers() ? std::string("f") : "h" + std::to_string(l + 1); };
  if (want_act_) {
    act_rms_ = int(series_.size());
    for (int l = 0; l < mlp_.layers(); l++) add("act_rms/" + layer_name(l));
  }
  if (want_delta_) {
    act_delta_ = int(series_.size());
    for (int l = 0; l < mlp_.layers(); l++) add("act_delta_rms/" + layer_name(l));
    long units = 0;
    for (int l = 0; l < mlp_.layers(); l++) units += mlp_.dims()[size_t(l) + 1];
    probe_init_.resize(size_t(probe_size_) * size_t(units));
  }
  if (want_weight_delta_) {
    weight_delta_ = int(series_.size());
    for (int l = 0; l < mlp_.layers(); l++) add("weight_delta_spectral/W" + std::to_string(l + 1));
    params_init_ = mlp_.params();
    const int widest = *std::max_element(mlp_.dims().begin(), mlp_.dims().end());
    power_u_.resize(size_t(widest));
    power_v_.resize(size_t(widest));
    for (int l = 0; l < mlp_.layers(); l++)
      init_norm_.push_back(spectral_norm(mlp_.weights(l), nullptr, mlp_.dims()[size_t(l) + 1], mlp_.dims()[size_t(l)],
                                         power_u_.data(), power_v_.data()));
  }
  setup_phenomena_metrics();
  setup_gradient_loss();
  dropout_rng_ = Rng::stream(coords.seed, /*purpose=*/4);
  recorded_steps_.reserve(records);
}

void Run::setup_gradient_loss() {
  if (!spec_.task.gradient_loss) return;
  const Dataset& train = data_.train;
  gradient_loss_ = std::make_unique<GradientLoss>(mlp_);
  target_slope_.resize(size_t(train.size));
  for (int i = 0; i < train.size; i++)  // the 1-D x is the first coordinate (a folded-in bias comes after it)
    target_slope_[size_t(i)] = function_1d_slope(spec_.task.target, train.x[size_t(i) * size_t(train.input_dim)]);
  slope_loss_ = add_series("slope_loss");
}

void Run::init_transformer() {
  const ExperimentSpec& s = spec_;
  AnchorTrainerConfig c;
  c.model = transformer_config(s.model.transformer, s.task.anchor, coords_.width);
  c.init = transformer_init(s.model.transformer, s.parametrization, coords_.gamma);
  c.optimizer = optimizer_config(s, coords_);
  c.optimizer.weight_decay = coords_.weight_decay;
  c.schedule = {int(s.schedule.warmup_fraction * s.schedule.steps), s.schedule.steps, s.schedule.cosine,
                s.schedule.final_lr_fraction};
  c.clip_norm = s.schedule.clip_norm;
  c.batch_size = s.schedule.batch_size;
  transformer_ = std::make_unique<AnchorTrainer>(c, data_.anchor, coords_.seed);
  const size_t records = size_t(s.schedule.steps / s.schedule.record_every + 2);
  auto add = [&](const char* name) {
    if (std::string(name) != "train_loss" && !wants(s, name)) return -1;
    series_.push_back({name, {}});
    series_.back().values.reserve(records);
    return int(series_.size()) - 1;
  };
  train_loss_ = add("train_loss");
  test_loss_ = add("test_loss");
  TransformerSeries& ts = transformer_series_;
  ts.train_accuracy = add("train_accuracy");
  ts.id_accuracy = add("id_accuracy");
  ts.ood_accuracy = add("ood_accuracy");
  ts.commutativity = add("commutativity");
  ts.wq_cosine = add("wq_cosine");
  ts.plus_one_share = add("plus_one_share");
  recorded_steps_.reserve(records);
}

void Run::record_transformer(int t) {
  AnchorTrainer& tr = *transformer_;
  const AnchorData& d = data_.anchor;
  const TransformerSeries& ts = transformer_series_;
  auto put = [&](int index, double value) {
    if (index >= 0) series_[size_t(index)].values.push_back(value);
  };
  recorded_steps_.push_back(t);
  const Evaluation train = tr.evaluate(d.train, kTransformerTrainEval);
  put(train_loss_, train.loss);
  put(ts.train_accuracy, train.accuracy);
  if (test_loss_ >= 0 || ts.id_accuracy >= 0 || ts.plus_one_share >= 0) {
    const Evaluation id = tr.evaluate(d.test, 0);
    put(test_loss_, id.loss);
    put(ts.id_accuracy, id.accuracy);
    put(ts.plus_one_share, id.plus_one_share);
  }
  if (ts.ood_accuracy >= 0) put(ts.ood_accuracy, tr.evaluate(d.ood, 0).accuracy);
  if (ts.commutativity >= 0) put(ts.commutativity, tr.commutativity());
  if (ts.wq_cosine >= 0) put(ts.wq_cosine, tr.query_row_cosine(0));
}

void Run::transformer_step() {
  const int t = step_;
  if (t % spec_.schedule.record_every == 0) record_transformer(t);
  const double loss = transformer_->train_step(t);
  if (!std::isfinite(loss) || loss > spec_.schedule.divergence_loss) return diverge(t);
  batch_loss_sum_ += loss;
  batch_losses_++;
  step_ = t + 1;
  if (step_ == spec_.schedule.steps) {
    record_transformer(step_);
    const double final_loss = series_[size_t(train_loss_)].values.back();
    if (!std::isfinite(final_loss) || final_loss > spec_.schedule.divergence_loss) return diverge(step_);
    status_ = RunStatus::finished;
  }
}

int Run::add_series(const std::string& name) {
  series_.push_back({name, {}});
  series_.back().values.reserve(size_t(spec_.schedule.steps / spec_.schedule.record_every + 3));
  return int(series_.size()) - 1;
}

void Run::setup_phenomena_metrics() {
  const Dataset& train = data_.train;
  want_fp_ = wants(spec_, "fp_delta");
  want_sign_ = wants(spec_, "sign_accuracy");
  want_rd_ = wants(spec_, "weight_rd");
  want_sharpness_ = wants(spec_, "sharpness");
  want_condensation_ = wants(spec_, "condensation");
  gd_auto_ = spec_.optimizer.kind == OptimizerKind::gd_auto;
  for (double y : train.y) zero_loss_ += 0.5 * y * y / train.size;
  if (want_fp_) {
    frequency_ = FrequencyProbe(train.y.data(), train.size);
    fp_outputs_.resize(size_t(train.size));
    fp_delta_.resize(frequency_.peaks().size());
    fp_ = int(series_.size());
    for (int k : frequency_.peaks()) add_series("delta_F/k=" + std::to_string(k));
  }
  if (wants(spec_, "fp_filter")) {
    filter_ = std::make_unique<FilterProbe>(train, spec_.task.filter_width);
    fp_outputs_.resize(size_t(train.size));
    filter_series_ = add_series("filter/e_low");
    add_series("filter/e_high");
  }
  if (want_sign_) {
    sign_ = add_series("sign_accuracy/train");
    add_series("sign_accuracy/test");
  }
  if (want_rd_) {
    rd_ = add_series("weight_rd");
    if (params_init_.empty()) params_init_ = mlp_.params();
  }
  if (want_sharpness_ || gd_auto_)
    hessian_ = std::make_unique<HessianProbe>(mlp_, train.x.data(), train.y.data(), train.size);
  if (want_sharpness_) sharpness_ = add_series("sharpness");
  if (want_sharpness_ || gd_auto_) grads_before_.resize(mlp_.params().size());
  if (gd_auto_) {
    gd_lr_ = add_series("gd_lr");
    params_before_.resize(mlp_.params().size());
  }
  if (want_condensation_) {
    if (params_init_.empty()) params_init_ = mlp_.params();  // the neuron view shows init beside now
    condensation_probe_ = std::make_unique<CondensationProbe>(mlp_);
    condensation_ = add_series("condensation/share");
    add_series("condensation/lines");
  }
}

double Run::weight_rd() const {
  // θ_w = W₁ (with the folded-in bias): RD = ‖W₁ − W₁⁰‖_F / ‖W₁⁰‖_F; the forward multiplier cancels.
  const double* w = mlp_.weights(0);
  double change = 0, init = 0;
  for (long i = 0; i < mlp_.layer_size(0); i++) {
    change += (w[i] - params_init_[size_t(i)]) * (w[i] - params_init_[size_t(i)]);
    init += params_init_[size_t(i)] * params_init_[size_t(i)];
  }
  return init > 0 ? std::sqrt(change / init) : NAN;
}

void Run::record_phenomena() {
  const Dataset& train = data_.train;
  if (want_fp_ || filter_) {
    for (int start = 0; start < train.size; start += mlp_.max_batch()) {
      const int n = std::min(mlp_.max_batch(), train.size - start);
      const double* f = mlp_.forward(&train.x[size_t(start) * size_t(train.input_dim)], n);
      std::copy(f, f + n, fp_outputs_.begin() + start);
    }
  }
  if (want_fp_) {
    frequency_.measure(fp_outputs_.data(), fp_delta_.data());
    for (size_t p = 0; p < fp_delta_.size(); p++) series_[size_t(fp_) + p].values.push_back(fp_delta_[p]);
  }
  if (filter_) {
    double low = 0, high = 0;
    filter_->measure(fp_outputs_.data(), low, high);
    series_[size_t(filter_series_)].values.push_back(low);
    series_[size_t(filter_series_ + 1)].values.push_back(high);
  }
  if (want_sign_) {
    const Dataset* sets[2] = {&data_.train, &data_.test};
    for (int which = 0; which < 2; which++) {
      const Dataset& d = *sets[which];
      int hits = 0;
      for (int start = 0; start < d.size; start += mlp_.max_batch()) {
        const int n = std::min(mlp_.max_batch(), d.size - start);
        const double* f = mlp_.forward(&d.x[size_t(start) * size_t(d.input_dim)], n);
        for (int i = 0; i < n; i++) hits += (f[i] > 0) == (d.y[size_t(start + i)] > 0);
      }
      series_[size_t(sign_ + which)].values.push_back(double(hits) / d.size);
    }
  }
  if (want_rd_) series_[size_t(rd_)].values.push_back(weight_rd());
  if (want_sharpness_) {
    // the probe overwrites the gradient buffer, which the coming optimizer step still needs
    std::vector<double>& g = mlp_.grads();
    std::copy(g.begin(), g.end(), grads_before_.begin());
    series_[size_t(sharpness_)].values.push_back(hessian_->top_eigenvalue());
    std::copy(grads_before_.begin(), grads_before_.end(), g.begin());
  }
  if (gd_auto_) series_[size_t(gd_lr_)].values.push_back(eta_);
  if (gradient_loss_) {  // the derivative term alone (train_loss stays the plain MSE, comparable across runs)
    const GradientLoss::Value v =
        gradient_loss_->evaluate(mlp_, train.x.data(), train.y.data(), target_slope_.data(), train.size, false);
    series_[size_t(slope_loss_)].values.push_back(v.slope);
  }
  if (want_condensation_) {
    series_[size_t(condensation_)].values.push_back(condensation_probe_->antipodal_share(mlp_));
    series_[size_t(condensation_ + 1)].values.push_back(condensation_probe_->condensed_lines(mlp_));
  }
}

void Run::estimate_step_size() {
  // η needs λ_max to a few digits only: a loose tolerance saves most of the Hessian-vector products
  const double lambda = hessian_->top_eigenvalue(kAutoStepIters, kAutoStepTol);
  eta_ = lambda > 0 ? spec_.optimizer.lr / lambda : coords_.lr;
}

bool Run::auto_step(int t, double loss) {
  std::vector<double>& theta = mlp_.params();
  std::copy(mlp_.grads().begin(), mlp_.grads().end(), grads_before_.begin());
  if (t % kAutoStepEvery == 0 || eta_ <= 0) estimate_step_size();
  std::copy(theta.begin(), theta.end(), params_before_.begin());
  for (int attempt = 0; attempt < 30; attempt++) {
    optimizer_.set_lr(eta_);
    optimizer_.step(theta.data(), grads_before_.data());
    const double next = dataset_loss(data_.train, nullptr);
    if (std::isfinite(next) && next <= loss * (1 + kAutoStepTolerance)) return true;
    std::copy(params_before_.begin(), params_before_.end(), theta.begin());
    eta_ *= 0.5;
  }
  return false;
}

std::string Run::label() const {
  char buf[96];
  if (transformer_) {
    char gamma[32] = "";  // γ only where it sets the init
    if (spec_.model.transformer.init == InitScheme::gamma) std::snprintf(gamma, sizeof gamma, " gamma=%g", coords_.gamma);
    std::snprintf(buf, sizeof buf, "d=%d lr=%g%s wd=%g seed=%llu", mlp_.dims()[1], coords_.lr, gamma,
                  coords_.weight_decay, static_cast<unsigned long long>(coords_.seed));
    return buf;
  }
  std::snprintf(buf, sizeof buf, "n=%d lr=%g seed=%llu", coords_.width > 0 ? coords_.width : mlp_.dims()[1],
                coords_.lr, static_cast<unsigned long long>(coords_.seed));
  if (spec_.parametrization.preset == Preset::two_layer_gamma) {
    char phase[64];
    std::snprintf(phase, sizeof phase, " gamma=%g gamma'=%g", coords_.phase.gamma, coords_.phase.gamma_prime);
    return std::string(buf) + phase;
  }
  return buf;
}

const Series* Run::find_series(const std::string& name) const {
  for (const Series& s : series_)
    if (s.name == name) return &s;
  return nullptr;
}

Run::Batch Run::next_batch() {
  const Dataset& train = data_.train;
  if (batch_size_ == train.size) return {train.x.data(), train.y.data(), train.labels.data(), train.size};
  const int* rows = next_batch_rows();
  const int d = train.input_dim, o = train.outputs;
  for (int b = 0; b < batch_size_; b++) {
    const int i = rows[b];
    std::copy_n(&train.x[size_t(i) * size_t(d)], d, &batch_x_[size_t(b) * size_t(d)]);
    if (data_.classification) batch_labels_[size_t(b)] = train.labels[size_t(i)];
    else std::copy_n(&train.y[size_t(i) * size_t(o)], o, &batch_y_[size_t(b) * size_t(o)]);
  }
  return {batch_x_.data(), batch_y_.data(), batch_labels_.data(), batch_size_};
}

const int* Run::next_batch_rows() {
  const int train_size = data_.train.size;
  if (order_pos_ + batch_size_ > train_size) {  // new epoch: Fisher-Yates shuffle
    for (int i = train_size - 1; i > 0; i--) std::swap(order_[size_t(i)], order_[batch_rng_.below(uint64_t(i) + 1)]);
    order_pos_ = 0;
  }
  const int* rows = &order_[size_t(order_pos_)];
  order_pos_ += batch_size_;
  return rows;
}

double Run::batch_loss(const Batch& b, double* dout, int* correct) {
  return mse_or_cross_entropy(mlp_.forward(b.x, b.size), b, dout, correct);
}

double Run::mse_or_cross_entropy(const double* f, const Batch& b, double* dout, int* correct) const {
  if (data_.classification) return cross_entropy_loss(f, b.labels, b.size, data_.outputs, dout, correct);
  return mse_loss(f, b.y, b.size, data_.outputs, dout);
}

double Run::dataset_loss(const Dataset& d, int* correct) {
  double sum = 0;
  int hits = 0;
  for (int start = 0; start < d.size; start += mlp_.max_batch()) {
    const int n = std::min(mlp_.max_batch(), d.size - start);
    const Batch b{&d.x[size_t(start) * size_t(d.input_dim)],
                  data_.classification ? nullptr : &d.y[size_t(start) * size_t(d.outputs)],
                  data_.classification ? &d.labels[size_t(start)] : nullptr, n};
    int chunk_hits = 0;
    sum += batch_loss(b, nullptr, &chunk_hits) * n;
    hits += chunk_hits;
  }
  if (correct) *correct = hits;
  return sum / d.size;
}

void Run::measure_probe(int index) {
  mlp_.forward(data_.train.x.data(), probe_size_);
  long offset = 0;
  for (int l = 0; l < mlp_.layers(); l++) {
    const long n = long(probe_size_) * mlp_.dims()[size_t(l) + 1];
    const double* h = mlp_.preactivation(l);
    double* h0 = probe_init_.empty() ? nullptr : &probe_init_[size_t(offset)];
    if (h0 && index == 0) std::copy_n(h, n, h0);
    double sum = 0, sum_delta = 0;
    for (long i = 0; i < n; i++) {
      sum += h[i] * h[i];
      if (h0) sum_delta += (h[i] - h0[i]) * (h[i] - h0[i]);
    }
    if (want_act_) series_[size_t(act_rms_ + l)].values.push_back(std::sqrt(sum / double(n)));
    if (want_delta_) series_[size_t(act_delta_ + l)].values.push_back(std::sqrt(sum_delta / double(n)));
    offset += n;
  }
}

void Run::record(int t, double train_loss) {
  const int index = int(recorded_steps_.size());
  recorded_steps_.push_back(t);
  if (std::isnan(train_loss)) train_loss = dataset_loss(data_.train, nullptr);
  series_[size_t(train_loss_)].values.push_back(train_loss);
  if (want_batch_mean_) series_[size_t(batch_mean_)].values.push_back(batch_loss_sum_ / batch_losses_);
  if (want_test_ || want_accuracy_) {
    int correct = 0;
    const double loss = dataset_loss(data_.test, &correct);
    if (want_test_) series_[size_t(test_loss_)].values.push_back(loss);
    if (want_accuracy_) series_[size_t(test_accuracy_)].values.push_back(double(correct) / data_.test.size);
  }
  if (want_act_ || want_delta_) measure_probe(index);
  if (want_weight_delta_) measure_weight_change();
  record_phenomena();
}

void Run::measure_weight_change() {
  // The trained w and the effective W = n^-a w differ by a constant factor, which cancels in the ratio.
  long offset = 0;
  for (int l = 0; l < mlp_.layers(); l++) {
    const double change = spectral_norm(mlp_.weights(l), &params_init_[size_t(offset)], mlp_.dims()[size_t(l) + 1],
                                        mlp_.dims()[size_t(l)], power_u_.data(), power_v_.data());
    const double init = init_norm_[size_t(l)];  // 0 for a zero-initialized layer: the ratio is undefined
    series_[size_t(weight_delta_ + l)].values.push_back(init > 0 ? change / init : NAN);
    offset += mlp_.layer_size(l);
  }
}

void Run::fail(const std::string& why) {
  status_ = RunStatus::failed;
  error_ = why;
}

void Run::diverge(int t) {
  status_ = RunStatus::diverged;
  diverged_at_ = t;
}

void Run::step() {
  if (done()) return;
  if (transformer_) return gpu_ ? gpu_step() : transformer_step();
  if (gpu_) return gpu_step();
  const int t = step_;
  const Batch b = next_batch();
  double loss = 0;
  if (gradient_loss_) {  // full batch (check_spec): the target's slopes line up with the train rows
    const GradientLoss::Value v = gradient_loss_->evaluate(mlp_, b.x, b.y, target_slope_.data(), b.size, true);
    if (!std::isfinite(v.total()) || v.total() > spec_.schedule.divergence_loss) return diverge(t);
    loss = v.mse;
  } else if (mlp_.dropout() > 0) {
    loss = mse_or_cross_entropy(mlp_.forward_train(b.x, b.size, dropout_rng_), b, dout_.data(), nullptr);
  } else {
    loss = batch_loss(b, dout_.data(), nullptr);
  }
  if (!std::isfinite(loss) || loss > spec_.schedule.divergence_loss) return diverge(t);
  if (spec_.schedule.stop_loss_ratio > 0 && loss <= spec_.schedule.stop_loss_ratio * zero_loss_) {
    record(t, mlp_.dropout() > 0 ? NAN : loss);  // reached the target loss: this is the run's last record
    status_ = RunStatus::finished;
    reached_stop_loss_ = true;
    return;
  }
  batch_loss_sum_ += loss;
  batch_losses_++;
  if (!gradient_loss_) mlp_.backward(dout_.data(), b.size);
  // a dropout step's loss is not the train loss: record() measures that without dropout
  const bool loss_is_train_loss = b.size == data_.train.size && mlp_.dropout() == 0;
  if (t % spec_.schedule.record_every == 0) record(t, loss_is_train_loss ? loss : NAN);
  if (gd_auto_) {
    if (!auto_step(t, loss)) return diverge(t);
  } else {
    optimizer_.step(mlp_.params().data(), mlp_.grads().data());
  }
  step_ = t + 1;
  if (step_ == spec_.schedule.steps) {
    const double final_loss = dataset_loss(data_.train, nullptr);
    if (!std::isfinite(final_loss) || final_loss > spec_.schedule.divergence_loss) return diverge(step_);
    record(step_, final_loss);
    status_ = RunStatus::finished;
  }
}
