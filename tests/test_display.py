"""What a Jupyter user sees: Chinese plot labels (CJK font) and tiles drawn as images."""

import os
import shutil
import subprocess
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
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
    t = pd.DataFrame(
        {"turn": [1, 2], "p_ready": [0.2, 0.4], "se_ready": [0.01, 0.01], "p_win": [0, 0.1], "se_win": [0, 0.01]}
    )
    mj.plot_win_curve({keys[0]: t, keys[1]: t}, ax=axes[0, 1], labels=labels)
    games = pd.DataFrame(
        {
            "dealer": [0, 1],
            "winners": ["0", "2"],
            "how": ["self_draw", "discard"],
            "discarder": [-1, 1],
            "pay_0": [6, 0],
            "pay_1": [-2, -8],
            "pay_2": [-2, 8],
            "pay_3": [-2, 0],
            "rule": ["suzhou", "sichuan"],
        }
    )
    mj.plot_payouts(games, kind="tail", ax=axes[1, 0], labels=labels)
    freq = pd.DataFrame(
        {
            "element": ["qingyise", "menqing"],
            "name_zh": ["清一色", "门清"],
            "frequency": [0.1, 0.5],
            "se": [0.01, 0.02],
            "rule": ["suzhou", "suzhou"],
        }
    )
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


# ---------------------------------------------------------------------------------------------
# tiles drawn as pictures
# ---------------------------------------------------------------------------------------------
def test_every_tile_is_a_distinct_standalone_svg():
    import xml.etree.ElementTree as ET

    from mjfast import _display

    svgs = [_display.tile_svg(t) for t in range(mj.tiles.N_TILES_ALL)]
    assert len(set(svgs)) == len(svgs)
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 30 40"
        assert "<text" not in svg  # shapes only: no font involved
    with pytest.raises(ValueError, match="t must be a tile id"):
        _display.tile_svg(48)


def test_tables_and_readings_draw_their_tiles():
    df = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    html = mj.style(df).to_html()
    # one picture per discard, plus the 进张 tiles of every row
    n_ukeire = sum(len(mj.tiles.parse_tiles(t)) for t in df.ukeire_tiles)
    assert html.count('class="mjfast-tile"') == len(df) + n_ukeire
    assert '<code class="mjfast-mpsz">2345678m3456s</code>' in html
    calls = mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="opposite", melds=["555z"])
    html = mj.style(calls).to_html()
    assert 'alt="1p"' in html and 'alt="9p"' in html
    with pytest.raises(ValueError, match="columns: the table has no column"):
        mj.style(calls, columns=["nope"])
    readings = mj.decompose("11122233344455m", win_tile="5m")
    assert isinstance(readings, list) and len(readings) == 4
    html = readings._repr_html_()
    assert html.count('class="mjfast-tile"') == 4 * 14 and "ryanmen" in html


def test_returned_tables_draw_their_tiles_and_stay_dataframes(tmp_path):
    import pickle

    from mjfast._display import TileFrame

    table = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    calls = mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="opposite", melds=["555z"])
    breakdown = mj.yijinting("11p34567m45s9p", melds=["555z"]).breakdown
    for df in (table, calls, breakdown):
        assert isinstance(df, pd.DataFrame) and type(df) is TileFrame
        # Jupyter's HTML is the styled table, with pictures; everything else is pandas' own
        tiles = df._repr_html_().count('class="mjfast-tile"')
        assert tiles > 0 and tiles == mj.style(df).to_html().count('class="mjfast-tile"')
        assert 'class="mjfast-tile"' not in df.to_html()
        plain = pd.DataFrame(df)
        assert type(plain) is pd.DataFrame and repr(plain) == repr(df) and plain.to_html() == df.to_html()
        assert df.equals(plain) and plain.equals(df)
        pd.testing.assert_frame_equal(df, plain)
        pd.testing.assert_frame_equal(plain, df)
        again = pickle.loads(pickle.dumps(df))
        assert type(again) is TileFrame and again.equals(df)
        # what a method returns is still a table that draws its tiles
        assert type(df.head(2)) is TileFrame and type(df.sort_values(df.columns[-1])) is TileFrame
        assert type(df.iloc[:, 0]) is pd.Series
    path = tmp_path / "t.pkl"
    table.to_pickle(path)
    assert pd.read_pickle(path).equals(table)
    # tables without a tile column, or too long to show whole, display as pandas does
    numbers = table[["shanten", "ukeire"]]
    assert numbers._repr_html_() == pd.DataFrame(numbers)._repr_html_()
    long = pd.concat([table] * 10, ignore_index=True)
    with pd.option_context("display.max_rows", 20):
        assert long._repr_html_() == pd.DataFrame(long)._repr_html_()


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    if os.environ.get("CI"):
        pytest.fail("CI installs Chromium (.ci/run), but no chromium binary was found")
    pytest.skip("Chromium is not installed here (Debian: apt install chromium)")


def _screenshot(html, tmp_path, size):
    """Render a page in headless Chromium; a boolean mask of the tile-face colour."""
    from matplotlib import image

    chrome = _chromium()
    page = tmp_path / "page.html"
    page.write_text(
        f"<!doctype html><meta charset='utf-8'><body style='margin:8px;background:#fff'>{html}</body>", "utf-8"
    )
    shot = tmp_path / "shot.png"
    subprocess.run(
        [
            chrome,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--window-size={size[0]},{size[1]}",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    rgb = image.imread(shot)[..., :3]
    face = np.array([0xFB, 0xF6, 0xE9]) / 255
    return np.abs(rgb - face).max(axis=2) < 0.03


def _runs(on, length=1):
    """Number of separate stretches of at least ``length`` True values."""
    edges = np.diff(np.concatenate([[0], on.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int(np.count_nonzero(ends - starts >= length))


def _tiles_in_a_row(mask):
    """Tile faces side by side: the row through their plain top margins crosses each face once."""
    row = mask[int(np.argmax(mask.sum(axis=1)))]
    return _runs(row, length=8)


def test_browser_shows_the_tiles_of_a_hand_and_a_discard_table(tmp_path):
    hand = mj.Hand("11p34567m45s9p", melds=["555z"])
    mask = _screenshot(hand._repr_html_(), tmp_path, (900, 120))
    # thirteen separate tile faces side by side, and nothing else of that colour
    assert _tiles_in_a_row(mask) == 13
    table = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    mask = _screenshot(mj.style(table).to_html(), tmp_path, (1300, 700))
    rows = mask.sum(axis=1) >= 3
    assert _runs(rows, length=20) == len(table)  # every row of the table shows pictures
    first = np.flatnonzero(rows)[0]
    band = mask[first : first + 34]
    # the best discard's row: its tile, then one picture per kind of its 进张
    assert _tiles_in_a_row(band) == 1 + table.ukeire_kinds.iloc[0]
    # the same table without the styler shows no picture at all
    mask = _screenshot(table.to_html(), tmp_path, (1300, 700))
    assert mask.sum() == 0


def test_browser_shows_the_tiles_of_the_tables_functions_return(tmp_path):
    """What Jupyter shows for the plain returned tables (their _repr_html_), without mj.style."""
    table = mj.analyze_discards("11p34567m45s9p1p", melds=["555z"])
    mask = _screenshot(table._repr_html_(), tmp_path, (1300, 700))
    rows = mask.sum(axis=1) >= 3
    assert _runs(rows, length=20) == len(table)
    first = np.flatnonzero(rows)[0]
    assert _tiles_in_a_row(mask[first : first + 34]) == 1 + table.ukeire_kinds.iloc[0]
    calls = mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="opposite", melds=["555z"])
    mask = _screenshot(calls._repr_html_(), tmp_path, (1300, 900))
    rows = mask.sum(axis=1) >= 3
    # every row but the pass row (no meld, no discard) shows its meld and its discard
    assert _runs(rows, length=20) == int((calls.option != "pass").sum())
    first = np.flatnonzero(rows)[0]
    assert _tiles_in_a_row(mask[first : first + 34]) == 3 + 1  # 111p, then 9p
    readings = mj.decompose("11122233344455m", win_tile="5m")
    mask = _screenshot(readings._repr_html_(), tmp_path, (1300, 700))
    assert _runs(mask.sum(axis=1) >= 3, length=20) == len(readings)
