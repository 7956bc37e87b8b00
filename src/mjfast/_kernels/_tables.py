"""Per-suit replacement-number tables for the shanten and efficiency kernels.

For a suit configuration ``c`` (nine counts 0..4, index ``sum(c[i] * 5**i)``) and a goal of
``m`` sets plus ``p`` pairs, the table holds the *replacement number*

    D[c, 2*m + p] = min over complete targets T of  sum_i max(0, T[i] - c[i])

i.e. how many tiles must be drawn (and as many discarded) to turn ``c`` into ``m`` sets and
``p`` pairs.  Because sets never cross suits, a hand's replacement number is the min-plus
combination of its three suits and its honours, which is how the kernel uses these tables
(the approach tomohxx and nyanten describe; this is an independent implementation).

Two tables are built:

* ``natural``: targets hold at most 4 copies of a kind (the physical limit);
* ``unlimited``: targets may hold up to 8 copies of a kind (wildcards standing for a fifth or
  later copy).  The kernel only needs the exact overflow-aware search for a suit where the two
  differ.

For the efficiency kernel, two *accept* tables hold per configuration (at most 14 tiles: a
group of a hand) and per ``(m, p)`` the nine-bit set of kinds whose draw lowers ``D``; with the
splits that attain a hand's minimum they give its 进张 in one lookup per group.

Construction is by a closure trick instead of a search: ``|T ∧ c|`` is maximised over the
downward closure U of the targets, and both "downward closure" and "max over the box
[0, c]" are one accumulate pass per axis.  The result is cached on disk (``MJFAST_CACHE_DIR``,
else the platform's user cache folder, ``~/.cache/mjfast`` on Linux), checked against its content
hash on every load (tens of milliseconds for the 50 MB) and memory-mapped, so importing mjfast
costs a few seconds only the first time; see :func:`load_tables` for what happens to a cache
that is damaged, untrusted or read-only.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import mmap
import os
import shutil
import stat
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

TABLE_VERSION = 2  # bump when the tables' layout or meaning changes
N_SUIT_CONFIGS = 5**9
N_HONOR_CONFIGS = 5**7
MAX_SETS = 4
MAX_GROUP_TILES = 14  # accept tables cover groups of a hand of at most 14 tiles
RANK_CHUNK = 3  # kinds of a group whose rank contribution is looked up together
N_SUIT_ACCEPT = 405_350  # suit configurations with at most MAX_GROUP_TILES tiles
N_HONOR_ACCEPT = 43_130  # the same for the seven honours
TABLE_SHAPES = {
    "suit_natural": (N_SUIT_CONFIGS, 10),
    "suit_unlimited": (N_SUIT_CONFIGS, 10),
    "honor_natural": (N_HONOR_CONFIGS, 10),
    "honor_unlimited": (N_HONOR_CONFIGS, 10),
    "suit_accept": (N_SUIT_ACCEPT, 10),
    "honor_accept": (N_HONOR_ACCEPT, 10),
}


def _suit_set_shapes(n_kinds: int, runs: bool) -> list[np.ndarray]:
    shapes = []
    for i in range(n_kinds):
        v = np.zeros(n_kinds, np.int64)
        v[i] = 3
        shapes.append(v)
    if runs:
        for i in range(n_kinds - 2):
            v = np.zeros(n_kinds, np.int64)
            v[i : i + 3] = 1
            shapes.append(v)
    return shapes


def _targets(n_kinds: int, runs: bool, m: int, p: int, max_copies: int) -> np.ndarray:
    """All count vectors made of ``m`` sets and ``p`` pairs with at most ``max_copies`` a kind
    (one row each), grown a set at a time from the distinct partial sums."""
    sets = np.array(_suit_set_shapes(n_kinds, runs), np.int64)
    out = np.zeros((1, n_kinds), np.int64)
    for _ in range(m):
        grown = (out[:, None, :] + sets[None, :, :]).reshape(-1, n_kinds)
        out = np.unique(grown[grown.max(axis=1) <= max_copies], axis=0)
    if p:
        grown = (out[:, None, :] + 2 * np.eye(n_kinds, dtype=np.int64)[None, :, :]).reshape(-1, n_kinds)
        out = np.unique(grown[grown.max(axis=1) <= max_copies], axis=0)
    return out


def _axis_views(a: np.ndarray, n_kinds: int):
    """``a`` (flat, 5**n_kinds) as (before, 5, after) views, one per axis: a pass along an axis
    is then four whole-slice operations, much faster than an accumulate over a strided axis."""
    return [a.reshape(5**axis, 5, 5 ** (n_kinds - 1 - axis)) for axis in range(n_kinds)]


def _replacement_table(n_kinds: int, runs: bool, max_copies: int) -> np.ndarray:
    """Table of shape (5**n_kinds, 10): replacement number for every config and (m, p)."""
    # the flat C index of the (5,)*n array is sum c[i] * 5**i: axis j is kind n_kinds - 1 - j
    weights = 5 ** np.arange(n_kinds, dtype=np.int64)
    idx = np.arange(5**n_kinds, dtype=np.int64)
    sizes = sum(((idx // 5**i) % 5 for i in range(n_kinds)), np.zeros(5**n_kinds, np.int64)).astype(np.int8)
    table = np.empty((5**n_kinds, 2 * (MAX_SETS + 1)), np.uint8)
    closure = np.empty(5**n_kinds, bool)
    best = np.empty(5**n_kinds, np.int8)
    for m in range(MAX_SETS + 1):
        for p in (0, 1):
            t = _targets(n_kinds, runs, m, p, max_copies)
            flat = np.minimum(t, 4) @ weights  # a target clipped to 4 meets c <= 4 the same way
            closure[:] = False
            closure[flat] = True
            for v in _axis_views(closure, n_kinds):  # downward closure: suffix-OR along each axis
                for i in (3, 2, 1, 0):
                    np.logical_or(v[:, i], v[:, i + 1], out=v[:, i])
            np.copyto(best, np.where(closure, sizes, np.int8(-1)))
            for v in _axis_views(best, n_kinds):  # max |s| over s <= c: prefix-max along each axis
                for i in (1, 2, 3, 4):
                    np.maximum(v[:, i], v[:, i - 1], out=v[:, i])
            table[:, 2 * m + p] = (3 * m + 2 * p - best).astype(np.uint8)
    return table


def _accept_table(natural: np.ndarray, n_kinds: int) -> np.ndarray:
    """进张 masks of every group configuration holding at most ``MAX_GROUP_TILES`` tiles.

    ``A[rank(c), 2*m + p]`` has bit ``i`` set when kind ``i`` can be drawn (``c[i] < 4``) and the
    draw lowers ``D[c, 2*m + p]``.  Rows are the configurations with at most
    ``MAX_GROUP_TILES`` tiles in increasing index order (``rank`` = position in that order, see
    :func:`rank_split`); a group of a hand before a draw never holds more.
    """
    idx = np.arange(5**n_kinds, dtype=np.int64)
    digits = [(idx // 5**i) % 5 for i in range(n_kinds)]
    keep = sum(digits) <= MAX_GROUP_TILES
    idx = idx[keep]
    here = natural[idx]
    masks = np.zeros((len(idx), 2 * (MAX_SETS + 1)), np.uint16)
    for i, d in enumerate(digits):
        can = d[keep] < 4
        lowered = natural[np.where(can, idx + 5**i, idx)] < here
        masks |= (lowered & can[:, None]).astype(np.uint16) << np.uint16(i)
    return masks


def rank_offsets(n_kinds: int) -> np.ndarray:
    """``OFF[i, b, v]``: configurations of kinds ``0..i-1`` with at most ``b`` tiles, summed over
    the digits below ``v`` at kind ``i`` — the rank of ``c`` is ``sum_i OFF[i, b_i, c[i]]`` with
    ``b_i`` the tiles left to ``MAX_GROUP_TILES`` after the kinds above ``i``."""
    cnt = np.zeros((n_kinds + 1, MAX_GROUP_TILES + 1), np.int64)  # cnt[i, b]: i kinds, <= b tiles
    cnt[0, :] = 1
    for i in range(1, n_kinds + 1):
        for b in range(MAX_GROUP_TILES + 1):
            cnt[i, b] = sum(cnt[i - 1, b - v] for v in range(min(4, b) + 1))
    off = np.zeros((n_kinds, MAX_GROUP_TILES + 1, 5), np.int64)
    for i in range(n_kinds):
        for b in range(MAX_GROUP_TILES + 1):
            for v in range(1, 5):
                off[i, b, v] = off[i, b, v - 1] + (cnt[i, b - v + 1] if b - v + 1 >= 0 else 0)
    return off


def rank_split(n_kinds: int) -> dict[str, np.ndarray]:
    """The rank of a configuration (its row in an accept table) from its index ``x`` by three
    small lookups, one per chunk of ``RANK_CHUNK`` kinds (low, middle, high)::

        h, m, l = x // 5**6, x // 5**3 % 5**3, x % 5**3
        b = high_budget[h];  rank = high[h] + mid[b, m] + low[mid_budget[b, m], l]

    ``mid``/``low`` (per tile budget left by the kinds above) are the same for suits and
    honours; ``high`` and ``high_budget`` depend on the group's number of kinds.  Entries of
    configurations over ``MAX_GROUP_TILES`` tiles are meaningless (never looked up).
    """
    off = rank_offsets(n_kinds)
    top = MAX_GROUP_TILES

    def chunk(first: int, n: int, budget: int):
        x = np.arange(5**n)
        b = np.full(len(x), budget)
        r = np.zeros(len(x), np.int64)
        for i in range(first + n - 1, first - 1, -1):
            d = (x // 5 ** (i - first)) % 5
            r += off[i, np.clip(b, 0, top), d]
            b = b - d
        return r, np.clip(b, 0, top)

    high, high_budget = chunk(2 * RANK_CHUNK, n_kinds - 2 * RANK_CHUNK, top)
    mid = np.zeros((top + 1, 5**RANK_CHUNK), np.int64)
    mid_budget = np.zeros((top + 1, 5**RANK_CHUNK), np.int64)
    low = np.zeros((top + 1, 5**RANK_CHUNK), np.int64)
    for b in range(top + 1):
        mid[b], mid_budget[b] = chunk(RANK_CHUNK, RANK_CHUNK, b)
        low[b] = chunk(0, RANK_CHUNK, b)[0]
    return {
        k: v.astype(np.int32).ravel()
        for k, v in dict(high=high, high_budget=high_budget, mid=mid, mid_budget=mid_budget, low=low).items()
    }


def build_tables() -> dict[str, np.ndarray]:
    """Compute every table from scratch (a few seconds)."""
    suit = _replacement_table(9, True, 4)
    honor = _replacement_table(7, False, 4)
    return {
        "suit_natural": suit,
        "suit_unlimited": _replacement_table(9, True, 8),
        "honor_natural": honor,
        "honor_unlimited": _replacement_table(7, False, 8),
        "suit_accept": _accept_table(suit, 9),
        "honor_accept": _accept_table(honor, 7),
    }


#: Entry of an honour-chow table for a goal no target reaches (the kernels' INF).
HC_IMPOSSIBLE = 100


def _any_three_table(n_kinds: int, max_copies: int) -> np.ndarray:
    """Replacement numbers of a group where any three *different* kinds form a set (besides
    the pungs): the 瑞金 honour chows of the four winds (``n_kinds=4``) and of the three
    dragons (``n_kinds=3``).  Shape ``(5**n_kinds, 10)``, rows and columns as the other tables.

    Brute force over every target (a few hundred per goal): the groups are tiny."""
    shapes = [tuple(3 if i == k else 0 for i in range(n_kinds)) for k in range(n_kinds)]
    shapes += [
        tuple(0 if i in omit else 1 for i in range(n_kinds))
        for omit in itertools.combinations(range(n_kinds), n_kinds - 3)
    ]
    idx = np.arange(5**n_kinds)
    c = np.stack([(idx // 5**i) % 5 for i in range(n_kinds)], axis=1)  # (configs, kinds)
    table = np.empty((5**n_kinds, 2 * (MAX_SETS + 1)), np.uint8)
    for m in range(MAX_SETS + 1):
        bodies = {
            tuple(map(sum, zip(*combo))) if combo else (0,) * n_kinds
            for combo in itertools.combinations_with_replacement(shapes, m)
        }
        for p in (0, 1):
            targets = (
                {tuple(v + 2 * (i == k) for i, v in enumerate(body)) for body in bodies for k in range(n_kinds)}
                if p
                else bodies
            )
            t = np.array(sorted(x for x in targets if max(x) <= max_copies), np.int64).reshape(-1, n_kinds)
            if not len(t):
                table[:, 2 * m + p] = HC_IMPOSSIBLE  # e.g. four dragon sets and a pair
                continue
            deficit = np.maximum(t[None, :, :] - c[:, None, :], 0).sum(axis=2).min(axis=1)
            table[:, 2 * m + p] = deficit.astype(np.uint8)
    return table


@functools.lru_cache(maxsize=1)
def honour_chow_tables() -> dict[str, np.ndarray]:
    """The tables of the honour-chow groups (winds, dragons; natural: at most 4 copies of a kind
    in a target, unlimited: at most 8) and their combination over the seven honours (indexed as
    the honour group of the other tables).  Built in memory on first use (tens of
    milliseconds), never cached on disk."""
    out = {
        "wind_natural": _any_three_table(4, 4),
        "wind_unlimited": _any_three_table(4, 8),
        "dragon_natural": _any_three_table(3, 4),
        "dragon_unlimited": _any_three_table(3, 8),
    }
    for kind in ("natural", "unlimited"):
        out[f"honor_{kind}"] = _merge_groups(out[f"wind_{kind}"], out[f"dragon_{kind}"])
    return out


def _merge_groups(winds: np.ndarray, dragons: np.ndarray) -> np.ndarray:
    """The seven honours' table (rows ``wind index + 625 * dragon index``, the index of the
    honour group) as the min-plus combination of the wind and the dragon tables."""
    w = winds.astype(np.int32)[None, :, :]  # (1, 625, 10)
    d = dragons.astype(np.int32)[:, None, :]  # (125, 1, 10)
    out = np.full((len(dragons), len(winds), 2 * (MAX_SETS + 1)), HC_IMPOSSIBLE, np.int32)
    for m in range(MAX_SETS + 1):
        for m1 in range(m + 1):
            m2 = m - m1
            np.minimum(out[:, :, 2 * m], w[:, :, 2 * m1] + d[:, :, 2 * m2], out=out[:, :, 2 * m])
            np.minimum(out[:, :, 2 * m + 1], w[:, :, 2 * m1 + 1] + d[:, :, 2 * m2], out=out[:, :, 2 * m + 1])
            np.minimum(out[:, :, 2 * m + 1], w[:, :, 2 * m1] + d[:, :, 2 * m2 + 1], out=out[:, :, 2 * m + 1])
    return np.minimum(out, HC_IMPOSSIBLE).astype(np.uint8).reshape(len(dragons) * len(winds), -1)


# ---------------------------------------------------------------------------------------
# The verified cache.
#
# The kernels use table words as numbers and (the accept masks) as kind indices, so a table is
# never trusted as found: a cache folder holds the six ``.npy`` files and a manifest naming the
# builder and each file's shape, dtype and SHA-256.  A table is used only when its folder and
# file pass the ownership checks, its header matches, its size is exact and its content hash
# matches; anything else is rebuilt (under a lock, into temporary files that are fsync'ed and
# renamed into place), or, where the cache cannot be written, kept in memory for the process.

#: dtype of each table on disk and in the kernels (little-endian, C order).
TABLE_DTYPES: dict[str, np.dtype] = {
    "suit_natural": np.dtype("u1"),
    "suit_unlimited": np.dtype("u1"),
    "honor_natural": np.dtype("u1"),
    "honor_unlimited": np.dtype("u1"),
    "suit_accept": np.dtype("<u2"),
    "honor_accept": np.dtype("<u2"),
}
#: Kinds of a group: an accept mask never names a kind beyond them (the kernels index by it).
ACCEPT_KINDS = {"suit_accept": 9, "honor_accept": 7}
#: Largest replacement number (four sets and a pair from nothing: 3 * 4 + 2).
MAX_DEFICIT = 3 * MAX_SETS + 2
MANIFEST = "manifest.json"
LOCK = ".lock"
_LOCK_WAIT = 120.0  # seconds to wait for another process building the tables


class CacheWarning(RuntimeWarning):
    """The table cache could not be used as found: the tables were rebuilt, or kept in memory."""


class _Missing(Exception):
    """No cache yet (built silently)."""


class _Invalid(Exception):
    """A cache that cannot be used as found (the message says why)."""


def _builder_version() -> str:
    """``TABLE_VERSION`` and a digest of this module: tables built by other code never mix."""
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        source = str(TABLE_VERSION).encode()
    return f"{TABLE_VERSION}-{hashlib.sha256(source).hexdigest()[:12]}"


BUILDER = _builder_version()

#: How this process got its tables (filled by :func:`load_tables`; read by ``mj.show_config()``).
STATUS: dict = {}


def cache_root() -> Path:
    """``MJFAST_CACHE_DIR`` if set (made absolute), else the platform's user cache folder
    (``platformdirs.user_cache_dir("mjfast")``: ``~/.cache/mjfast`` on Linux)."""
    env = os.environ.get("MJFAST_CACHE_DIR")
    if env:
        return Path(env).expanduser().absolute()
    import platformdirs

    return Path(platformdirs.user_cache_dir("mjfast", appauthor=False))


def table_folder() -> Path:
    """The folder of this builder's tables inside :func:`cache_root`."""
    return cache_root() / f"shanten_tables_v{BUILDER}"


def check_tables(arrays) -> None:
    """Raise ``ValueError`` unless ``arrays`` hold tables the kernels can index safely.

    Checks what the kernels rely on for memory safety, whatever the tables' origin: every
    table present, C-contiguous, of its dtype and shape; replacement numbers at most
    :data:`MAX_DEFICIT`; accept masks naming only the kinds of their group.  (That the values
    are *right* is what the cache's content hash guarantees.)
    """
    for name, shape in TABLE_SHAPES.items():
        a = arrays.get(name) if hasattr(arrays, "get") else None
        want = TABLE_DTYPES[name]
        if (
            not isinstance(a, np.ndarray)
            or a.shape != shape
            or a.dtype != want.newbyteorder("=")
            or not a.flags.c_contiguous
        ):
            got = (
                "nothing"
                if a is None
                else (
                    f"{type(a).__name__}"
                    if not isinstance(a, np.ndarray)
                    else f"{a.dtype} {a.shape}{'' if a.flags.c_contiguous else ' not C-contiguous'}"
                )
            )
            raise ValueError(f"table {name}: expected a C-contiguous {want} array of shape {shape}, got {got}")
    for name in ("suit_natural", "suit_unlimited", "honor_natural", "honor_unlimited"):
        top = int(arrays[name].max())
        if top > MAX_DEFICIT:
            raise ValueError(f"table {name}: replacement number {top} above {MAX_DEFICIT}")
    for name, kinds in ACCEPT_KINDS.items():
        if (arrays[name] >> np.uint16(kinds)).any():
            raise ValueError(f"table {name}: accept masks name kinds beyond the group's {kinds}")


# -- file system helpers ------------------------------------------------------------------


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _file_mode() -> int:
    """Readable by the group (a cache shared by a team), never writable by every user."""
    return ((0o666 & ~_umask()) | 0o440) & ~0o002


def _dir_mode() -> int:
    return ((0o777 & ~_umask()) | 0o750) & ~0o002


def _untrusted(st: os.stat_result, what: str) -> str | None:
    """Why a file or folder with this status may have been written by a stranger (None: it
    may not).  Trusted: owned by this user or root, or by the group of this user, and not
    writable by every user."""
    if st.st_mode & stat.S_IWOTH:
        return f"{what} is writable by every user"
    if not hasattr(os, "getuid"):
        return None
    uid = os.getuid()
    groups = {os.getgid(), *os.getgroups()}
    if st.st_uid not in (uid, 0) and st.st_gid not in groups:
        return f"{what} belongs to user {st.st_uid}, not to you or a group of yours"
    if st.st_mode & stat.S_IWGRP and st.st_gid not in groups:
        return f"{what} is writable by group {st.st_gid}, not a group of yours"
    return None


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def _open_regular(path: Path, what: str):
    """``(fd, stat)`` of a regular file; never follows a symbolic link or blocks on a FIFO."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise _Invalid(f"{what} is missing") from None
    except OSError as exc:
        if os.path.islink(path):
            raise _Invalid(f"{what} is a symbolic link") from None
        raise _Invalid(f"{what} cannot be opened ({exc.strerror})") from None
    st = os.fstat(fd)
    problem = None if stat.S_ISREG(st.st_mode) else f"{what} is not a regular file"
    problem = problem or _untrusted(st, what)
    if problem:
        os.close(fd)
        raise _Invalid(problem)
    return fd, st


def _check_folder(folder: Path) -> None:
    """The table folder exists (else :class:`_Missing`) and is a trusted folder."""
    try:
        lst = os.lstat(folder)
    except FileNotFoundError:
        raise _Missing() from None
    link = stat.S_ISLNK(lst.st_mode)
    try:
        st = os.stat(folder) if link else lst
    except OSError:
        raise _Invalid(f"{folder} is a symbolic link to nothing") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _Invalid(f"{folder} is not a folder")
    problem = _untrusted(
        st, "the folder " + ("that the symbolic link " if link else "") + str(folder) + (" points to" if link else "")
    )
    if problem:
        raise _Invalid(problem)


def _read_manifest(folder: Path) -> dict:
    path = folder / MANIFEST
    if not os.path.lexists(path):
        present = [n for n in TABLE_SHAPES if os.path.lexists(folder / f"{n}.npy")]
        if not present:
            raise _Missing()
        raise _Invalid("incomplete (tables without a manifest: an interrupted build?)")
    fd, st = _open_regular(path, MANIFEST)
    try:
        if st.st_size > 1 << 16:
            raise _Invalid(f"{MANIFEST} is too large ({st.st_size} bytes)")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(1 << 16)
    finally:
        os.close(fd)
    try:
        manifest = json.loads(data.decode("utf-8"))
        tables = manifest["tables"]
        ok = (
            manifest.get("format") == "mjfast-tables"
            and set(tables) == set(TABLE_SHAPES)
            and all(
                list(tables[n]["shape"]) == list(s)
                and tables[n]["dtype"] == TABLE_DTYPES[n].str
                and isinstance(tables[n]["sha256"], str)
                and len(tables[n]["sha256"]) == 64
                for n, s in TABLE_SHAPES.items()
            )
        )
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
        raise _Invalid(f"{MANIFEST} is unreadable") from None
    if not ok:
        raise _Invalid(f"{MANIFEST} does not describe these tables")
    if manifest.get("builder") != BUILDER:
        raise _Invalid(
            f"{MANIFEST} was written by another table builder ({manifest.get('builder')!r}, this one is {BUILDER!r})"
        )
    return manifest


def _read_header(fh):
    version = np.lib.format.read_magic(fh)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(fh)
    if version == (2, 0):
        return np.lib.format.read_array_header_2_0(fh)
    raise ValueError(f"unsupported .npy version {version}")


def _load_table(folder: Path, name: str, entry: dict) -> np.ndarray:
    """The table ``name`` memory-mapped from its file, once its header, size and hash match."""
    what = f"{name}.npy"
    fd, st = _open_regular(folder / what, what)
    try:
        try:
            with os.fdopen(fd, "rb", closefd=False) as fh:
                shape, fortran, dtype = _read_header(fh)
                offset = fh.tell()
        except Exception as exc:  # numpy raises ValueError, EOFError, SyntaxError ... on bad headers
            raise _Invalid(f"{what} has no valid .npy header ({exc})") from None
        want = TABLE_DTYPES[name]
        if tuple(shape) != TABLE_SHAPES[name] or dtype != want or fortran:
            raise _Invalid(
                f"{what} holds a {'Fortran-order ' if fortran else ''}{dtype} array of shape "
                f"{tuple(shape)}, not {want} {TABLE_SHAPES[name]}"
            )
        nbytes = int(np.prod(shape)) * want.itemsize
        if st.st_size != offset + nbytes:
            raise _Invalid(f"{what} has {st.st_size} bytes, not {offset + nbytes}")
        mm = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)
    view = memoryview(mm)[offset:]
    try:
        digest = hashlib.sha256(view).hexdigest()
    finally:
        view.release()
    if digest != entry["sha256"]:
        mm.close()
        raise _Invalid(f"{what} does not match its content hash")
    arr = np.frombuffer(mm, dtype=want, count=nbytes // want.itemsize, offset=offset).reshape(shape)
    return arr if want.isnative else arr.astype(want.newbyteorder("="))


def _load_verified(folder: Path) -> dict:
    _check_folder(folder)
    manifest = _read_manifest(folder)
    arrays = {name: _load_table(folder, name, manifest["tables"][name]) for name in TABLE_SHAPES}
    try:
        check_tables(arrays)
    except ValueError as exc:
        raise _Invalid(str(exc)) from None
    return arrays


class _Lock:
    """An exclusive ``flock`` on the folder's lock file, so that concurrent builders build
    once: the others wait, then find the finished cache.  Without ``fcntl`` (Windows), or when
    the lock cannot be had in :data:`_LOCK_WAIT` seconds, work goes on unlocked (the renames
    keep every file whole either way)."""

    def __init__(self, folder: Path) -> None:
        self.fd = None
        try:
            self.fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), _file_mode())
            if hasattr(os, "fchmod") and os.fstat(self.fd).st_uid == getattr(os, "getuid", lambda: -1)():
                os.fchmod(self.fd, _file_mode())  # os.open applies the umask
        except OSError:
            pass

    def __enter__(self):
        if self.fd is None:
            return self
        try:
            import fcntl
        except ImportError:
            return self
        deadline = time.monotonic() + _LOCK_WAIT
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return self
                time.sleep(0.05)
            except OSError:  # no locks on this file system
                return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock


def _make_folder(folder: Path) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(folder, _dir_mode())
        os.chmod(folder, _dir_mode())  # mkdir applies the umask
    except FileExistsError:
        pass
    try:
        _check_folder(folder)
    except _Missing:
        raise _Invalid(f"{folder} vanished while being created") from None


def _clear(path: Path) -> None:
    """Remove what stands where a table file goes unless it is a regular file (``os.replace``
    cannot replace a folder; a symbolic link or FIFO is removed, never followed)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def _remove_temporaries(folder: Path) -> None:
    """Temporary files left by a builder that was killed (only called under the lock)."""
    for entry in os.scandir(folder):
        if entry.name.startswith(".") and entry.name.endswith(".tmp") and entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
            except OSError:
                pass


def _atomic_write(folder: Path, filename: str, write) -> None:
    """``write(fh)`` into a temporary file of ``folder``, fsync'ed, then renamed to ``filename``."""
    tmp: str | None  # None once renamed into place: nothing left to clean up
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{filename}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), _file_mode())
            os.fsync(fh.fileno())
        _clear(folder / filename)
        os.replace(tmp, folder / filename)
        tmp = None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write(folder: Path, arrays: dict) -> None:
    """Write the tables, then the manifest that makes them valid (the last rename)."""
    _remove_temporaries(folder)
    entries = {}
    for name in TABLE_SHAPES:
        arr = np.ascontiguousarray(arrays[name], TABLE_DTYPES[name])
        _atomic_write(folder, f"{name}.npy", lambda fh, a=arr: np.lib.format.write_array(fh, a, allow_pickle=False))
        entries[name] = {
            "shape": list(arr.shape),
            "dtype": arr.dtype.str,
            "sha256": hashlib.sha256(arr.data.cast("B")).hexdigest(),
        }
    manifest = {"format": "mjfast-tables", "builder": BUILDER, "tables": entries}
    _atomic_write(folder, MANIFEST, lambda fh: fh.write(json.dumps(manifest, indent=1).encode()))
    _fsync_folder(folder)


def _rebuild(folder: Path, problem: str | None) -> dict:
    """Build the tables and cache them; in memory with one warning where that fails."""
    write_error = None
    try:
        _make_folder(folder)
    except _Invalid as exc:
        write_error = str(exc)
    except OSError as exc:
        write_error = f"it cannot be created ({exc.strerror or exc})"
    if write_error is None:
        with _Lock(folder):
            try:
                arrays = _load_verified(folder)  # another process built it meanwhile
                STATUS.update(source="cache", problem=None)
                return arrays
            except (_Missing, _Invalid):
                pass
            arrays = build_tables()
            try:
                _write(folder, arrays)
            except OSError as exc:
                write_error = f"it cannot be written ({exc.strerror or exc})"
    else:
        arrays = build_tables()
    STATUS.update(source="memory" if write_error else "built", problem=problem or write_error)
    if write_error:
        warnings.warn(
            f"mjfast: the table cache {folder} is not usable: "
            + (f"{problem}, and " if problem and problem != write_error else "")
            + f"{write_error}; the tables were built in "
            f"memory for this process (set MJFAST_CACHE_DIR to a folder of your own)",
            CacheWarning,
            stacklevel=2,
        )
    elif problem:
        warnings.warn(
            f"mjfast: the table cache {folder} was unusable ({problem}); it was rebuilt", CacheWarning, stacklevel=2
        )
    return arrays


@functools.cache
def load_tables() -> dict[str, np.ndarray]:
    """The verified tables: memory-mapped from the cache, or built (and cached) if needed.

    Cached per process: the shanten and efficiency kernels install the same arrays.  A cache
    that is missing is built silently; one that is damaged, incomplete, from another builder
    or untrusted is rebuilt with a :class:`CacheWarning`; where the cache cannot be written the
    tables are built in memory, with one warning per process.  Never raises for a bad cache.
    """
    folder = table_folder()
    STATUS.clear()
    STATUS.update(folder=str(folder), builder=BUILDER)
    t0 = time.perf_counter()
    try:
        arrays = _load_verified(folder)
        STATUS.update(source="cache", problem=None)
    except _Missing:
        arrays = _rebuild(folder, None)
    except _Invalid as exc:
        arrays = _rebuild(folder, str(exc))
    STATUS["seconds"] = time.perf_counter() - t0
    return arrays
