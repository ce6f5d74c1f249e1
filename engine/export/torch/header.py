#!/usr/bin/env python3
"""A muplay experiment as a standalone PyTorch program: the spec's models, parametrization, task, optimizer, sweep
grid and metrics, written out by `muplay export torch` (README.md beside this file has the commands).

Read it top to bottom: the experiment (SPEC) and its scaling rules (RULES, one row per tensor: init std, forward
multiplier and learning-rate multiplier as c·n^(−e) of the member's width n; a residual MLP's rows are per role, and
DEPTH_RULE adds the depth factors), then the task generators, the models, the metrics and the training loop. Nothing
else is needed but torch.

    python3 train.py                                   # every member of the sweep, here
    python3 train.py --widths 4096,8192 --device cuda  # the same experiment at other widths
    torchrun --standalone --nproc_per_node=8 --redirects 2 --tee 2 --log_dir logs train.py --widths ...
                                                       # the members split across 8 processes (GPUs)
    ... train.py --ddp-member                          # under torchrun: each member data-parallel over them

It writes the muplay-result document (result.json) and its metrics as CSV (metrics.csv), which the muplay page
imports and draws beside its own runs.
"""
import argparse
import ast
import gzip
import hashlib
import io
import json
import math
import os
import re
import struct
import sys
import time
import zipfile
from collections import namedtuple

# OpenMP's default wait policy keeps idle threads spinning, and on shared or few cores they take the time the working
# threads need. libgomp reads the policy when torch loads it, so it is set before the import; the environment wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def pythons_with_torch():
    """Other Python interpreters on this machine that can import torch (Debian's python3-torch is under
    /usr/bin/python3, which a pyenv or venv python3 on the PATH hides)."""
    import shutil
    import subprocess
    found = []
    for name in ("/usr/bin/python3", shutil.which("python3"), shutil.which("python")):
        if name and os.path.realpath(name) != os.path.realpath(sys.executable) and name not in found:
            if subprocess.run([name, "-c", "import torch"], capture_output=True).returncode == 0:
                found.append(name)
    return found


try:
    import torch
    import torch.distributed as dist
    import torch.nn.functional as F
except ImportError:
    others = pythons_with_torch()
    sys.exit(f"train.py: {sys.executable} cannot import torch. " +
             (f"Run it with {others[0]} ({others[0]} train.py ...), which can, or install" if others else "Install") +
             " torch for this Python: pip install -r requirements.txt (or Debian's apt install python3-torch).")
