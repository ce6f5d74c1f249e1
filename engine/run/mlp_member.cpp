#include "engine/run/mlp_member.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/metrics/probes.hpp"
#include "engine/spec/member_model.hpp"
#include "engine/spec/metric_table.hpp"
#include "engine/spec/spec_fields.hpp"
#include "engine/task/phenomena_tasks.hpp"

std::string mlp_cpu_only(const ExperimentSpec& s) {
  const std::string field = first_cpu_only_field(s);
  if (!field.empty()) return field;
  for (const std::string& name : s.metrics)
    if (const MetricDef* m = find_metric(name); m && !m->on_device) return "the " + name + " metric";
  return "";
}

namespace {

constexpr double kAutoStepTolerance = 0.01;  // gd_auto undoes a step that raises the loss by more than 1%
constexpr double kAutoStepTol = 1e-3;        // and needs λ_max to a few digits only

OptimizerConfig optimizer_config(const ExperimentSpec& s, const MemberCoords& c) {
  OptimizerConfig o = s.optimizer;
  o.lr = c.lr;
  return o;
}

}  // namespace

MlpMember::MlpMember(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords)
    : Member(spec, data, coords),
      mlp_(mlp_config(spec, coords)),
      optimizer_(optimizer_config(spec, coords), layer_slices(mlp_), long(mlp_.params().size())) {
  Rng init_rng = Rng::stream(coords.seed, /*purpose=*/2);
  mlp_.init(init_rng);

  const Dataset& train = data_.train;
  batch_size_ = spec.schedule.batch_size == 0 ? train.size : spec.schedule.batch_size;
  batches_ = BatchOrder(Rng::stream(coords.seed, /*purpose=*/3), train.size, /*shuffle_first=*/true);
  if (batch_size_ < train.size) {
    batch_x_.resize(size_t(batch_size_) * size_t(train.input_dim));
    batch_y_.resize(size_t(batch_size_) * size_t(train.outputs));
    batch_labels_.resize(size_t(batch_size_));
  }
  dout_.resize(size_t(mlp_.max_batch()) * size_t(data_.outputs));
  for (double y : train.y) zero_loss_ += 0.5 * y * y / train.size;

  const bool gd_auto = spec.optimizer.kind == OptimizerKind::gd_auto;
  if (records_any(spec, &MetricDef::needs_hessian) || gd_auto) {
    hessian_ = std::make_unique<HessianProbe>(mlp_, train.x.data(), train.y.data(), train.size);
    grads_before_.resize(mlp_.params().size());
    record_.hessian = hessian_.get();
  }
  if (gd_auto) params_before_.resize(mlp_.params().size());
  if (spec.task.gradient_loss) {
    gradient_loss_ = std::make_unique<GradientLoss>(mlp_);
    target_slope_.resize(size_t(train.size));
    for (int i = 0; i < train.size; i++)  // the 1-D x is the first coordinate (a folded-in bias comes after it)
      target_slope_[size_t(i)] = function_1d_slope(spec.task.target, train.x[size_t(i) * size_t(train.input_dim)]);
  }
  record_.initial_params = &initial_params_;
  add_probes(record_);
  dropout_rng_ = Rng::stream(coords.seed, /*purpose=*/4);
}

// The first hidden layer's width: with ASI, both copies of the net (2n).
int MlpMember::width() const { return mlp_.dims()[1]; }

std::string MlpMember::label() const {
  char depth[32] = "";  // L only for a residual MLP
  if (has_residual_blocks(spec_.model.kind))
    std::snprintf(depth, sizeof depth, " L=%d", residual_depth(mlp_.dims(), spec_.model.block_depth));
  char buf[96];
  std::snprintf(buf, sizeof buf, "n=%d%s lr=%g seed=%llu", coords_.width > 0 ? coords_.width : width(), depth,
                coords_.lr, static_cast<unsigned long long>(coords_.seed));
  if (spec_.parametrization.preset == Preset::two_layer_gamma) {
    char phase[64];
    std::snprintf(phase, sizeof phase, " gamma=%g gamma'=%g", coords_.phase.gamma, coords_.phase.gamma_prime);
    return std::string(buf) + phase;
  }
  return buf;
}

Rows MlpMember::next_batch() {
  const Dataset& train = data_.train;
  if (batch_size_ == train.size) return {train.x.data(), train.y.data(), train.labels.data(), train.size};
  const int* rows = batches_.next(batch_size_);
  const int d = train.input_dim, o = train.outputs;
  for (int b = 0; b < batch_size_; b++) {
    const int i = rows[b];
    std::copy_n(&train.x[size_t(i) * size_t(d)], d, &batch_x_[size_t(b) * size_t(d)]);
    if (data_.classification) batch_labels_[size_t(b)] = train.labels[size_t(i)];
    else std::copy_n(&train.y[size_t(i) * size_t(o)], o, &batch_y_[size_t(b) * size_t(o)]);
  }
  return {batch_x_.data(), batch_y_.data(), batch_labels_.data(), batch_size_};
}

void MlpMember::record_step(int t, double train_loss) {
  begin_record();
  record_.train_loss = std::isnan(train_loss) ? dataset_loss(mlp_, data_.train, data_, nullptr) : train_loss;
  record_.gd_lr = eta_;
  if (gradient_loss_) {  // the derivative term alone (train_loss stays the plain MSE, comparable across runs)
    const Dataset& train = data_.train;
    record_.slope_loss =
        gradient_loss_->evaluate(mlp_, train.x.data(), train.y.data(), target_slope_.data(), train.size, false).slope;
  }
  record(t);
}

void MlpMember::finish() {
  const double final_loss = dataset_loss(mlp_, data_.train, data_, nullptr);
  if (diverging(final_loss)) return diverge(step_);
  record_step(step_, final_loss);
  status_ = RunStatus::finished;
}

void MlpMember::estimate_step_size() {
  // η needs λ_max to a few digits only: a loose tolerance saves most of the Hessian-vector products
  const double lambda = hessian_->top_eigenvalue(kGdAutoEstimateIters, kAutoStepTol);
  eta_ = lambda > 0 ? spec_.optimizer.lr / lambda : coords_.lr;
}

bool MlpMember::auto_step(int t, double loss) {
  std::vector<double>& theta = mlp_.params();
  std::copy(mlp_.grads().begin(), mlp_.grads().end(), grads_before_.begin());
  if (t % kGdAutoEstimateEvery == 0 || eta_ <= 0) estimate_step_size();
  std::copy(theta.begin(), theta.end(), params_before_.begin());
  for (int attempt = 0; attempt < 30; attempt++) {
    optimizer_.set_lr(eta_);
    optimizer_.step(theta.data(), grads_before_.data());
    const double next = dataset_loss(mlp_, data_.train, data_, nullptr);
    if (std::isfinite(next) && next <= loss * (1 + kAutoStepTolerance)) return true;
    std::copy(params_before_.begin(), params_before_.end(), theta.begin());
    eta_ *= 0.5;
  }
  return false;
}

void MlpMember::step() {
  if (done()) return;
  if (gpu_) return gpu_step();
  const int t = step_;
  const Rows b = next_batch();
  double loss = 0;
  if (gradient_loss_) {  // full batch (check_spec): the target's slopes line up with the train rows
    const GradientLoss::Value v = gradient_loss_->evaluate(mlp_, b.x, b.y, target_slope_.data(), b.size, true);
    if (diverging(v.total())) return diverge(t);
    loss = v.mse;
  } else if (mlp_.dropout() > 0) {
    loss = loss_of_outputs(mlp_.forward_train(b.x, b.size, dropout_rng_), b, data_, dout_.data(), nullptr);
  } else {
    loss = loss_of_outputs(mlp_.forward(b.x, b.size), b, data_, dout_.data(), nullptr);
  }
  if (diverging(loss)) return diverge(t);
  // a mini-batch's or a dropout step's loss is not the train loss: record_step() measures that (without dropout)
  const bool loss_is_train_loss = b.size == data_.train.size && mlp_.dropout() == 0;
  if (spec_.schedule.stop_loss_ratio > 0 && loss <= spec_.schedule.stop_loss_ratio * zero_loss_) {
    record_step(t, loss_is_train_loss ? loss : NAN);  // reached the target loss: this is the run's last record
    status_ = RunStatus::finished;
    reached_stop_loss_ = true;
    return;
  }
  batch_loss_sum_ += loss;
  batch_losses_++;
  if (!gradient_loss_) mlp_.backward(dout_.data(), b.size);
  if (t % spec_.schedule.record_every == 0) record_step(t, loss_is_train_loss ? loss : NAN);
  if (spec_.optimizer.kind == OptimizerKind::gd_auto) {
    if (!auto_step(t, loss)) return diverge(t);
  } else {
    optimizer_.step(mlp_.params().data(), mlp_.grads().data());
  }
  step_ = t + 1;
  if (step_ == spec_.schedule.steps) finish();
}
