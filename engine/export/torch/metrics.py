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


def hessian_start_vector(count, chunk=1 << 20):
    """HessianProbe's fixed start vector (engine/metrics/hessian.cpp): xorshift64 from 0x2545F4914F6CDD1D, each
    entry its top 53 bits as a uniform in [−½, ½). One number at a time (each state is the last one's), filled in
    chunks so that a large net's vector never exists as a Python list."""
    z, out = 0x2545F4914F6CDD1D, torch.empty(count, dtype=torch.float64)
    for start in range(0, count, chunk):
        values = []
        for _ in range(min(chunk, count - start)):
            z ^= (z << 13) & _U64
            z ^= z >> 7
            z ^= (z << 17) & _U64
            values.append((z >> 11) / 9007199254740992.0 - 0.5)
        out[start:start + len(values)] = torch.tensor(values, dtype=torch.float64)
    return out


class HessianProbe:
    """The curvature of the square loss L = 1/(2B) Σ (f − y)² on the train set (engine/metrics/hessian.hpp): products
    with H̃ = P^½ H P^½, H the Hessian in the parameters and P their learning-rate multipliers, and its top eigenvalue
    by power iteration. The iteration's vector is kept from call to call (a warm start), and the sharpness metric and
    gd_auto share one probe, as in the engine, so each continues from the other's last vector.

    H̃ v is exact (autograd's second derivative, the engine's R-operator) except for GELU, which the engine has no φ″
    for: there, as there, central differences of the gradient with ε = 1e-5 ‖θ‖."""

    def __init__(self, model, rules, rows):
        self.model, self.rows = model, rows
        self.params = [p for _, p in model.named_tensors()]
        first = self.params[0]
        self.sqrt_lr = torch.cat([torch.full((p.numel(),), math.sqrt(rules[name][3]), dtype=first.dtype,
                                             device=first.device) for name, p in model.named_tensors()])
        self.v = hessian_start_vector(len(self.sqrt_lr)).to(first.device, first.dtype)
        self.exact = RUN_SPEC["model"]["activation"] != "gelu"

    def gradient(self, create_graph=False):
        """∇L at the current θ as one tensor per parameter (the engine's order)."""
        with torch.enable_grad():
            loss = sum_of_losses(self.model(self.rows["x"]), self.rows) / self.rows["x"].shape[0]
            return torch.autograd.grad(loss, self.params, create_graph=create_graph)

    def flat(self, tensors):
        return torch.cat([t.reshape(-1) for t in tensors])

    def split(self, v):
        return [part.view_as(p) for part, p in zip(v.split([p.numel() for p in self.params]), self.params)]

    def products(self):
        """v ↦ H̃ v at the current θ."""
        if self.exact:
            grads = self.gradient(create_graph=True)

            def hessian_times(v):
                with torch.enable_grad():
                    hv = torch.autograd.grad(grads, self.params, self.split(v), retain_graph=True, allow_unused=True)
                return self.flat([torch.zeros_like(p) if h is None else h for h, p in zip(hv, self.params)])
        else:
            hessian_times = self.central_difference
        return lambda v: self.sqrt_lr * hessian_times(self.sqrt_lr * v)

    @torch.no_grad()
    def central_difference(self, v):
        """(∇L(θ + εv) − ∇L(θ − εv)) / 2ε; θ is restored exactly."""
        theta = [p.detach().clone() for p in self.params]
        eps = 1e-5 * max(self.flat(theta).norm().item(), 1e-6)
        steps = self.split(v)
        grads = []
        for sign in (1, -1):
            for p, p0, d in zip(self.params, theta, steps):
                p.copy_(p0 + sign * eps * d)
            grads.append(self.flat(self.gradient()))
        for p, p0 in zip(self.params, theta):
            p.copy_(p0)
        return (grads[0] - grads[1]) / (2 * eps)

    def power_iteration(self, product, shift, max_iters, tol):
        """The Rayleigh quotient of H̃ + shift·I by power iteration from the kept vector."""
        value = 0.0
        for it in range(max_iters):
            norm = self.v.norm().item()
            if norm == 0:
                return 0.0
            self.v = self.v / norm
            hv = product(self.v) + shift * self.v
            rayleigh = torch.dot(self.v, hv).item()
            self.v = hv
            converged = it > 0 and abs(rayleigh - value) <= tol * abs(rayleigh)
            value = rayleigh
            if converged:
                break
        return value

    def top_eigenvalue(self, max_iters=100, tol=1e-6):
        """λ_max(H̃). Power iteration finds the eigenvalue of largest magnitude; when that is negative (near a saddle)
        H̃ + |λ| I has only eigenvalues ≥ 0 and its largest is λ_max + |λ|."""
        product = self.products()
        largest = self.power_iteration(product, 0.0, max_iters, tol)
        if largest >= 0:
            return largest
        shift = -largest
        return self.power_iteration(product, shift, max_iters, tol) - shift


def neurons(model):
    """A one-hidden-layer net's neurons (engine/metrics/neurons.cpp): neuron k's input weights w_k = m_1 · row k of W1
    (a folded-in bias last), their norms, and its amplitude A_k = |m_2 · W2[0, k]| ‖w_k‖."""
    w = model.multipliers[0] * model.weights[0]
    norm = (w * w).sum(1).sqrt()
    return w, norm, (model.multipliers[1] * model.weights[1][0]).abs() * norm


def cosines_with(w, norm, j):
    """cos(w_k, w_j) for every k; 0 where either vector is 0."""
    cos = (w @ w[j]) / (norm * norm[j])
    return torch.where((norm == 0) | (norm[j] == 0), torch.zeros_like(cos), cos)


def antipodal_share(model, threshold=0.9):
    """condensation/share: the amplitude share of the neurons within |cos| ≥ threshold of the largest neuron's
    direction (CondensationProbe::antipodal_share)."""
    w, norm, amplitude = neurons(model)
    total = amplitude.sum().item()
    largest = int(torch.argmax(amplitude))  # the first of equal maxima, as the engine's scan
    held = amplitude[cosines_with(w, norm, largest).abs() >= threshold].sum().item()
    return held / total if total > 0 else 0.0


def condensed_lines(model, threshold=0.9, mass=0.95):
    """condensation/lines: how many lines (directions up to sign) hold `mass` of the amplitude, taking greedily the
    largest remaining neuron and every remaining one within |cos| ≥ threshold of it (CondensationProbe)."""
    w, norm, amplitude = neurons(model)
    count, total = len(amplitude), amplitude.sum().item()
    taken = torch.zeros(count, dtype=torch.bool, device=w.device)
    index = torch.arange(count, device=w.device)
    held, lines = 0.0, 0
    while held < mass * total and lines < count and not bool(taken.all()):
        largest = int(torch.argmax(amplitude.masked_fill(taken, -math.inf)))
        lines += 1
        joins = ~taken & ((index == largest) | (cosines_with(w, norm, largest).abs() >= threshold))
        taken |= joins
        held += amplitude[joins].sum().item()
    return lines


def neuron_points(model):
    """neuron_paths: each neuron's angle atan2 of the last two coordinates of its stored input weights (0 or π for a
    1-D w) and its amplitude |m_2 a_k| m_1 ‖w_k‖ (engine/metrics/neurons.cpp, neuron_point)."""
    w = model.weights[0]
    if w.shape[1] >= 2:
        angle = torch.atan2(w[:, -1], w[:, -2])
    else:
        angle = torch.where(w[:, 0] >= 0, torch.zeros_like(w[:, 0]), torch.full_like(w[:, 0], math.pi))
    amplitude = (model.multipliers[1] * model.weights[1][0]).abs() * model.multipliers[0] * (w * w).sum(1).sqrt()
    return angle.tolist(), amplitude.tolist()


class MlpMetrics:
    """One member's probes: series(name → list) in the engine's order, filled by record()."""

    def __init__(self, model, data, hessian=None, optimizer=None):
        self.model, self.data = model, data
        self.hessian, self.optimizer = hessian, optimizer  # sharpness; gd_lr (gd_auto's step in use)
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
            elif metric == "sharpness":
                self.add(metric, self.hessian.top_eigenvalue())
            elif metric == "gd_lr":
                self.add(metric, self.optimizer.eta)
            elif metric == "condensation":
                self.add(f"{metric}/share", antipodal_share(model))
                self.add(f"{metric}/lines", condensed_lines(model))
            elif metric == "neuron_paths":
                for k, (angle, amplitude) in enumerate(zip(*neuron_points(model))):
                    self.add(f"{metric}/{k}/angle", angle)
                    self.add(f"{metric}/{k}/amplitude", amplitude)
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
