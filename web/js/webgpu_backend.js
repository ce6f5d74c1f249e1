// WebGPU execution of the engine's kernel plans (engine/gpu/gpu_plan.hpp), in the page and under node (npm `webgpu`).
//
// The engine decides *what* runs: a plan is a list of buffers (float32, sizes in elements) and an ordered list of
// dispatches, each "kernel, buffer ids, ints, floats". This module only knows *how* to run a kernel: which WGSL file
// (shaders/), which override constants, and how many workgroups. It holds no training logic.
//
// Why plain JS and not emscripten's webgpu.h: emscripten 3.1.6 ships the early-2022 WebGPU API, which Chromium 156
// rejects (`dispatch` is now `dispatchWorkgroups`, a pipeline layout is required, `loadValue` and
// `getPreferredFormat` are gone). The C++ side reaches this module through EM_JS (web/app/webgpu_device.cpp) and
// window.muplayGpu (web/js/page.js sets it).
import { tr } from './language.js';  // its reasons are shown in the page's language

const ELEMENTWISE = 256;  // invocations per workgroup of the 1-D kernels
const MAX_GROUPS = 65535;  // WebGPU's per-dimension limit on workgroups

// n items, `per` per workgroup: a 1-D grid split over x and y past the limit (shaders/common.wgsl: flat_index).
function grid1d(n, per) {
  const groups = Math.max(1, Math.ceil(n / per));
  return groups <= MAX_GROUPS ? [groups, 1] : [MAX_GROUPS, Math.ceil(groups / MAX_GROUPS)];
}
const gemmGrid = ([m, n]) => [Math.ceil(n / 64), Math.ceil(m / 64)];
const attentionGrid = ([batch, T, heads]) => grid1d(batch * heads * T, 64);

// kernel name -> WGSL files (concatenated after common.wgsl), override constants, grid from the ints.
// Bindings are @binding(1..) in the order of the plan's buffer ids; @binding(0) is the uniform block.
export const KERNELS = {
  gemm_nn: { files: ['gemm.wgsl'], constants: { TRANS_A: 0, TRANS_B: 0 }, grid: gemmGrid },
  gemm_nt: { files: ['gemm.wgsl'], constants: { TRANS_A: 0, TRANS_B: 1 }, grid: gemmGrid },
  gemm_tn: { files: ['gemm.wgsl'], constants: { TRANS_A: 1, TRANS_B: 0 }, grid: gemmGrid },
  // The same with vec4 loads from global memory, where the operands' rows are 16-byte aligned (vec4Variant).
  gemm_nn_vec4: { files: ['gemm_vec4.wgsl'], constants: { TRANS_A: 0, TRANS_B: 0 }, grid: gemmGrid },
  gemm_nt_vec4: { files: ['gemm_vec4.wgsl'], constants: { TRANS_A: 0, TRANS_B: 1 }, grid: gemmGrid },
  gemm_tn_vec4: { files: ['gemm_vec4.wgsl'], constants: { TRANS_A: 1, TRANS_B: 0 }, grid: gemmGrid },
  bias_act_forward: { files: ['activation.wgsl', 'bias_act_forward.wgsl'], grid: ([r, c]) => grid1d(r * c, ELEMENTWISE) },
  bias_act_backward: { files: ['activation.wgsl', 'bias_act_backward.wgsl'], grid: ([r, c]) => grid1d(r * c, ELEMENTWISE) },
  reduce_sum: { files: ['reduce_sum.wgsl'], grid: () => [1, 1] },
  reduce_rows: { files: ['reduce_rows.wgsl'], grid: ([, c]) => grid1d(c, ELEMENTWISE) },
  gather_rows: { files: ['gather_rows.wgsl'], grid: ([r, c]) => grid1d(r * c, ELEMENTWISE) },
  mse: { files: ['mse.wgsl'], grid: ([r, c]) => grid1d(r * c, ELEMENTWISE) },
  cross_entropy: { files: ['cross_entropy.wgsl'], grid: ([r]) => grid1d(r, ELEMENTWISE) },
  layernorm_forward: { files: ['layernorm_forward.wgsl'], grid: ([r]) => grid1d(r, 1) },
  layernorm_backward: { files: ['layernorm_backward.wgsl'], grid: ([r]) => grid1d(r, 1) },
  layernorm_param_grad: { files: ['layernorm_param_grad.wgsl'], grid: ([, c]) => grid1d(c, ELEMENTWISE) },
  attention_forward: { files: ['attention_forward.wgsl'], grid: attentionGrid },
  attention_backward_q: { files: ['attention_backward_q.wgsl'], grid: attentionGrid },
  attention_backward_kv: { files: ['attention_backward_kv.wgsl'], grid: attentionGrid },
  sgd: { files: ['sgd.wgsl'], grid: ([n]) => grid1d(n, ELEMENTWISE) },
  adam: { files: ['adam.wgsl'], grid: ([n]) => grid1d(n, ELEMENTWISE) },
  // The Transformer's training step (engine/gpu/transformer_gpu_plan.hpp).
  embedding_forward: { files: ['embedding_forward.wgsl'], grid: ([rows, , D]) => grid1d(rows * D, ELEMENTWISE) },
  embedding_backward: { files: ['embedding_backward.wgsl'],
    grid: ([, T, D, vocab]) => grid1d(Math.max(T, vocab) * D, ELEMENTWISE) },
  take_last_rows: { files: ['take_last_rows.wgsl'], grid: ([b, , c]) => grid1d(b * c, ELEMENTWISE) },
  put_last_rows: { files: ['put_last_rows.wgsl'], grid: ([b, T, c]) => grid1d(b * T * c, ELEMENTWISE) },
  add_into: { files: ['add_into.wgsl'], grid: ([n]) => grid1d(n, ELEMENTWISE) },
  sum_squares: { files: ['sum_squares.wgsl'], grid: () => [1, 1] },
  clip_scale: { files: ['clip_scale.wgsl'], grid: ([n]) => grid1d(n, ELEMENTWISE) },
};

// A GEMM whose operands' contiguous dimensions are multiples of 4 runs the vec4-load variant: a choice of speed
// only (the results are the same), so it is made here and the engine's plans name the plain kernel.
function vec4Variant(kernel, [m, n, k]) {
  const aligned = { gemm_nn: k % 4 === 0 && n % 4 === 0, gemm_nt: k % 4 === 0, gemm_tn: m % 4 === 0 && n % 4 === 0 };
  return aligned[kernel] ? `${kernel}_vec4` : kernel;
}

// Reads every shader file once: loadSource(name) -> Promise<string> (fetch in the page, fs under node).
export async function loadShaders(loadSource) {
  const names = new Set(['common.wgsl']);
  for (const k of Object.values(KERNELS)) for (const f of k.files) names.add(f);
  const sources = {};
  await Promise.all([...names].map(async (n) => { sources[n] = await loadSource(n); }));
  return sources;
}

// The adapter's name for people, and whether it is a software fallback (SwiftShader in headless Chromium).
function describeAdapter(adapter) {
  const info = adapter.info ?? {};
  const name = info.description || [info.vendor, info.architecture, info.device].filter(Boolean).join(' ') || 'unknown GPU';
  return { name, isFallback: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter) };
}

// Opens a device. Resolves to a GpuBackend, or throws an Error whose message says why there is none.
export async function openGpu({ gpu = globalThis.navigator?.gpu, loadSource, timeoutMs = 5000 } = {}) {
  if (!gpu) throw new Error(tr('this browser has no WebGPU (navigator.gpu is missing)'));
  const timeout = (what) => new Promise((_, reject) => setTimeout(() => reject(new Error(tr('{what} timed out', { what }))), timeoutMs));
  const adapter = await Promise.race([gpu.requestAdapter({ powerPreference: 'high-performance' }), timeout('requestAdapter')]);
  if (!adapter) throw new Error(tr('no WebGPU adapter is available'));
  const device = await Promise.race([adapter.requestDevice(), timeout('requestDevice')]);
  const sources = await loadShaders(loadSource);
  return new GpuBackend(device, describeAdapter(adapter), sources);
}

export class GpuBackend {
  constructor(device, adapter, sources) {
    this.device = device;
    this.adapter = adapter;  // { name, isFallback }
    this.sources = sources;
    this.pipelines = new Map();
    this.plans = new Map();
    this.nextPlan = 1;
    this.lostReason = '';
    this.errors = [];
    this.reads = new Map();
    this.nextTicket = 1;
    // The device's own reason wins over a failed read's, which is only the loss seen from one call.
    device.lost.then((info) => { this.lostReason = info.message || info.reason || 'device lost'; });
    // A validation or out-of-memory error means the results can no longer be trusted: treat it as a lost device,
    // so the engine moves the run to the CPU.
    device.addEventListener?.('uncapturederror', (e) => {
      const message = e.error?.message ?? String(e.error);
      this.errors.push(message);
      this.lostReason ||= `WebGPU error: ${message}`;
    });
  }

  get lost() { return this.lostReason !== ''; }

  pipelineDescriptor(name) {
    const k = KERNELS[name];
    if (!k) throw new Error(`unknown kernel ${name}`);
    const code = ['common.wgsl', ...k.files].map((f) => this.sources[f]).join('\n');
    const module = this.device.createShaderModule({ code, label: name });
    return { label: name, layout: 'auto', compute: { module, entryPoint: 'main', constants: k.constants ?? {} } };
  }

  pipeline(name) {
    let p = this.pipelines.get(name);
    if (!p) {
      p = this.device.createComputePipeline(this.pipelineDescriptor(name));
      this.pipelines.set(name, p);
    }
    return p;
  }

  // plan: { buffers: [size, ...] (float32 elements), phases: [[{ kernel, buffers: [id, ...], ints, floats }, ...], ...] }
  // (engine/gpu/gpu_plan.hpp: plan_to_json). Buffers are created zeroed; uniform blocks and bind groups are built once
  // here, so running a phase only encodes its dispatches.
  createPlan(plan) {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const buffers = plan.buffers.map((size) => this.device.createBuffer({ size: 4 * Math.max(1, size), usage }));
    const phases = plan.phases.map((ops) => ops.map((op) => {
      const block = new ArrayBuffer(64);  // 8 u32 then 8 f32 (shaders/common.wgsl)
      new Uint32Array(block, 0, 8).set((op.ints ?? []).slice(0, 8));
      new Float32Array(block, 32, 8).set((op.floats ?? []).slice(0, 8));
      const uniform = this.device.createBuffer({ size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      this.device.queue.writeBuffer(uniform, 0, block);
      const kernel = vec4Variant(op.kernel, op.ints ?? []);
      const pipeline = this.pipeline(kernel);
      const entries = [{ binding: 0, resource: { buffer: uniform } },
        ...op.buffers.map((id, i) => ({ binding: i + 1, resource: { buffer: buffers[id] } }))];
      const bindGroup = this.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
      return { pipeline, bindGroup, uniform, grid: KERNELS[kernel].grid(op.ints ?? []) };
    }));
    const id = this.nextPlan++;
    this.plans.set(id, { buffers, phases });
    return id;
  }

  releasePlan(id) {
    const plan = this.plans.get(id);
    if (!plan) return;
    for (const b of plan.buffers) b.destroy();
    for (const op of plan.phases.flat()) op.uniform.destroy();
    this.plans.delete(id);
  }

  write(id, buffer, data) {
    this.device.queue.writeBuffer(this.plans.get(id).buffers[buffer], 0, data);
  }

  // Encodes a phase's dispatches (`times` times over) into one command buffer and submits it (no waiting).
  run(id, phase = 0, times = 1) {
    const plan = this.plans.get(id);
    const encoder = this.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    for (let t = 0; t < times; t++) {
      for (const op of plan.phases[phase]) {
        pass.setPipeline(op.pipeline);
        pass.setBindGroup(0, op.bindGroup);
        pass.dispatchWorkgroups(op.grid[0], op.grid[1]);
      }
    }
    pass.end();
    this.device.queue.submit([encoder.finish()]);
  }

  // Copies buffers back: resolves to one Float32Array per id (of `counts[i]` elements, default the whole buffer).
  async read(id, ids, counts = []) {
    const plan = this.plans.get(id);
    const encoder = this.device.createCommandEncoder();
    const staging = ids.map((b, i) => {
      const bytes = counts[i] !== undefined ? 4 * Math.max(1, counts[i]) : plan.buffers[b].size;
      const s = this.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyBufferToBuffer(plan.buffers[b], 0, s, 0, bytes);
      return s;
    });
    this.device.queue.submit([encoder.finish()]);
    return Promise.all(staging.map(async (s) => {
      await s.mapAsync(GPUMapMode.READ);
      const data = new Float32Array(s.getMappedRange().slice(0));
      s.unmap();
      s.destroy();
      return data;
    }));
  }

  // Polling form of read() for callers that cannot await (the wasm frame loop, web/app/webgpu_device.cpp):
  // requestRead returns a ticket; readState(ticket) is 0 while pending, 1 when ready, -1 on failure.
  requestRead(id, ids) {
    const ticket = this.nextTicket++;
    const entry = { state: 0, data: null };
    this.reads.set(ticket, entry);
    this.read(id, ids).then((data) => { entry.state = 1; entry.data = data; },
                            (e) => { entry.state = -1; this.lostReason ||= `reading back failed: ${e.message ?? e}`; });
    return ticket;
  }

  readState(ticket) { return this.reads.get(ticket)?.state ?? -1; }
  readData(ticket) { return this.reads.get(ticket).data; }
  forgetRead(ticket) { this.reads.delete(ticket); }
}
