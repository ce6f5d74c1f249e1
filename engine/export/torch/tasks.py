# ---- The task: the engine's train and test data, rebuilt in Python (engine/export/torch/tasks.py) ----
#
# make_task(spec, data_dir) gives the arrays the engine trains a spec on, bit for bit in float64: the same seeds
# through the same SplitMix64 stream and Box-Muller (engine/base/rng.hpp), the same sin/cos/log
# (engine/base/detmath.hpp), and the same order of every floating-point operation as the C++ generators
# (engine/task/task.cpp, phenomena_tasks.cpp, anchor_tasks.cpp, fashion_mnist.cpp). The generators draw one number
# at a time in a fixed order, so they are plain Python loops, not vectorized: torch builds the tensors at the end.
#
# Why not math.sin / math.log: the engine's own functions differ from the C library's in the last bit on some
# inputs (that is why the engine has them), and one such bit in a Box-Muller radius changes a whole data set.
# Why no sum(): since Python 3.12 sum() of floats is compensated; the engine adds left to right.

_U64 = (1 << 64) - 1


# ---- engine/base/detmath.hpp: sin, cos and log as fixed sequences of double operations ----
# CPython floats are IEEE doubles and never fuse a multiply and an add, like the engine built with
# -ffp-contract=off, so the same expressions give the same bits.

DETMATH_PI = 3.14159265358979311600e+00
_DETMATH_LN2_HI = 6.93147180369123816490e-01
_DETMATH_LN2_LO = 1.90821492927058770002e-10
_DETMATH_SIN_COEFFS = (1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0, -1.0 / 39916800.0,
                       1.0 / 362880.0, -1.0 / 5040.0, 1.0 / 120.0, -1.0 / 6.0, 1.0)
_DETMATH_COS_COEFFS = (1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0,
                       1.0 / 40320.0, -1.0 / 720.0, 1.0 / 24.0, -0.5, 1.0)


def detmath_round_int(x):
    return float(math.floor(x + 0.5)) if x >= 0 else -float(math.floor(-x + 0.5))


def _detmath_sin_kernel(r):
    r2, p = r * r, -1.0 / 121645100408832000.0
    for c in _DETMATH_SIN_COEFFS:
        p = p * r2 + c
    return p * r


def _detmath_cos_kernel(r):
    r2, p = r * r, -1.0 / 6402373705728000.0
    for c in _DETMATH_COS_COEFFS:
        p = p * r2 + c
    return p


def _detmath_reduce_half_pi(x):
    """x = k pi/2 + r (Cody-Waite in three parts): (k, r)."""
    q = detmath_round_int(x * 6.36619772367581382433e-01)
    r = ((x - q * 1.57079632673412561417e+00) - q * 6.07710050630396597660e-11) - q * 2.02226624871116645580e-21
    return int(q), r


def detmath_sin(x):
    if not math.isfinite(x):
        return math.nan
    k, r = _detmath_reduce_half_pi(x)
    return _detmath_quadrant(k & 3, r, sine=True)


def detmath_cos(x):
    if not math.isfinite(x):
        return math.nan
    k, r = _detmath_reduce_half_pi(x)
    return _detmath_quadrant(k & 3, r, sine=False)


def _detmath_quadrant(quadrant, r, sine):
    """sin (or cos) of quadrant * pi/2 + r; cos(x) = sin(x + pi/2) is one quadrant on."""
    quadrant = quadrant if sine else (quadrant + 1) & 3
    if quadrant == 0:
        return _detmath_sin_kernel(r)
    if quadrant == 1:
        return _detmath_cos_kernel(r)
    if quadrant == 2:
        return -_detmath_sin_kernel(r)
    return -_detmath_cos_kernel(r)


def detmath_log(x):
    if x != x or x < 0:
        return math.nan
    if x == 0:
        return -math.inf
    if x == math.inf:
        return x
    m, e = math.frexp(x)  # x = m 2^e, m in [0.5, 1)
    if m < 0.70710678118654752440:
        m, e = m * 2, e - 1
    # log m = 2 atanh(s), s = (m - 1)/(m + 1), by its series to s^23
    s = (m - 1.0) / (m + 1.0)
    s2, p = s * s, 1.0 / 23
    for k in range(21, 0, -2):
        p = p * s2 + 1.0 / k
    return float(e) * _DETMATH_LN2_HI + (2.0 * s * p + float(e) * _DETMATH_LN2_LO)


# ---- engine/base/rng.hpp: SplitMix64 streams and Box-Muller normals; an Rng is a dict {"state", "spare"} ----

def splitmix64_mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return z ^ (z >> 31)


def rng_stream(seed, purpose):
    """Rng::stream: the stream of one purpose (1: task data, 11: anchor sequences) of a seed."""
    return {"state": splitmix64_mix((seed ^ splitmix64_mix(purpose + 0x51ED27)) & _U64), "spare": None}


def rng_uniform(rng):
    """Uniform in [0, 1) with 53 random bits."""
    rng["state"] = (rng["state"] + 0x9E3779B97F4A7C15) & _U64
    return (splitmix64_mix(rng["state"]) >> 11) * (1.0 / 9007199254740992.0)


def _int64(u):
    """A 64-bit pattern as the int64 torch stores it (two's complement)."""
    return u - (1 << 64) if u >= 1 << 63 else u


def _shift_right(z, bits):
    """The logical (unsigned) right shift of int64 bit patterns: torch's >> on int64 copies the sign bit."""
    return (z >> bits) & ((1 << (64 - bits)) - 1)


def rng_uniforms(rng, count, device="cpu"):
    """count calls of rng_uniform at once, as a float64 tensor in draw order: SplitMix64's k-th state is its state
    plus k times the increment, so every draw is computed side by side. torch's int64 products and sums wrap modulo
    2^64, as the engine's uint64_t arithmetic does, so the bits are those of rng_uniform."""
    k = torch.arange(1, count + 1, dtype=torch.int64, device=device)
    z = _int64(rng["state"]) + k * _int64(0x9E3779B97F4A7C15)
    z = (z ^ _shift_right(z, 30)) * _int64(0xBF58476D1CE4E5B9)
    z = (z ^ _shift_right(z, 27)) * _int64(0x94D049BB133111EB)
    z = z ^ _shift_right(z, 31)
    rng["state"] = (rng["state"] + count * 0x9E3779B97F4A7C15) & _U64
    return _shift_right(z, 11).to(torch.float64) * (1.0 / 9007199254740992.0)


def rng_below(rng, n):
    return int(rng_uniform(rng) * float(n))


def rng_normal(rng):
    # The second normal of each pair is kept for the next call, so a stream's normals depend on every earlier draw.
    if rng["spare"] is not None:
        spare, rng["spare"] = rng["spare"], None
        return spare
    u1 = 1.0 - rng_uniform(rng)  # (0, 1]: the log is finite
    u2 = rng_uniform(rng)
    radius = math.sqrt(-2.0 * detmath_log(u1))  # sqrt is exactly rounded everywhere
    angle = 2.0 * DETMATH_PI * u2
    rng["spare"] = radius * detmath_sin(angle)
    return radius * detmath_cos(angle)


# ---- MLP task generators: each returns (x rows, y rows or labels) as Python lists ----

def random_unit_vector(rng, d):
    v = [rng_normal(rng) for _ in range(d)]
    norm2 = 0.0
    for a in v:
        norm2 += a * a
    norm = math.sqrt(norm2)
    return [a / norm for a in v]


def sin_regression_set(task, v, rng, size):
    """engine/task/task.cpp: x uniform on the unit sphere, y = sin(frequency x.v)."""
    frequency = float(task["frequency"])
    xs, ys = [], []
    for _ in range(size):
        x = random_unit_vector(rng, len(v))
        dot = 0.0
        for a, b in zip(x, v):
            dot += a * b
        xs.append(x)
        ys.append([detmath_sin(frequency * dot)])
    return xs, ys


def sectors_set(task, rng, size):
    """engine/task/task.cpp: points of the disk (radius >= 0.1), class = angular sector, turned by twist * radius."""
    classes, twist = int(task["classes"]), float(task["twist"])
    xs, labels = [], []
    for _ in range(size):
        radius = 0.1 + 0.9 * math.sqrt(rng_uniform(rng))  # uniform in area
        angle = 2 * DETMATH_PI * rng_uniform(rng)
        xs.append([radius * detmath_cos(angle), radius * detmath_sin(angle)])
        turned = angle + twist * radius
        labels.append(math.floor(turned / (2 * DETMATH_PI) * classes) % classes)
    return xs, labels


def skipgram_set(task, rng, pairs):
    """engine/task/task.cpp: one example per word, one-hot in, the frequencies of its contexts in a fresh corpus out."""
    words = int(task["input_dim"])
    half = words // 2

    def uniform_index(n):
        return min(n - 1, int(rng_uniform(rng) * n))

    ys = [[0.0] * words for _ in range(words)]
    count = [0] * words
    for _ in range(pairs):
        word = uniform_index(words)
        same = rng_uniform(rng) < 0.7  # kSkipgramSameCluster (engine/task/task_config.hpp)
        cluster = (0 if word < half else 1) if same else (1 if word < half else 0)
        ys[word][cluster * half + uniform_index(half)] += 1
        count[word] += 1
    xs = [[1.0 if k == w else 0.0 for k in range(words)] for w in range(words)]
    ys = [[y / count[w] for y in ys[w]] if count[w] > 0 else ys[w] for w in range(words)]
    return xs, ys


# function_1d (engine/task/phenomena_tasks.cpp): the phase-diagram points and the book's targets.
FOUR_POINTS_X = (-0.8, -0.3, 0.2, 0.7)
FOUR_POINTS_Y = (0.6, 0.2, 0.5, -0.2)


def four_points_interpolant(x):
    if x <= FOUR_POINTS_X[0]:
        return FOUR_POINTS_Y[0]
    for i in range(1, 4):
        if x <= FOUR_POINTS_X[i]:
            s = (x - FOUR_POINTS_X[i - 1]) / (FOUR_POINTS_X[i] - FOUR_POINTS_X[i - 1])
            return FOUR_POINTS_Y[i - 1] + s * (FOUR_POINTS_Y[i] - FOUR_POINTS_Y[i - 1])
    return FOUR_POINTS_Y[3]


def function_1d_target(target, x):
    def relu(z):
        return z if z > 0 else 0.0

    if target == "sin135":
        return detmath_sin(x) + detmath_sin(3 * x) + detmath_sin(5 * x)
    if target == "sin15":
        return detmath_sin(x) + detmath_sin(5 * x)
    if target == "step":
        return 1.0 if x >= 0 else -1.0
    if target == "noisy_sin":
        return detmath_sin(x)
    if target == "piecewise_relu":
        return -relu(x) + relu(2 * (x + 0.3)) - relu(1.5 * (x - 0.4)) + relu(0.5 * (x - 0.8))
    if target == "four_points":
        return four_points_interpolant(x)
    return 0.0


def function_1d_grid(target, size, offset):
    """size points of [lo, hi) at (i + offset) steps: [-1, 1) for the chapter-8 targets, else [-pi, pi)."""
    lo, hi = (-1.0, 1.0) if target in ("piecewise_relu", "four_points") else (-DETMATH_PI, DETMATH_PI)
    xs = [lo + (hi - lo) * (i + offset) / size for i in range(size)]
    return [[x] for x in xs], [[function_1d_target(target, x)] for x in xs]


def function_1d_train(task, rng):
    target = task["target"]
    if target == "four_points":
        return [[x] for x in FOUR_POINTS_X], [[y] for y in FOUR_POINTS_Y]
    xs, ys = function_1d_grid(target, int(task["train_size"]), 0.0)
    if target == "noisy_sin":  # noise on the train targets only
        noise = float(task["noise"])
        ys = [[y[0] + noise * rng_normal(rng)] for y in ys]
    return xs, ys


def function_1d_test(task):
    target, size = task["target"], int(task["test_size"])
    if target == "four_points":  # the whole of [-1, 1], ends included, to draw the fit
        xs = [-1.0 + 2.0 * i / (size - 1) if size > 1 else 0.0 for i in range(size)]
        return [[x] for x in xs], [[four_points_interpolant(x)] for x in xs]
    return function_1d_grid(target, size, 0.5)


def function_1d_slope(target, x):
    """The target's derivative y′(x), for task.gradient_loss (engine/task/phenomena_tasks.cpp: the two smooth
    targets that check_spec allows with it)."""
    if target == "sin135":
        return detmath_cos(x) + 3 * detmath_cos(3 * x) + 5 * detmath_cos(5 * x)
    if target == "sin15":
        return detmath_cos(x) + 5 * detmath_cos(5 * x)
    return math.nan


def function_1d_train_slopes(task):
    """y′ at the train points, in their order: the gradient-augmented loss fits ∂f/∂x to these."""
    xs, _ = function_1d_grid(task["target"], int(task["train_size"]), 0.0)
    return [function_1d_slope(task["target"], x[0]) for x in xs]


def boolean_cube_sets(task, rng):
    """engine/task/phenomena_tasks.cpp: the corners of {-1, 1}^d shuffled; the first train_size train, the next test."""
    d = int(task["input_dim"])
    order = list(range(1 << d))
    for i in range(len(order) - 1, 0, -1):
        j = rng_below(rng, i + 1)
        order[i], order[j] = order[j], order[i]

    def corners(first, size):
        xs, ys = [], []
        for corner in order[first:first + size]:
            x = [1.0 if (corner >> k) & 1 else -1.0 for k in range(d)]
            product = 1.0
            for a in x:
                product *= a
            xs.append(x)
            ys.append([x[0] * x[1] if task["target"] == "x1x2" else product])
        return xs, ys

    train_size = int(task["train_size"])
    return corners(0, train_size), corners(train_size, int(task["test_size"]))


def sum_sin_set(task, rng, size):
    """engine/task/phenomena_tasks.cpp: x_k ~ U[-4, 2], y = sum_k 3.5 sin(5 x_k + 1)."""
    xs, ys = [], []
    for _ in range(size):
        x, y = [], 0.0
        for _ in range(int(task["input_dim"])):
            xk = -4 + 6 * rng_uniform(rng)
            x.append(xk)
            y += 3.5 * detmath_sin(5 * xk + 1)
        xs.append(x)
        ys.append([y])
    return xs, ys


def image_2d_pixel(u, v):
    """engine/task/phenomena_tasks.cpp: a ramp, a bright disk, a dark square and a band of fine stripes."""
    p = 0.3 * u
    if (u + 0.4) * (u + 0.4) + (v - 0.35) * (v - 0.35) < 0.35 * 0.35:
        p = 1.0
    if 0.15 < u < 0.75 and 0.1 < v < 0.7:
        p = -0.6
    if v < -0.35:
        p += 0.5 * detmath_sin(14 * u)
    return p


def image_2d_sets(task):
    """The side x side image (train_size = side^2 / 2): odd columns train, even ones test, row by row."""
    side = round(math.sqrt(2.0 * int(task["train_size"])))
    train, test = ([], []), ([], [])
    for r in range(side):
        for col in range(side):
            u, v = -1 + 2.0 * col / (side - 1), 1 - 2.0 * r / (side - 1)  # row 0 at the top
            xs, ys = train if col % 2 == 1 else test
            xs.append([u, v])
            ys.append([image_2d_pixel(u, v)])
    return train, test


def center_targets(train_ys, test_ys):
    """task.center_target: subtract the train set's mean target (every output of every row) from both sets."""
    total, count = 0.0, 0
    for row in train_ys:
        for y in row:
            total += y
            count += 1
    mean = total / max(count, 1)
    return [[y - mean for y in row] for row in train_ys], [[y - mean for y in row] for row in test_ys]


# ---- Fashion-MNIST (engine/task/fashion_mnist.cpp) ----

FASHION_MNIST_FILES = {  # the build's subset (engine/data/CMakeLists.txt), then the original files' names
    ("train", "images"): ("train-images.idx3", "train-images-idx3-ubyte", "train-images-idx3-ubyte.gz"),
    ("train", "labels"): ("train-labels.idx1", "train-labels-idx1-ubyte", "train-labels-idx1-ubyte.gz"),
    ("test", "images"): ("test-images.idx3", "t10k-images-idx3-ubyte", "t10k-images-idx3-ubyte.gz"),
    ("test", "labels"): ("test-labels.idx1", "t10k-labels-idx1-ubyte", "t10k-labels-idx1-ubyte.gz"),
}


def fashion_mnist_path(data_dir, split, part):
    """The first of the file's names found in data_dir or in torchvision's layout data_dir/FashionMNIST/raw."""
    for folder in (data_dir, os.path.join(data_dir, "FashionMNIST", "raw")):
        for name in FASHION_MNIST_FILES[(split, part)]:
            if os.path.isfile(os.path.join(folder, name)):
                return os.path.join(folder, name)
    return None


def read_idx(path, images, count):
    """The first `count` items of an IDX file (plain or gzip'd), header checked as the engine checks it."""
    header_size, item_size = (16, 784) if images else (8, 1)
    with (gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")) as f:
        data = f.read(header_size + count * item_size)
    magic, items = struct.unpack(">II", data[:8]) if len(data) >= 8 else (None, 0)
    if magic != (0x803 if images else 0x801):
        raise SystemExit(f"{path}: not an IDX {'image' if images else 'label'} file")
    if images and struct.unpack(">II", data[8:16]) != (28, 28):
        raise SystemExit(f"{path}: images are not 28x28")
    # a truncated subset keeps the original header: the items are those the file holds, at most the header's count
    available = min((len(data) - header_size) // item_size, items)
    if available < count:
        raise SystemExit(f"{path} holds fewer than the {count} items the spec asks for")
    return data[header_size:header_size + count * item_size]


def fashion_mnist_split(data_dir, split, size):
    pixels = read_idx(fashion_mnist_path(data_dir, split, "images"), True, size)
    labels = read_idx(fashion_mnist_path(data_dir, split, "labels"), False, size)
    if any(label >= 10 for label in labels):
        raise SystemExit(f"Fashion-MNIST in {data_dir}: a label is not in 0..9")
    # x = (p/255 - 0.2860)/0.3530, the full training set's statistics: one value per grey level, looked up
    standardized = torch.tensor([(p / 255.0 - 0.2860) / 0.3530 for p in range(256)], dtype=torch.float64)
    x = standardized[torch.frombuffer(bytearray(pixels), dtype=torch.uint8).long()].reshape(size, 784)
    return {"x": x, "labels": torch.frombuffer(bytearray(labels), dtype=torch.uint8).long()}


DEBIAN_FASHION_MNIST = "/usr/share/datasets/fashion-mnist"  # apt install dataset-fashion-mnist


def fashion_mnist_sets(task, data_dir):
    """The folder given (--data-dir, MUPLAY_DATA_DIR), else the first of: here, $MUPLAY_FASHION_MNIST_DIR (the muplay
    command line's), Debian's package folder, that holds all four files."""
    tried = [data_dir] if data_dir else [".", os.environ.get("MUPLAY_FASHION_MNIST_DIR"), DEBIAN_FASHION_MNIST]
    tried = [d for d in tried if d]
    missing = {}
    for folder in tried:
        missing[folder] = [names[-1] for key, names in FASHION_MNIST_FILES.items()
                           if not fashion_mnist_path(folder, *key)]
        if not missing[folder]:
            data_dir = folder
            break
    else:
        raise SystemExit(
            "train.py: Fashion-MNIST not found ("
            + "; ".join(f"{d}: missing {', '.join(m)}" for d, m in missing.items()) + "). Name the folder that "
            "holds train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
            "t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz with --data-dir DIR (or MUPLAY_DATA_DIR=DIR): "
            f"Debian's `apt install dataset-fashion-mnist` puts them in {DEBIAN_FASHION_MNIST}; "
            "torchvision.datasets.FashionMNIST(root, download=True) in root/FashionMNIST/raw (give root); "
            "https://github.com/zalandoresearch/fashion-mnist has them too.")
    return (fashion_mnist_split(data_dir, "train", int(task["train_size"])),
            fashion_mnist_split(data_dir, "test", int(task["test_size"])))


# ---- table: a data set the user brings (engine/task/table_file.cpp, table_task.cpp) ----
# The file is read as the engine reads it: the same cells, numbers parsed to the same doubles (Python's float() and
# C's strtod both round correctly), the same split by the engine's random stream and the same standardization, one
# double operation at a time. The engine has checked the file (muplay validate); this only rebuilds its sets.

TABLE_SPACES = " \t\n\v\f\r"


def table_number(cell):
    """A finite number written as the whole cell, as strtod reads it; None otherwise."""
    # float() also takes digit separators, other spaces and non-ASCII digits, which strtod does not
    if not cell or not cell.isascii() or "_" in cell or cell.strip() != cell:
        return None
    body = cell.lstrip("+-")
    try:
        x = float.fromhex(cell) if body[:2] in ("0x", "0X") else float(cell)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def table_split_line(line, separator):
    if separator == " ":
        return [w for w in re.split("[" + TABLE_SPACES + "]+", line) if w]
    cells, cell, quoted, i = [], "", False, 0
    while i < len(line):
        c = line[i]
        if quoted and c == '"' and line[i + 1:i + 2] == '"':
            cell, i = cell + '"', i + 1
        elif c == '"' and (quoted or not cell.strip(" \t")):
            quoted, cell = not quoted, ("" if not quoted else cell)
        elif c == separator and not quoted:
            cells, cell = cells + [cell.strip(" \t")], ""
        else:
            cell += c
        i += 1
    return cells + [cell.strip(" \t")]


def table_csv_columns(data):
    """The CSV's columns, each a list of its cells as written (header skipped)."""
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    rows, separator, header_seen = [], None, False
    for line in text.split("\n"):
        line = line[:-1] if line.endswith("\r") else line
        if not line.strip(" \t") or line.strip(" \t")[0] == "#":
            continue
        separator = separator or next((c for c in ",\t;" if c in line), " ")
        cells = table_split_line(line, separator)
        if not cells:  # only other white space (a form feed): blank
            continue
        if not rows and not header_seen and any(table_number(c) is None for c in cells):
            header_seen = True
            continue
        rows.append(cells)
    return [list(column) for column in zip(*rows)]


def npy_columns(data, name):
    """The columns of a .npy array (1-D: one column), each a list of floats."""
    major = data[6]
    length_bytes = 2 if major == 1 else 4
    header_length = int.from_bytes(data[8:8 + length_bytes], "little")
    header = ast.literal_eval(data[8 + length_bytes:8 + length_bytes + header_length].decode("latin-1"))
    descr, shape = header["descr"], header["shape"]
    kind, size = descr[1], int(descr[2:])
    fmt = {("f", 8): "d", ("f", 4): "f", ("i", 1): "b", ("i", 2): "h", ("i", 4): "i", ("i", 8): "q", ("u", 1): "B",
           ("u", 2): "H", ("u", 4): "I", ("u", 8): "Q", ("b", 1): "B"}[(kind, size)]
    rows, columns = shape[0], (shape[1] if len(shape) == 2 else 1)
    start = 8 + length_bytes + header_length
    flat = struct.unpack("<%d%s" % (rows * columns, fmt), data[start:start + rows * columns * size])
    if header["fortran_order"]:
        return [[float(flat[c * rows + r]) for r in range(rows)] for c in range(columns)]
    return [[float(flat[r * columns + c]) for r in range(rows)] for c in range(columns)]


def table_columns(path):
    """The file's columns: lists of cells as written (CSV) or of floats (.npy; .npz: its arrays side by side)."""
    with open(path, "rb") as f:
        data = f.read()
    lower = path.lower()
    if lower.endswith(".npy"):
        return npy_columns(data, path)
    if lower.endswith(".npz"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return [column for member in archive.infolist() for column in npy_columns(archive.read(member), member)]
    return table_csv_columns(data)


def table_values(column):
    return [c if isinstance(c, float) else table_number(c) for c in column]


def table_classes(column):
    """Each row's class: the rank of its label among the sorted distinct labels (numbers by value, text by bytes,
    which for UTF-8 is the order of the code points Python sorts by)."""
    values = table_values(column)
    labels = values if all(v is not None for v in values) else column
    rank = {label: k for k, label in enumerate(sorted(set(labels)))}
    return [rank[label] for label in labels]


def table_standardize(train_rows, test_rows):
    """Columns minus their train mean, over their train standard deviation (divided by the row count; 1 if 0)."""
    for k in range(len(train_rows[0]) if train_rows else 0):
        mean = 0.0
        for row in train_rows:
            mean += row[k]
        mean /= len(train_rows)
        variance = 0.0
        for row in train_rows:
            d = row[k] - mean
            variance += d * d
        variance /= len(train_rows)
        scale = math.sqrt(variance) if variance > 0 else 1.0
        for row in train_rows + test_rows:
            row[k] = (row[k] - mean) / scale


def table_path(file, data_dir):
    """The file beside train.py (where the export put it), else in data_dir."""
    here = os.path.dirname(os.path.abspath(sys.argv[0])) if sys.argv and sys.argv[0] else "."
    for folder in [d for d in (data_dir, here, ".") if d]:
        if os.path.isfile(os.path.join(folder, file)):
            return os.path.join(folder, file)
    raise SystemExit(f"task.table: {file} is in none of {data_dir or here}, {here}: it is data this experiment "
                     "trains on (the export copies it beside train.py)")


def table_read(file, sha256, data_dir):
    """The columns of a table file, its bytes checked against the spec's SHA-256."""
    path = table_path(file, data_dir)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if sha256 and digest != sha256:
        raise SystemExit(f"{path}: sha256 {digest[:12]}…, the spec's {file} has {sha256[:12]}…: not the same data")
    return table_columns(path)


def table_sets(task, data_dir):
    table = task["table"]
    parts = [table_read(table["file"], table["sha256"], data_dir)]
    if table["test_file"]:
        parts.append(table_read(table["test_file"], table["test_sha256"], data_dir))
    columns = parts[0]
    targets = table["targets"] or [len(columns) - 1]
    inputs = table["inputs"] or [k for k in range(len(columns)) if k not in targets]
    classification = table["type"] == "classification"
    rows = len(columns[0])
    rng = rng_stream(int(task["seed"]), 1)
    order = list(range(rows))
    for i in range(rows - 1, 0, -1):
        j = rng_below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    x_columns = [[table_values(p[k]) for k in inputs] for p in parts]
    if classification:  # the classes of every part together
        labels = table_classes([cell for p in parts for cell in p[targets[0]]])
        labels = [labels[:rows], labels[rows:]]
        outputs = max(max(part) for part in labels if part) + 1
    else:
        y_columns = [[table_values(p[k]) for k in targets] for p in parts]
        outputs = len(targets)

    def part(p, picked):
        xs = [[column[r] for column in x_columns[p]] for r in picked]
        ys = [labels[p][r] for r in picked] if classification else [[column[r] for column in y_columns[p]]
                                                                    for r in picked]
        return xs, ys

    train_size, test_size = int(task["train_size"]), int(task["test_size"])
    train = part(0, order[:train_size])
    test = part(1, range(test_size)) if len(parts) > 1 else part(0, order[train_size:train_size + test_size])
    if table["standardize"] != "none":
        table_standardize(train[0], test[0])
    if table["standardize"] == "inputs_and_targets":
        table_standardize(train[1], test[1])
    return classification, outputs, train, test


# ---- anchor tasks (engine/task/anchor_tasks.cpp): token sequences for a Transformer ----

ANCHOR_KEY_MIN, ANCHOR_KEY_MAX = 20, 100
COMPOSITE_SHIFTS = (0, 5, 1, -2, -8)  # g_a of the composite anchors a = 1..4
# The synonym task's pairs (book §12.6.6): four with the rare anchor 9 (100 train sequences each), twelve common
# ones, then the two held out; g_9 = g_3 = -2 (3 is a synonym of 9).
SYNONYM_PAIRS = ((1, 9), (2, 9), (9, 1), (9, 2), (1, 2), (1, 4), (2, 1), (4, 1), (2, 4), (4, 2), (1, 3), (3, 1),
                 (2, 3), (3, 2), (4, 3), (3, 4), (4, 9), (9, 4))
SYNONYM_RARE_PAIRS, SYNONYM_TRAINED_PAIRS, SYNONYM_RARE_PER_PAIR = 4, 16, 100


def synonym_shift(a):
    return COMPOSITE_SHIFTS[3] if a == 9 else COMPOSITE_SHIFTS[a]


def anchor_draw(anchor, rng, part, synonym_pair=-1):
    """One sample (tokens, label) of `part` ("train", "test" or "ood"), or None to draw again.

    synonym_pair: the synonym task's train pair (an index of SYNONYM_PAIRS), -1 for any common one.

    Every sequence starts as seq_len random keys; the task's pattern then writes its anchors in."""
    kind, n, modulus = anchor["kind"], int(anchor["seq_len"]), int(anchor["modulus"])

    def below(m):
        return rng_below(rng, m)

    def wanted(is_test):
        return is_test == (part != "train")

    def mod_test(x, position):  # the key x at 1-based `position` is a test key iff x = position (mod modulus)
        return x % modulus == position % modulus

    tokens = [ANCHOR_KEY_MIN + below(ANCHOR_KEY_MAX - ANCHOR_KEY_MIN + 1) for _ in range(n)]
    if kind in ("identity", "statistical1", "statistical2"):
        p = 1 + below(n - 1)  # the 3 at position p in 1..n-1, its key at p+1
        tokens[p - 1] = 3
        label = tokens[p]
        return (tokens, label) if wanted(mod_test(label, p + 1)) else None
    if kind == "reading":
        anchors = [1, 2, 3, 4, 5, 6, 7, 8]
        for i in range(7, 0, -1):
            j = below(i + 1)
            anchors[i], anchors[j] = anchors[j], anchors[i]
        for i in range(4):
            tokens[2 * i] = anchors[i]
        k = below(4)
        tokens[n - 1] = anchors[k]
        label = tokens[2 * k + 1]
        return (tokens, label) if wanted(mod_test(label, 2 * k + 2)) else None
    if kind == "classification":
        for i in range(4):
            tokens[2 * i + 1] = 1 + below(8)
        x = tokens[n - 1]
        best, ties = 0, 0
        for i in range(4):
            d, best_d = abs(tokens[2 * i] - x), abs(tokens[2 * best] - x)
            if d < best_d:
                best, ties = i, 0
            elif i > 0 and d == best_d:
                ties += 1
        if ties:  # the nearest key must be unique
            return None
        return (tokens, tokens[2 * best + 1]) if wanted(mod_test(x, n)) else None
    if kind == "multi_anchor":
        p = 2 + below(n - 1)  # the anchor at position p in 2..n, its key at p-1
        a = 1 + below(10)
        tokens[p - 1] = a
        x = tokens[p - 2]
        return (tokens, x + a) if wanted(12 + 8 * a <= x <= 19 + 8 * a) else None
    if kind in ("composite", "two_anchor"):
        p = 2 + below(n - 2)  # the pair at positions p, p+1, its key at p-1
        a = 1 + below(4)
        b = 1 + below(4)
        held_out = (a, b) == (3, 4) or (kind == "two_anchor" and (a, b) == (4, 3))
        if held_out != (part == "ood"):
            return None
        tokens[p - 1], tokens[p] = a, b
        return tokens, tokens[p - 2] + COMPOSITE_SHIFTS[a] + COMPOSITE_SHIFTS[b]
    if kind == "working_memory":
        gap = 1 + below(3)  # irrelevant keys between the two anchors
        q = 1 + below(n - 2 - gap)  # the key x at q, a1 at q+1, a2 at q+2+gap
        a1, a2 = 1 + below(2), 3 + below(2)
        tokens[q], tokens[q + 1 + gap] = a1, a2
        x = tokens[q - 1]
        return (tokens, x + COMPOSITE_SHIFTS[a1] + COMPOSITE_SHIFTS[a2]) if wanted(mod_test(x, q)) else None
    if kind == "synonyms":
        if part == "ood":
            pair = SYNONYM_TRAINED_PAIRS + below(2)
        elif part == "test":
            pair = below(SYNONYM_TRAINED_PAIRS)
        elif synonym_pair >= 0:
            pair = synonym_pair
        else:
            pair = SYNONYM_RARE_PAIRS + below(SYNONYM_TRAINED_PAIRS - SYNONYM_RARE_PAIRS)
        p = 2 + below(n - 2)  # the pair at positions p, p+1, its key at p-1
        a, b = SYNONYM_PAIRS[pair]
        tokens[p - 1], tokens[p] = a, b
        return tokens, tokens[p - 2] + synonym_shift(a) + synonym_shift(b)
    if kind in ("recite_previous", "recite_next"):
        p = 2 + below(n - 3)  # the 3 at p in 2..n-2, m at p-1, n at p+1; the query at position n
        tokens[p - 1] = 3
        before, after = tokens[p - 2], tokens[p]
        previous = kind == "recite_previous"  # the book's "forward": the query n asks for m
        tokens[n - 1] = after if previous else before
        test = mod_test(before, p - 1)
        if mod_test(after, p + 1) != test:  # both keys test keys, or neither
            return None
        return (tokens, before if previous else after) if wanted(test) else None
    raise SystemExit(f"task.anchor.kind: unknown anchor task {kind!r}")


def anchor_fill(anchor, rng, part, count, seen, exclude, into=None, synonym_pair=-1):
    """Distinct samples of `part`, none in `exclude`, until `into` (new lists if None) holds `count`; `seen`
    collects them.

    The engine keys its sets by the tokens as chars; all tokens are below 256, so tuples are the same keys."""
    tokens, labels = into if into is not None else ([], [])
    tries = 0
    while len(labels) < count:
        tries += 1
        if tries > 200 * count + 100000:
            raise SystemExit(f"anchor task: cannot draw {count} distinct sequences (lower the sizes)")
        sample = anchor_draw(anchor, rng, part, synonym_pair)
        if sample is None:
            continue
        key = tuple(sample[0])
        if key in seen or (exclude is not None and key in exclude):
            continue
        seen.add(key)
        tokens.append(sample[0])
        labels.append(sample[1])
    return tokens, labels


def swap_anchor_pair(tokens):
    """An OOD sequence of the composite kinds with its anchor pair swapped (anchor_tasks.cpp's `swapped`, which
    commutativity reads): the pair is the sequence's only two tokens below the keys' range, side by side."""
    p = [i for i, token in enumerate(tokens) if token < ANCHOR_KEY_MIN]
    swapped = list(tokens)
    swapped[p[0]], swapped[p[1]] = tokens[p[1]], tokens[p[0]]
    return swapped


def anchor_sets(task):
    """engine/task/anchor_tasks.cpp make_anchor_task: train, ID test and (composite kinds) OOD test, in its order."""
    anchor = task["anchor"]
    train_size, test_size = int(task["train_size"]), int(task["test_size"])
    rng = rng_stream(int(task["seed"]), 11)
    train_seen, test_seen, ood_seen = set(), set(), set()
    if anchor["kind"] == "statistical1":
        # S copied five times, the fifth copy labelled x+1: one input, two labels, 4 : 1 (copies adjacent)
        base_tokens, base_labels = anchor_fill(anchor, rng, "train", (train_size + 4) // 5, train_seen, None)
        train = ([], [])
        for tokens, label in zip(base_tokens, base_labels):
            for copy in range(5):
                if len(train[1]) < train_size:
                    train[0].append(list(tokens))
                    train[1].append(label + (1 if copy == 4 else 0))
    elif anchor["kind"] == "synonyms":  # 100 sequences of each pair with the rare 9, the rest over the common ones
        train = ([], [])
        for pair in range(SYNONYM_RARE_PAIRS):
            anchor_fill(anchor, rng, "train", (pair + 1) * SYNONYM_RARE_PER_PAIR, train_seen, None, train, pair)
        anchor_fill(anchor, rng, "train", train_size, train_seen, None, train)
    else:
        train = anchor_fill(anchor, rng, "train", train_size, train_seen, None)
    if anchor["kind"] == "statistical2":  # 20% of the train labels say x+1
        train = (train[0], [label + 1 if rng_uniform(rng) < 0.2 else label for label in train[1]])
    test = anchor_fill(anchor, rng, "test", test_size, test_seen, train_seen)
    has_ood = anchor["kind"] in ("composite", "two_anchor", "synonyms")
    ood = anchor_fill(anchor, rng, "ood", int(anchor["ood_test_size"]), ood_seen, train_seen) if has_ood else ([], [])
    seq_len = int(anchor["seq_len"])

    def as_tensors(tokens_labels):
        tokens, labels = tokens_labels
        return {"tokens": torch.tensor(tokens, dtype=torch.int64).reshape(len(labels), seq_len),
                "labels": torch.tensor(labels, dtype=torch.int64)}

    vocab = int(anchor["vocab"])  # the Transformer's vocabulary and output classes (engine/spec/transformer_spec.cpp)
    ood_set = as_tensors(ood)
    ood_set["swapped"] = torch.tensor([swap_anchor_pair(tokens) for tokens in ood[0]],
                                      dtype=torch.int64).reshape(len(ood[1]), seq_len)
    return {"classification": True, "outputs": vocab, "vocab": vocab, "seq_len": seq_len,
            "anchor": {"train": as_tensors(train), "test": as_tensors(test), "ood": ood_set}}


# ---- make_task: a spec's data as the engine's Runner trains on it (engine/task/task.cpp, engine/run/runner.cpp) ----

def mlp_task_sets(task, data_dir=None):
    """(classification, outputs, train, test) with train/test as (x rows, y rows or labels), in make_task's order."""
    kind = task["kind"]
    rng = rng_stream(int(task["seed"]), 1)  # one data stream: train draws first, test continues it
    train_size, test_size = int(task["train_size"]), int(task["test_size"])
    if kind == "sin_regression":
        v = random_unit_vector(rng, int(task["input_dim"]))
        return False, 1, sin_regression_set(task, v, rng, train_size), sin_regression_set(task, v, rng, test_size)
    if kind == "sectors":
        return True, int(task["classes"]), sectors_set(task, rng, train_size), sectors_set(task, rng, test_size)
    if kind == "skipgram":
        return False, int(task["input_dim"]), skipgram_set(task, rng, train_size), skipgram_set(task, rng, test_size)
    if kind == "function_1d":
        return False, 1, function_1d_train(task, rng), function_1d_test(task)
    if kind == "boolean_cube":
        return (False, 1) + boolean_cube_sets(task, rng)
    if kind == "sum_sin":
        return False, 1, sum_sin_set(task, rng, train_size), sum_sin_set(task, rng, test_size)
    if kind == "image_2d":
        return (False, 1) + image_2d_sets(task)
    if kind == "table":
        return table_sets(task, data_dir)
    raise SystemExit(f"task.kind: this train.py cannot generate {kind!r}")


def with_input_bias(x):
    """model.input_bias: a constant 1 appended to every input, the first layer's bias folded into W1."""
    return torch.cat([x, torch.ones(x.shape[0], 1, dtype=torch.float64)], dim=1)


def make_task(spec, data_dir=None):
    """The spec's train and test data (float64 / int64 CPU tensors), equal to what `muplay export-init` writes.

    MLP tasks: {"classification", "outputs", "train": {"x", "y" or "labels"}, "test": {...}}, x with the bias column
    when model.input_bias. Anchor tasks: {"classification", "outputs", "vocab", "seq_len",
    "anchor": {"train", "test", "ood": {"tokens", "labels"}}}, the ood set also with its "swapped" tokens.
    Fashion-MNIST is read from data_dir, a table's file from data_dir or beside train.py."""
    task = spec["task"]  # every field: SPEC is written with its defaults (spec_to_json_every_field)
    if task["kind"] == "anchor":
        return anchor_sets(task)
    if task["kind"] == "fashion_mnist":
        classification, outputs = True, 10
        train, test = fashion_mnist_sets(task, data_dir)
    else:
        classification, outputs, (train_x, train_y), (test_x, test_y) = mlp_task_sets(task, data_dir)
        if task["center_target"] and not classification:
            train_y, test_y = center_targets(train_y, test_y)
        target = "labels" if classification else "y"

        def as_tensors(xs, ys):
            return {"x": torch.tensor(xs, dtype=torch.float64).reshape(len(xs), -1),
                    target: torch.tensor(ys, dtype=torch.int64 if classification else torch.float64)}

        train, test = as_tensors(train_x, train_y), as_tensors(test_x, test_y)
    if spec["model"]["input_bias"]:
        train["x"], test["x"] = with_input_bias(train["x"]), with_input_bias(test["x"])
    return {"classification": classification, "outputs": outputs, "train": train, "test": test}
