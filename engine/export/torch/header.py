#!/usr/bin/env python3
"""A muplay experiment as a standalone PyTorch program: the spec's models, parametrization, task, optimizer, sweep
grid and metrics, written out by `muplay export torch` (README.md beside this file has the commands).

Read it top to bottom: the experiment (SPEC) and its scaling rules (RULES, one row per tensor: init std, forward
multiplier and learning-rate multiplier as c·n^(−e) of the member's width n; a residual MLP's rows are per role, and
DEPTH_RULE adds the depth factors), then the task generators, the models, the metrics and the training loop. Nothing
else is needed but torch.

    python3 train.py                                   # every member of the sweep, here
    python3 train.py --widths 4096,8192 --device cuda  # the same experiment at other widths
    torchrun --nproc_per_node=8 train.py --widths ...  # the members split across 8 processes (GPUs)
    torchrun --nproc_per_node=8 train.py --ddp-member  # each member data-parallel (DDP) over 8 processes

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

import torch
import torch.distributed as dist
import torch.nn.functional as F
