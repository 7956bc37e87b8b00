"""Small deterministic user policies for the tests (a module of their own, so that process pools
and Dask workers can unpickle them)."""


def _keep_score(counts, k):
    """How much kind ``k`` is worth keeping: copies held, and suited neighbours within two."""
    score = 4 * counts[k]
    if k < 27:
        lo = 9 * (k // 9)
        for j in (k - 2, k - 1, k + 1, k + 2):
            if lo <= j < lo + 9 and counts[j]:
                score += 3 if abs(j - k) == 1 else 2
    return score


class Loner:
    """Discards its void suit first, else the tile with the fewest copies and neighbours (ties to
    the highest kind); 碰s a pair of honours, passes everything else; takes every win."""

    def discard(self, view):
        counts = view.counts
        void = view.voids[view.seat]
        if void is not None:
            base = "mps".index(void) * 9
            for k in range(base, base + 9):
                if counts[k]:
                    return k
        held = [k for k in range(34) if counts[k]]
        return min(reversed(held), key=lambda k: _keep_score(counts, k))

    def claim(self, view, options):
        for opt in options:
            if opt is not None and opt[0] == "pung" and opt[1] >= 27:
                return opt
        return None

    def declare_win(self, view):
        return True


class OnlyWins:
    """Has only ``declare_win`` (always True): every other decision is Value()'s."""

    def declare_win(self, view):
        return True


class NeverWins:
    """Declines every win (so every hand is drawn, but where the rule forces a win); the rest is
    Value()'s."""

    def declare_win(self, view):
        return False


class Recorder:
    """Discards its highest tile and records every view it is shown (in-process runs only)."""

    def __init__(self):
        self.views = []

    def discard(self, view):
        self.views.append(view)
        return max(view.tiles())


class BadDiscard:
    """Answers a tile it does not hold."""

    def discard(self, view):
        return next(k for k in range(34) if view.counts[k] == 0)


class BadClaim:
    """Answers a call that is not among the options."""

    def claim(self, view, options):
        return ("chow", 40)


class BadWin:
    """Answers a win question with a string."""

    def declare_win(self, view):
        return "yes"


class HonourChower:
    """Takes every honour chow it is offered (瑞金: a wind with two other winds, a dragon with the
    other two; with 宝 for some of its tiles too) and records the offer; passes every other call
    (in-process runs only)."""

    def __init__(self):
        self.offers = []

    def claim(self, view, options):
        for opt in options:
            if opt is not None and opt[0] == "chow" and opt[1] >= 27:
                wilds = opt[2] if len(opt) > 2 else ()  # the tiles its 宝 would stand for
                self.offers.append(
                    (view.seat, view.tile, opt[1], wilds, view.counts, view.wilds, view.discards[-1], view.melds)
                )
                return opt
        return None


def _sets_only(counts, wilds, honour_chows):
    """Whether ``counts`` (34 kinds) plus ``wilds`` wildcards split into sets: pungs and suit
    chows, and with ``honour_chows`` any three different winds or the three dragons."""
    k = next((i for i in range(34) if counts[i]), None)
    if k is None:
        return wilds % 3 == 0
    c = list(counts)
    shapes = [[k, k, k]]
    if k < 27:
        shapes += [
            [k, x, y]
            for x, y in ((k + 1, k + 2), (k - 1, k + 1), (k - 2, k - 1))
            if x // 9 == y // 9 == k // 9 and min(x, y) >= 0
        ]
    elif honour_chows:
        group = range(27, 31) if k < 31 else range(31, 34)
        shapes += [[k, x, y] for x in group for y in group if k != x and x < y and k != y]
    for shape in shapes:
        need = 0
        for t in set(shape):
            need += max(0, shape.count(t) - c[t])
        if need > wilds:
            continue
        d = list(c)
        for t in set(shape):
            d[t] -= min(shape.count(t), c[t])
        if _sets_only(d, wilds - need, honour_chows):
            return True
    return False


def lone_wild_discard(view):
    """The lowest kind whose discard leaves complete sets (or, with no melds, six pairs) plus one
    lone wildcard — the 飞 / 宝吊头 wait — or None."""
    if view.wilds < 1:
        return None
    honour = bool(view.rule.calls.chow_honours)
    for z in range(34):
        if not view.counts[z]:
            continue
        c = list(view.counts)
        c[z] -= 1
        if _sets_only(c, view.wilds - 1, honour):
            return z
        singles = sum(x % 2 for x in c)
        if not view.melds[view.seat] and singles <= view.wilds - 1 and (view.wilds - 1 - singles) % 2 == 0:
            return z
    return None


class LoneWildWaiter:
    """Declines a complete self-drawn hand whenever it can discard down to the lone-wildcard wait,
    and discards to it; takes every other win, and takes the win once waiting; otherwise discards
    its highest kind.  Claims are Value()'s."""

    def declare_win(self, view):
        own_turn = sum(view.counts) + view.wilds + 3 * len(view.melds[view.seat]) == 14
        return view.waiting or not own_turn or lone_wild_discard(view) is None

    def discard(self, view):
        z = lone_wild_discard(view)
        return z if z is not None else max(view.tiles())


class WildThrower:
    """Discards a wildcard whenever it holds one (and is not waiting on it), else its highest
    kind; the rest is Value()'s."""

    def discard(self, view):
        from mjfast.policies import WILD

        return WILD if view.wilds and not view.waiting else max(view.tiles())


class AlwaysWild:
    """Answers every discard with a wildcard, held or not."""

    def discard(self, view):
        from mjfast.policies import WILD

        return WILD


class RaisesAtTurn:
    """Discards its highest kind until turn ``turn``, then raises ``exc`` (an exception instance)."""

    def __init__(self, exc, turn=5):
        self.exc = exc
        self.turn = turn

    def discard(self, view):
        if view.turn >= self.turn:
            raise self.exc
        return max(view.tiles())


class WildChower:
    """Takes the first chow it is offered in which a wildcard stands for a tile (瑞金 "如果含有宝，
    算吃成功，但宝不能拿起来了") and records the offer and its later views; passes every other call
    (in-process runs only)."""

    def __init__(self):
        self.offers = []  # (view, the option taken)
        self.views = []  # its views after its first wildcard chow

    def claim(self, view, options):
        if self.offers:
            self.views.append(view)
        for opt in options:
            if opt is not None and opt[0] == "chow" and len(opt) == 3:
                self.offers.append((view, opt))
                return opt
        return None


class WrongWildChower:
    """Answers a chow in which a wildcard stands for the claimed discard itself: a ValueError."""

    def claim(self, view, options):
        for opt in options:
            if opt is not None and opt[0] == "chow" and len(opt) == 3:
                return ("chow", opt[1], (view.tile,))
        return None
