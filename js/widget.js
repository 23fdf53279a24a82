// Pyramid Solitaire front end (anywidget ES module, no bundler).
//
// Every view draws the model's `state` trait and nothing else, so all views of one widget show
// the same board; only the selection, the keyboard cursor and the message line are per view.
// Every move goes to Python as an intent message; Python answers each with an ack carrying the
// engine's verdict. The front end never decides legality: it only highlights partners from the
// legal moves Python sent.

const RANKS = "A23456789TJQK";
const RANK_NAMES = [
  "Ace", "Two", "Three", "Four", "Five", "Six", "Seven",
  "Eight", "Nine", "Ten", "Jack", "Queen", "King",
];
const SUITS = {
  c: { name: "Clubs", symbol: "\u2663", red: false },
  d: { name: "Diamonds", symbol: "\u2666", red: true },
  h: { name: "Hearts", symbol: "\u2665", red: true },
  s: { name: "Spades", symbol: "\u2660", red: false },
};
const STATUS_WORDS = { in_play: "in play", covered: "covered", removed: "removed" };
const REMOVE_MS = 180;

function rankOf(code) {
  return RANKS.indexOf(code[0]) + 1;
}

function cardName(code) {
  return `${RANK_NAMES[rankOf(code) - 1]} of ${SUITS[code[1]].name}`;
}

function isKing(code) {
  return code[0] === "K";
}

function rowCol(index) {
  let row = 0;
  while (((row + 1) * (row + 2)) / 2 <= index) row += 1;
  return [row, index - (row * (row + 1)) / 2];
}

function el(tag, className, attrs = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// Fill a card element with its face: corner index and a large centre suit.
function paintFace(node, code) {
  const suit = SUITS[code[1]];
  const rank = code[0] === "T" ? "10" : code[0];
  node.classList.toggle("pw-red", suit.red);
  node.replaceChildren();
  const corner = el("span", "pw-corner", { "aria-hidden": "true" });
  corner.textContent = `${rank}${suit.symbol}`;
  const pip = el("span", "pw-pip", { "aria-hidden": "true" });
  pip.textContent = suit.symbol;
  node.append(corner, pip);
  node.dataset.face = code;
}

class PyramidView {
  constructor(model, root) {
    this.model = model;
    this.id = `v${Math.random().toString(36).slice(2, 10)}`;
    this.seq = 0;
    this.pending = new Map(); // seq -> the cards involved, to bounce them on a refusal
    this.selected = null; // card code, local to this view
    this.state = null;
    this.slots = new Array(28).fill(null); // pyramid index -> card element (null when removed)
    this.cursorIndex = null;
    this.build(root);
    this.onState = () => this.render(this.model.get("state"));
    this.onMessage = (msg) => this.receive(msg);
    model.on("change:state", this.onState);
    model.on("msg:custom", this.onMessage);
    this.render(model.get("state"));
  }

  destroy() {
    this.model.off("change:state", this.onState);
    this.model.off("msg:custom", this.onMessage);
  }

  // ---------------------------------------------------------------- building
  build(host) {
    const root = el("div", "pw-root", {
      "data-lm-suppress-shortcuts": "true",
      tabindex: "-1",
      role: "application",
      "aria-roledescription": "Pyramid Solitaire",
      "aria-label": "Pyramid Solitaire",
    });
    this.root = root;
    this.table = el("div", "pw-table");
    this.pyramid = el("div", "pw-pyramid", { role: "group", "aria-label": "Pyramid" });
    this.stock = el("div", "pw-pile pw-stock", {
      "data-pile": "stock",
      role: "button",
      tabindex: "-1",
    });
    this.waste = el("div", "pw-pile pw-waste", { "data-pile": "waste", role: "group" });
    this.table.append(this.pyramid, this.stock, this.waste);

    this.status = el("div", "pw-status", { "aria-label": "Game status" });
    this.message = el("div", "pw-message", { role: "status" });
    this.live = el("div", "pw-sr-only", { "aria-live": "polite", "aria-atomic": "true" });

    const controls = el("div", "pw-controls", { role: "toolbar", "aria-label": "Game controls" });
    this.buttons = {};
    for (const [action, label, key] of [
      ["undo", "Undo", "U"],
      ["redo", "Redo", ""],
      ["new", "New deal", "N"],
      ["restart", "Restart", ""],
    ]) {
      const button = el("button", "pw-button", { type: "button", "data-action": action });
      button.textContent = label;
      if (key) button.setAttribute("aria-keyshortcuts", key);
      button.addEventListener("click", () => this.send(action));
      this.buttons[action] = button;
      controls.append(button);
    }
    root.append(this.table, this.status, this.message, controls, this.live);
    host.replaceChildren(root);

    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("keydown", (event) => this.onKey(event));
  }

  // ---------------------------------------------------------------- talking to Python
  send(action, fields = {}, cards = []) {
    this.seq += 1;
    this.pending.set(this.seq, cards);
    const version = this.state ? this.state.version : 0;
    this.model.send({ type: "intent", seq: this.seq, view: this.id, version, action, ...fields });
  }

  receive(msg) {
    if (!msg || msg.type !== "ack" || msg.view !== this.id) return;
    const cards = this.pending.get(msg.seq) || [];
    this.pending.delete(msg.seq);
    if (msg.ok) return;
    this.selected = null;
    this.say(msg.reason, true);
    this.bounce(cards);
    if (this.state) this.paintHighlights();
  }

  say(text, isError = false) {
    this.message.textContent = text || "";
    this.message.classList.toggle("pw-error", Boolean(isError && text));
    this.announce(text || "");
  }

  announce(text) {
    // Re-setting the same text would not be spoken again; clear first.
    this.live.textContent = "";
    if (text) window.setTimeout(() => (this.live.textContent = text), 30);
  }

  bounce(cards) {
    if (reducedMotion()) return;
    for (const code of cards) {
      const node = this.cardNode(code);
      if (!node) continue;
      node.classList.remove("pw-bounce");
      void node.offsetWidth; // restart the animation
      node.classList.add("pw-bounce");
    }
  }

  // ---------------------------------------------------------------- rendering
  render(state) {
    if (!state || !state.pyramid) return;
    const previous = this.state;
    this.state = state;
    const hadFocus = this.root.contains(document.activeElement);
    const focusedKey = hadFocus ? this.keyOf(document.activeElement) : null;
    const animate = previous && state.event.action !== "new" && state.event.action !== "restart";

    this.renderPyramid(state, Boolean(animate) && !reducedMotion());
    this.renderStock(state);
    this.renderWaste(state);
    this.renderStatus(state);
    for (const [action, allowed] of [
      ["undo", state.status.can_undo],
      ["redo", state.status.can_redo],
    ]) {
      this.buttons[action].setAttribute("aria-disabled", String(!allowed));
    }

    if (this.selected && !state.playable.includes(this.selected)) this.selected = null;
    this.paintHighlights();

    const moved = !previous || previous.position_version !== state.position_version;
    if (moved) this.narrate(state, previous);
    this.root.dataset.version = String(state.version);
    this.restoreFocus(hadFocus, focusedKey);
  }

  renderPyramid(state, animate) {
    state.pyramid.forEach((slot, index) => {
      let node = this.slots[index];
      if (slot.status === "removed") {
        if (node) this.remove(node, animate);
        this.slots[index] = null;
        return;
      }
      if (!node) {
        const [row, col] = rowCol(index);
        node = el("div", "pw-card", { role: "button", tabindex: "-1" });
        node.style.setProperty("--pw-row", row);
        node.style.setProperty("--pw-col", col);
        node.dataset.index = String(index);
        if (animate) node.classList.add("pw-arriving");
        this.pyramid.append(node);
        this.slots[index] = node;
      }
      if (node.dataset.face !== slot.card) paintFace(node, slot.card);
      node.dataset.card = slot.card;
      node.dataset.status = slot.status;
      node.setAttribute("aria-label", `${cardName(slot.card)}, ${STATUS_WORDS[slot.status]}`);
    });
  }

  remove(node, animate) {
    // The card leaves at once for tests and screen readers; only a ghost fades out.
    if (node === document.activeElement) node.blur();
    node.removeAttribute("data-card");
    node.removeAttribute("data-status");
    node.removeAttribute("role");
    node.removeAttribute("tabindex");
    node.setAttribute("aria-hidden", "true");
    node.className = "pw-card pw-leaving";
    if (!animate) {
      node.remove();
      return;
    }
    window.setTimeout(() => node.remove(), REMOVE_MS);
  }

  renderStock(state) {
    const { count, top } = state.stock;
    const pile = this.stock;
    pile.replaceChildren();
    pile.classList.toggle("pw-empty", count === 0);
    let label;
    if (count === 0) {
      const blocker = state.status.recycle_blocker;
      const mark = el("span", "pw-recycle", { "aria-hidden": "true" });
      mark.textContent = blocker ? "\u2715" : "\u21bb";
      pile.append(mark);
      pile.classList.toggle("pw-blocked", Boolean(blocker));
      label = blocker ? `Stock empty: ${blocker}` : "Stock empty: recycle the waste";
    } else if (top) {
      const card = el("div", "pw-card pw-face", { "data-card": top });
      paintFace(card, top);
      card.dataset.status = "in_play";
      pile.append(card);
      pile.classList.remove("pw-blocked");
      label = `Stock: ${cardName(top)} face up, ${count} cards`;
    } else {
      pile.append(el("div", "pw-card pw-back", { "aria-hidden": "true" }));
      pile.classList.remove("pw-blocked");
      label = `Stock: ${count} cards face down; draw`;
    }
    const badge = el("span", "pw-count", { "aria-hidden": "true" });
    badge.textContent = String(count);
    pile.append(badge);
    pile.setAttribute("aria-label", label);
  }

  renderWaste(state) {
    const { fan, top, count } = state.waste;
    const pile = this.waste;
    pile.replaceChildren();
    pile.classList.toggle("pw-empty", count === 0);
    fan.forEach((code, position) => {
      const isTop = position === fan.length - 1;
      const card = el("div", "pw-card pw-face");
      card.style.setProperty("--pw-fan", String(position));
      paintFace(card, code);
      if (isTop) {
        card.dataset.card = code;
        card.dataset.status = "in_play";
        card.setAttribute("role", "button");
        card.setAttribute("tabindex", "-1");
        card.setAttribute("aria-label", `${cardName(code)}, in play, waste top`);
      } else {
        card.classList.add("pw-under");
        card.setAttribute("aria-hidden", "true");
      }
      pile.append(card);
    });
    pile.setAttribute("aria-label", top ? `Waste: ${count} cards` : "Waste: empty");
  }

  renderStatus(state) {
    const s = state.status;
    const parts = [
      `Cleared ${s.cleared} of 28`,
      s.passes === null ? `Pass ${s.pass}` : `Pass ${s.pass} of ${s.passes}`,
      `Stock ${state.stock.count}`,
      `Moves ${s.moves}`,
    ];
    if (s.score !== null) parts.push(`Score ${s.score}`);
    this.status.replaceChildren(
      ...parts.map((text) => {
        const span = el("span", "pw-stat");
        span.textContent = text;
        return span;
      }),
    );
  }

  // Selection, partner highlights and the roving tabindex.
  paintHighlights() {
    const state = this.state;
    const partners = new Set();
    if (this.selected && state.options.highlight_partners) {
      for (const move of state.legal) {
        const [a, b] = move.split("+");
        if (b === undefined) continue;
        if (a === this.selected) partners.add(b);
        if (b === this.selected) partners.add(a);
      }
    }
    for (const node of this.root.querySelectorAll(".pw-card[data-card]")) {
      const code = node.dataset.card;
      node.classList.toggle("pw-selected", code === this.selected);
      node.classList.toggle("pw-partner", partners.has(code));
      if (node.getAttribute("role") === "button") {
        node.setAttribute("aria-pressed", String(code === this.selected));
      }
    }
    const stockTop = state.stock.top;
    this.stock.classList.toggle("pw-partner", Boolean(stockTop && partners.has(stockTop)));
  }

  narrate(state, previous) {
    const { action, move } = state.event;
    let text = "";
    if (action === "play" || action === "redo") {
      if (move === "draw") {
        text = state.waste.top ? `Turned the ${cardName(state.waste.top)}` : "Turned a card";
      } else if (move === "recycle") {
        text = `Recycled the waste: pass ${state.status.pass}`;
      } else if (move.includes("+")) {
        const [a, b] = move.split("+");
        text = `Removed the ${cardName(a)} and the ${cardName(b)}`;
      } else {
        text = `Removed the ${cardName(move)}`;
      }
    } else if (action === "undo") {
      text = `Undid ${move}`;
    } else if (action === "new") {
      text = "New deal";
    } else if (action === "restart") {
      text = "Deal restarted";
    }
    const outcome = state.status.outcome;
    if (outcome === "won") {
      this.say(`Pyramid cleared in ${state.status.moves} moves!`);
      return;
    }
    if (outcome === "stuck") {
      this.say("No moves left: undo, restart or deal again.");
      return;
    }
    if (previous) {
      this.message.textContent = "";
      this.message.classList.remove("pw-error");
      this.announce(text);
    }
  }

  // ---------------------------------------------------------------- pointer
  onClick(event) {
    const cardNode = event.target.closest(".pw-card[data-card]");
    const pileNode = event.target.closest("[data-pile]");
    if (pileNode && pileNode.dataset.pile === "stock") {
      this.activateStock();
    } else if (cardNode && this.root.contains(cardNode)) {
      this.activateCard(cardNode.dataset.card, cardNode.dataset.status);
    } else {
      return;
    }
    const target = cardNode || pileNode;
    if (target) this.setCursor(target, false);
  }

  activateCard(code, status) {
    if (!this.state) return;
    const selected = this.selected;
    if (selected === code) {
      this.selected = null;
      this.paintHighlights();
      return;
    }
    if (isKing(code) || this.state.options.auto_pair) {
      this.send("tap", { card: code }, [code]);
      return;
    }
    if (selected) {
      this.selected = null;
      this.paintHighlights();
      this.send("pair", { cards: [selected, code] }, [selected, code]);
      return;
    }
    if (status !== "in_play") {
      // Python says why it cannot be used ("that card is still covered").
      this.send("tap", { card: code }, [code]);
      return;
    }
    this.selected = code;
    this.message.textContent = "";
    this.paintHighlights();
  }

  activateStock() {
    const state = this.state;
    if (!state) return;
    const top = state.stock.top;
    if (this.selected && top) {
      const selected = this.selected;
      this.selected = null;
      this.paintHighlights();
      this.send("pair", { cards: [selected, top] }, [selected, top]);
    } else if (top && isKing(top) && state.rules.king_from_stock) {
      this.send("tap", { card: top }, [top]);
    } else if (state.stock.count > 0) {
      this.send("draw");
    } else {
      this.send("recycle");
    }
  }

  // ---------------------------------------------------------------- keyboard
  // Cursor targets: the cards in play, then the waste and the stock piles.
  targets() {
    const cards = [...this.pyramid.querySelectorAll('.pw-card[data-status="in_play"]')];
    const waste = this.waste.querySelector(".pw-card[data-card]");
    return [...cards, ...(waste ? [waste] : []), this.stock];
  }

  keyOf(node) {
    if (!node || !node.closest) return null;
    const pile = node.closest("[data-pile]");
    if (pile && pile.dataset.pile === "stock") return "pile:stock";
    if (node.dataset?.card) return `card:${node.dataset.card}`;
    if (node.dataset?.action) return `action:${node.dataset.action}`;
    return null;
  }

  cardNode(code) {
    return this.root.querySelector(`.pw-card[data-card="${code}"]`);
  }

  // The cursor is the one element with tabindex 0 (a roving tab stop); the pyramid index it
  // was on is kept so that, when its card goes, the cursor moves to a neighbour.
  setCursor(node, focus = true) {
    for (const other of this.root.querySelectorAll('[tabindex="0"]')) {
      if (other !== node) other.setAttribute("tabindex", "-1");
    }
    node.setAttribute("tabindex", "0");
    this.cursorIndex = node.dataset.index === undefined ? null : Number(node.dataset.index);
    if (focus) node.focus({ preventScroll: false });
  }

  restoreFocus(hadFocus, key) {
    const targets = this.targets();
    let cursor = this.root.querySelector('[tabindex="0"]');
    if (!cursor || !targets.includes(cursor)) {
      const again = key && key.startsWith("card:") ? this.cardNode(key.slice(5)) : null;
      cursor = targets.includes(again) ? again : this.nearestTarget(this.cursorIndex) || targets[0];
      if (cursor) this.setCursor(cursor, false);
    }
    // The focused card went away (removed, or a new deal): focus follows the cursor.
    if (hadFocus && !this.root.contains(document.activeElement)) {
      (cursor || this.root).focus({ preventScroll: true });
    }
  }

  nearestTarget(index) {
    const targets = this.targets().filter((node) => node.dataset.index !== undefined);
    if (index === null || index === undefined || !targets.length) return null;
    const [row, col] = rowCol(index);
    let best = null;
    let bestDistance = Infinity;
    for (const node of targets) {
      const [r, c] = rowCol(Number(node.dataset.index));
      const distance = Math.abs(r - row) * 2 + Math.abs(c - r / 2 - (col - row / 2));
      if (distance < bestDistance) {
        best = node;
        bestDistance = distance;
      }
    }
    return best;
  }

  moveCursor(direction) {
    const targets = this.targets();
    const current = targets.includes(document.activeElement) ? document.activeElement : null;
    if (!current) {
      const start = this.root.querySelector('[tabindex="0"]');
      this.setCursor(targets.includes(start) ? start : targets[0]);
      return;
    }
    const from = current.getBoundingClientRect();
    const fx = from.left + from.width / 2;
    const fy = from.top + from.height / 2;
    const [dx, dy] = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[direction];
    let best = null;
    let bestScore = Infinity;
    for (const node of targets) {
      if (node === current) continue;
      const box = node.getBoundingClientRect();
      const x = box.left + box.width / 2 - fx;
      const y = box.top + box.height / 2 - fy;
      const along = x * dx + y * dy;
      if (along <= 1) continue;
      const across = Math.abs(x * dy) + Math.abs(y * dx);
      const score = along + across * 2;
      if (score < bestScore) {
        best = node;
        bestScore = score;
      }
    }
    if (best) this.setCursor(best);
  }

  onKey(event) {
    // Nothing typed inside the widget may reach JupyterLab's shortcuts (d d deletes a cell).
    event.stopPropagation();
    const target = event.target;
    if (target.closest("input, textarea, select")) return;
    const key = event.key;
    const ctrl = event.ctrlKey || event.metaKey;
    const onButton = target.tagName === "BUTTON";
    let consumed = true;
    if (key.startsWith("Arrow")) {
      this.moveCursor(key.slice(5).toLowerCase());
    } else if ((key === "Enter" || key === " ") && !onButton) {
      const cursor = this.targets().includes(target) ? target : null;
      if (cursor === this.stock) this.activateStock();
      else if (cursor) this.activateCard(cursor.dataset.card, cursor.dataset.status);
      else this.moveCursor("right");
    } else if (ctrl && !event.altKey) {
      const lower = key.toLowerCase();
      if (lower === "z" && !event.shiftKey) this.send("undo");
      else if (lower === "y" || (lower === "z" && event.shiftKey)) this.send("redo");
      else consumed = false;
    } else if (event.altKey || event.metaKey) {
      consumed = false;
    } else {
      const action = { d: "draw", r: "recycle", u: "undo", n: "new" }[key.toLowerCase()];
      if (action) this.send(action);
      else if (key === "Escape") {
        this.selected = null;
        this.say("");
        this.paintHighlights();
      } else consumed = false;
    }
    if (consumed) event.preventDefault();
  }
}

function render({ model, el: host }) {
  const view = new PyramidView(model, host);
  return () => view.destroy();
}

export default { render };
