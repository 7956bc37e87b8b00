"""上饶麻将 (Shangrao) scorer: 宝 wildcards, 十三浪, 九幺, 七对, 宝吊头 on the Ruijin table.

Rules: ``rules/ruijin_shangrao.md`` (SR columns).  The Shangrao text gives no
scoring at all; RS-A9 ⚑ reuses the Ruijin table (rule option ``scoring="rj"``, the only value),
so the payments are those of :mod:`mjfast.scoring.ruijin`:

* discard win: each of the three others pays ``b``, the discarder ``+b``, the dealer ``+b``
  (RS-A11 ⚑ symmetric dealer extra);
* self-draw: each pays ``2b`` plus the dealer extra;
* 宝吊头 (13 tiles = four complete sets + a lone 宝, won on the next own draw): paid as the
  Ruijin 飞, the self-draw payment × ``fei_mult`` (scorer keyword, default 2 ⚑ RS-A5);
* 抢杠: a discard win by the robber, the robbed player paying as the discarder (⚑).

Differences from Ruijin kept here: no honour chows, extra forms 十三浪 (general reading, RS-C3)
and 九幺 (14 terminals/honours in any arrangement); a discard win with a 宝吊头-ready hand is
legal (the "制飞后不能平胡" ban is Ruijin's), so ``rule_state={"fei": True}`` only requires a
self-draw to be 宝吊头-ready; no 四宝 飞, no 天胡/地胡 (the flags are ignored).  Several
robbers of one kong may all win: score each with its own :class:`WinContext`.

:attr:`Score.total` = the principal payer's share in 基数 (the discarder, or the dealer when he
pays a self-draw), ``points = total × base``.  ``hand.wilds`` are the 宝 held; a winning 宝 is
given as the tile it stands for (see :mod:`mjfast.scoring.ruijin`).  Kong settlement: the
Ruijin table (RS-A9 ⚑), :func:`kong_payments` — Shangrao 碰杠 on a discard = ``"exposed"``,
碰杠 by drawing the 4th = ``"added"``, 自摸杠 = ``"concealed"``.

No 包 liability exists: ``ctx.liable`` is rejected.
"""

from __future__ import annotations

from ._core import WinContext
from .ruijin import _check_base, _check_mult, table_scheme
from .ruijin import kong_payments as _rj_kong
from .ruijin import settle_kongs as _ruijin_settle_kongs

__all__ = ["score_shangrao", "can_win_shangrao", "kong_payments", "SCHEME"]


def _keywords(kw: dict, rule) -> dict:
    if rule.options["scoring"] != "rj":  # pragma: no cover - the registry allows only "rj"
        raise ValueError(f"unknown shangrao scoring {rule.options['scoring']!r}")
    kw["fei_mult"] = _check_mult(kw["fei_mult"])
    kw["base"] = _check_base(kw["base"])
    return kw


#: The 上饶 scorer, declared: the Ruijin table (RS-A9) with 宝吊头 for 飞, no honour chows, no
#: 四宝 飞, no 天胡/地胡, and no "制飞后不能平胡" ban.
SCHEME = table_scheme(
    "shangrao",
    False,
    (("baodiaotou", "宝吊头", "lone 宝 head (宝吊头)"), None),
    discard_ban=False,
    specials=False,
    mult=lambda o, kw: kw["fei_mult"],
    keywords={"base": 1, "fei_mult": 2},
    check_keywords=_keywords,
)
_score = SCHEME.score_fn()
_can_win = SCHEME.can_win_fn()


def score_shangrao(ctx: WinContext, rule, *, base: int = 1, fei_mult: int = 2):
    """Score a won hand under 上饶麻将 (registered as ``"shangrao"``).

    Parameters
    ----------
    ctx : WinContext
    rule : Rule
        The resolved ``shangrao`` rule (option ``scoring="rj"``).
    base : int, default 1
        基数 ``b``.
    fei_mult : int, default 2
        Multiplier of the self-draw payment for 宝吊头 (⚑ RS-A5 via RS-A9).

    Examples
    --------
    >>> from mjfast import Hand
    >>> from mjfast.scoring import WinContext, score
    >>> s = score(WinContext(Hand("19m19p19s1234567z1z"), win_tile="1z", self_draw=True),
    ...           "shangrao")
    >>> s.total, s.payments.tolist(), s.decomposition.form
    (3, [9, -3, -3, -3], 'nine_terminals')
    """
    return _score(ctx, rule, base=base, fei_mult=fei_mult)


def can_win_shangrao(ctx: WinContext, rule, *, base: int = 1, fei_mult: int = 2) -> bool:
    """Whether ``ctx`` is a legal 上饶 win (any complete hand)."""
    return _can_win(ctx, rule, base=base, fei_mult=fei_mult)


def kong_payments(kind: str, konger: int, feeder: int | None = None, *, base: int = 1):
    """Shangrao kong settlement: the Ruijin table (RS-A9 ⚑); see :func:`ruijin.kong_payments`.

    ``kind``: ``"exposed"`` (碰杠 on a discard; the feeder pays ``3b``), ``"added"`` (碰杠 by
    drawing the 4th of an exposed pung; each pays ``b``), ``"concealed"`` (自摸杠; each pays
    ``2b``).

    Examples
    --------
    >>> kong_payments("added", 2).tolist()
    [-1, -1, 3, -1]
    """
    return _rj_kong(kind, konger, feeder, base=base)


SCHEME.register()


# ---------------------------------------------------------------------------------------------
# Engine hooks (see mjfast.scoring._outcome): what the game engine needs to play and settle
# this rule.  Kept apart from the scoring above.

#: The cheapest legal wins: the Ruijin table's (RS-A9).
MINIMAL_WINS = (("123m456p789s234s55p", (), (), "1m", False), ("123m456p789s234s55p", (), (), "1m", True))


#: The kong payments of the Ruijin table as each kong is made (瑞金's hook: the same table).
settle_kongs = _ruijin_settle_kongs
