# ---- The models ----
# Each tensor follows its row of RULES: initialized from N(0, std²) or U(±std) (or a constant), multiplied by its
# forward multiplier in every product, trained at lr · its learning-rate multiplier. Tensors are created in the
# engine's order with the engine's names, so an init file of `muplay export-init` loads into them one to one.

def rules_at(group, width):
    """{tensor: (init, std, multiplier, lr_multiplier, decay)} of a member of this width: each c·n^(−e) evaluated."""
    return {r.tensor: (r.init, r.std_coef * width ** -r.std_exp, r.mult_coef * width ** -r.mult_exp,
                       r.lr_coef * width ** -r.lr_exp, r.decay) for r in RULES[group]}


def residual_rules(group, width, depth, block_depth):
    """A residual MLP's {tensor: rule} at this width and depth L: W1 the input layer, W2 … W_{kL+1} the L blocks of k
    weights, then the readout; the depth rule on the blocks: L^(−α) on each block's last weight's multiplier (the
    branch's output), L^(−γ) on every block weight's learning rate."""
    roles, (alpha, gamma) = rules_at(group, width), DEPTH_RULE
    init, std, mult, lr, decay = roles["block"]
    blocks = {f"W{l + 1}": (init, std, mult * depth ** -alpha if l % block_depth == 0 else mult, lr * depth ** -gamma,
                            decay) for l in range(1, depth * block_depth + 1)}
    return {"W1": roles["input"], **blocks, f"W{depth * block_depth + 2}": roles["readout"]}


def init_tensor(p, init, std, generator):
    """Draws on the CPU from the member's generator (the same numbers on every device), then copies."""
    values = torch.empty(p.shape, dtype=torch.float64)
    if init == "normal":
        values.normal_(0.0, std, generator=generator)
    elif init == "uniform":
        values.uniform_(-std, std, generator=generator)
    else:  # constant: the std column holds the value
        values.fill_(std)
    with torch.no_grad():
        p.copy_(values)


def activation(name, a):
    """φ of the engine (engine/kernels/activation.cpp); a is the width of sin(a x) and of the Ricker function."""
    ricker_c = math.pi ** 0.25 / (15 * a)
    return {
        "relu": torch.relu, "tanh": torch.tanh, "linear": lambda h: h, "sigmoid": torch.sigmoid,
        "gelu": lambda h: F.gelu(h, approximate="tanh"), "softplus": F.softplus,
        "x_tanh": lambda h: h * torch.tanh(h), "x2_tanh": lambda h: h * h * torch.tanh(h),
        "sin": lambda h: torch.sin(a * h),
        "ricker": lambda h: ricker_c * (1 - (h / a) ** 2) * torch.exp(-0.5 * (h / a) ** 2),
    }[name]


class Mlp(torch.nn.Module):
    """h_l = m_l · (x_{l−1} W_lᵀ) (+ m'_l b_l with model.biases: RULES then has rows b1, b2, ...), x_l = φ(h_l),
    output f = h_{L+1}. Without model.biases a first-layer bias can be a constant input column (model.input_bias).

    model.asi (antisymmetric initialization, engine/model/mlp.hpp): two copies of the net of `dims` side by side,
    f = (√2/2) h(x; θ) − (√2/2) h(x; θ′) with θ′ = θ at init, so f ≡ 0 at init. As in the engine, the copies are
    interleaved in hidden layers twice as wide (unit 2j of θ, 2j+1 of θ′), each layer scaled as the copy's (RULES at
    the copy's width), the √2/2 in the readout's multiplier; the weights that would link the copies stay 0
    (mask_gradients)."""

    def __init__(self, dims, act, act_param, rules, antisymmetric=False):
        super().__init__()
        self.antisymmetric = antisymmetric
        if antisymmetric:
            dims = [dims[0]] + [2 * d for d in dims[1:-1]] + [dims[-1]]
        layers = range(len(dims) - 1)
        self.names = [f"W{l + 1}" for l in layers]
        self.weights = torch.nn.ParameterList(
            [torch.nn.Parameter(torch.empty(dims[l + 1], dims[l])) for l in layers])
        self.multipliers = [rules[n][2] for n in self.names]
        if antisymmetric:
            self.multipliers[-1] *= math.sqrt(0.5)
        self.bias_names = [f"b{l + 1}" for l in layers] if "b1" in rules else []
        self.biases = torch.nn.ParameterList([torch.nn.Parameter(torch.zeros(dims[l + 1])) for l in layers
                                              if self.bias_names])
        self.bias_multipliers = [rules[n][2] for n in self.bias_names]
        self.phi = activation(act, act_param)

    def named_tensors(self):
        """The engine's order (layer_slices): every weight matrix, then every bias."""
        return list(zip(self.names, self.weights)) + list(zip(self.bias_names, self.biases))

    @torch.no_grad()
    def make_antisymmetric(self):
        """ASI from freshly drawn weights: keeps copy θ (the even hidden units) and makes its twin θ′ from it; the
        twin's readout carries the minus sign, and the hidden → hidden weights between the copies are 0."""
        last = len(self.weights) - 1
        for l, w in enumerate(self.weights):
            if l == 0:
                w[1::2] = w[0::2]
            elif l == last:
                w[:, 1::2] = -w[:, 0::2]
            else:
                w[1::2, 1::2] = w[0::2, 0::2]
                w[0::2, 1::2], w[1::2, 0::2] = 0, 0

    def mask_gradients(self):
        """With ASI, zeroes the gradients of the hidden → hidden weights between the copies (Mlp::mask_gradients):
        they stay 0 under every optimizer. A no-op otherwise."""
        if not self.antisymmetric:
            return
        for w in self.weights[1:-1]:
            if w.grad is not None:
                w.grad[0::2, 1::2], w.grad[1::2, 0::2] = 0, 0

    def preactivations(self, x, keep=None):
        """The layers' h_l; `keep` (a training step with model.dropout) multiplies each hidden x_l by its mask."""
        hs = []
        for l, (w, m) in enumerate(zip(self.weights, self.multipliers)):
            hs.append(m * (x @ w.T))
            if self.bias_names:
                hs[-1] = hs[-1] + self.bias_multipliers[l] * self.biases[l]
            if l + 1 < len(self.weights):
                x = self.phi(hs[-1])
                if keep is not None:
                    x = x * keep[l]
        return hs

    def forward(self, x, keep=None):
        return self.preactivations(x, keep)[-1]


class Dropout:
    """model.dropout p with the engine's masks (engine/model/mlp.cpp, forward_train): each training step draws one
    uniform u per hidden unit and row from the member's stream 4, layer by layer, row by row; the unit is dropped
    (× 0) when u < p, else kept and scaled by 1/(1 − p). Record steps and the metrics see the net without dropout."""

    def __init__(self, seed, p, hidden_widths, device, dtype):
        self.rng, self.p, self.widths = rng_stream(seed, 4), p, hidden_widths
        self.device, self.dtype = device, dtype

    def masks(self, rows):
        """The next step's masks for a batch of `rows` rows: one (rows × width) tensor per hidden layer."""
        u = rng_uniforms(self.rng, rows * sum(self.widths), self.device)
        keep = torch.where(u < self.p, torch.zeros((), dtype=torch.float64, device=self.device),
                           torch.full((), 1 / (1 - self.p), dtype=torch.float64, device=self.device))
        return [part.reshape(rows, -1).to(self.dtype) for part in keep.split([rows * w for w in self.widths])]


class ResidualMlp(Mlp):
    """model.kind residual_mlp: h = m_1 · (x W_1ᵀ), then L blocks of block_depth (k) weights that add to the stream,
        k = 1:  h ← h + m · φ(N(h)) Wᵀ          k = 2:  h ← h + m · φ(m' · φ(N(h)) W'ᵀ) Wᵀ
    and the readout f = m_out · (h W_outᵀ) of the last stream itself (no φ). N is a LayerNorm without gain or bias (block_norm,
    eps 1e-5) or the identity. preactivations() lists the streams and a two-weight block's inner m' φ(N(h)) W'ᵀ in
    layer order, as the engine names them (h1, h2, …, f)."""

    def __init__(self, dims, act, act_param, rules, block_depth, block_norm):
        super().__init__(dims, act, act_param, rules)
        self.block_depth, self.block_norm = block_depth, block_norm

    def forward(self, x):  # model.dropout is for plain MLPs only
        return self.preactivations(x)[-1]

    def preactivations(self, x):
        w, m = self.weights, self.multipliers
        h = m[0] * (x @ w[0].T)
        hs = [h]
        for first in range(1, len(w) - 1, self.block_depth):
            u = self.phi(F.layer_norm(h, (h.shape[-1],), eps=1e-5) if self.block_norm else h)
            for l in range(first, first + self.block_depth - 1):  # a two-weight block's inner layer
                hs.append(m[l] * (u @ w[l].T))
                u = self.phi(hs[-1])
            last = first + self.block_depth - 1
            h = h + m[last] * (u @ w[last].T)
            hs.append(h)
        hs.append(m[-1] * (h @ w[-1].T))
        return hs


class AnchorTransformer(torch.nn.Module):
    """The anchor-function Transformer (engine/model/transformer.hpp): token + position embeddings, pre- or post-LN
    blocks of causal softmax attention and an FFN, the last position's logits. Biases only where the spec asks."""

    def __init__(self, t, width, vocab, outputs, seq_len, rules, attention_scale):
        super().__init__()
        self.pre_ln, self.heads, self.layers = t["norm"] == "pre", t["heads"], t["layers"]
        self.scale = attention_scale
        self.phi = activation(t["activation"], 1.0)
        # a width sweep widens every hidden layer: d_ff keeps its ratio to d_model (rounded half up, as the engine)
        d, f = width, max(1, math.floor(t["d_ff"] * width / t["d_model"] + 0.5))
        w = t["heads"] * (t["d_head"] or width // t["heads"])
        shapes = [("wte", (vocab, d)), ("wpe", (seq_len, d))]
        for l in range(t["layers"]):
            h = f"h{l}."
            shapes += [(h + "ln1.g", (d,)), (h + "ln1.b", (d,)), (h + "wq", (w, d)), (h + "wk", (w, d)), (h + "wv", (w, d))]
            if t["attention_bias"]:
                shapes += [(h + "bq", (w,)), (h + "bk", (w,)), (h + "bv", (w,))]
            shapes += [(h + "wo", (d, w))] + ([(h + "bo", (d,))] if t["attention_bias"] else [])
            shapes += [(h + "ln2.g", (d,)), (h + "ln2.b", (d,)), (h + "w1", (f, d))]
            shapes += ([(h + "b1", (f,))] if t["mlp_bias"] else []) + [(h + "w2", (d, f))]
            shapes += [(h + "b2", (d,))] if t["mlp_bias"] else []
        if self.pre_ln:
            shapes += [("ln_f.g", (d,)), ("ln_f.b", (d,))]
        shapes += [("head.w", (outputs, d))] + ([("head.b", (outputs,))] if t["output_bias"] else [])
        self.names = [n for n, _ in shapes]
        self.tensors = torch.nn.ParameterList([torch.nn.Parameter(torch.empty(s)) for _, s in shapes])
        self.index = {n: i for i, n in enumerate(self.names)}
        self.multipliers = {n: rules[n][2] for n in self.names}

    def named_tensors(self):
        return list(zip(self.names, self.tensors))

    def p(self, name):
        return self.tensors[self.index[name]] if name in self.index else None

    def linear(self, x, w, b):
        y = self.multipliers[w] * (x @ self.p(w).T)
        return y + self.p(b) if b in self.index else y

    def norm(self, x, name):
        return F.layer_norm(x, (x.shape[-1],), self.p(name + ".g"), self.p(name + ".b"), eps=1e-5)

    def attention(self, x, h, taps):
        batch, length, _ = x.shape
        q, k, v = (self.linear(x, h + "w" + c, h + "b" + c) for c in "qkv")
        dh = q.shape[-1] // self.heads
        q, k, v = (z.reshape(batch, length, self.heads, dh).transpose(1, 2) for z in (q, k, v))
        s = self.scale * (q @ k.transpose(-1, -2))
        future = torch.triu(torch.ones(length, length, dtype=torch.bool, device=x.device), 1)
        if taps is not None:  # the causal logits (j ≤ i): batch × heads × pairs
            taps["attn_logits"].append(s[..., ~future])
        y = (s.masked_fill(future, float("-inf")).softmax(-1) @ v).transpose(1, 2).reshape(batch, length, -1)
        return self.linear(y, h + "wo", h + "bo")

    def ffn(self, x, h):
        return self.linear(self.phi(self.linear(x, h + "w1", h + "b1")), h + "w2", h + "b2")

    def forward(self, tokens, taps=None):
        """The logits at the last position. taps, a dict, also receives the probes' inner values (the engine's
        Transformer hooks): "attn_logits", each block's causal attention logits, and "stream", the last block's
        output at every position."""
        x = self.multipliers["wte"] * self.p("wte")[tokens] + self.multipliers["wpe"] * self.p("wpe")[:tokens.shape[1]]
        if taps is not None:
            taps["attn_logits"] = []
        for l in range(self.layers):
            h = f"h{l}."
            if self.pre_ln:
                x = x + self.attention(self.norm(x, h + "ln1"), h, taps)
                x = x + self.ffn(self.norm(x, h + "ln2"), h)
            else:
                x = self.norm(x + self.attention(x, h, taps), h + "ln1")
                x = self.norm(x + self.ffn(x, h), h + "ln2")
        if taps is not None:
            taps["stream"] = x
        z = x[:, -1]
        return self.linear(self.norm(z, "ln_f") if self.pre_ln else z, "head.w", "head.b")


def initialize(model, rules, seed, init_member):
    """The engine's weights when an init file gives them, else draws of torch's generator seeded with the seed."""
    if init_member is not None:
        tensors = (init_member.get("layers") or init_member["transformer"]["tensors"]) + init_member.get("biases", [])
        stored = {x["name"]: x["w"] for x in tensors}
        for name, p in model.named_tensors():
            with torch.no_grad():
                p.copy_(torch.tensor(stored[name], dtype=torch.float64).reshape(p.shape))
        return
    generator = torch.Generator().manual_seed(seed)
    for name, p in model.named_tensors():
        init, std = rules[name][0], rules[name][1]
        init_tensor(p, init, std, generator)
    if getattr(model, "antisymmetric", False):
        model.make_antisymmetric()
