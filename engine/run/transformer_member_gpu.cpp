// A TransformerMember on a device: AnchorTrainer::train_step run as a kernel plan
// (engine/gpu/transformer_gpu_plan.hpp) on a GpuDevice, in float32, with the MLP's protocol
// (engine/run/mlp_member_gpu.cpp): the host draws each mini-batch as the CPU path does and writes its row indices
// and the step buffer; on a record step t the device copies back θ_t, ∂L/∂θ_t (before clipping), the Adam moments
// and the batch losses between the forward/backward and update phases, and the metrics are measured on the CPU
// from θ_t, exactly where TransformerMember::step measures them. The same copy is the checkpoint a lost device falls
// back to.
#include <cmath>

#include "engine/gpu/gpu_training.hpp"
#include "engine/run/transformer_member.hpp"

void TransformerMember::start_on(GpuDevice* device, const std::string& why_none) {
  const BackendChoice choice = choose_backend(spec_.backend, device, why_none);
  backend_note_ = choice.note;
  if (!choice.gpu) return;
  const std::string unsupported = transformer_gpu_unsupported(trainer_.config().model, trainer_.config().optimizer);
  if (!unsupported.empty()) {
    backend_note_ = "Training on the CPU: " + unsupported + ".";
    return;
  }
  auto g = std::make_unique<GpuTraining>();
  g->device = device;
  gpu_name_ = device->name();
  const AnchorSet& train = data_.anchor.train;
  const int batch = spec_.schedule.batch_size == 0 ? train.size : spec_.schedule.batch_size;
  g->transformer_layout = build_transformer_gpu_plan(trainer_.model(), trainer_.config().optimizer,
                                                     trainer_.config().clip_norm, batch, train.size,
                                                     spec_.schedule.record_every);
  const TransformerGpuPlan& p = g->transformer_layout;
  g->plan = device->create_plan(p.plan);
  g->upload.assign(train.tokens.begin(), train.tokens.end());
  device->write(g->plan, p.train_tokens, g->upload.data(), long(g->upload.size()));
  g->upload.assign(train.labels.begin(), train.labels.end());
  device->write(g->plan, p.train_labels, g->upload.data(), long(g->upload.size()));
  const std::vector<TransformerTensor>& tensors = trainer_.model().tensors();
  for (size_t i = 0; i < tensors.size(); i++)
    upload_floats(*device, g->plan, p.weights[i], trainer_.model().params().data() + tensors[i].offset,
                  tensors[i].size(), g->upload);
  g->index.resize(size_t(batch));
  g->step_data.resize(4);
  const AnchorTrainer::BatchCursor& c = trainer_.cursor();
  g->committed.rng = c.rng;
  g->committed.order = c.order;
  g->committed.order_pos = c.pos;
  gpu_ = std::move(g);
}

void TransformerMember::gpu_issue_step() {
  GpuTraining& g = *gpu_;
  const TransformerGpuPlan& p = g.transformer_layout;
  const int t = step_;
  const int* rows = trainer_.next_batch_rows();
  for (size_t b = 0; b < g.index.size(); b++) g.index[b] = float(rows[b]);
  g.device->write(g.plan, p.batch_index, g.index.data(), long(g.index.size()));
  // Adam's bias corrections for update t + 1 and the schedule's factor at t (as AnchorTrainer::update, in double).
  set_step_data(g.step_data, t, p.loss_slots, trainer_.config().optimizer);
  g.step_data[3] = float(lr_schedule_factor(trainer_.config().schedule, t));
  g.device->write(g.plan, p.step, g.step_data.data(), 4);
  g.device->run(g.plan, TransformerGpuPlan::forward_backward);
  if (t % spec_.schedule.record_every == 0) {
    const AnchorTrainer::BatchCursor& cur = trainer_.cursor();
    g.pending.save(t, cur.rng, cur.order, cur.pos);
    g.read_step = t;
    gpu_request_read(false);
  }
  g.device->run(g.plan, TransformerGpuPlan::update);
  step_ = t + 1;
  if (step_ == spec_.schedule.steps && g.ticket < 0) gpu_request_read(true);
}

// A record read carries the loss history, then per tensor its weights, gradient and moments; the final read the
// loss history and the weights.
void TransformerMember::gpu_request_read(bool final_read) {
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

void TransformerMember::gpu_absorb_read() {
  GpuTraining& g = *gpu_;
  double loss = NAN;
  if (!absorb_batch_losses(g.transformer_layout.loss_slots, &loss)) return;
  Transformer& model = trainer_.model();
  std::vector<double>& m = trainer_.optimizer().first_moment();
  std::vector<double>& v = trainer_.optimizer().second_moment();
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
    record_step(g.read_step);
    if (step_ == spec_.schedule.steps) gpu_request_read(true);
    return;
  }
  // As TransformerMember::step ends a run: the measurements of the trained parameters.
  release_gpu();
  finish();
}

// Continues on the CPU from the last record read: finish that step's update from its gradient (clip, AdamW with
// the schedule) and go on from the next step, with the batch order rewound; or start over when nothing came back.
void TransformerMember::gpu_fall_back(const std::string& why) {
  const GpuTraining::Checkpoint& c = gpu_->committed;
  const int lost_at = step_;
  trainer_.set_cursor({c.rng, c.order, c.order_pos});
  if (c.step >= 0) {
    trainer_.optimizer().set_steps_taken(c.step);
    trainer_.update(c.step);
  }
  step_ = c.step + 1;
  note_moved_to_cpu(why, lost_at);
}
