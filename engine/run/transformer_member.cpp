#include "engine/run/transformer_member.hpp"

#include <cstdio>

namespace {

AnchorTrainerConfig trainer_config(const ExperimentSpec& s, const MemberCoords& c) {
  AnchorTrainerConfig t;
  t.model = transformer_config(s.model.transformer, s.task.anchor, c.width);
  t.init = transformer_init(s.model.transformer, s.parametrization, c.gamma);
  t.optimizer = s.optimizer;
  t.optimizer.lr = c.lr;
  t.optimizer.weight_decay = c.weight_decay;
  t.schedule = {int(s.schedule.warmup_fraction * s.schedule.steps), s.schedule.steps, s.schedule.cosine,
                s.schedule.final_lr_fraction};
  t.clip_norm = s.schedule.clip_norm;
  t.batch_size = s.schedule.batch_size;
  t.precision = arithmetic_precision(s);
  return t;
}

}  // namespace

TransformerMember::TransformerMember(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords)
    : Member(spec, data, coords), trainer_(trainer_config(spec, coords), data.anchor, coords.seed) {
  add_probes(record_);
}

int TransformerMember::width() const { return trainer_.config().model.d_model; }

std::string TransformerMember::label() const {
  char buf[96];
  char gamma[32] = "";  // γ only where it sets the init
  if (spec_.model.transformer.init == InitScheme::gamma) std::snprintf(gamma, sizeof gamma, " gamma=%g", coords_.gamma);
  std::snprintf(buf, sizeof buf, "d=%d lr=%g%s wd=%g seed=%llu", width(), coords_.lr, gamma, coords_.weight_decay,
                static_cast<unsigned long long>(coords_.seed));
  return buf;
}

void TransformerMember::record_step(int t) {
  begin_record();
  record_.train_loss = record_.train().loss;
  record(t);
}

void TransformerMember::finish() {
  record_step(step_);
  if (diverging(record_.train_loss)) return diverge(step_);
  status_ = RunStatus::finished;
}

void TransformerMember::step() {
  if (done()) return;
  if (gpu_) return gpu_step();
  const int t = step_;
  if (t % spec_.schedule.record_every == 0) record_step(t);
  const double loss = trainer_.train_step(t);
  if (diverging(loss)) return diverge(t);
  batch_loss_sum_ += loss;
  batch_losses_++;
  step_ = t + 1;
  if (step_ == spec_.schedule.steps) finish();
}
