"""Pictures of positions (pyramid_widget.svg): what they show, what they hide, and how legibly.

Every check reads the SVG text the module emits: the cards drawn face up are the groups with a
`data-card`, the colours are the `fill` and `stroke` attributes, and contrast is computed here
from those colours with WCAG 2's formula.
"""

from __future__ import annotations

import ast
import base64
import html
import math
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.core.formatters import DisplayFormatter

from pyramid_widget import PRESETS, Card, Game, Move, Rules, build_layout, hint, svg, svg_look
from pyramid_widget.cards import COVERED_BY

NS = "{http://www.w3.org/2000/svg}"
SHAPES = {f"{NS}rect", f"{NS}circle", f"{NS}path"}
SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


# ------------------------------------------------------------------------------ helpers
def symbol(card: Card) -> str:
    """The board's writing of a card, made here independently of the module: "10♠"."""
    rank = "A234567891JQK"[card.rank - 1]
    return ("10" if card.rank == 10 else rank) + SYMBOLS[card.suit]


def play_randomly(game: Game, choices: list[int]) -> Game:
    for choice in choices:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[choice % len(moves)])
    return game


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    return root


def faces(root: ET.Element) -> dict[str, str]:
    """Every card drawn face up: notation -> data-status."""
    shown: dict[str, str] = {}
    for group in root.iter(f"{NS}g"):
        card = group.get("data-card")
        if card is not None:
            assert card not in shown, f"{card} drawn twice"
            shown[card] = group.get("data-status")
    return shown


def expected_faces(game: Game) -> dict[str, str]:
    """What the player sees face up: the pyramid, the waste's top three, a face-up stock top."""
    exposed = set(game.exposed)
    shown = {
        str(card): "in_play" if card in exposed else "covered"
        for card in game.pyramid
        if card is not None
    }
    fan = game.waste[-3:]
    for k, card in enumerate(fan):
        shown[str(card)] = "in_play" if k == len(fan) - 1 else "waste"
    if game.stock_top is not None:
        shown[str(game.stock_top)] = "in_play"
    return shown


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of an opaque "#rrggbb" colour."""
    assert re.fullmatch(r"#[0-9a-f]{6}", colour), colour

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def translate(element: ET.Element) -> tuple[float, float]:
    found = re.fullmatch(r"translate\((-?[\d.]+) (-?[\d.]+)\)", element.get("transform", ""))
    assert found, element.get("transform")
    return float(found.group(1)), float(found.group(2))


def inside(shape: ET.Element, x: float, y: float) -> bool:
    if shape.tag == f"{NS}circle":
        cx, cy, r = (float(shape.get(k)) for k in ("cx", "cy", "r"))
        return math.hypot(x - cx, y - cy) <= r
    if shape.tag == f"{NS}rect":
        left, top = float(shape.get("x", 0)), float(shape.get("y", 0))
        width, height = float(shape.get("width")), float(shape.get("height"))
        return left <= x <= left + width and top <= y <= top + height
    return False


def texts_on_backdrops(root: ET.Element):
    """(text element, its colour, the colour of the shape under it) for every text.

    What lies under a text is the nearest filled shape drawn before it among its siblings, or
    else among its parent's, and so on up to the picture's background. Where that shape shares
    the text's coordinates (a card face, a badge, the count bubble) the text's anchor must lie
    inside it, so the backdrop found is the one really under the text.
    """
    parents = {child: parent for parent in root.iter() for child in parent}
    for text in root.iter(f"{NS}text"):
        element, backdrop, same_frame = text, None, True
        while backdrop is None:
            parent = parents[element]
            siblings = list(parent)
            for earlier in reversed(siblings[: siblings.index(element)]):
                if earlier.tag in SHAPES and earlier.get("fill") not in (None, "none"):
                    backdrop = earlier
                    break
            else:
                if parent is root:
                    raise AssertionError("text with nothing under it")
                element, same_frame = parent, False
        if same_frame:
            assert inside(backdrop, float(text.get("x")), float(text.get("y"))), text.text
        colours = [(text, text.get("fill"))]
        colours += [(span, span.get("fill") or text.get("fill")) for span in text]
        for element, colour in colours:
            yield element, colour, backdrop.get("fill")


def marks(root: ET.Element) -> dict[str, list[str]]:
    """What each mark group marks: data-for -> its kinds, checking rings and badges agree."""
    found: dict[str, list[str]] = {}
    for group in root.iter(f"{NS}g"):
        if group.get("class") != "pw-mark":
            continue
        kinds = group.get("data-marks").split()
        rings = [ring.get("class").split()[1][3:] for ring in group.iter(f"{NS}rect")]
        assert rings == kinds, "one ring per kind, innermost first"
        offsets = [float(ring.get("x")) for ring in group.iter(f"{NS}rect")]
        assert offsets == sorted(offsets, reverse=True) and len(set(offsets)) == len(offsets)
        badges = [badge.get("class").split()[1][3:] for badge in group.findall(f"{NS}g")]
        assert badges == [kind for kind in kinds if kind != "selected"]
        found[group.get("data-for")] = kinds
    return found


def card_group(root: ET.Element, notation: str) -> ET.Element:
    return next(g for g in root.iter(f"{NS}g") if g.get("data-card") == notation)


def lesson_three() -> Game:
    """The teaching notebook's lesson 3: two 8s for the 5c, the last pass, six cards to come."""
    return Game.from_position(
        {0: "Ah", 1: "Jc", 2: "9d", 3: "8h", 5: "8d"},
        stock=["4c", "Ts", "5s", "2s", "Qs", "3h"],
        waste=["5c"],
        pass_number=3,
    )


def showcase() -> list[tuple[Game, dict]]:
    """Positions and options that between them draw every kind of element."""
    start = Game.deal(42, "scored")
    middle = play_randomly(Game.deal(7, "open-stock"), [3] * 14)
    empty_stock = Game.deal(11)
    while empty_stock.stock_count:
        empty_stock.draw()
    last_pass = Game.deal(11, "strict")
    while last_pass.stock_count:
        last_pass.draw()
    assert last_pass.recycle_refusal and not empty_stock.recycle_refusal
    lesson = lesson_three()
    everything = {
        "selected": "5c",
        "hint": "5c+8d",
        "mistake": "5c+8h",
        "better": "5c+8d",
        "marks": {"Ah": "mistake", "stock": ["hint", "better"]},
    }
    return [
        (start, {}),
        (start, {"reveal": True, "hint": "draw"}),
        (middle, {"hint": middle.legal_moves()[0], "selected": middle.exposed[0]}),
        (empty_stock, {"hint": "recycle"}),
        (last_pass, {}),
        (lesson, everything),
        (lesson, {**everything, "reveal": True}),
    ]


# ------------------------------------------------------------------------------ examples
def test_a_notebook_shows_the_returned_picture():
    game = Game.deal(42)
    picture = svg.board(game)
    assert isinstance(picture, str) and picture._repr_svg_() == str(picture)
    root = parse(picture)
    assert root.find(f"{NS}title").text.startswith("Pyramid Solitaire: 28 of 28")
    assert root.get("role") == "img" and root.get("aria-label")


def test_the_opening_shows_the_whole_pyramid_and_a_face_down_stock():
    game = Game.deal(42)
    root = parse(svg.board(game))
    assert faces(root) == expected_faces(game)
    assert sum(status == "in_play" for status in faces(root).values()) == 7
    backs = [g for g in root.iter(f"{NS}g") if g.get("data-status") == "face_down"]
    assert len(backs) == 1  # the stock, as one back with its count
    count = next(g for g in root.iter(f"{NS}g") if g.get("class") == "pw-count")
    assert count.find(f"{NS}text").text == "24"
    stock = next(g for g in root.iter(f"{NS}g") if "pw-stock" in g.get("class", ""))
    assert stock.get("aria-label") == "Stock: 24 cards face down"


def test_cards_are_written_as_the_board_writes_them_and_named_for_screen_readers():
    game = Game.from_layout(build_layout({0: "Ts", 26: "Js", 27: "Kh"}))
    root = parse(svg.board(game))
    ten = card_group(root, "Ts")
    assert ten.find(f"{NS}title").text == "Ten of Spades, covered" == ten.get("aria-label")
    assert [t.text for t in ten.iter(f"{NS}text")] == ["10♠"]  # covered: no centre suit
    king = card_group(root, "Kh")  # bottom row, so in play
    assert king.get("aria-label") == "King of Hearts, in play"
    assert [t.text for t in king.iter(f"{NS}text")] == ["K♥", "♥"]
    red = {t.get("fill") for t in king.iter(f"{NS}text")}
    black = {t.get("fill") for t in card_group(root, "Js").iter(f"{NS}text")}
    assert len(red) == len(black) == 1 and red != black
    (red_ink,) = red
    r, g, b = (int(red_ink[i : i + 2], 16) for i in (1, 3, 5))
    assert r > 2 * max(g, b), "red suits are red"


# ------------------------------------------------------------------------------ hidden cards
def random_choices(seed: int, moves: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(1000) for _ in range(moves)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    deal=st.integers(1, 10**6),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 160),
    theme=st.sampled_from(sorted(svg.THEMES)),
)
def test_a_picture_shows_exactly_what_the_player_has_seen(preset, deal, seed, moves, theme):
    game = play_randomly(Game.deal(deal, preset), random_choices(seed, moves))
    picture = svg.board(game, theme=theme)
    root = parse(picture)
    shown = faces(root)
    assert shown == expected_faces(game)
    assert {Card.parse(card) for card in shown} <= game.seen
    for card in set(game.cards) - game.seen:
        assert symbol(card) not in picture, f"unseen {card} written"
        assert card.name not in picture, f"unseen {card} named"
    unseen_names = {str(card) for card in set(game.cards) - game.seen}
    for element in root.iter():
        assert not unseen_names & set(element.attrib.values())
    assert picture == svg.board(game.copy(), theme=theme), "the same position, the same bytes"
    for element, colour, backdrop in texts_on_backdrops(root):
        assert contrast(colour, backdrop) >= 4.5, element.text


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    deal=st.integers(1, 10**6),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 120),
)
def test_reveal_shows_the_stock_in_order_and_only_when_asked(preset, deal, seed, moves):
    game = play_randomly(Game.deal(deal, preset), random_choices(seed, moves))
    root = parse(svg.board(game, reveal=True))
    shown = faces(root)
    listing = [g.get("data-card") for g in root.iter(f"{NS}g") if g.get("data-status") == "stock"]
    top = game.stock_top  # face up on the pile, so not listed again
    assert listing == [str(card) for card in game.stock if card != top]
    assert len(listing) == game.stock_count - (top is not None)
    assert {card: status for card, status in shown.items() if status != "stock"} == (
        expected_faces(game)
    )


def test_a_position_code_gives_the_same_picture_as_the_game_it_came_from():
    game = play_randomly(Game.deal(5, "open-stock"), list(range(25)))
    again = Game.from_code(game.code)
    for theme in svg.THEMES:
        options = {"theme": theme, "hint": again.legal_moves()[0], "size": 333}
        assert svg.board(game, **options) == svg.board(again, **options)


def test_nothing_in_a_picture_varies_between_runs():
    picture = svg.board(lesson_three(), selected="5c", hint="5c+8d", theme="dark")
    assert " id=" not in picture and "opacity" not in picture
    numbers = re.findall(r"-?\d+\.\d+", picture)
    assert all(len(number.split(".")[1]) <= 2 for number in numbers)


# ------------------------------------------------------------------------------ marks
def test_no_marks_unless_asked():
    root = parse(svg.board(lesson_three()))
    assert marks(root) == {}
    assert not [g for g in root.iter(f"{NS}g") if "pw-legend" in g.get("class", "")]


def test_selected_and_hinted_compose_on_one_card():
    game = lesson_three()
    plain = parse(svg.board(game))
    root = parse(svg.board(game, selected="5c", hint=Move.parse("5c+8d")))
    assert marks(root) == {"5c": ["selected", "hint"], "8d": ["hint"]}
    (x, y), (px, py) = translate(card_group(root, "5c")), translate(card_group(plain, "5c"))
    assert x == px and y < py, "the selected card is lifted"
    assert translate(card_group(root, "8d")) == translate(card_group(plain, "8d"))
    mark = next(g for g in root.iter(f"{NS}g") if g.get("data-for") == "5c")
    assert translate(mark) == (x, y), "the rings go round the card itself"
    assert card_group(root, "5c").get("aria-label") == (
        "Five of Clubs, in play, waste top, selected, the hint"
    )
    legend = [g for g in root.iter(f"{NS}g") if g.get("class", "").startswith("pw-legend pw-")]
    words = ["".join(g.find(f"{NS}text").itertext()) for g in legend]
    assert words == ["Selected: 5♣", "Hint: 5♣ + 8♦"]


def test_a_reviews_mistake_and_better_move_are_both_marked():
    game = lesson_three()
    root = parse(svg.board(game, mistake="5c+8h", better="8d+5c"))
    assert marks(root) == {"5c": ["mistake", "better"], "8h": ["mistake"], "8d": ["better"]}
    styles = {
        ring.get("class"): (ring.get("stroke"), ring.get("stroke-dasharray"))
        for ring in root.iter(f"{NS}rect")
        if "pw-ring" in ring.get("class", "")
    }
    assert len(set(styles.values())) == len(styles), "each kind has its own colour and line"


def test_every_kind_of_mark_looks_different_without_colour():
    root = parse(svg.board(lesson_three(), marks={"5c": svg.MARK_KINDS}))
    group = next(g for g in root.iter(f"{NS}g") if g.get("data-for") == "5c")
    rings = {r.get("class").split()[1]: r.get("stroke-dasharray") for r in group.iter(f"{NS}rect")}
    symbols = {b.get("class").split()[1]: b.find(f"{NS}text").text for b in group.findall(f"{NS}g")}
    look = {kind: (rings[f"pw-{kind}"], symbols.get(f"pw-{kind}")) for kind in svg.MARK_KINDS}
    assert len(set(look.values())) == 4
    assert len(set(symbols.values())) == 3  # every kind but the lifted selection has a badge


def test_a_draw_or_a_recycle_marks_the_stock():
    game = Game.deal(42)
    assert marks(parse(svg.board(game, hint="draw"))) == {"stock": ["hint"]}
    while game.stock_count:
        game.draw()
    root = parse(svg.board(game, better="recycle"))
    assert marks(root) == {"stock": ["better"]}
    stock = next(g for g in root.iter(f"{NS}g") if "pw-stock" in g.get("class", ""))
    assert stock.get("aria-label") == "Stock: empty; recycle the waste, the better move"


def test_a_mark_on_the_stock_is_on_its_face_up_top():
    game = Game.deal(42, "open-stock")
    top = str(game.stock_top)
    root = parse(svg.board(game, hint="draw", marks={top: "better"}))
    assert marks(root) == {top: ["hint", "better"]}


def test_a_solver_hint_marks_its_move():
    from pyramid_widget import hint

    game = Game.deal(42)
    advice = hint(game, time_limit=0.2)
    expected = set(Move.parse(advice.move).cards) if advice.kind in ("pair", "king") else set()
    root = parse(svg.board(game, hint=advice))
    marked = set(marks(root))
    if expected:
        assert marked == {str(card) for card in expected}
    else:
        assert marked == {"stock"}


def test_marks_mapping_marks_only_what_it_names():
    game = lesson_three()
    root = parse(svg.board(game, marks={Card.parse("Ah"): "mistake", "9d": ["hint", "mistake"]}))
    assert marks(root) == {"9d": ["hint", "mistake"], "Ah": ["mistake"]}
    assert card_group(root, "9d").get("aria-label") == (
        "Nine of Diamonds, covered, the hint, the mistake"
    )
    for card in faces(root):
        if card not in ("Ah", "9d"):
            label = card_group(root, card).get("aria-label")
            assert not any(word in label for word in ("selected", "the ")), label


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"hint": "4c+9d"}, "cannot mark 4♣: it is not face up in this picture"),
        ({"selected": "Ks"}, "cannot mark K♠: it is not face up in this picture"),
        ({"marks": {"Qs": "hint"}}, "cannot mark Q♠: it is not face up in this picture"),
        ({"hint": "5c+8d+9d"}, "hint is not a move"),
        ({"hint": "5c+5c"}, "hint is not a move"),
        ({"mistake": "5x+8d"}, "mistake is not a move"),
        ({"hint": 42}, "hint must be a move"),
        ({"marks": {"5c": "circled"}}, "unknown mark 'circled'"),
        ({"marks": ["5c"]}, "marks must be a mapping"),
        ({"marks": {"5c": 3}}, "the marks of '5c' must be a kind or kinds"),
        ({"selected": 7}, "unknown card 7"),
        ({"marks": {"zz": "hint"}}, "unknown card"),
        ({"selected": "stock"}, "unknown card"),
        ({"theme": "sepia"}, "theme must be one of light, dark"),
        ({"size": 0}, "size must be a width"),
        ({"size": -5}, "size must be a width"),
        ({"size": float("nan")}, "size must be a width"),
        ({"size": float("inf")}, "size must be a width"),
        ({"size": True}, "size must be a width"),
        ({"size": "400"}, "size must be a width"),
        ({"reveal": "yes"}, "reveal and legend must be true or false"),
    ],
)
def test_bad_options_get_a_clear_error(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        svg.board(lesson_three(), **options)


def test_marking_a_card_the_player_cannot_see_is_refused_whether_or_not_it_exists():
    """The refusal reads the same for a face-down stock card, a removed card and any other, so
    it tells nothing about where an unseen card lies; with reveal the stock can be marked."""
    game = lesson_three()
    for card in ("4c", "Ts", "Kc", "2h"):
        with pytest.raises(ValueError, match="is not face up in this picture"):
            svg.board(game, hint=card)
    assert marks(parse(svg.board(game, hint="4c+9d", reveal=True))) == {
        "4c": ["hint"],
        "9d": ["hint"],
    }


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=12))
def test_any_text_as_a_move_is_marked_or_refused_clearly(text):
    game = lesson_three()
    try:
        picture = svg.board(game, hint=text)
    except ValueError as error:
        assert str(error)
    else:
        parse(picture)


# ------------------------------------------------------------------------------ legibility
@pytest.mark.parametrize("theme", sorted(svg.THEMES))
def test_every_word_and_index_meets_wcag_aa_in_both_themes(theme):
    measured = []
    for game, options in showcase():
        root = parse(svg.board(game, theme=theme, **options))
        for element, colour, backdrop in texts_on_backdrops(root):
            ratio = contrast(colour, backdrop)
            measured.append(ratio)
            assert ratio >= 4.5, f"{element.text!r}: {colour} on {backdrop} is {ratio:.2f}:1"
    assert len(measured) > 200


@pytest.mark.parametrize("theme", sorted(svg.THEMES))
def test_card_edges_and_marks_are_visible_and_cards_in_play_stand_out(theme):
    game, options = showcase()[5]
    root = parse(svg.board(game, theme=theme, **options))
    background = root.find(f"{NS}rect").get("fill")

    def look(status: str) -> tuple[str, str, set[str]]:
        groups = [g for g in root.iter(f"{NS}g") if g.get("data-status") == status]
        rects = {
            (g.findall(f"{NS}rect")[-1].get("fill"), g.findall(f"{NS}rect")[-1].get("stroke"))
            for g in groups
        }
        assert len(rects) == 1
        ((face, edge),) = rects
        inks = {t.get("fill") for g in groups for t in g.iter(f"{NS}text")}
        return face, edge, inks

    face, edge, inks = look("in_play")
    covered_face, covered_edge, covered_inks = look("covered")
    # Covered cards are dimmed by a step, not a shade: as much as the light theme's 232 grey
    # against white (1.23:1).
    assert contrast(face, covered_face) >= 1.2, "covered cards are dimmed"
    # Card edges against the table and against a covered card they lie on (WCAG 1.4.11: 3:1).
    for outline in (edge, covered_edge):
        assert contrast(outline, background) >= 3
        assert contrast(outline, covered_face) >= 3
    # In play stands out more: a stronger outline, and stronger ink for each suit colour.
    assert contrast(edge, background) > contrast(covered_edge, background)
    best_in_play = sorted(contrast(ink, face) for ink in inks)
    best_covered = sorted(contrast(ink, covered_face) for ink in covered_inks)
    assert len(best_in_play) == len(best_covered) == 2
    assert all(a > b for a, b in zip(best_in_play, best_covered, strict=True))
    rings = {r.get("stroke") for r in root.iter(f"{NS}rect") if "pw-ring" in r.get("class", "")}
    assert len(rings) == 4
    for ring in rings:
        for under in (background, face, covered_face):
            assert contrast(ring, under) >= 3, f"mark {ring} on {under}"


@pytest.mark.parametrize("theme", sorted(svg.THEMES))
def test_every_colour_is_opaque_and_stated(theme):
    for game, options in showcase():
        picture = svg.board(game, theme=theme, **options)
        colours = re.findall(r'(?:fill|stroke)="([^"]*)"', picture)
        assert colours and all(re.fullmatch(r"#[0-9a-f]{6}|none", c) for c in colours)


def test_light_and_dark_differ_in_colour_only():
    game, options = showcase()[5]
    light = svg.board(game, theme="light", **options)
    dark = svg.board(game, theme="dark", **options)
    strip = re.compile(r'(fill|stroke)="#[0-9a-f]{6}"')
    assert light != dark and strip.sub("", light) == strip.sub("", dark)


# ------------------------------------------------------------------------------ size, layout
@pytest.mark.parametrize("size", [None, 300, 250.5, 1200])
def test_the_size_is_the_width_in_pixels_and_keeps_the_proportions(size):
    root = parse(svg.board(Game.deal(42), size=size))
    width, height = float(root.get("width")), float(root.get("height"))
    assert width == (svg.DEFAULT_WIDTH if size is None else size)
    _, _, view_w, view_h = (float(v) for v in root.get("viewBox").split())
    assert height == pytest.approx(width * view_h / view_w, abs=0.01)


def test_cards_have_the_widgets_proportions_and_rows_overlap_by_half_a_card():
    game = Game.deal(42)
    root = parse(svg.board(game))
    place = {g.get("data-card"): translate(g) for g in root.iter(f"{NS}g") if g.get("data-card")}
    rect = card_group(root, str(game.cards[0])).find(f"{NS}rect")
    width, height = float(rect.get("width")), float(rect.get("height"))
    assert height == pytest.approx(1.4 * width)
    for i, covering in enumerate(COVERED_BY):
        for j in covering:
            (x, y), (cx, cy) = place[str(game.cards[i])], place[str(game.cards[j])]
            assert cy - y == pytest.approx(height / 2)
            assert abs(cx - x) == pytest.approx(0.55 * width)


@pytest.mark.parametrize("reveal", [False, True])
def test_the_words_lie_under_the_cards_and_cleared_rows_leave_no_empty_band(reveal):
    full, lesson = Game.deal(42), lesson_three()
    heights = []
    for game in (full, lesson):
        root = parse(svg.board(game, reveal=reveal, hint="5c+8d" if game is lesson else None))
        status = next(g for g in root.iter(f"{NS}g") if g.get("class") == "pw-status")
        words_top = min(float(t.get("y")) for t in status) - 24
        bottoms = {
            g.get("data-card"): translate(g)[1] + 140
            for g in root.iter(f"{NS}g")
            if g.get("data-card")
        }
        listed = {
            g.get("data-card") for g in root.iter(f"{NS}g") if g.get("data-status") == "stock"
        }
        assert max(y for card, y in bottoms.items() if card not in listed) < words_top
        assert all(bottoms[card] > words_top for card in listed), "the stock listing comes last"
        heights.append(float(root.get("viewBox").split()[3]))
        lines = [
            float(t.get("y"))
            for g in root
            if g.tag == f"{NS}g"
            for t in g.iter(f"{NS}text")
            if g.get("class") in ("pw-status", "pw-legend-lines")
        ]
        assert max([*bottoms.values(), *lines]) < heights[-1], "nothing drawn off the picture"
    assert heights[1] < heights[0] - 3 * 70, "four cleared rows: a shorter picture"


def test_the_status_shows_the_pass_score_and_outcome():
    game = Game.deal(42, Rules.preset("scored", passes=None))
    while game.stock_count:
        game.draw()
    game.recycle()
    words = " ".join(
        "".join(t.itertext())
        for g in parse(svg.board(game)).iter(f"{NS}g")
        if g.get("class") == "pw-status"
        for t in g
    )
    assert re.search(r"Pass 2(?! of)", words), "unlimited passes: no 'of'"
    assert "Score 0" in words and "Stock 24" in words and "Moves 25" in words
    stuck = Game.deal(11, "strict")
    while stuck.stock_count:
        stuck.draw()
    rng = random.Random(1)
    while stuck.legal_moves():
        stuck.play(rng.choice(stuck.legal_moves()))
    assert stuck.outcome == "stuck"
    root = parse(svg.board(stuck))
    assert "Out of moves" in "".join(root.itertext())
    sign = next(g for g in root.iter(f"{NS}g") if "pw-stock" in g.get("class", ""))
    assert "✕" in "".join(sign.itertext()), "no recycle left: the stock says so"


# ------------------------------------------------------------------------------ layering
@pytest.mark.parametrize("module", [svg, svg_look], ids=lambda module: module.__name__)
def test_the_module_imports_neither_the_game_nor_the_saves_at_run_time(module):
    source = Path(module.__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    guarded = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and getattr(branch.test, "id", "") == "TYPE_CHECKING"
        for node in ast.walk(branch)
    }
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and id(node) not in guarded:
            # `from . import words` imports the module `words`.
            imported += [node.module] if node.module else [alias.name for alias in node.names]
        elif isinstance(node, ast.Import) and id(node) not in guarded:
            imported.extend(alias.name for alias in node.names)
    assert imported, "the walk found the imports"
    assert not [name for name in imported if name.split(".")[-1] in ("game", "saves")]
    allowed = {
        *("cards", "rules", "words", "svg_look"),
        *("__future__", "base64", "collections.abc", "dataclasses", "typing", "html"),
    }
    assert set(imported) <= allowed


def test_a_theme_of_ones_own_is_used_as_given():
    sepia = replace(svg.THEMES["light"], background="#f4ecd8", face="#fffaf0")
    root = parse(svg.board(Game.deal(42), theme=sepia))
    assert root.find(f"{NS}rect").get("fill") == "#f4ecd8"
    in_play = [g for g in root.iter(f"{NS}g") if g.get("data-status") == "in_play"]
    assert {g.findall(f"{NS}rect")[-1].get("fill") for g in in_play} == {"#fffaf0"}


def test_a_notebook_keeps_a_picture_a_game_and_a_hint_as_svg_and_as_an_img_with_alt_text():
    """What a notebook stores for each: the SVG, and the `<img>` of `as_img()` as HTML, which
    hosts show first (nbconvert's HTML export would write the SVG as an `<img>` with no alt
    text); as plain text a picture is its title, a game and a hint their repr."""
    game = Game.deal(3)
    game.draw()
    tip = hint(game)
    picture, marked = svg.board(game), svg.board(game, hint=tip.move)
    formatter = DisplayFormatter()
    for shown, drawn, plain in (
        (picture, picture, picture.title),
        (game, picture, repr(game)),
        (tip, marked, repr(tip)),
    ):
        data, _ = formatter.format(shown)
        assert data == {"image/svg+xml": drawn, "text/html": drawn.as_img(), "text/plain": plain}


def test_a_picture_as_an_img_carries_its_title_and_description_as_alt_text():
    """An HTML export or a sanitizing host shows the `<img>`: a reader hears what it shows."""
    game = Game.deal(3)
    game.draw()
    picture = svg.board(game)
    img = picture.as_img()
    alt = html.unescape(re.search(r'alt="([^"]*)"', img).group(1))
    assert alt == f"{picture.title}. {picture.description}"
    assert f"<title>{picture.title}</title>" in picture and "Waste: 1 card, top" in alt
    source = base64.b64decode(img.split("base64,")[1].split('"')[0]).decode()
    assert source == picture
