// The GPU half of a transformer member: AnchorTrainer::train_step run as a kernel plan
// (engine/gpu/transformer_gpu_plan.hpp) on a GpuDevice, in float32, with the MLP's protocol (engine/run/run_gpu.cpp):
// the host draws each mini-batch as the CPU path does and writes its row indices and the step buffer; on a record
// step t the device copies back θ_t, ∂L/∂θ_t (before clipping), the Adam moments and the batch losses between the
// forward/backward and update phases, and the chapter-13 measurements are taken on the CPU from θ_t, exactly where
// Run::transformer_step takes them. The same copy is the checkpoint a lost device falls back to.
#include <cmath>

#include "engine/gpu/gpu_training.hpp"
#include "engine/model/anchor_trainer.hpp"
#include "engine/run/run.hpp"

void Run::transformer_gpu_start(GpuDevice* device) {
  AnchorTrainer& tr = *transformer_;
  const std::string unsupported = transformer_gpu_unsupported(tr.config().model, tr.config().optimizer);
  if (!unsupported.empty()) {
    backend_note_ = "Training on the CPU: " + unsupported + ".";
    return;
  }
  auto g = std::make_unique<GpuTraining>();
  g->device = device;
  gpu_name_ = device->name();
  const AnchorSet& train = data_.anchor.train;
  const int batch = spec_.schedule.batch_size == 0 ? train.size : spec_.schedule.batch_size;
  g->transformer_layout = build_transformer_gpu_plan(tr.model(), tr.config().optimizer, tr.config().clip_norm, batch,
                                                     train.size, spec_.schedule.record_every);
  const TransformerGpuPlan& p = g->transformer_layout;
  g->plan = device->create_plan(p.plan);
  g->upload.assign(train.tokens.begin(), train.tokens.end());
  device->write(g->plan, p.train_tokens, g->upload.data(), long(g->upload.size()));
  g->upload.assign(train.labels.begin(), train.labels.end());
  device->write(g->plan, p.train_labels, g->upload.data(), long(g->upload.size()));
  const std::vector<TransformerTensor>& tensors = tr.model().tensors();
  for (size_t i = 0; i < tensors.size(); i++)
    upload_floats(*device, g->plan, p.weights[i], tr.model().params().data() + tensors[i].offset, tensors[i].size(),
             g->upload);
  g->index.resize(size_t(batch));
  g->step_data.resize(4);
  const AnchorTrainer::BatchCursor c = tr.cursor();
  g->committed.rng = c.rng;
  g->committed.order = c.order;
  g->committed.order_pos = c.pos;
  gpu_ = std::move(g);
}

void Run::transformer_gpu_issue_step() {
  GpuTraining& g = *gpu_;
  AnchorTrainer& tr = *transformer_;
  const TransformerGpuPlan& p = g.transformer_layout;
  const int t = step_;
  const int* rows = tr.next_batch_rows();
  for (size_t b = 0; b < g.index.size(); b++) g.index[b] = float(rows[b]);
  g.device->write(g.plan, p.batch_index, g.index.data(), long(g.index.size()));
  // Adam's bias corrections for update t + 1 and the schedule's factor at t (as AnchorTrainer::update, in double).
  set_step_data(g.step_data, t, p.loss_slots, tr.config().optimizer);
  g.step_data[3] = float(lr_schedule_factor(tr.config().schedule, t));
  g.device->write(g.plan, p.step, g.step_data.data(), 4);
  g.device->run(g.plan, TransformerGpuPlan::forward_backward);
  if (t % spec_.schedule.record_every == 0) {
    const AnchorTrainer::BatchCursor& cur = tr.cursor();
    g.pending.save(t, cur.rng, cur.order, cur.pos);
    g.read_step = t;
    transformer_gpu_request_read(false);
  }
  g.device->run(g.plan, TransformerGpuPlan::update);
  step_ = t + 1;
  if (step_ == spec_.schedule.steps && g.ticket < 0) transformer_gpu_request_read(true);
}

// A record read carries the loss history, then per tensor its weights, gradient and moments; the final read the
// loss history and the weights.
void Run::transformer_gpu_request_read(bool final_read) {
  GpuTraining& g = *gpu_;
  const TransformerGpuPlan& p = g.transformer_layout;
  std::vector<int>& ids = g.read_ids;
  ids.assign(1, p.loss_history);
  for (size_t i = 0; i < p.weights.size(); i++) {
    ids.push_back(p.weights[i]);
    if (final_read) continue;
    ids.push_back(p.grads[i]);
    ids.push_back(p.first_moment[i]);
    ids.push_back(p.second_moment[i]);
  }
  g.final_read = final_read;
  if (final_read) g.read_step = spec_.schedule.steps;
  g.ticket = g.device->request_read(g.plan, ids, {});
}

void Run::transformer_gpu_absorb_read() {
  GpuTraining& g = *gpu_;
  AnchorTrainer& tr = *transformer_;
  const TransformerGpuPlan& p = g.transformer_layout;
  const int last_loss = g.final_read ? g.read_step - 1 : g.read_step;
  const std::vector<float>& losses = g.read[0];
  for (int s = g.next_loss_step; s <= last_loss; s++) {
    const double loss = losses[size_t(s % p.loss_slots)];
    if (!std::isfinite(loss) || loss > spec_.schedule.divergence_loss) {
      g.device->release_plan(g.plan);
      gpu_.reset();
      return diverge(s);
    }
    batch_loss_sum_ += loss;
    batch_losses_++;
  }
  g.next_loss_step = last_loss + 1;
  Transformer& model = tr.model();
  std::vector<double>& m = tr.optimizer().first_moment();
  std::vector<double>& v = tr.optimizer().second_moment();
  size_t next = 1;
  for (const TransformerTensor& t : model.tensors()) {
    to_double(g.read[next++], model.params().data() + t.offset);
    if (g.final_read) continue;
    to_double(g.read[next++], model.grads().data() + t.offset);
    to_double(g.read[next++], m.data() + t.offset);
    to_double(g.read[next++], v.data() + t.offset);
  }
  if (!g.final_read) {
    g.committed = g.pending;
    record_transformer(g.read_step);
    if (step_ == spec_.schedule.steps) transformer_gpu_request_read(true);
    return;
  }
  // As Run::transformer_step ends a run: the measurements of the trained parameters.
  g.device->release_plan(g.plan);
  gpu_.reset();
  record_transformer(step_);
  const double final_loss = series_[size_t(train_loss_)].values.back();
  if (!std::isfinite(final_loss) || final_loss > spec_.schedule.divergence_loss) return diverge(step_);
  status_ = RunStatus::finished;
}

// Continues on the CPU from the last record read: finish that step's update from its gradient (clip, AdamW with
// the schedule) and go on from the next step, with the batch order rewound; or start over when nothing came back.
void Run::transformer_gpu_fall_back(const std::string& why) {
  GpuTraining& g = *gpu_;
  AnchorTrainer& tr = *transformer_;
  const GpuTraining::Checkpoint& c = g.committed;
  const int lost_at = step_;
  tr.set_cursor({c.rng, c.order, c.order_pos});
  if (c.step >= 0) {
    tr.optimizer().set_steps_taken(c.step);
    tr.update(c.step);
  }
  step_ = c.step + 1;
  gpu_.reset();
  moved_to_cpu_ = true;
  backend_note_ = why + " at step " + std::to_string(lost_at) + ": continued on the CPU from step " +
                  std::to_string(step_) + ", the last step whose state had come back.";
}
