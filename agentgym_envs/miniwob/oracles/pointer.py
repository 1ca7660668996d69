"""Oracles for the pointer tasks: drag and drop, drawing, text selection, clicks at coordinates.

They use the pointer actions (``drag [id] to [id]``, ``drag X1 Y1 X2 Y2``, ``draw ...``,
``click_xy X Y``, ``select_text [id] "text"``) with page coordinates computed from the page's
own state: SVG geometry (circle-center, find-midpoint, right-angle, bisect-angle, draw-*), the
jQuery UI sortable lists and resizable handles (drag-items*, drag-sort-numbers, resize-textarea),
d3-draggable shapes (drag-box, drag-circle, drag-shapes*), and for hot-cold the page's own
mousemove handler, probed with synthetic events whose effect on the display is undone.

The geometry tasks score by pixel distance: the mouse events carry whole CSS pixels, so the best
reachable raw reward is often just below 1 (0.95-0.99); the oracles pick the best pixel.
"""

from __future__ import annotations

import math
import re
from typing import Any

from agentgym_envs.miniwob.actions import quote
from agentgym_envs.miniwob.oracles.view import View, click, submit

#: Page coordinates (CSS pixels) of the centre of the elements matching ``sel``: ``[agid, x, y,
#: w, h]`` each (agid null when the snapshot gave it none).
_CENTRES = r"""
(sel) => Array.from(document.querySelectorAll(sel)).map((e) => {
  const r = e.getBoundingClientRect();
  const own = e.getAttribute('data-agep') === String(window.__ag.ep) ? +e.dataset.agid : null;
  return [own, r.left + r.width / 2 + window.scrollX, r.top + r.height / 2 + window.scrollY,
          r.width, r.height];
})
"""

#: SVG user coordinates -> page coordinates through the svg's screen matrix.
_SVG_TO_PAGE = r"""
([sel, points]) => {
  const svg = document.querySelector(sel);
  const m = svg.getScreenCTM();
  return points.map(([x, y]) => [m.a * x + m.c * y + m.e + window.scrollX,
                                 m.b * x + m.d * y + m.f + window.scrollY]);
}
"""

#: The task maps a click to SVG coordinates as (pageX, pageY - 50) (its QUERY_PADDING).
_QUERY_PADDING = 50


def _pixel(x: float, y: float) -> str:
    return f"click_xy {x:g} {y:g}"


def _done_clicking(view: View) -> bool:
    return any(a.startswith("click_xy") for a in view.task.history)


def _bbox(view: View, selector: str) -> list[list[float]]:
    return view.js(
        "(sel) => Array.from(document.querySelectorAll(sel)).map((e) => { const b = e.getBBox();"
        " return [b.x, b.y, b.width, b.height]; })",
        selector,
    )


def _best_pixel(score: Any, cx: float, cy: float, radius: int = 2) -> tuple[int, int]:
    """The whole pixel near (cx, cy) with the highest ``score(x, y)``."""
    candidates = [
        (round(cx) + dx, round(cy) + dy)
        for dx in range(-radius, radius + 1)
        for dy in range(-radius, radius + 1)
    ]
    return max(candidates, key=lambda p: score(*p))


def circle_center(view: View) -> str | None:
    """Click the circle's centre (the blue mark's box corner lands on its box corner), submit."""
    if _done_clicking(view):
        return submit(view)
    (x, y, w, _h), *_ = _bbox(view, ".black-circle")
    cx, cy = x + w / 2, y + w / 2

    # the page scores the distance between the mark's box corner (click - 3.5) and cx - 3
    def closeness(px: int, py: int) -> float:
        return -math.hypot(px - 3.5 - (cx - 3), py - _QUERY_PADDING - 3.5 - (cy - 3))

    return _pixel(*_best_pixel(closeness, cx + 0.5, cy + _QUERY_PADDING + 0.5))


def find_midpoint(view: View) -> str | None:
    """Click the midpoint of the two black dots (compared by box corners), submit."""
    if _done_clicking(view):
        return submit(view)
    (ax, ay, _, _), (bx, by, _, _) = _bbox(view, ".black-circle")[:2]
    mx, my = (ax + bx) / 2, (ay + by) / 2

    def closeness(px: int, py: int) -> float:
        return -math.hypot(px - 3.5 - mx, py - _QUERY_PADDING - 3.5 - my)

    return _pixel(*_best_pixel(closeness, mx + 3.5, my + _QUERY_PADDING + 3.5))


def _angle(a: tuple[float, float], b: tuple[float, float], v: tuple[float, float]) -> float:
    """The angle at ``v`` between ``a`` and ``b`` in degrees (as the pages compute it)."""
    pav, pbv, pab = math.dist(a, v), math.dist(b, v), math.dist(a, b)
    cos = (pbv * pbv + pav * pav - pab * pab) / (2 * pbv * pav)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


#: The first of the page points whose press reaches the svg (3 px inside its box, and nothing,
#: such as the Submit button, lying over it), or null.
_FIRST_ON_PLOT = r"""
(points) => {
  const svg = document.querySelector('svg');
  const r = svg.getBoundingClientRect();
  return points.find(([x, y]) => {
    const vx = x - window.scrollX, vy = y - window.scrollY;
    if (vx < r.left + 3 || vy < r.top + 3 || vx > r.right - 3 || vy > r.bottom - 3) return false;
    const hit = document.elementFromPoint(vx, vy);
    return !!hit && (hit === svg || svg.contains(hit));
  }) || null;
}
"""


def _best_on_ray(
    view: View, score: Any, vertex: tuple[float, float], direction: tuple[float, float]
) -> tuple[int, int]:
    """The pixel near the ray from ``vertex`` (page coordinates) with the best score among
    those a click reaches the plot at."""
    norm = math.hypot(*direction) or 1.0
    ux, uy = direction[0] / norm, direction[1] / norm
    candidates = set()
    for length in range(25, 80):
        x0, y0 = vertex[0] + ux * length, vertex[1] + uy * length
        for px in (math.floor(x0), math.ceil(x0)):
            for py in (math.floor(y0), math.ceil(y0)):
                candidates.add((px, py))
    ranked = sorted(candidates, key=lambda p: score(*p), reverse=True)
    best = view.js(_FIRST_ON_PLOT, [list(p) for p in ranked])
    if best is None:
        raise RuntimeError("no pixel on the ray lies inside the plot")
    return best[0], best[1]


def right_angle(view: View) -> str | None:
    """Click a point making a right angle at the blue dot with the black one, then submit."""
    if _done_clicking(view):
        return submit(view)
    ax, ay, _, _ = _bbox(view, "#init-black")[0]
    vx, vy, _, _ = _bbox(view, "#init-blue")[0]
    dx, dy = ax - vx, ay - vy

    def score(px: int, py: int) -> float:  # the mark's box corner is the click - 3 (r = 3)
        return -abs(90 - _angle((ax, ay), (px - 3, py - _QUERY_PADDING - 3), (vx, vy)))

    vertex = (vx + 3, vy + _QUERY_PADDING + 3)
    for direction in ((-dy, dx), (dy, -dx)):
        try:
            return _pixel(*_best_on_ray(view, score, vertex, direction))
        except RuntimeError:
            continue
    return None


def bisect_angle(view: View) -> str | None:
    """Click a point on the bisector of the angle at the blue dot, then submit."""
    if _done_clicking(view):
        return submit(view)
    (ax, ay, _, _), (bx, by, _, _) = _bbox(view, ".init-black")[:2]
    vx, vy, _, _ = _bbox(view, ".init-blue")[0]
    total = _angle((ax, ay), (bx, by), (vx, vy))

    def score(px: int, py: int) -> float:  # the mark's box corner is the click - 3.5
        c = (px - 3.5, py - _QUERY_PADDING - 3.5)
        return (total - max(_angle((ax, ay), c, (vx, vy)), _angle((bx, by), c, (vx, vy)))) / (
            total / 2
        )

    ua, ub = math.dist((ax, ay), (vx, vy)), math.dist((bx, by), (vx, vy))
    direction = ((ax - vx) / ua + (bx - vx) / ub, (ay - vy) / ua + (by - vy) / ub)
    vertex = (vx + 3.5, vy + _QUERY_PADDING + 3.5)
    return _pixel(*_best_on_ray(view, score, vertex, direction))


# ---- drawing ------------------------------------------------------------------------------------
def _draw(points: list[tuple[float, float]]) -> str:
    return "draw " + " ".join(f"{round(x)} {round(y)}" for x, y in points)


def _drew(view: View) -> bool:
    return any(a.startswith("draw") for a in view.task.history)


def _controls_submit(view: View) -> str | None:
    return submit(view) or click(view.first("#controls button"))


def draw_line(view: View) -> str | None:
    """A straight horizontal or vertical stroke through the page's marked point, then submit.

    The page scores the stroke's points: their spread along the line must be large and across it
    nil, and one point must be within 6 px of its marked point (the dot's centre less 4 px)."""
    if _drew(view):
        return _controls_submit(view)
    cx, cy = view.js(
        "() => { const c = document.getElementById('circ');"
        " return [+c.getAttribute('cx') - 4, +c.getAttribute('cy') - 4]; }"
    )
    horizontal = "horizontal" in view.utterance
    if horizontal:
        ends = [(max(4.0, cx - 50), cy), (min(146.0, cx + 50), cy)]
    else:
        ends = [(cx, max(4.0, cy - 45)), (cx, min(106.0, cy + 45))]
    (x1, y1), (x2, y2) = view.js(_SVG_TO_PAGE, ["svg", ends])
    mx, my = view.js(_SVG_TO_PAGE, ["svg", [(cx, cy)]])[0]
    if horizontal:  # one pixel row through the marked point
        y1 = y2 = my
    else:
        x1 = x2 = mx
    return _draw([(x1, y1), (mx, my), (x2, y2)])


def draw_circle(view: View) -> str | None:
    """A circle of radius 15 around the marked dot (the page scores the spread of the stroke's
    distances to it, and the stroke's size), then submit."""
    if _drew(view):
        return _controls_submit(view)
    cx, cy = view.js(
        "() => { const b = document.getElementById('circ').getBBox(); return [b.x + 4, b.y + 4]; }"
    )
    ring = [
        (cx + 15 * math.cos(2 * math.pi * k / 40), cy + 15 * math.sin(2 * math.pi * k / 40))
        for k in range(41)
    ]
    return _draw(view.js(_SVG_TO_PAGE, ["svg", ring]))


# ---- drag and drop ------------------------------------------------------------------------------
def _drag_xy(start: tuple[float, float], end: tuple[float, float]) -> str:
    return f"drag {round(start[0])} {round(start[1])} {round(end[0])} {round(end[1])}"


def _sortable(view: View) -> list[tuple[int | None, str]]:
    """The sortable list's items in order: (element id, text)."""
    texts = view.js(
        "() => Array.from(document.querySelectorAll('#sortable > li'),"
        " (li) => li.textContent.replace(/\\s+/g, ' ').trim())"
    )
    ids = view.ids("#sortable > li")  # each item's own id or its text's
    if len(ids) != len(texts):
        return []
    return list(zip(ids, texts, strict=True))


def _sort_target(utterance: str, index: int, count: int, grid: bool) -> int | None:
    """The 1-based position the item at ``index`` (1-based) must go to."""
    text = utterance.lower()
    if grid:
        places = {
            "top left": 1, "top center": 2, "top right": 3, "center left": 4,
            "center right": 6, "bottom left": 7, "bottom center": 8, "bottom right": 9,
        }  # fmt: skip
        for name, place in places.items():
            if f"to the {name}." in text:
                return place
        if "to the center." in text:
            return 5
        moves = {"up by one": -3, "down by one": 3, "left by one": -1, "right by one": 1}
        return next((index + d for m, d in moves.items() if m in text), None)
    if "to the top" in text:
        return 1
    if "to the bottom" in text:
        return count
    if "down by one" in text:
        return index + 1
    if "up by one" in text:
        return index - 1
    match = re.search(r"to the (\d+)(?:st|nd|rd|th) position", text)
    return int(match.group(1)) if match else None


def _drag_items(view: View, grid: bool) -> str | None:
    """Drag the named item onto the item at its target place (the list reflows as it moves)."""
    match = re.match(r"Drag (.+?) (?:to the|up by|down by|left by|right by)", view.utterance)
    if not match:
        return None
    items = _sortable(view)
    names = [t for _, t in items]
    if match.group(1) not in names:
        return None
    index = names.index(match.group(1)) + 1
    place = _sort_target(view.utterance, index, len(items), grid)
    if place is None or not 1 <= place <= len(items) or place == index:
        return None
    return _sort_drag(view, index - 1, place - 1)


def _sort_drag(view: View, source: int, place: int) -> str:
    """Drag list item ``source`` (0-based) to ``place``: jQuery UI's sortable moves an item past
    another once the dragged item covers most of it, so the drop overshoots the target's centre
    by a third of its size in the direction of the move. In drag-items-grid a diagonal move
    (straight, it passes over other items and reorders the wrong ones) goes as an L instead."""
    boxes = view.js(_CENTRES, "#sortable > li")
    _, sx, sy, _, _ = boxes[source]
    _, tx, ty, tw, th = boxes[place]
    if abs(tx - sx) > 1 and abs(ty - sy) > 1:  # a grid move across rows and columns: an L path
        # (a ``draw`` is a pressed-mouse polyline) along the row to the target's column, then
        # along the column a third past the target's centre
        return _draw([(sx, sy), (tx, sy), (tx, ty + math.copysign(th / 3, ty - sy))])
    over_x = math.copysign(tw / 3, tx - sx) if abs(tx - sx) > 1 else 0.0
    over_y = math.copysign(th / 3, ty - sy) if abs(ty - sy) > 1 else 0.0
    return _drag_xy((sx, sy), (tx + over_x, ty + over_y))


def drag_items(view: View) -> str | None:
    return _drag_items(view, grid=False)


def drag_items_grid(view: View) -> str | None:
    return _drag_items(view, grid=True)


def drag_sort_numbers(view: View) -> str | None:
    """Selection sort by drags: move the smallest misplaced number onto its place, then submit."""
    items = _sortable(view)
    if not items:
        return None
    numbers = [int(t) for _, t in items]
    order = sorted(numbers)
    if numbers == order:
        return submit(view)
    place = next(i for i, (n, want) in enumerate(zip(numbers, order, strict=True)) if n != want)
    source = numbers.index(order[place], place)
    return _sort_drag(view, source, place)


#: A page point (nearest the centre) where a press reaches element ``sel`` (null if none does):
#: the large box, drawn later, may cover part of the small one.
_GRIP = r"""
(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const points = [];
  for (let y = r.top + 2; y < r.bottom - 1; y += 2)
    for (let x = r.left + 2; x < r.right - 1; x += 2) points.push([x, y]);
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  points.sort((a, b) => Math.hypot(a[0] - cx, a[1] - cy) - Math.hypot(b[0] - cx, b[1] - cy));
  const hit = points.find(([x, y]) => el.contains(document.elementFromPoint(x, y)));
  return hit ? [hit[0] + window.scrollX, hit[1] + window.scrollY] : null;
}
"""


def drag_box(view: View) -> str | None:
    """Drag the small box so that its corner lies 15 px inside the large box's, then submit."""
    small, large = (view.js(_CENTRES, sel)[0] for sel in ("#draggableSmall", "#draggableLarge"))
    if view.js("() => smallBoxContained()"):  # the page's own check
        return submit(view)
    grip = view.js(_GRIP, "#draggableSmall")
    if grip is None:
        return None
    (_, sx, sy, sw, sh), (_, lx, ly, lw, lh) = small, large
    # the small box's top-left must land 1..29 px inside the large one's: aim at 15, keeping
    # the grip's offset from the box's centre
    goal = (lx - lw / 2 + 15 + sw / 2, ly - lh / 2 + 15 + sh / 2)
    return _drag_xy(grip, (goal[0] + grip[0] - sx, goal[1] + grip[1] - sy))


_SHIFTS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


def drag_shape(view: View) -> str | None:
    """Drag the shape 25 px in the asked direction, then submit (drag-circle, -single-shape)."""
    if any(a.startswith("drag") for a in view.task.history):
        return submit(view)
    match = re.search(r"\b(left|right|up|down)\b", view.utterance)
    shape = view.js(_CENTRES, "svg circle, svg rect, svg polygon")
    if not match or not shape:
        return None
    _, x, y, _, _ = shape[0]
    dx, dy = _SHIFTS[match.group(1)]
    return _drag_xy((x, y), (x + 25 * dx, y + 25 * dy))


_SHAPES = r"""
([boxes, wanted, byColor]) => {
  const tags = {rectangles: 'rect', circles: 'circle', triangles: 'polygon'};
  const shapes = Array.from(document.querySelectorAll('#area_svg rect, #area_svg circle,'
                                                       + ' #area_svg polygon'))
      .filter((e) => e.id !== 'shape-container');
  return shapes.map((e, i) => {
    const r = e.getBoundingClientRect();
    const chosen = byColor ? e.getAttribute('fill') === wanted
                           : e.tagName.toLowerCase() === tags[wanted];
    const where = boxes.map(([x, y]) => insideContainer(e, x, y));
    return {i: i, chosen: chosen, inside: where,
            x: r.left + r.width / 2 + window.scrollX, y: r.top + r.height / 2 + window.scrollY};
  });
}
"""


def _drag_shapes(view: View, two_boxes: bool) -> str | None:
    """Drag each shape still outside its box into it (drag-shapes: the asked kind into the box,
    the others stay; drag-shapes-2: the asked kind or colour left, everything else right)."""
    match = re.search(r"Drag all (\w+)", view.utterance)
    if not match:
        return None
    wanted = match.group(1)
    by_color = wanted not in ("rectangles", "circles", "triangles")
    if two_boxes:
        boxes = view.js("() => [[LEFT_BOX_X, LEFT_BOX_Y], [RIGHT_BOX_X, RIGHT_BOX_Y]]")
    else:
        boxes = view.js("() => [[containerX, containerY]]")
    size = view.js("() => [containerWidth, containerHeight]")
    shapes = view.js(_SHAPES, [boxes, wanted, by_color])
    for shape in shapes:
        home = (0 if shape["chosen"] else 1) if two_boxes else (0 if shape["chosen"] else None)
        if home is None or shape["inside"][home]:
            continue
        bx, by = boxes[home]
        # drop points spread over the box so shapes do not pile up on one another
        slot = sum(1 for s in shapes if s["inside"][home])
        goal_svg = (
            bx + size[0] * (0.3 + 0.2 * (slot % 3)),
            by + size[1] * (0.35 + 0.3 * (slot // 3 % 2)),
        )
        goal = view.js(_SVG_TO_PAGE, ["#area_svg", [goal_svg]])[0]
        return _drag_xy((shape["x"], shape["y"]), goal)
    return submit(view)


def drag_shapes(view: View) -> str | None:
    return _drag_shapes(view, two_boxes=False)


def drag_shapes_2(view: View) -> str | None:
    return _drag_shapes(view, two_boxes=True)


def resize_textarea(view: View) -> str | None:
    """Drag the textarea's corner resize handle 20 px along the asked dimension, then submit
    (the east and south handles lie mostly outside the wrapper, which clips them)."""
    if any(a.startswith("drag") for a in view.task.history):
        return submit(view)
    width = "width" in re.findall(r"the (width|height) is", view.utterance)
    larger = "larger" in view.utterance
    handle = view.js(_CENTRES, ".ui-resizable-se")
    if not handle:
        return None
    _, x, y, _, _ = handle[0]
    step = 20 if larger else -20
    return _drag_xy((x, y), (x + step, y) if width else (x, y + step))


# ---- text selection and pointer search ---------------------------------------------------------
def highlight_text(view: View) -> str | None:
    """Select the paragraph's text with the mouse, then submit (highlight-text, -2)."""
    if any(a.startswith("select_text") for a in view.task.history):
        return submit(view)
    match = re.search(r"in the (\d)(?:st|nd|rd) paragraph", view.utterance)
    selector = f"#randomText p:nth-of-type({match.group(1)})" if match else "#randomText"
    element = view.first(selector)
    text = view.js(
        "(sel) => document.querySelector(sel).textContent.replace(/\\s+/g, ' ').trim()", selector
    )
    if element is None or not text:
        return None
    return f"select_text [{element}] {quote(text)}"


#: hot-cold's target, found by probing the page's own mousemove handler with synthetic events on
#: a grid and then around the first HOT point (the display is restored afterwards).
_HOT_COLD_PROBE = r"""
() => {
  const area = document.getElementById('touch-area');
  const display = document.getElementById('display');
  const saved = display.innerHTML;
  const probe = (x, y) => {
    area.dispatchEvent(new MouseEvent('mousemove', {bubbles: true, clientX: x - window.scrollX,
                                                    clientY: y - window.scrollY}));
    return display.textContent.trim();
  };
  const r = area.getBoundingClientRect();
  const x0 = Math.ceil(r.left + window.scrollX), y0 = Math.ceil(r.top + window.scrollY);
  let best = null;
  for (let y = y0; y < y0 + r.height && !best; y += 3) {
    for (let x = x0; x < x0 + r.width && !best; x += 3) if (probe(x, y) === 'HOT') best = [x, y];
  }
  let hot = [];
  if (best) {
    for (let y = best[1] - 6; y <= best[1] + 6; y++) {
      for (let x = best[0] - 6; x <= best[0] + 6; x++) if (probe(x, y) === 'HOT') hot.push([x, y]);
    }
  }
  display.innerHTML = saved;
  if (!hot.length) return null;
  const mx = hot.reduce((s, p) => s + p[0], 0) / hot.length;
  const my = hot.reduce((s, p) => s + p[1], 0) / hot.length;
  return [Math.round(mx), Math.round(my)];
}
"""


def hot_cold(view: View) -> str | None:
    """Click the centre of the HOT zone the page reports for the pointer position."""
    found = view.js(_HOT_COLD_PROBE)
    return _pixel(*found) if found else None


# ---- tasks whose target the text observation does not show --------------------------------------
def number_checkboxes(view: View) -> str | None:
    """Tick the checkbox grid into the asked digit's pattern (the page's PATTERNS), submit."""
    match = re.search(r'number "(\d)"', view.utterance)
    if not match:
        return None
    wrong = view.js(
        "(n) => { const boxes = Array.from(document.querySelectorAll('#checkboxes input'));"
        " const want = PATTERNS[n].flat();"
        " return boxes.map((b, i) => b.checked !== (want[i] === 1) ? i : -1)"
        ".filter((i) => i >= 0); }",
        int(match.group(1)),
    )
    if not wrong:
        return submit(view)
    ids = view.ids("#checkboxes input")
    return click(ids[wrong[0]]) if len(ids) == 28 else None


_SWATCH = r"""
() => {
  const swatch = document.querySelector('#query .cc');
  const rgb = getComputedStyle(swatch).backgroundColor.match(/\d+/g).slice(0, 3);
  return {hex: rgb.map((v) => (+v).toString(16).padStart(2, '0')).join(''),
          open: document.getElementById('col').classList.contains('jscolor-active'),
          focus: document.activeElement ? document.activeElement.id : ''};
}
"""


def use_colorwheel_2(view: View) -> str | None:
    """Type the instruction swatch's colour (read from its style) as hex into the picker's field,
    then submit as use-colorwheel does (Tab to the button and Enter while the picker is open)."""
    field = view.first("#col")
    if field is None:
        return None
    state = view.js(_SWATCH)
    if str(view.node(field).get("value", "")).lower() != state["hex"]:
        return f"type [{field}] {quote(state['hex'])}"
    if state["focus"] == "subbtn":
        return 'press "Enter"'
    if not state["open"]:
        return submit(view)
    return 'press "Tab"' if state["focus"] == "col" else click(field)
