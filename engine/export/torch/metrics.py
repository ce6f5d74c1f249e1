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


def gradient_loss_sums(net, x, y, slopes):
    """task.gradient_loss (engine/model/gradient_loss.hpp): Σ ½(f − y)² and Σ ½(∂f/∂x − y′)² over the rows, both
    differentiable in θ. ∂f/∂x is the derivative along the first input coordinate (the 1-D x; a folded-in bias column
    comes after it), which autograd takes through the forward pass; the engine carries it forward as a tangent."""
    x = x.detach().requires_grad_(True)
    f = net(x)
    slope = torch.autograd.grad(f.sum(), x, create_graph=True)[0][:, :1]  # rows are independent: row i's ∂f_i/∂x_i
    return 0.5 * ((f - y) ** 2).sum(), 0.5 * ((slope - slopes) ** 2).sum()


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


class FrequencyProbe:
    """fp_delta (engine/metrics/frequency.cpp; Xu et al., 2019): on the train grid of n points, the discrete Fourier
    coefficient F_k = (1/n) Σ_j v_j e^{−2πi jk/n} of the net's outputs and of the target at the target's peaks k, and
    Δ_F(k) = |ĥ_k − ŷ_k| / |ŷ_k|, series "delta_F/k=…". The coefficients use the engine's phases 2π ((jk) mod n)/n
    and their cosines and sines (detmath); the peaks are found on torch's FFT of the target, O(n log n) where the
    engine's DFT is O(n²): the same magnitudes up to rounding, and a peak stands far above its neighbours."""

    PEAK_FRACTION, MAX_PEAKS = 0.2, 8  # a peak holds at least this share of the largest |ŷ_k|, k ≥ 1

    def __init__(self, y):
        self.n = n = y.shape[0]
        phases = [2 * DETMATH_PI * float(r) / n for r in range(n)]  # index (j k) mod n
        self.cos = torch.tensor([detmath_cos(p) for p in phases], dtype=torch.float64, device=y.device)
        self.sin = torch.tensor([detmath_sin(p) for p in phases], dtype=torch.float64, device=y.device)
        self.rows = torch.arange(n, device=y.device)
        self.peaks = self.spectrum_peaks(y)
        self.y_coefficients = [self.coefficient(y, k) for k in self.peaks]

    def coefficient(self, v, k):
        """(Re F_k, Im F_k) of the n values v."""
        phase = (self.rows * k) % self.n
        return ((v * self.cos[phase]).sum() / self.n).item(), (-(v * self.sin[phase]).sum() / self.n).item()

    def spectrum_peaks(self, y):
        """The local maxima of |ŷ_k| (k = 1 … n/2) of at least PEAK_FRACTION of the largest, lowest k first."""
        mag = (torch.fft.rfft(y).abs() / self.n).tolist()
        largest = max(mag[1:], default=0.0)
        peaks = []
        for k in range(1, len(mag)):
            right = mag[k + 1] if k + 1 < len(mag) else 0.0
            if len(peaks) < self.MAX_PEAKS and largest > 0 and mag[k] >= self.PEAK_FRACTION * largest and \
                    mag[k] > mag[k - 1] and mag[k] >= right:
                peaks.append(k)
        return peaks

    def names(self):
        return [f"delta_F/k={k}" for k in self.peaks]

    def measure(self, h):
        out = []
        for k, (y_re, y_im) in zip(self.peaks, self.y_coefficients):
            re, im = self.coefficient(h, k)
            out.append(math.sqrt((re - y_re) ** 2 + (im - y_im) ** 2) / math.sqrt(y_re * y_re + y_im * y_im))
        return out


class FilterProbe:
    """fp_filter (engine/metrics/frequency_filter.cpp; Xu et al., 2019): a Gaussian average over the train inputs,
    g_low(x_i) = Σ_j g(x_j) G(x_i − x_j) / Σ_j G(x_i − x_j), G(u) = exp(−‖u‖²/(2δ²)), splits the net's outputs and
    the target into low and high parts; e_low = ‖h_low − y_low‖ / ‖y_low‖, e_high = ‖h_high − y_high‖ / ‖y_high‖.
    It holds the train_size² kernel, as the engine does (check_spec keeps train_size ≤ 2048: 32 MB)."""

    def __init__(self, x, y, width):
        x = x.to(torch.float64)
        dist2 = torch.zeros(x.shape[0], x.shape[0], dtype=torch.float64, device=x.device)
        for k in range(x.shape[1]):  # all coordinates (a bias column adds 0), one at a time: n² memory at any d
            dist2 += (x[:, k, None] - x[None, :, k]) ** 2
        kernel = torch.exp(-dist2 / (2 * width * width))
        self.kernel = kernel / kernel.sum(1, keepdim=True)  # each row sums to 1
        self.y_low = self.kernel @ y
        self.y_high = y - self.y_low
        self.y_low_norm, self.y_high_norm = self.y_low.norm().item(), self.y_high.norm().item()

    def measure(self, h):
        low = self.kernel @ h
        e_low = (low - self.y_low).norm().item()
        e_high = ((h - low) - self.y_high).norm().item()
        return [e_low / self.y_low_norm if self.y_low_norm > 0 else math.nan,
                e_high / self.y_high_norm if self.y_high_norm > 0 else math.nan]


def first_values(v, n):
    """The first n values of the row-major outputs (or targets): the probes' g(x_j), one per train row. These are the
    outputs themselves for the one-output regressions the frequency probes are made for; the engine (Record::
    train_outputs) takes the same values when the train set is one pass of its rows."""
    return v.reshape(-1)[:n].to(torch.float64)


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
        train, n = data["train"], data["train"]["x"].shape[0]
        self.frequency = FrequencyProbe(first_values(train["y"], n)) if "fp_delta" in SERIES else None
        self.filter = FilterProbe(train["x"], first_values(train["y"], n), RUN_SPEC["task"]["filter_width"]) \
            if "fp_filter" in SERIES else None
        self.slopes = None  # task.gradient_loss: y′ at the train points (train_mlp sets them)
        self.series = {}

    def add(self, name, value):
        self.series.setdefault(name, []).append(float(value))

    def layer_names(self, metric):
        count = len(self.model.weights)
        return [f"{metric}/" + ("f" if l + 1 == count else f"h{l + 1}") for l in range(count)]

    @torch.no_grad()
    def record(self, train_loss, batch_loss_mean):
        model, data = self.model, self.data
        outputs = None  # the net on the train set, computed once for the frequency probes

        def train_outputs():
            nonlocal outputs
            outputs = model(data["train"]["x"]) if outputs is None else outputs
            return first_values(outputs, outputs.shape[0])

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
            elif metric == "fp_delta":
                for name, value in zip(self.frequency.names(), self.frequency.measure(train_outputs())):
                    self.add(name, value)
            elif metric == "fp_filter":
                for name, value in zip(("filter/e_low", "filter/e_high"), self.filter.measure(train_outputs())):
                    self.add(name, value)
            elif metric == "slope_loss":  # the derivative term alone; train_loss stays the plain MSE
                train = data["train"]
                with torch.enable_grad():
                    _, slope = gradient_loss_sums(model, train["x"], train["y"], self.slopes)
                self.add(metric, slope.item() / train["x"].shape[0])


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
