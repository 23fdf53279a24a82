"""What a player sees of the board, measured in the page: contrast of every text, boxes, marks.

The colours are the browser's own (getComputedStyle), normalised through a canvas, so any CSS
colour syntax (rgb(), color-mix(), a theme variable) is read as the sRGB pixel it paints. What
lies under a text is resolved the way the browser paints it: every ancestor's background, from
the page down to the text's own element, composited in order, with each ancestor's opacity
applied to everything it holds. A text on the table whose centre another element of the widget
covers is reported as covered, so the ancestry is known to be what is really under it (the
table is scrolled into view for that); a text under a notice or the open Game menu is not
shown, so it is not measured.

    from measure import contrasts, boxes, measure_in_both_themes

    rows = contrasts(page.locator(".pw-root"))   # [{"kind", "text", "ratio", ...}]
    before = boxes(page.locator(".pw-root"))     # {"table": {x, y, width, height}, ...}
    measure_in_both_themes(page, [board], "the board", figures)  # fails on an unreadable text
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page

#: WCAG 2 AA for normal text.
AA = 4.5

#: The kind of text of a control that cannot act now (greyed, `aria-disabled`): a label that
#: still has to be read, at 3:1 (what WCAG asks of a component's boundary; disabled controls
#: themselves are exempt from 4.5:1).
DISABLED = "disabled control"
DISABLED_MINIMUM = 3.0

#: The themes every look test measures in.
THEMES = ("JupyterLab Light", "JupyterLab Dark")

# Shared by every measurement below: colour parsing, compositing, WCAG's ratio.
_COLOURS_JS = r"""
const canvas = document.createElement('canvas');
canvas.width = canvas.height = 1;
const ctx = canvas.getContext('2d', { willReadFrequently: true });
const rgba = (css) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = 'rgba(0, 0, 0, 0)';
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
};
const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
};
const mix = (colour, under, opacity) =>
    [0, 1, 2].map((i) => colour[i] * opacity + under[i] * (1 - opacity)).concat([1]);
const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
};
const hex = (c) => '#' + c.slice(0, 3)
    .map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
const chain = (node) => {
    const nodes = [];
    for (let at = node; at; at = at.parentElement) nodes.unshift(at);
    return nodes;
};
// The pixel of a glyph and the pixel beside it, painted through `layers` (outermost first):
// [{bg, opacity, image}], the last one holding the text of colour `ink`.
const paint = (layers, ink) => {
    const step = (k, under) => {
        const layer = layers[k];
        const base = over(layer.bg, under);
        let glyph, back;
        if (k === layers.length - 1) {
            glyph = over(ink, base);
            back = base;
        } else {
            [glyph, back] = step(k + 1, base);
        }
        return [mix(glyph, under, layer.opacity), mix(back, under, layer.opacity)];
    };
    return step(0, [255, 255, 255, 1]);
};
const layersOf = (node) => chain(node).map((at) => {
    const style = getComputedStyle(at);
    return { bg: rgba(style.backgroundColor), opacity: Number(style.opacity),
             image: style.backgroundImage !== 'none' };
});
"""

_CONTRASTS_JS = (
    "(root) => {"
    + _COLOURS_JS
    + r"""
    const KINDS = [
        ['.pw-corner', 'rank'], ['.pw-pip', 'suit'], ['.pw-count', 'stock count'],
        ['.pw-pile-label', 'pile label'], ['.pw-recycle', 'recycle sign'],
        ['.pw-status', 'status'], ['.pw-hint-line', 'hint'], ['.pw-message', 'message'],
        ['.pw-panel', 'notice'], ['.pw-offer', 'offer'], ['.pw-records', 'records'],
        ['.pw-rules', 'rules'], ['.pw-review', 'review'], ['.pw-puzzle', 'puzzle'],
        ['.pw-menu-body', 'menu'],
        ['.pw-button', 'button'],
    ];
    const kindOf = (node) => {
        if (node.closest('[aria-disabled="true"]')) return 'disabled control';
        for (const [selector, kind] of KINDS) {
            if (node.closest(selector)) {
                if (kind !== 'rank' && kind !== 'suit') return kind;
                const card = node.closest('.pw-card');
                const where = card.closest('.pw-stock') ? 'stock top'
                    : card.closest('.pw-waste') ? 'waste'
                    : card.dataset.status === 'covered' ? 'covered' : 'in play';
                return `${kind}, ${card.classList.contains('pw-red') ? 'red' : 'black'}, ${where}`;
            }
        }
        return 'other';
    };
    const shown = (node) => node.getClientRects().length > 0
        && node.checkVisibility({ visibilityProperty: true })
        && !node.closest('.pw-sr-only, .pw-leaving');
    const ownText = (node) => [...node.childNodes]
        .filter((child) => child.nodeType === Node.TEXT_NODE)
        .map((child) => child.textContent.trim()).join(' ').trim();
    // What paints over the centre of `node`'s text: the first element above it at that point
    // with a background of its own (a transparent box over it hides nothing).
    const covered = (node) => {
        if (!node.closest('.pw-table')) return null;
        const box = node.getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
        for (const top of document.elementsFromPoint(x, y)) {
            if (top === node || node.contains(top)) return null;
            if (!root.contains(top)) return null; // off the notebook's visible part
            if (top.contains(node)) continue;
            const style = getComputedStyle(top);
            if (rgba(style.backgroundColor)[3] > 0 || style.backgroundImage !== 'none') {
                return top.closest('.pw-panel, .pw-menu-body') ? 'overlay'
                    : top.className || top.tagName;
            }
        }
        return null;
    };
    const table = (root.closest('.pw-root') || root).querySelector('.pw-table');
    table.scrollIntoView({ block: 'center' });
    // Hit testing skips what lets the pointer through (pile labels, the stock count): for the
    // measurement only, everything in the widget takes the pointer.
    const hits = document.createElement('style');
    hits.textContent = '.pw-root, .pw-root * { pointer-events: auto !important; }';
    document.head.append(hits);
    const rows = [];
    const measure = (node, text, layers, ink, kind) => {
        const [glyph, back] = paint(layers, ink);
        const coverer = covered(node);
        if (coverer === 'overlay') return; // under a notice or the open menu: not shown
        rows.push({
            kind, text: text.slice(0, 60), ratio: Math.round(ratio(glyph, back) * 100) / 100,
            fg: hex(glyph), bg: hex(back), image: layers.some((layer) => layer.image),
            covered_by: coverer,
        });
    };
    for (const node of root.querySelectorAll('*')) {
        if (!(node instanceof HTMLElement) || !shown(node)) continue;
        const isField = node instanceof HTMLInputElement || node instanceof HTMLSelectElement;
        const text = isField ? (node.value || '') : ownText(node);
        if (text) {
            measure(node, text, layersOf(node), rgba(getComputedStyle(node).color), kindOf(node));
        } else if (node instanceof HTMLInputElement && node.placeholder) {
            const ink = rgba(getComputedStyle(node, '::placeholder').color);
            measure(node, node.placeholder, layersOf(node), ink, 'placeholder');
        }
    }
    // The hint's star badge is text of its own (a pseudo-element on the hinted card or pile).
    for (const node of root.querySelectorAll('.pw-hinted')) {
        const after = getComputedStyle(node, '::after');
        if (after.content === 'none' || !shown(node)) continue;
        const layers = layersOf(node).concat([{ bg: rgba(after.backgroundColor), opacity: 1,
                                                image: false }]);
        measure(node, after.content, layers, rgba(after.color), 'hint badge');
    }
    hits.remove();
    return rows;
}"""
)

_CARD_LOOK_JS = (
    "(root) => {"
    + _COLOURS_JS
    + r"""
    const board = paint(layersOf(root), [0, 0, 0, 0])[1];
    const look = (card) => {
        const style = getComputedStyle(card);
        const face = paint(layersOf(card), [0, 0, 0, 0])[1];
        const edge = over(rgba(style.borderTopColor), board);
        const ink = over(rgba(style.color), face);
        return { face: hex(face), edge: hex(edge), ink_on_face: ratio(ink, face),
                 edge_on_board: ratio(edge, board), edge_on_face: ratio(edge, face) };
    };
    const first = (status, red) => root.querySelector(
        `.pw-pyramid .pw-card[data-status="${status}"]${red ? '.pw-red' : ':not(.pw-red)'}`);
    const own = getComputedStyle(root).backgroundColor;
    const under = paint(layersOf(root.parentElement), [0, 0, 0, 0])[1];
    const faceOf = (card) => paint(layersOf(card), [0, 0, 0, 0])[1];
    return {
        board: hex(board), under: hex(under), own_background: own,
        faces: ratio(faceOf(first('in_play', false)), faceOf(first('covered', false))),
        in_play: look(first('in_play', false)), covered: look(first('covered', false)),
        in_play_red: look(first('in_play', true)), covered_red: look(first('covered', true)),
    };
}"""
)


def contrasts(root: Locator) -> list[dict[str, Any]]:
    """Every text shown in `root` (and the hint's badge): its kind, its words, its contrast
    ratio with what lies under it, the two colours as painted, whether a background image lies
    under it (then the ratio is not to be trusted), and what covers it, if anything. Texts
    under a notice or the open Game menu are left out (measure the menu on its own)."""
    return root.evaluate(_CONTRASTS_JS)


def card_look(root: Locator) -> dict[str, Any]:
    """How cards in play and covered cards stand out: for a black and a red card of each, the
    contrast of the ink on the face, of the edge on the board and of the edge on the face; the
    contrast of a face in play with a covered face (`faces`); and the board's colour beside the
    colour under the widget."""
    return root.evaluate(_CARD_LOOK_JS)


def minimum(row: dict[str, Any]) -> float:
    """The contrast a text needs: 4.5:1, or 3:1 on a control that cannot act now."""
    return DISABLED_MINIMUM if row["kind"] == DISABLED else AA


def failures(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows a player could not read: below their minimum, over an image, or covered."""
    return [row for row in rows if row["ratio"] < minimum(row) or row["image"] or row["covered_by"]]


def lowest_by_kind(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The row of the lowest ratio of each kind of text, for the figures a test prints."""
    lowest: dict[str, dict[str, Any]] = {}
    for row in rows:
        kind = row["kind"]
        if kind not in lowest or row["ratio"] < lowest[kind]["ratio"]:
            lowest[kind] = row
    return dict(sorted(lowest.items()))


_BOXES_JS = """(root) => {
    const origin = root.getBoundingClientRect();
    const box = (node) => {
        const r = node.getBoundingClientRect();
        return { x: r.x - origin.x, y: r.y - origin.y, width: r.width, height: r.height };
    };
    const boxes = { root: box(root), table: box(root.querySelector('.pw-table')),
                    controls: box(root.querySelector('.pw-controls')),
                    status: box(root.querySelector('.pw-status')),
                    talk: box(root.querySelector('.pw-talk')) };
    const buttons = '.pw-controls > button, .pw-controls > details > summary';
    for (const node of root.querySelectorAll(buttons)) {
        boxes[`button ${node.dataset.action}`] = box(node);
    }
    return boxes;
}"""


def boxes(root: Locator) -> dict[str, dict[str, float]]:
    """The boxes of the widget, its table, status line, hint-and-message box, button row and
    each of its buttons (the Game menu's summary included), in pixels from the widget's top
    left corner (so that the notebook scrolling moves none of them)."""
    return root.evaluate(_BOXES_JS)


def moved(before: dict[str, dict[str, float]], after: dict[str, dict[str, float]]) -> list[str]:
    """The names of the boxes that moved or changed size by half a pixel or more."""
    return [
        name
        for name, box in before.items()
        if name not in after or any(abs(box[key] - after[name][key]) >= 0.5 for key in box)
    ]


def overlaps(named: dict[str, dict[str, float]]) -> list[tuple[str, str]]:
    """The pairs of boxes that overlap (sharing an edge is not overlapping)."""
    names = list(named)
    found = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p, q = named[a], named[b]
            if (
                p["x"] + p["width"] > q["x"] + 0.5
                and q["x"] + q["width"] > p["x"] + 0.5
                and p["y"] + p["height"] > q["y"] + 0.5
                and q["y"] + q["height"] > p["y"] + 0.5
            ):
                found.append((a, b))
    return found


_MARKS_JS = """(node) => {
    const style = getComputedStyle(node);
    const before = getComputedStyle(node, '::before');
    const after = getComputedStyle(node, '::after');
    return {
        classes: node.className,
        transform: style.transform,
        shadow: style.boxShadow,
        border: `${style.borderTopStyle} ${style.borderTopWidth} ${style.borderTopColor}`,
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
        ring: before.content === 'none' ? null
            : `${before.borderTopStyle} ${before.borderTopWidth} ${before.borderTopColor}`,
        badge: after.content === 'none' ? null : after.content,
    };
}"""


def marks(node: Locator) -> dict[str, Any]:
    """How a card or a pile is marked, as painted: its lift (transform), its ring (box-shadow),
    its edge, its outline, and the hint's ring and badge (its ::before and ::after)."""
    return node.evaluate(_MARKS_JS)


def set_theme(page: Page, theme: str) -> None:
    """Switch JupyterLab's or Notebook 7's theme ("JupyterLab Light" / "JupyterLab Dark"), as
    the Settings menu does; the server keeps the choice, so a test switches back when done."""
    light = "true" if "Light" in theme else "false"
    page.evaluate(
        "(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})", theme
    )
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'")
    # The theme's stylesheet is in once its variables are: wait for the layout colour to flip.
    page.wait_for_function(
        """(light) => {
            const value = getComputedStyle(document.body)
                .getPropertyValue('--jp-layout-color0').trim().toLowerCase();
            return light ? ['white', '#fff', '#ffffff'].includes(value) : value === '#111';
        }""",
        arg=light == "true",
    )


def measure_in_both_themes(page: Page, parts: list[Locator], what: str, figures: dict) -> None:
    """Measure every text of each of `parts` in the light and the dark theme (back to light
    after); keep the lowest ratio of each kind per theme in `figures`; fail on any text a
    player could not read."""
    try:
        for theme in THEMES:
            set_theme(page, theme)
            rows = [row for part in parts for row in contrasts(part)]
            assert rows, "no text measured"
            bad = failures(rows)
            assert not bad, f"{what}, {theme}: unreadable, over an image or covered: {bad}"
            lowest = figures.setdefault(theme, {})
            for kind, row in lowest_by_kind(rows).items():
                if kind not in lowest or row["ratio"] < lowest[kind]["ratio"]:
                    lowest[kind] = row
    finally:
        set_theme(page, "JupyterLab Light")


def print_figures(host: str, figures: dict) -> None:
    """Print the lowest contrast of each kind of text, per theme (`measure_in_both_themes`):
    the ratio, the text's colour and the colour under it as painted, and the text."""
    for theme, lowest in figures.items():
        print(
            f"\n{host}, {theme}: lowest contrast per kind of text (needed: {AA}:1, "
            f"{DISABLED_MINIMUM}:1 for a {DISABLED})"
        )
        for kind, row in lowest.items():
            print(f"  {kind:32} {row['ratio']:5.2f}:1  {row['fg']} on {row['bg']}  {row['text']!r}")


_HIDDEN_PARTS_JS = """(node) => {
    const box = node.getBoundingClientRect();
    const scope = node.getRootNode();
    const inset = 8; // inside the rounded corners
    const corners = {
        'top left': [box.left + inset, box.top + inset],
        'top right': [box.right - inset, box.top + inset],
        'bottom left': [box.left + inset, box.bottom - inset],
        'bottom right': [box.right - inset, box.bottom - inset],
    };
    const hidden = [];
    for (const [corner, [x, y]] of Object.entries(corners)) {
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
            hidden.push(`${corner}: off the window`);
            continue;
        }
        const top = scope.elementFromPoint(x, y);
        if (!top || !(top === node || node.contains(top))) {
            hidden.push(`${corner}: under ${top ? top.className || top.tagName : 'nothing'}`);
        }
    }
    return hidden;
}"""


def hidden_parts(node: Locator) -> list[str]:
    """Which corners of `node`'s box a player cannot see: off the window, or under something
    else (a host's bar, the edge of a scrolled box). Empty when the whole box is in view."""
    return node.evaluate(_HIDDEN_PARTS_JS)
