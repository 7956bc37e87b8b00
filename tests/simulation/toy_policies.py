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
    """Has only ``declare_win`` (always True): every other decision is Efficiency()'s."""

    def declare_win(self, view):
        return True


class NeverWins:
    """Declines every win (so every hand is drawn); the rest is Efficiency()'s."""

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
    other two) and records the offer; passes every other call (in-process runs only)."""

    def __init__(self):
        self.offers = []

    def claim(self, view, options):
        for opt in options:
            if opt is not None and opt[0] == "chow" and opt[1] >= 27:
                self.offers.append((view.seat, view.tile, opt[1], view.counts, view.discards[-1], view.melds))
                return opt
        return None
