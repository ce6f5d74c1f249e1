# ---- The metrics ----
# The engine's definitions (engine/spec/metric_table.cpp, engine/metrics/): each is measured on the parameters before
# a step's update, so a series' first value is at init and its last at the final parameters.

PROBE_ROWS = 128         # act_rms / act_delta_rms: the first train rows, at most this many
TRANSFORMER_EVAL = 1000  # a Transformer's train_loss and train_accuracy: its first train sequences


def sum_of_losses(f, rows):
    """Σ over the rows of each example's loss: ½‖f − y‖² (regression) or the cross-entropy (classification)."""
    if "labels" in rows:
        return F.cross_entropy(f, rows["labels"], reduction="sum")
    return 0.5 * ((f - rows["y"]) ** 2).sum()


def mean_loss(f, rows):
    return sum_of_losses(f, rows) / f.shape[0]


def accuracy(f, labels):
    return (f.argmax(1) == labels).double().mean().item()


def spectral_norm(m, max_iters=300, tol=1e-7):
    """‖M‖_* by the engine's power iteration (engine/kernels/spectral.cpp): from the same fixed start vector, so
    the same matrix gives the same number; it needs two matrix-vector products per iteration, at any width."""
    start = {"state": 0x5EC7A1, "spare": None}  # Rng(0x5EC7A1): a raw state, not a stream
    v = torch.tensor([rng_normal(start) for _ in range(m.shape[1])], dtype=m.dtype, device=m.device)
    v = v / v.norm()
    sigma = 0.0
    for _ in range(max_iters):
        u = m @ v
        if u.norm().item() == 0:
            return 0.0
        u = u / u.norm()
        v = m.T @ u
        estimate = v.norm().item()
        v = v / estimate
        converged = estimate - sigma <= tol * estimate
        sigma = estimate
        if converged:
            break
    return sigma


class MlpMetrics:
    """One member's probes: series(name → list) in the engine's order, filled by record()."""

    def __init__(self, model, data):
        self.model, self.data = model, data
        self.probe_x = data["train"]["x"][:PROBE_ROWS]
        # θ at init, kept only for the metrics that compare with it (at width 65 536 a copy is 32 GB in float64)
        keep = {"weight_delta_spectral", "weight_rd"} & set(SERIES)
        self.initial = [w.detach().clone() for w in model.weights] if keep else None
        self.initial_norms = [spectral_norm(w) for w in self.initial] if "weight_delta_spectral" in SERIES else None
        self.initial_h = None
        self.series = {}

    def add(self, name, value):
        self.series.setdefault(name, []).append(float(value))

    def layer_names(self, metric):
        count = len(self.model.weights)
        return [f"{metric}/" + ("f" if l + 1 == count else f"h{l + 1}") for l in range(count)]

    @torch.no_grad()
    def record(self, train_loss, batch_loss_mean):
        model, data = self.model, self.data
        for metric in SERIES:
            if metric == "train_loss":
                self.add(metric, train_loss if train_loss is not None else
                         mean_loss(model(data["train"]["x"]), data["train"]).item())
            elif metric == "test_loss":
                self.add(metric, mean_loss(model(data["test"]["x"]), data["test"]).item())
            elif metric == "test_accuracy":
                self.add(metric, accuracy(model(data["test"]["x"]), data["test"]["labels"]))
            elif metric == "batch_loss_mean":
                self.add(metric, batch_loss_mean)
            elif metric in ("act_rms", "act_delta_rms"):
                hs = model.preactivations(self.probe_x)
                if metric == "act_delta_rms":
                    self.initial_h = self.initial_h or [h.clone() for h in hs]
                    hs = [h - h0 for h, h0 in zip(hs, self.initial_h)]
                for name, h in zip(self.layer_names(metric), hs):
                    self.add(name, (h * h).mean().sqrt().item())
            elif metric == "weight_delta_spectral":
                for l, (w, w0, norm0) in enumerate(zip(model.weights, self.initial, self.initial_norms)):
                    self.add(f"{metric}/W{l + 1}", spectral_norm(w - w0) / norm0 if norm0 > 0 else math.nan)
            elif metric == "weight_rd":
                w, w0 = model.weights[0], self.initial[0]
                self.add(metric, ((w - w0).norm() / w0.norm()).item())
            elif metric == "sign_accuracy":
                for part in ("train", "test"):
                    f, y = model(data[part]["x"]), data[part]["y"]
                    self.add(f"{metric}/{part}", ((f > 0) == (y > 0)).double().mean().item())


class TransformerMetrics:
    def __init__(self, model, data):
        self.model, self.data = model, data
        self.series = {}

    def add(self, name, value):
        self.series.setdefault(name, []).append(float(value))

    def evaluate(self, part, limit=None):
        rows = self.data["anchor"][part]
        tokens, labels = rows["tokens"][:limit], rows["labels"][:limit]
        f = self.model(tokens)
        return F.cross_entropy(f, labels).item(), accuracy(f, labels)

    @torch.no_grad()
    def record(self, batch_loss_mean):
        train = self.evaluate("train", TRANSFORMER_EVAL)
        test = self.evaluate("test") if {"test_loss", "id_accuracy"} & set(SERIES) else None
        for metric in SERIES:
            value = {"train_loss": lambda: train[0], "train_accuracy": lambda: train[1], "test_loss": lambda: test[0],
                     "id_accuracy": lambda: test[1], "ood_accuracy": lambda: self.evaluate("ood")[1],
                     "batch_loss_mean": lambda: batch_loss_mean}[metric]()
            self.add(metric, value)
