"""What a Jupyter user sees: Chinese plot labels (CJK font) and tiles drawn as images."""
import os
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import mjfast as mj  # noqa: E402
from mjfast.analysis import plotting  # noqa: E402

GLYPH_MISSING = "missing from font"


def _draw_all(labels="zh", keys=("碰", "不碰")):
    """Every mjfast plot with Chinese content, rendered; returns the figure."""
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    mj.plot_discards(df, ax=axes[0, 0], labels=labels)
    t = pd.DataFrame({"turn": [1, 2], "p_ready": [.2, .4], "se_ready": [.01, .01], "p_win": [0, .1],
                      "se_win": [0, .01]})
    mj.plot_win_curve({keys[0]: t, keys[1]: t}, ax=axes[0, 1], labels=labels)
    games = pd.DataFrame({"dealer": [0, 1], "winners": ["0", "2"], "how": ["self_draw", "discard"],
                          "discarder": [-1, 1], "pay_0": [6, 0], "pay_1": [-2, -8], "pay_2": [-2, 8],
                          "pay_3": [-2, 0], "rule": ["suzhou", "sichuan"]})
    mj.plot_payouts(games, kind="tail", ax=axes[1, 0], labels=labels)
    freq = pd.DataFrame({"element": ["qingyise", "menqing"], "name_zh": ["清一色", "门清"],
                         "frequency": [0.1, 0.5], "se": [0.01, 0.02], "rule": ["suzhou", "suzhou"]})
    mj.plot_elements(freq, ax=axes[1, 1], labels=labels)
    fig.canvas.draw()
    return fig


def test_chinese_labels_render_without_missing_glyphs():
    if not plotting.installed_cjk_fonts():
        if os.environ.get("CI"):
            pytest.fail("CI installs a CJK font (.ci/run: fonts-wqy-microhei), but none was found")
        pytest.skip("no CJK font installed here (Debian: apt install fonts-wqy-microhei)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = _draw_all()
    plt.close(fig)
    missing = [str(w.message) for w in caught if GLYPH_MISSING in str(w.message)]
    assert missing == []
    assert not [w for w in caught if issubclass(w.category, plotting.CJKFontWarning)]
    # the labels really are Chinese
    ax = fig.axes[0]
    assert ax.get_title() == "打牌选择（由好到差）" and ax.get_xlabel() == "张数"
    assert [t.get_text() for t in fig.axes[1].get_legend().get_texts()][0] == "碰 听牌概率"
    assert [t.get_text() for t in fig.axes[2].get_legend().get_texts()] == ["苏州麻将", "四川麻将"]
    assert [t.get_text() for t in fig.axes[3].get_yticklabels()] == ["门清", "清一色"]


def test_without_cjk_font_english_labels_and_one_hint(monkeypatch):
    monkeypatch.setattr(plotting, "_cjk_candidates", dict)
    monkeypatch.setitem(plotting._state, "font", None)
    monkeypatch.setitem(plotting._state, "warned", False)
    with matplotlib.rc_context({"font.family": ["sans-serif"]}):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig = _draw_all(keys=("pung", "pass"))
            fig2 = _draw_all(keys=("pung", "pass"))
    plt.close(fig)
    plt.close(fig2)
    hints = [w for w in caught if issubclass(w.category, plotting.CJKFontWarning)]
    assert len(hints) == 1 and "fonts-noto-cjk" in str(hints[0].message)
    # English labels (rule codes, element codes): nothing for a missing CJK font to break
    assert fig.axes[0].get_title() == "discard choices, best first"
    assert [t.get_text() for t in fig.axes[2].get_legend().get_texts()] == ["suzhou", "sichuan"]
    assert [t.get_text() for t in fig.axes[3].get_yticklabels()] == ["menqing", "qingyise"]
    assert [str(w.message) for w in caught if GLYPH_MISSING in str(w.message)] == []


def test_english_labels_never_look_for_a_font(monkeypatch):
    def fail():
        raise AssertionError("labels='en' searched for a CJK font")

    monkeypatch.setattr(plotting, "_cjk_candidates", fail)
    monkeypatch.setitem(plotting._state, "font", None)
    fig, ax = plt.subplots()
    mj.plot_discards(mj.analyze_discards("11p34567m45s9p1p", melds=["555z"]), ax=ax, labels="en")
    assert ax.get_xlabel() == "copies"
    plt.close(fig)


def test_use_cjk_font_choices(monkeypatch):
    with pytest.raises(ValueError, match="name: no installed font named 'No Such Font'"):
        plotting.use_cjk_font("No Such Font")
    with pytest.raises(ValueError, match="labels must be 'zh' or 'en'"):
        mj.plot_discards(mj.analyze_discards("11p34567m45s9p1p", melds=["555z"]), labels="fr")
    fonts = plotting.installed_cjk_fonts()
    if fonts:
        with matplotlib.rc_context():
            assert plotting.use_cjk_font(fonts[-1]) == fonts[-1]
            assert matplotlib.rcParams["font.family"][-1] == fonts[-1]
            # a fallback: the text font stays first
            assert matplotlib.rcParams["font.family"][0] != fonts[-1]
