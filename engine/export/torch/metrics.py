# ---- The metrics ----
# The engine's definitions (engine/spec/metric_table.cpp, engine/metrics/): each is measured on the parameters before
# a step's update, so a series' first value is at init and its last at the final parameters.

PROBE_ROWS = 128         # act_rms, act_delta_rms, transformer_coords: the first train rows, at most this many
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


def plus_one_share(f, labels):
    """The mean over the rows of p(y+1) / (p(y) + p(y+1)) = 1 / (1 + exp(z_y − z_{y+1})) for label y (the softmax's
    normalizer cancels); a row whose label is the last class adds 0 (engine/model/anchor_trainer.cpp evaluate)."""
    classes = f.shape[1]
    has_next = labels + 1 < classes
    z = f.gather(1, labels[:, None])[:, 0]
    z_next = f.gather(1, (labels + 1).clamp(max=classes - 1)[:, None])[:, 0]
    share = torch.where(has_next, 1 / (1 + torch.exp(z - z_next)), torch.zeros_like(z))
    return (share.sum() / f.shape[0]).item()


def query_row_cosine(w, chunk=1024):
    """wq_cosine (engine/model/anchor_trainer.cpp query_row_cosine): the mean |cos| between the distinct rows of a
    block's W_Q as stored (without its multiplier); a pair with a zero row counts as 0. The rows' Gram matrix is
    formed `chunk` rows at a time, so a wide W_Q needs chunk × rows numbers at once."""
    rows = w.shape[0]
    if rows < 2:
        return math.nan
    squares = (w * w).sum(1)
    total = 0.0
    for start in range(0, rows, chunk):
        dots = w[start:start + chunk] @ w.T
        norms = squares[start:start + chunk, None] * squares[None, :]
        cosines = torch.where(norms > 0, dots.abs() / norms.sqrt(), torch.zeros_like(dots))
        total += torch.triu(cosines, start + 1).sum().item()  # the pairs i < j: row start + r, columns past it
    return total / (rows * (rows - 1) / 2)


def embedding_order(wte):
    """embedding_order (engine/metrics/embedding_lattice.cpp): |Spearman's ρ| between the key tokens' (20..100)
    coordinates on the first principal axis of their centred embeddings X and the tokens' values. The axis is the
    engine's: 300 power iterations on the covariance XᵀX from the fixed start 1 + 0.01 i (each product taken as
    Xᵀ(X v), without the d_model² matrix). The engine's ranks assume no tied coordinates; here ties keep the tokens'
    order."""
    x = wte[ANCHOR_KEY_MIN:ANCHOR_KEY_MAX + 1]
    x = x - x.mean(0)
    v = 1 + 0.01 * torch.arange(x.shape[1], dtype=x.dtype, device=x.device)
    for _ in range(300):
        product = x.T @ (x @ v)
        norm = product.norm()
        if norm.item() == 0:
            break
        v = product / norm
    order = torch.argsort(x @ v, stable=True)
    count = order.numel()
    ranks = torch.empty(count, dtype=torch.float64, device=order.device)
    ranks[order] = torch.arange(count, dtype=torch.float64, device=order.device)
    values = torch.arange(count, dtype=torch.float64, device=order.device) - (count - 1) / 2
    # both are permutations of 0..n−1 centred alike: Pearson's correlation is cov / var of either
    return abs(((ranks - (count - 1) / 2) * values).sum().item() / (values * values).sum().item())


def rms(a):
    return (a * a).mean().sqrt().item()


class TransformerMetrics:
    """One Transformer member's probes: series(name → list) in the engine's order, filled by record()."""

    def __init__(self, model, data):
        self.model, self.data = model, data
        self.probe_tokens = data["anchor"]["train"]["tokens"][:PROBE_ROWS]
        self.initial_coordinates = None  # transformer_coords' values at the first record
        self.series = {}

    def add(self, name, value):
        self.series.setdefault(name, []).append(float(value))

    def evaluate(self, part, limit=None):
        """(loss, accuracy, plus_one_share) at the last position on the first `limit` sequences of `part`."""
        rows = self.data["anchor"][part]
        tokens, labels = rows["tokens"][:limit], rows["labels"][:limit]
        f = self.model(tokens)
        return F.cross_entropy(f, labels).item(), accuracy(f, labels), plus_one_share(f, labels)

    def commutativity(self):
        """P[argmax f(x; c, d) = argmax f(x; d, c)] over the OOD set (engine/model/anchor_trainer.cpp): each sequence
        against itself with the anchor pair swapped; argmax takes the first of equal logits, as std::max_element."""
        ood = self.data["anchor"]["ood"]
        if ood["labels"].numel() == 0:
            return math.nan
        same = self.model(ood["tokens"]).argmax(1) == self.model(ood["swapped"]).argmax(1)
        return same.double().mean().item()

    def coordinates(self):
        """transformer_coords (engine/metrics/transformer_coord_probe.cpp) on the first PROBE_ROWS train sequences:
        the RMS of every block's causal attention logits and of the last block's residual stream, and the RMS of
        their and the output logits' change since the first record."""
        taps = {}
        output = self.model(self.probe_tokens, taps)
        logits = torch.cat([s.reshape(-1) for s in taps["attn_logits"]])
        stream = taps["stream"]
        if self.initial_coordinates is None:
            self.initial_coordinates = (logits.clone(), stream.clone(), output.clone())
        logits0, stream0, output0 = self.initial_coordinates
        return {"attn_logits": rms(logits), "stream": rms(stream), "attn_logits_delta": rms(logits - logits0),
                "stream_delta": rms(stream - stream0), "output_delta": rms(output - output0)}

    @torch.no_grad()
    def record(self, batch_loss_mean):
        train = self.evaluate("train", TRANSFORMER_EVAL)
        test = self.evaluate("test") if {"test_loss", "id_accuracy", "plus_one_share"} & set(SERIES) else None
        for metric in SERIES:
            if metric == "transformer_coords":
                for name, value in self.coordinates().items():
                    self.add(f"{metric}/{name}", value)
                continue
            value = {"train_loss": lambda: train[0], "train_accuracy": lambda: train[1], "test_loss": lambda: test[0],
                     "id_accuracy": lambda: test[1], "plus_one_share": lambda: test[2],
                     "ood_accuracy": lambda: self.evaluate("ood")[1], "commutativity": self.commutativity,
                     "wq_cosine": lambda: query_row_cosine(self.model.p("h0.wq")),
                     "embedding_order": lambda: embedding_order(self.model.p("wte")),
                     "batch_loss_mean": lambda: batch_loss_mean}[metric]()
            self.add(metric, value)
