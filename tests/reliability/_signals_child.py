"""Child of test_reliability_signals: real signals sent to this process while the game kernel
asks a rule's Python checker about wins.  Prints one JSON line of outcomes."""

import json
import os
import signal
import sys
import threading
import time

import pandas as pd

import mjfast as mj

# Python keeps SIGINT ignored when it starts so (a shell's background job without job control):
# the library's handling is under test here, not the disposition the parent handed down
signal.signal(signal.SIGINT, signal.default_int_handler)


def fire(times, delay=0.3, every=0.1, sig=signal.SIGINT):
    def run():
        time.sleep(delay)
        for _ in range(times):
            os.kill(os.getpid(), sig)
            time.sleep(every)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def outcome(fn):
    t0 = time.perf_counter()
    try:
        fn()
        return {"raised": None, "seconds": time.perf_counter() - t0}
    except BaseException as exc:  # noqa: BLE001 - the type is what is reported
        return {"raised": type(exc).__name__, "message": str(exc)[:200], "seconds": time.perf_counter() - t0}


def main():
    mode = sys.argv[1]
    out = {}
    if mode == "interrupt":
        # a run far longer than the test's timeout: only an interrupt that gets through ends it
        for rule, opts in [("jj", {}), ("guobiao", {}), ("taicang", {}), ("guangdong", {"min_fan": 1})]:
            fire(1)
            out[rule] = outcome(lambda: mj.simulate_games(rule, 2_000_000, rng=1, n_threads=2, **opts))
        fire(1, delay=0.5)
        out["draws"] = outcome(
            lambda: mj.simulate_draws(
                "123m456p789s234s5p", rule="guobiao", draws_left=18, n=50_000_000, rng=1, n_threads=2
            )
        )
    elif mode == "handled":
        # signals whose handler returns: the seeded games are exactly those of a quiet run
        counted = []
        signal.signal(signal.SIGINT, lambda s, f: counted.append(s))
        quiet = mj.simulate_games("jj", 2048, rng=1, n_threads=1)
        t = fire(8, delay=0.05, every=0.1)
        noisy = mj.simulate_games("jj", 2048, rng=1, n_threads=1)
        t.join()
        out["signals"] = len(counted)
        try:
            pd.testing.assert_frame_equal(quiet, noisy)
            out["equal"] = True
        except AssertionError as exc:
            out["equal"] = str(exc)[:300]
    elif mode == "raising":
        # a handler raising an ordinary exception: that exception ends the run
        def boom(s, f):
            raise RuntimeError("from a signal handler")

        signal.signal(signal.SIGUSR1, boom)
        fire(1, sig=signal.SIGUSR1)
        out["games"] = outcome(lambda: mj.simulate_games("guobiao", 2_000_000, rng=1, n_threads=1))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
