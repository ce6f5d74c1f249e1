# ---- Training: the sweep grid, one member at a time, split across processes ----


class BatchOrder:
    """The engine's mini-batches (engine/model/batch_order.cpp): consecutive slices of a permutation of the rows,
    reshuffled by Fisher–Yates from the member's seed (stream 3) whenever the next slice would not fit."""

    def __init__(self, seed, rows, shuffle_first):
        self.rng, self.order = rng_stream(seed, 3), list(range(rows))
        self.pos = rows if shuffle_first else 0

    def next(self, batch):
        rows = len(self.order)
        if self.pos + batch > rows:
            for i in range(rows - 1, 0, -1):
                j = rng_below(self.rng, i + 1)
                self.order[i], self.order[j] = self.order[j], self.order[i]
            self.pos = 0
        self.pos += batch
        return self.order[self.pos - batch:self.pos]


def lr_factor(step):
    """Linear warm-up, then (cosine) a half cosine down to final_lr_fraction (engine/model/optimizer.cpp)."""
    s = RUN_SPEC["schedule"]
    warm = int(s["warmup_fraction"] * s["steps"])
    if step < warm:
        return (step + 1) / warm
    if not s["cosine"] or s["steps"] <= warm:
        return 1.0
    progress = min(1.0, (step - warm) / (s["steps"] - warm))
    return s["final_lr_fraction"] + (1 - s["final_lr_fraction"]) * 0.5 * (1 + math.cos(math.pi * progress))


def residual():
    return RUN_SPEC["model"]["kind"] == "residual_mlp"


def members():
    """The sweep grid in the engine's order: width, depth (a residual MLP's number of blocks), lr, weight decay, γ,
    phase point, seed (the seed fastest)."""
    sweep, opt = RUN_SPEC["sweep"], RUN_SPEC["optimizer"]
    param, model = RUN_SPEC["parametrization"], RUN_SPEC["model"]
    gammas = sweep["gamma"] or [model["transformer"]["gamma"] if "transformer" in model else 0.0]
    phases = [(g, g_prime) for g, g_prime in sweep["phase_points"]] or \
        [(param["gamma"], param["gamma_prime"])]
    depths = (sweep["depth"] or [model["depth"]]) if residual() else [None]
    return [{"width": w, "depth": d, "lr": lr, "weight_decay": wd, "gamma": g, "phase": ph, "seed": seed}
            for w in sweep["width"] or [0] for d in depths for lr in sweep["lr"] or [opt["lr"]]
            for wd in sweep["weight_decay"] or [opt["weight_decay"]] for g in gammas for ph in phases
            for seed in sweep["seeds"]]


def rules_group(member):
    """Which block of RULES a member reads: the scaling depends on γ (a Transformer's init rate) or (γ, γ′)."""
    if RUN_SPEC["model"]["kind"] == "transformer":
        return (member["gamma"],)
    if RUN_SPEC["parametrization"]["preset"] == "two_layer_gamma":
        return member["phase"]
    return ()


def member_width(member):
    if member["width"]:
        return member["width"]
    model = RUN_SPEC["model"]
    return model["transformer"]["d_model"] if model["kind"] == "transformer" else model["widths"][0]


def result_width(member):
    """The width the engine reports for a member (MlpMember::width): its first hidden layer's, so with model.asi the
    two copies' 2n."""
    return member_width(member) * (2 if RUN_SPEC["model"]["asi"] else 1)


def make_optimizer(model, rules, member):
    """One parameter group per tensor: lr = η · its multiplier; weight decay where its row says so."""
    opt = RUN_SPEC["optimizer"]
    groups = [{"params": [p], "lr": member["lr"] * rules[name][3], "initial_lr": member["lr"] * rules[name][3],
               "lr_multiplier": rules[name][3], "weight_decay": member["weight_decay"] if rules[name][4] else 0.0}
              for name, p in model.named_tensors()]
    if opt["kind"] == "sgd":
        return torch.optim.SGD(groups, lr=member["lr"], momentum=opt["momentum"])
    if opt["kind"] == "gd_auto":  # plain GD; GdAuto sets its step
        return torch.optim.SGD(groups, lr=member["lr"], momentum=0.0)
    kind = torch.optim.AdamW if opt["kind"] == "adamw" else torch.optim.Adam
    return kind(groups, lr=member["lr"], betas=(opt["beta1"], opt["beta2"]), eps=opt["eps"])


class GdAuto:
    """optimizer.kind gd_auto (engine/run/mlp_member.cpp, auto_step): full-batch GD at η = lr / λ_max(H̃), λ_max
    re-estimated every ESTIMATE_EVERY steps by the shared HessianProbe (a loose tolerance: η needs a few digits). A
    step that raises the train loss by more than LOSS_RISE is undone and taken again at η/2, which η keeps."""
    ESTIMATE_EVERY, ESTIMATE_ITERS, ESTIMATE_TOL = 100, 50, 1e-3
    LOSS_RISE, ATTEMPTS = 0.01, 30

    def __init__(self, sgd, hessian, model, train, member):
        self.sgd, self.hessian, self.model, self.train, self.member = sgd, hessian, model, train, member
        self.params = [p for g in sgd.param_groups for p in g["params"]]
        self.eta = 0.0  # the step in use (the gd_lr series): none before the first step

    def zero_grad(self):
        self.sgd.zero_grad()

    def step(self, t, loss):
        """Step t from the train loss `loss`; False when no attempt kept the loss (the member diverges there)."""
        if t % self.ESTIMATE_EVERY == 0 or self.eta <= 0:
            top = self.hessian.top_eigenvalue(self.ESTIMATE_ITERS, self.ESTIMATE_TOL)
            self.eta = RUN_SPEC["optimizer"]["lr"] / top if top > 0 else self.member["lr"]
        before = [p.detach().clone() for p in self.params]
        for _ in range(self.ATTEMPTS):
            for g in self.sgd.param_groups:
                g["lr"] = self.eta * g["lr_multiplier"]
            self.sgd.step()
            with torch.no_grad():
                after = mean_loss(self.model(self.train["x"]), self.train).item()
                if math.isfinite(after) and after <= loss * (1 + self.LOSS_RISE):
                    return True
                for p, p0 in zip(self.params, before):
                    p.copy_(p0)
            self.eta *= 0.5
        return False


def mlp_optimizer(model, rules, member, train):
    """An MLP's optimizer, and the train set's HessianProbe that the sharpness metric and gd_auto share (else None)."""
    optimizer = make_optimizer(model, rules, member)
    gd_auto = RUN_SPEC["optimizer"]["kind"] == "gd_auto"
    hessian = HessianProbe(model, rules, train) if gd_auto or "sharpness" in SERIES else None
    return (GdAuto(optimizer, hessian, model, train, member) if gd_auto else optimizer), hessian


def take_step(optimizer, t, loss):
    """Step t's update; False when gd_auto found no step that keeps the loss."""
    if isinstance(optimizer, GdAuto):
        return optimizer.step(t, loss)
    optimizer.step()
    return True


def mlp_dropout(member, dims, setup):
    """model.dropout's masks for a plain MLP of these layer widths, or None without dropout."""
    p = RUN_SPEC["model"]["dropout"]
    return Dropout(member["seed"], p, dims[1:-1], setup.device, setup.dtype) if p > 0 else None


class Run:
    """A member's outcome as the result document writes it."""

    def __init__(self, member):
        self.member, self.status, self.diverged_at, self.steps_done = member, "running", None, 0
        self.recorded_steps = []

    def diverging(self, loss):
        return not math.isfinite(loss) or loss > RUN_SPEC["schedule"]["divergence_loss"]

    def diverge(self, step):
        self.status, self.diverged_at, self.steps_done = "diverged", step, step


class Setup:
    """Where and how members train: device, dtype, processes, and whether a member is split over them (DDP)."""

    def __init__(self, args):
        self.rank = int(os.environ.get("RANK", 0))
        self.world = int(os.environ.get("WORLD_SIZE", 1))
        auto = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(auto if args.device == "auto" else args.device)
        if self.device.type == "cuda":
            if self.device.index is None:  # under torchrun: process k of a machine takes its GPU k
                self.device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
            torch.cuda.set_device(self.device)
        if self.world > 1:
            dist.init_process_group("nccl" if self.device.type == "cuda" else "gloo")
        self.dtype_name = args.dtype if args.dtype != "auto" else self.default_dtype()
        self.dtype = torch.float64 if self.dtype_name == "float64" else torch.float32  # bf16: float32 weights
        self.ddp = args.ddp_member and self.world > 1
        self.threads = args.threads or self.default_threads()
        torch.set_num_threads(self.threads)

    def default_dtype(self):
        """The spec's precision on the CPU (the engine's arithmetic); float32 on a GPU, whose float64 is slow."""
        return RUN_SPEC["precision"] if self.device.type == "cpu" else "float32"

    @staticmethod
    def default_threads():
        """The cores this process may use, shared among the processes torchrun started on this machine."""
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        return max(1, cores // int(os.environ.get("LOCAL_WORLD_SIZE", 1)))

    def device_name(self):
        """Where a member trains, as its run in the result says: "cpu" or e.g. "cuda:0 NVIDIA H200"."""
        return f"{self.device} {torch.cuda.get_device_name(self.device)}" if self.device.type == "cuda" else "cpu"

    def autocast(self):
        if self.dtype_name != "bf16":
            return torch.autocast(self.device.type, enabled=False)
        return torch.autocast(self.device.type, dtype=torch.bfloat16)

    def describe(self):
        spread = f", {self.world} processes, " + ("each member data-parallel (DDP)" if self.ddp else "members split")
        threads = f", {self.threads} thread" + ("s" if self.threads > 1 else "") if self.device.type == "cpu" else ""
        return self.device_name() + f" ({self.dtype_name}{threads}" + (spread if self.world > 1 else "") + ")"

    def wrap(self, model):
        if not self.ddp:
            return model
        ids = [self.device.index] if self.device.type == "cuda" else None
        return torch.nn.parallel.DistributedDataParallel(model, device_ids=ids)

    def shard(self, rows):
        """This process's part of a global batch: contiguous, in order (DDP averages the processes' gradients)."""
        if not self.ddp:
            return rows
        size = len(rows)
        return rows[self.rank * size // self.world:(self.rank + 1) * size // self.world]

    def global_sum(self, value):
        if not self.ddp:
            return value
        total = value.detach().clone()
        dist.all_reduce(total)
        return total


def batch_loss(net, rows, idx, setup, total_rows, keep=None):
    """The mini-batch's mean loss as one process computes its part: the sum over its rows, scaled so that DDP's
    average over processes is the mean over the global batch. `keep`: the batch's dropout masks. Returns
    (differentiable part, global mean)."""
    local = setup.shard(idx)
    part = {k: v[local] for k, v in rows.items()}
    x = part.pop("x")
    with setup.autocast():
        f = net(x) if keep is None else net(x, [setup.shard(k) for k in keep])
    loss_sum = sum_of_losses(f.to(setup.dtype), part)
    scaled = loss_sum * (setup.world if setup.ddp else 1) / total_rows
    return scaled, (setup.global_sum(loss_sum) / total_rows).item()


def gradient_batch_loss(net, rows, slopes, setup, total_rows):
    """task.gradient_loss (full batch): the MSE plus the MSE of ∂f/∂x against the target's slopes y′, as batch_loss
    splits it over processes. Returns (differentiable part, the MSE's global mean, the whole loss's global mean)."""
    local = setup.shard(list(range(total_rows)))
    with setup.autocast():
        mse, slope = gradient_loss_sums(net, rows["x"][local], rows["y"][local], slopes[local])
    scaled = (mse + slope) * (setup.world if setup.ddp else 1) / total_rows
    return scaled, (setup.global_sum(mse) / total_rows).item(), (setup.global_sum(mse + slope) / total_rows).item()


class Progress:
    """Where a member is, with its last mini-batch loss: on a terminal a bar redrawn in place, in a log (stderr to a
    file) a line every LINE_EVERY seconds of a long member."""
    BAR_EVERY, LINE_EVERY, BAR_WIDTH = 0.2, 30.0, 24

    def __init__(self, label, steps, quiet):
        self.label, self.steps, self.quiet, self.last = label, steps, quiet, time.time()
        self.bar, self.drawn = not quiet and sys.stderr.isatty(), False

    def __call__(self, step, loss):
        now = time.time()
        if self.quiet or now - self.last < (self.BAR_EVERY if self.bar else self.LINE_EVERY):
            return
        self.last = now
        if self.bar:
            done = self.BAR_WIDTH * step // max(self.steps, 1)
            bar = "#" * done + "." * (self.BAR_WIDTH - done)
            print(f"\r\033[Ktrain.py: {self.label} [{bar}] step {step}/{self.steps}, batch loss {loss:.4g}", end="",
                  file=sys.stderr, flush=True)
            self.drawn = True
        else:
            print(f"train.py: {self.label}: step {step}/{self.steps}, batch loss {loss:.6g}", file=sys.stderr,
                  flush=True)

    def end(self):
        """Clears the bar, so that the member's closing line stands alone."""
        if self.drawn:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def train_mlp(member, data, setup, init_member, progress):
    spec, run = RUN_SPEC, Run(member)
    width = member_width(member)
    act, act_param = spec["model"]["activation"], spec["model"]["activation_param"]
    if residual():
        k = spec["model"]["block_depth"]
        dims = [data["train"]["x"].shape[1]] + [width] * (k * member["depth"] + 1) + [data["outputs"]]
        rules = residual_rules(rules_group(member), width, member["depth"], k)
        model = ResidualMlp(dims, act, act_param, rules, k, spec["model"]["block_norm"])
    else:
        dims = [data["train"]["x"].shape[1]] + [member["width"] or w for w in spec["model"]["widths"]] + \
            [data["outputs"]]
        rules = rules_at(rules_group(member), width)
        model = Mlp(dims, act, act_param, rules, spec["model"]["asi"])
    initialize(model, rules, member["seed"], init_member)
    model.to(setup.device, setup.dtype)
    net, (optimizer, hessian) = setup.wrap(model), mlp_optimizer(model, rules, member, data["train"])
    metrics = MlpMetrics(model, data, hessian, optimizer)
    dropout = mlp_dropout(member, dims, setup)
    train, size = data["train"], data["train"]["x"].shape[0]
    batch = spec["schedule"]["batch_size"] or size
    order = BatchOrder(member["seed"], size, True)
    zero_loss = 0.5 * (train["y"] ** 2).sum().item() / size if "y" in train else 0.0
    slopes = torch.tensor(function_1d_train_slopes(spec["task"]), dtype=setup.dtype, device=setup.device)[:, None] \
        if spec["task"]["gradient_loss"] else None
    metrics.slopes = slopes
    batch_sum, batches = 0.0, 0

    def record(step, train_loss):
        run.recorded_steps.append(step)
        metrics.record(train_loss, batch_sum / batches if batches else math.nan)

    for t in range(spec["schedule"]["steps"]):
        if slopes is not None:  # full batch (check_spec); it diverges on the whole loss, as the engine's
            loss_part, loss, whole = gradient_batch_loss(net, train, slopes, setup, size)
        else:
            idx = list(range(size)) if batch == size else order.next(batch)
            masks = dropout.masks(len(idx)) if dropout else None
            loss_part, loss = batch_loss(net, train, idx, setup, batch, masks)
            whole = loss
        train_loss = loss if batch == size and not dropout else None  # else record() measures it
        if run.diverging(whole):
            run.diverge(t)
            return run, metrics.series
        if spec["schedule"]["stop_loss_ratio"] > 0 and loss <= spec["schedule"]["stop_loss_ratio"] * zero_loss:
            record(t, train_loss)  # reached the target loss: the run's last record
            run.status, run.steps_done = "finished", t
            return run, metrics.series
        batch_sum, batches = batch_sum + loss, batches + 1
        progress(t, loss)
        optimizer.zero_grad()
        loss_part.backward()
        model.mask_gradients()
        if t % spec["schedule"]["record_every"] == 0:
            record(t, train_loss)
        if not take_step(optimizer, t, loss):
            run.diverge(t)
            return run, metrics.series
    steps = spec["schedule"]["steps"]
    with torch.no_grad():
        final = mean_loss(model(train["x"]), train).item()
    if run.diverging(final):
        run.diverge(steps)
        return run, metrics.series
    record(steps, final)
    run.status, run.steps_done = "finished", steps
    return run, metrics.series


def train_transformer(member, data, setup, init_member, progress):
    spec, run = RUN_SPEC, Run(member)
    t_spec, width = spec["model"]["transformer"], member_width(member)
    group = rules_group(member)
    rules = rules_at(group, width)
    scale_coef, scale_exp = ATTENTION_SCALE[group]
    model = AnchorTransformer(t_spec, width, data["vocab"], data["outputs"], data["seq_len"], rules,
                              scale_coef * width ** -scale_exp)
    initialize(model, rules, member["seed"], init_member)
    model.to(setup.device, setup.dtype)
    net, optimizer = setup.wrap(model), make_optimizer(model, rules, member)
    metrics = TransformerMetrics(model, data)
    train = data["anchor"]["train"]
    rows = {"x": train["tokens"], "labels": train["labels"]}
    size, schedule = train["tokens"].shape[0], spec["schedule"]
    batch = schedule["batch_size"] or size
    order = BatchOrder(member["seed"], size, batch < size)
    batch_sum, batches = 0.0, 0

    def record(step):
        run.recorded_steps.append(step)
        metrics.record(batch_sum / batches if batches else math.nan)

    for t in range(schedule["steps"]):
        if t % schedule["record_every"] == 0:
            record(t)
        loss_part, loss = batch_loss(net, rows, order.next(batch), setup, batch)
        if not math.isfinite(loss):
            run.diverge(t)
            return run, metrics.series
        batch_sum, batches = batch_sum + loss, batches + 1
        progress(t, loss)
        optimizer.zero_grad()
        loss_part.backward()
        if schedule["clip_norm"] > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), schedule["clip_norm"])
        for g in optimizer.param_groups:
            g["lr"] = g["initial_lr"] * lr_factor(t)
        optimizer.step()
        if run.diverging(loss):
            run.diverge(t)
            return run, metrics.series
    record(schedule["steps"])
    run.steps_done = schedule["steps"]
    run.status = "diverged" if run.diverging(metrics.series["train_loss"][-1]) else "finished"
    if run.status == "diverged":
        run.diverged_at = schedule["steps"]
    return run, metrics.series


# ---- The result document (muplay-result v1) and its CSV, as `muplay run` writes them ----

def finite_or_none(x):
    return x if math.isfinite(x) else None


def summary(series):
    """final_<name> and the best value (max_ or min_) of every series without a '/' in its name."""
    out = {}
    for name, values in series.items():
        if not values or "/" in name:
            continue
        out["final_" + name] = finite_or_none(values[-1])
        best = values[0]
        for x in values[1:]:  # the comparison of std::max_element / std::min_element, NaN included
            best = x if (best < x if name in HIGHER_IS_BETTER else x < best) else best
        out[("max_" if name in HIGHER_IS_BETTER else "min_") + name] = finite_or_none(best)
    return out


def run_document(run, series, setup):
    m = run.member
    doc = {"width": result_width(m)}
    if residual():
        doc["depth"] = m["depth"]
    doc.update(lr=m["lr"], seed=m["seed"])
    if RUN_SPEC["model"]["kind"] == "transformer":
        doc.update(gamma=m["gamma"], weight_decay=m["weight_decay"])
    if RUN_SPEC["parametrization"]["preset"] == "two_layer_gamma":
        doc.update(gamma=m["phase"][0], gamma_prime=m["phase"][1])
    # where its numbers were computed, as the engine's runs say it ("backend" cpu or cuda here, webgpu there)
    doc.update(backend=setup.device.type, precision=setup.dtype_name, device=setup.device_name())
    doc.update(status=run.status, diverged_at=run.diverged_at, steps_done=run.steps_done,
               recorded_steps=run.recorded_steps,
               series={k: [finite_or_none(x) for x in v] for k, v in series.items()}, summary=summary(series))
    return doc


def number_text(x):
    if x is None or isinstance(x, bool):
        return ""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2 ** 53:
        return str(int(x))
    return repr(x)


def csv_text(runs):
    """width[,depth],lr,seed[,gamma,weight_decay],status,step, then one column per series; empty cells for missing
    values."""
    names = list(dict.fromkeys(name for run in runs for name in run["series"]))
    extra, depth = any("gamma" in run for run in runs), any("depth" in run for run in runs)
    lines = ["width," + ("depth," if depth else "") + "lr,seed," + ("gamma,weight_decay," if extra else "") +
             "status,step" + "".join("," + n for n in names)]
    for run in runs:
        head = [number_text(run["width"])] + ([number_text(run.get("depth"))] if depth else [])
        head += [number_text(run["lr"]), number_text(run["seed"])]
        head += [number_text(run.get("gamma")), number_text(run.get("weight_decay"))] if extra else []
        for i, step in enumerate(run["recorded_steps"]):
            cells = [number_text(run["series"][n][i] if i < len(run["series"].get(n, [])) else None) for n in names]
            lines.append(",".join(head + [run["status"], number_text(step)] + cells))
    return "\n".join(lines) + "\n"


# ---- Command line ----

def positive_int(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1 up, not '{text}'")
    return int(text)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    numbers = lambda kind: lambda text: [kind(v) for v in text.split(",") if v]  # noqa: E731
    ap.add_argument("--widths", type=numbers(int), help="replace the sweep's widths, e.g. 4096,8192,16384")
    ap.add_argument("--depths", type=numbers(int), help="replace a residual MLP's sweep depths (numbers of blocks)")
    ap.add_argument("--lrs", type=numbers(float), help="replace the sweep's learning rates")
    ap.add_argument("--seeds", type=numbers(int), help="replace the sweep's seeds")
    ap.add_argument("--steps", type=int, help="replace schedule.steps")
    ap.add_argument("--device", default="auto",
                    help="auto (default: cuda when available, else cpu), cpu, cuda, cuda:1 …")
    ap.add_argument("--dtype", choices=["auto", "float64", "float32", "bf16"], default="auto",
                    help="auto (default): the spec's precision on the CPU (float64 unless it says float32), float32 on "
                    "a GPU")
    ap.add_argument("--threads", type=positive_int, help="CPU threads per process (default: the cores it may use, "
                    "shared among torchrun's processes on this machine)")
    ap.add_argument("--ddp-member", action="store_true",
                    help="under torchrun: train each member data-parallel over all processes, not one per process")
    ap.add_argument("--data-dir", default=os.environ.get("MUPLAY_DATA_DIR"),
                    help="where Fashion-MNIST's IDX files are (Fashion-MNIST specs only)")
    ap.add_argument("--init-from", help="start from the engine's weights: a file of `muplay export-init SPEC`")
    ap.add_argument("--out", default="result.json", help="the result document (default result.json)")
    ap.add_argument("--csv", default="metrics.csv", help="its metrics as CSV (default metrics.csv)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    return ap.parse_args(argv)


def run_spec(args):
    """SPEC with the command line's overrides: the spec the results belong to."""
    spec = json.loads(json.dumps(SPEC))
    if args.depths and spec["model"]["kind"] != "residual_mlp":
        sys.exit("train.py: --depths is for a residual MLP (model.kind residual_mlp)")
    for axis, values in (("width", args.widths), ("depth", args.depths), ("lr", args.lrs), ("seeds", args.seeds)):
        if values:
            spec["sweep"][axis] = values
    if args.steps:
        spec["schedule"]["steps"] = args.steps
    return spec


def init_members(path, grid):
    """The init file's members, checked against the grid: the same members in the same order."""
    with open(path) as f:
        doc = json.load(f)
    stored = doc["members"]
    if len(stored) != len(grid) or any(
            (s["width"], s.get("residual", {}).get("depth"), s["lr"], s["seed"]) !=
            (result_width(m), m["depth"], m["lr"], m["seed"]) for s, m in zip(stored, grid)):
        sys.exit(f"train.py: {path} holds other members than this sweep (width, depth, lr, seed differ): export it "
                 "from the same spec and overrides")
    return stored


def main(argv):
    global RUN_SPEC
    args = parse_args(argv)
    RUN_SPEC = run_spec(args)
    setup = Setup(args)
    torch.set_default_dtype(torch.float64)
    grid = members()
    data_of_seed = {}

    def member_data(member):
        """The spec's data; with task.data_per_seed (anchor tasks), the data of the member's seed in place of
        task.seed, drawn once per seed (Runner::data_for)."""
        seed = member["seed"] if RUN_SPEC["task"]["data_per_seed"] else RUN_SPEC["task"]["seed"]
        if seed not in data_of_seed:
            spec = dict(RUN_SPEC, task=dict(RUN_SPEC["task"], seed=seed))
            data_of_seed[seed] = to_device(make_task(spec, args.data_dir), setup)
        return data_of_seed[seed]

    inits = init_members(args.init_from, grid) if args.init_from else [None] * len(grid)
    train_member = train_transformer if RUN_SPEC["model"]["kind"] == "transformer" else train_mlp
    mine = range(len(grid)) if setup.ddp or setup.world == 1 else range(setup.rank, len(grid), setup.world)
    done = []
    quiet = args.quiet or (setup.ddp and setup.rank > 0)
    for i in mine:
        start = time.time()
        depth = f" L={grid[i]['depth']}" if residual() else ""
        label = f"member {i + 1}/{len(grid)} n={member_width(grid[i])}{depth} lr={grid[i]['lr']:g} " \
            f"seed={grid[i]['seed']}" + \
            (f" (process {setup.rank})" if setup.world > 1 and not setup.ddp else "")
        progress = Progress(label, RUN_SPEC["schedule"]["steps"], quiet)
        run, series = train_member(grid[i], member_data(grid[i]), setup, inits[i], progress)
        progress.end()
        done.append((i, run_document(run, series, setup)))
        if not quiet:
            last = series["train_loss"][-1] if series.get("train_loss") else math.nan
            print(f"train.py: {label}: {run.status} after {run.steps_done} steps, train_loss {last:.6g}, "
                  f"{time.time() - start:.1f} s", file=sys.stderr, flush=True)
    if setup.world > 1 and not setup.ddp:
        gathered = [None] * setup.world
        dist.all_gather_object(gathered, done)
        done = [x for part in gathered for x in part]
    if setup.rank == 0:
        runs = [doc for _, doc in sorted(done, key=lambda x: x[0])]
        result = {"schema": "muplay-result", "version": 1, "engine": "pytorch", "torch": torch.__version__,
                  "device": setup.describe(), "spec": RUN_SPEC, "runs": runs}
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1, allow_nan=False)
            f.write("\n")
        with open(args.csv, "w") as f:
            f.write(csv_text(runs))
        if not args.quiet:
            print(f"train.py: wrote {args.out} and {args.csv}", file=sys.stderr)
    if setup.world > 1:
        dist.destroy_process_group()


def to_device(data, setup):
    """Every tensor of the task on the training device; the inputs in the training dtype."""
    def move(x):
        return x.to(setup.device, setup.dtype if x.is_floating_point() else None)
    return {k: (to_device(v, setup) if isinstance(v, dict) else move(v) if torch.is_tensor(v) else v)
            for k, v in data.items()}


if __name__ == "__main__":
    main(sys.argv[1:])
