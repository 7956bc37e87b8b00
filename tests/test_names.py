"""The names users type: rule names in Chinese, aliases, any letter case, seats as 上家/对家/下家,
with did-you-mean suggestions on typos wherever a rule or a seat is taken."""

import pytest

import mjfast as mj
from mjfast import rules
from mjfast.analysis.calls import seat_name

H = mj.Hand("123m456p789s234s55p")


@pytest.mark.parametrize(
    "typed, name",
    [
        ("苏州", "suzhou"),
        ("苏州麻将", "suzhou"),
        ("蘇州", "suzhou"),
        ("Suzhou", "suzhou"),
        ("SUZHOU", "suzhou"),
        ("国标", "guobiao"),
        ("國標", "guobiao"),
        ("国标麻将", "guobiao"),
        ("mcr", "guobiao"),
        ("MCR", "guobiao"),
        ("四川", "sichuan"),
        ("四川麻将", "sichuan"),
        ("广东", "guangdong"),
        ("鸡平胡", "guangdong"),
        ("广东鸡平胡", "guangdong"),
        ("太仓", "taicang"),
        ("贵阳", "guiyang"),
        ("瑞金", "ruijin"),
        ("上饶", "shangrao"),
        ("金华", "jinhua"),
        ("JJ", "jj"),
        ("JJ麻将", "jj"),
        (" sichuan ", "sichuan"),
    ],
)
def test_rule_names_users_type(typed, name):
    assert rules.canonical_name(typed) == name
    assert rules.get(typed) is rules.get(name)


def test_every_registered_rule_answers_to_its_chinese_names():
    for name in rules.names():
        zh = rules.get(name).name_zh
        assert rules.canonical_name(zh) == name
        assert rules.canonical_name(zh.removesuffix("麻将")) == name


@pytest.mark.parametrize(
    "typo, guess",
    [
        ("suzhu", "suzhou"),
        ("guobaio", "guobiao"),
        ("sichaun", "sichuan"),
        ("guangdon", "guangdong"),
        ("苏洲", "suzhou"),
    ],
)
def test_rule_typos_get_a_suggestion(typo, guess):
    with pytest.raises(ValueError, match=f"unknown rule '{typo}'; did you mean '{guess}'") as err:
        rules.get(typo)
    for name in rules.names():
        assert name in str(err.value)  # and the valid names are still listed


def test_no_suggestion_for_a_name_far_from_any_rule():
    with pytest.raises(ValueError) as err:
        rules.get("tokyo")
    assert "did you mean" not in str(err.value)
    with pytest.raises(ValueError, match="must be a string"):
        rules.canonical_name(3)


def test_option_typos_get_a_suggestion():
    with pytest.raises(ValueError, match="unknown option.*'xuezan'.*did you mean 'xuezhan'.*valid options: "):
        rules.get("四川", xuezan=True)
    with pytest.raises(ValueError, match="did you mean 'threshold'"):
        rules.get("suzhou", treshold="2_3")
    assert rules.get("四川", xuezhan=True) is rules.get("sichuan", xuezhan="true")


def test_every_rule_argument_takes_the_names():
    ctx = mj.WinContext(H, win_tile="5p", self_draw=True)
    assert mj.score(ctx, rule="国标").total == mj.score(ctx, rule="mcr").total == mj.score(ctx).total
    assert mj.can_win(ctx, rule="MCR")
    with pytest.raises(ValueError, match="did you mean 'guobiao'"):
        mj.score(ctx, rule="guobaio")
    assert mj.shanten("123m456p789s1155m", rule="四川") == mj.shanten("123m456p789s1155m", rule="sichuan")
    a = mj.simulate_games("四川", 20, rng=1, n_threads=1)
    b = mj.simulate_games("sichuan", 20, rng=1, n_threads=1)
    assert a.equals(b) and a.attrs["rule"] == "sichuan"
    s = mj.compare_rules({"四川": b})
    assert set(s.rule) == {"sichuan"}
    with pytest.raises(ValueError, match="did you mean 'sichuan'"):
        mj.compare_rules(["sichaun"], 8, rng=0)


@pytest.mark.parametrize(
    "typed, seat",
    [
        ("left", "left"),
        ("上家", "left"),
        ("Left", "left"),
        ("对家", "opposite"),
        ("對家", "opposite"),
        ("opposite", "opposite"),
        ("下家", "right"),
        ("RIGHT", "right"),
    ],
)
def test_seats_users_type(typed, seat):
    assert seat_name(typed) == seat
    df = mj.call_vs_pass("11p34567m45s9p", "2m", from_seat=typed, melds=["555z"])
    assert ("chow" in set(df.option)) == (seat == "left")  # 吃 only from 上家


def test_seat_typos_get_a_suggestion():
    with pytest.raises(ValueError, match="from_seat: unknown seat 'oposite'; did you mean 'opposite'"):
        mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="oposite", melds=["555z"])
    with pytest.raises(ValueError, match="from_seat: unknown seat 'north'; seats: left"):
        mj.call_vs_pass("11p34567m45s9p", "1p", from_seat="north", melds=["555z"])
    with pytest.raises(ValueError, match="unknown seat 3"):
        seat_name(3)
