# An independent PyTorch program of chapter 13's verified configuration, written from its description (not from the
# engine or its export; its own data generator and RNG): two-anchor composite task (vocabulary 128, 10 000 / 2 000 /
# 1 000 sequences, pairs (3,4) and (4,3) never trained), pre-LN decoder 3 x d_model 64, 1 head, d_ff 256, every weight
# N(0, fan_in^(-2 gamma)) and embeddings N(0, 128^(-2 gamma)), AdamW 1e-3 with weight decay 0.01 on matrices and
# embeddings, 5% warm-up + cosine to 0, clip 1, batch 128 (drawn with replacement), 1 500 steps, float32, one thread.
# Prints train / ID / OOD accuracy, commutativity and the mean |cos| of layer 1's W_Q rows (examples/README.md,
# "Chapter 13 at the verified configuration"). Usage: /usr/bin/python3 anchor_gamma_reference.py GAMMA SEED
import math, sys, random, torch, torch.nn as nn, torch.nn.functional as F
gamma, seed = float(sys.argv[1]), int(sys.argv[2])
torch.set_num_threads(1); random.seed(seed); torch.manual_seed(seed)
SHIFT = {1: 5, 2: 1, 3: -2, 4: -8}; V, T = 128, 9
def sample(ood):
    while True:
        a, b = random.randint(1, 4), random.randint(1, 4)
        if ((a, b) in ((3, 4), (4, 3))) == ood: break
    x = [random.randint(20, 100) for _ in range(T)]
    p = random.randint(1, T - 2)
    x[p], x[p + 1] = a, b
    return tuple(x), x[p - 1] + SHIFT[a] + SHIFT[b]
def draw(n, ood, exclude):
    out = {}
    while len(out) < n:
        s, y = sample(ood)
        if s not in exclude and s not in out: out[s] = y
    return torch.tensor(list(out.keys())), torch.tensor(list(out.values()))
train = draw(10000, False, set()); tr = set(map(tuple, train[0].tolist()))
idt = draw(2000, False, tr); ood = draw(1000, True, tr)
class Block(nn.Module):
    def __init__(s, D, Fd):
        super().__init__(); s.ln1, s.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        s.q, s.k, s.v, s.o = (nn.Linear(D, D, bias=False) for _ in range(4))
        s.w1, s.w2 = nn.Linear(D, Fd, bias=False), nn.Linear(Fd, D, bias=False)
    def forward(s, x):
        h = s.ln1(x); q, k, v = s.q(h), s.k(h), s.v(h)
        att = (q @ k.transpose(1, 2)) / math.sqrt(q.shape[-1])
        att = att.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float('-inf')).softmax(-1)
        x = x + s.o(att @ v)
        return x + s.w2(F.relu(s.w1(s.ln2(x))))
class Net(nn.Module):
    def __init__(s, D=64, L=3, Fd=256):
        super().__init__(); s.wte, s.wpe = nn.Embedding(V, D), nn.Embedding(T, D)
        s.blocks = nn.ModuleList(Block(D, Fd) for _ in range(L)); s.lnf = nn.LayerNorm(D); s.head = nn.Linear(D, V)
    def forward(s, x):
        h = s.wte(x) + s.wpe(torch.arange(T))
        for b in s.blocks: h = b(h)
        return s.head(s.lnf(h[:, -1]))
m = Net()
with torch.no_grad():
    for mod in m.modules():
        if isinstance(mod, nn.Linear):
            mod.weight.normal_(0, mod.in_features ** -gamma)
            if mod.bias is not None: mod.bias.zero_()
        elif isinstance(mod, nn.Embedding): mod.weight.normal_(0, V ** -gamma)
decay = [p for n, p in m.named_parameters() if p.dim() == 2]
rest = [p for n, p in m.named_parameters() if p.dim() < 2]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}], lr=1e-3)
S, W = 1500, 75
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda t: (t + 1) / W if t < W else 0.5 * (1 + math.cos(math.pi * (t - W) / (S - W))))
g = torch.Generator().manual_seed(seed)
for t in range(S):
    idx = torch.randint(0, 10000, (128,), generator=g)
    loss = F.cross_entropy(m(train[0][idx]), train[1][idx])
    opt.zero_grad(); loss.backward(); nn.utils.clip_grad_norm_(m.parameters(), 1.0); opt.step(); sched.step()
with torch.no_grad():
    acc = lambda d: (m(d[0]).argmax(-1) == d[1]).float().mean().item()
    sw = ood[0].clone()
    for i in range(len(sw)):
        r = sw[i]; p = [j for j in range(1, T - 1) if r[j] in (3, 4) and r[j + 1] in (3, 4)][0]; r[p], r[p + 1] = r[p + 1].item(), r[p].item()
    comm = (m(ood[0]).argmax(-1) == m(sw).argmax(-1)).float().mean().item()
    wq = m.blocks[0].q.weight; c = F.normalize(wq, dim=1) @ F.normalize(wq, dim=1).T
    cos = (c.abs().sum() - c.diag().abs().sum()).item() / (64 * 63)
print(f"gamma {gamma} seed {seed}: train {acc(train):.3f} ID {acc(idt):.3f} OOD {acc(ood):.3f} comm {comm:.3f} cos {cos:.3f} loss {loss.item():.4f}")
