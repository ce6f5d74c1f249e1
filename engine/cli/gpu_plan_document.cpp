#include "engine/cli/gpu_plan_document.hpp"

#include "engine/gpu/mlp_gpu_plan.hpp"
#include "engine/gpu/transformer_gpu_plan.hpp"
#include "engine/run/runner.hpp"

json::Value mlp_gpu_plan_document(const ExperimentSpec& spec, const std::string& fashion_mnist_dir) {
  const Runner runner(spec, fashion_mnist_dir);
  const Member& run = *runner.members().front();
  const Mlp& mlp = *run.mlp();
  const int train_size = runner.data().train.size;
  const int batch = spec.schedule.batch_size == 0 ? train_size : spec.schedule.batch_size;
  OptimizerConfig opt = spec.optimizer;
  opt.lr = run.coords().lr;
  const MlpGpuPlan p = build_mlp_gpu_plan(mlp, opt, layer_slices(mlp), batch, train_size, runner.data().classification,
                                          spec.schedule.record_every);
  double flops = 0;
  for (int l = 0; l < mlp.layers(); l++) flops += (l == 0 ? 4.0 : 6.0) * batch * double(mlp.layer_size(l));
  json::Value doc = json::Value::make_object();
  doc.set("plan", plan_to_json(p.plan));
  doc.set("step", json::Value::make_number(p.step));
  doc.set("batch_index", json::Value::make_number(p.batch_index));
  doc.set("ones", json::Value::make_number(p.ones));
  doc.set("train_size", json::Value::make_number(train_size));
  doc.set("batch", json::Value::make_number(batch));
  doc.set("flops_per_step", json::Value::make_number(flops));
  return doc;
}

json::Value transformer_gpu_plan_document(const ExperimentSpec& spec, const std::string& fashion_mnist_dir) {
  const Runner runner(spec, fashion_mnist_dir);
  const Member& run = *runner.members().front();
  const Transformer& model = run.transformer()->model();
  const int train_size = runner.data().anchor.train.size;
  const int batch = spec.schedule.batch_size == 0 ? train_size : spec.schedule.batch_size;
  OptimizerConfig opt = spec.optimizer;
  opt.lr = run.coords().lr;
  opt.weight_decay = run.coords().weight_decay;
  const TransformerGpuPlan p =
      build_transformer_gpu_plan(model, opt, spec.schedule.clip_norm, batch, train_size, spec.schedule.record_every);
  const TransformerConfig& c = model.config();
  json::Value doc = json::Value::make_object();
  auto num = [&](const char* key, double v) { doc.set(key, json::Value::make_number(v)); };
  doc.set("kind", json::Value::make_string("transformer"));
  doc.set("plan", plan_to_json(p.plan));
  num("step", p.step);
  num("batch_index", p.batch_index);
  num("train_tokens", p.train_tokens);
  num("train_labels", p.train_labels);
  num("train_size", train_size);
  num("batch", batch);
  num("vocab", c.vocab);
  num("outputs", c.outputs);
  num("seq_len", c.seq_len);
  num("flops_per_step", 3 * batch * transformer_forward_flops(c));
  return doc;
}
