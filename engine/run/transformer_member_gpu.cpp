// A TransformerMember on a device: AnchorTrainer::train_step run as a kernel plan
// (engine/gpu/transformer_gpu_plan.hpp) on a GpuDevice, in float32, by the members' stepper
// (engine/run/member_gpu.cpp); the gradient comes back before clipping, and the step buffer carries the learning-rate
// schedule's factor. Here: the plan, its data and weights, and what the stepper asks of a Transformer.
#include "engine/gpu/gpu_training.hpp"
#include "engine/gpu/transformer_gpu_plan.hpp"
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
  const AnchorSet& train = data_.anchor.train;
  const int batch = spec_.schedule.batch_size == 0 ? train.size : spec_.schedule.batch_size;
  const TransformerGpuPlan p = build_transformer_gpu_plan(trainer_.model(), trainer_.config().optimizer,
                                                          trainer_.config().clip_norm, batch, train.size,
                                                          spec_.schedule.record_every);
  auto g = std::make_unique<GpuTraining>();
  g->plan = device->create_plan(p.plan);
  g->layout = p;
  g->upload.assign(train.tokens.begin(), train.tokens.end());
  device->write(g->plan, p.train_tokens, g->upload.data(), long(g->upload.size()));
  g->upload.assign(train.labels.begin(), train.labels.end());
  device->write(g->plan, p.train_labels, g->upload.data(), long(g->upload.size()));
  const std::vector<TransformerTensor>& tensors = trainer_.model().tensors();
  for (size_t i = 0; i < tensors.size(); i++) {
    upload_floats(*device, g->plan, p.weights[i], trainer_.model().params().data() + tensors[i].offset,
                  tensors[i].size(), g->upload);
    g->offsets.push_back(tensors[i].offset);
  }
  g->index.resize(size_t(batch));
  g->step_data.resize(4);
  g->schedule = &trainer_.config().schedule;
  start_gpu(std::move(g), device);
}

Member::HostState TransformerMember::host_state() {
  Transformer& model = trainer_.model();
  return {model.params().data(), model.grads().data(), trainer_.optimizer().first_moment().data(),
          trainer_.optimizer().second_moment().data()};
}

// Clip, AdamW with the schedule (AnchorTrainer::update), from the gradient that came back.
void TransformerMember::finish_update(int t) {
  trainer_.optimizer().set_steps_taken(t);
  trainer_.update(t);
}
