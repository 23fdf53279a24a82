// Pyramid Solitaire front end (anywidget ES module, no bundler).
//
// Every view draws the model's `state` trait and nothing else, so all views of one widget show
// the same board; only the selection, the keyboard cursor, the message line, which notices
// were closed and whether the Records panel is open are per view. Every move goes to Python as an intent message; Python answers each
// with an ack carrying the engine's verdict. The front end never decides legality: it only
// highlights partners from the legal moves Python sent.

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
const PRESETS = ["classic", "scored", "open-stock", "one-recycle", "strict"];
const PASSES = [["1", "1 pass"], ["2", "2 passes"], ["3", "3 passes"], ["unlimited", "unlimited"]];
const OPTIONS = [
  ["highlight_partners", "Highlight partners"],
  ["auto_pair", "Auto-pair: a tap takes the first partner"],
  ["fair_hints", "Fair hints (only cards you have seen)"],
  ["dead_end_notice", "Early dead-end notice (looks at unseen cards)"],
  ["winnable_only", "Winnable deals only"],
];
const VERDICT_WORDS = { winnable: "winnable", unwinnable: "lost", unknown: "unknown", won: "won" };
const REMOVE_MS = 180;
const DRAG_START_PX = 8;

function rankOf(code) {
  return RANKS.indexOf(code[0]) + 1;
}

function cardName(code) {
  return `${RANK_NAMES[rankOf(code) - 1]} of ${SUITS[code[1]].name}`;
}

function isKing(code) {
  return code[0] === "K";
}

function moveCards(move) {
  if (!move || move === "draw" || move === "recycle") return [];
  return move.split("+");
}

function rowCol(index) {
  let row = 0;
  while (((row + 1) * (row + 2)) / 2 <= index) row += 1;
  return [row, index - (row * (row + 1)) / 2];
}

function formatTime(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function el(tag, className, attrs = {}, text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
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
  const corner = el("span", "pw-corner", { "aria-hidden": "true" }, `${rank}${suit.symbol}`);
  const pip = el("span", "pw-pip", { "aria-hidden": "true" }, suit.symbol);
  node.replaceChildren(corner, pip);
  node.dataset.face = code;
}

class PyramidView {
  constructor(model, host) {
    this.model = model;
    this.id = `v${Math.random().toString(36).slice(2, 10)}`;
    this.seq = 0;
    this.pending = new Map(); // seq -> the cards involved, to bounce them on a refusal
    this.selected = null; // card code, local to this view
    this.state = null;
    this.slots = new Array(28).fill(null); // pyramid index -> card element (null when removed)
    this.cursorIndex = null;
    this.closed = new Set(); // notices this view closed ("kind:position_version")
    this.drag = null;
    this.suppressClick = false;
    this.clock = { base: 0, at: 0, running: false };
    this.build(host);
    this.onState = () => this.render(this.model.get("state"));
    this.onMessage = (msg) => this.receive(msg);
    this.onVisibility = () => this.visibilityChanged();
    model.on("change:state", this.onState);
    model.on("msg:custom", this.onMessage);
    document.addEventListener("visibilitychange", this.onVisibility);
    this.timer = window.setInterval(() => this.tick(), 1000);
    this.render(model.get("state"));
  }

  destroy() {
    this.model.off("change:state", this.onState);
    this.model.off("msg:custom", this.onMessage);
    document.removeEventListener("visibilitychange", this.onVisibility);
    window.clearInterval(this.timer);
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
    this.panel = el("div", "pw-panel", { role: "dialog", "aria-modal": "false", hidden: "" });
    this.table.append(this.pyramid, this.stock, this.waste, this.panel);
    // Below the table, never over the cards: the Continue offer, the records, the review.
    this.offer = el("div", "pw-offer", { role: "region", "aria-label": "Saved game", hidden: "" });
    this.records = el("div", "pw-records", { role: "region", "aria-label": "Records", hidden: "" });
    this.review = el("div", "pw-review", { role: "region", "aria-label": "Game review", hidden: "" });
    this.showRecords = false;

    this.status = el("div", "pw-status", { "aria-label": "Game status" });
    this.hintLine = el("div", "pw-hint-line");
    this.message = el("div", "pw-message", { role: "status" });
    this.live = el("div", "pw-sr-only", { "aria-live": "polite", "aria-atomic": "true" });

    const controls = el("div", "pw-controls", { role: "toolbar", "aria-label": "Game controls" });
    this.buttons = {};
    for (const [action, label, key] of [
      ["undo", "Undo", "U"],
      ["redo", "Redo", ""],
      ["hint", "Hint", "H"],
      ["pause", "Pause", ""],
      ["new", "New deal", "N"],
      ["restart", "Restart", ""],
      ["records", "Records", ""],
      ["fullscreen", "Full screen", "F"],
    ]) {
      const button = el("button", "pw-button", { type: "button", "data-action": action }, label);
      if (key) button.setAttribute("aria-keyshortcuts", key);
      this.buttons[action] = button;
      controls.append(button);
    }
    controls.append(this.buildMenu());
    this.buttons.records.setAttribute("aria-expanded", "false");
    root.append(
      this.table,
      this.offer,
      this.status,
      this.hintLine,
      this.message,
      controls,
      this.records,
      this.review,
      this.live,
    );
    host.replaceChildren(root);

    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("keydown", (event) => this.onKey(event));
    root.addEventListener("change", (event) => this.onChange(event));
    root.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    root.addEventListener("pointermove", (event) => this.onPointerMove(event));
    root.addEventListener("pointerup", (event) => this.onPointerUp(event));
    root.addEventListener("pointercancel", () => this.endDrag());
  }

  // The "Game" menu: deals (number, daily, code, share), rules for the next deal, options.
  buildMenu() {
    const menu = el("details", "pw-menu");
    menu.append(el("summary", "pw-button", { "data-action": "menu" }, "Game \u25be"));
    const body = el("div", "pw-menu-body");

    const deals = el("fieldset", "pw-group");
    deals.append(el("legend", "", {}, "Deals"));
    const numberRow = el("div", "pw-row");
    this.numberInput = el("input", "pw-input", {
      type: "number",
      min: "0",
      step: "1",
      inputmode: "numeric",
      "aria-label": "Deal number",
      placeholder: "Deal number",
      "data-field": "number",
    });
    numberRow.append(
      this.numberInput,
      el("button", "pw-button", { type: "button", "data-action": "deal-number" }, "Deal"),
    );
    const codeRow = el("div", "pw-row");
    this.codeInput = el("input", "pw-input", {
      type: "text",
      "aria-label": "Shared deal or position code",
      placeholder: "Paste a shared code",
      "data-field": "code",
    });
    codeRow.append(
      this.codeInput,
      el("button", "pw-button", { type: "button", "data-action": "open-code" }, "Open"),
    );
    const shareRow = el("div", "pw-row");
    this.shareOutput = el("input", "pw-input", {
      type: "text",
      readonly: "",
      "aria-label": "This deal's code",
      placeholder: "Share gives this deal's code",
      "data-field": "share",
    });
    shareRow.append(
      el("button", "pw-button", { type: "button", "data-action": "share" }, "Share"),
      this.shareOutput,
    );
    deals.append(
      el("button", "pw-button", { type: "button", "data-action": "new" }, "Random deal"),
      el("button", "pw-button", { type: "button", "data-action": "restart" }, "Restart this deal"),
      el("button", "pw-button", { type: "button", "data-action": "review" }, "Review this game"),
      el("button", "pw-button", { type: "button", "data-action": "daily" }, "Daily deal"),
      numberRow,
      codeRow,
      shareRow,
    );

    const rules = el("fieldset", "pw-group");
    rules.append(el("legend", "", {}, "Rules (from the next deal)"));
    this.presetSelect = el("select", "pw-input", {
      "aria-label": "Rules",
      "data-setting": "preset",
    });
    for (const name of PRESETS) this.presetSelect.append(el("option", "", { value: name }, name));
    this.passesSelect = el("select", "pw-input", {
      "aria-label": "Passes through the stock",
      "data-setting": "passes",
    });
    for (const [value, label] of PASSES) {
      this.passesSelect.append(el("option", "", { value }, label));
    }
    rules.append(this.presetSelect, this.passesSelect);

    const options = el("fieldset", "pw-group");
    options.append(el("legend", "", {}, "Options"));
    this.optionBoxes = {};
    for (const [name, label] of OPTIONS) {
      const row = el("label", "pw-check");
      const box = el("input", "", { type: "checkbox", "data-option": name });
      row.append(box, document.createTextNode(` ${label}`));
      this.optionBoxes[name] = box;
      options.append(row);
    }
    body.append(deals, rules, options);
    menu.append(body);
    this.menu = menu;
    return menu;
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
    if (msg.ok) {
      if (msg.code) this.shared(msg.code);
      return;
    }
    this.selected = null;
    this.say(msg.reason, true);
    this.bounce(cards);
    if (this.state) this.paintHighlights();
  }

  shared(code) {
    this.shareOutput.value = code;
    this.copy(code, "Deal code copied");
  }

  copy(text, done) {
    const fallback = () => this.say(`Copy this code: ${text}`);
    if (!navigator.clipboard) return fallback();
    navigator.clipboard.writeText(text).then(() => this.say(done), fallback);
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
    this.renderControls(state);
    this.renderHint(state, previous);

    if (this.selected && !state.playable.includes(this.selected)) this.selected = null;
    this.paintHighlights();

    const moved = !previous || previous.position_version !== state.position_version;
    if (moved) this.narrate(state, previous);
    this.renderPanel(state);
    this.renderOffer(state);
    this.renderRecords(state);
    this.renderReview(state);
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
    const blocker = count === 0 ? state.status.recycle_blocker : null;
    pile.replaceChildren();
    pile.classList.toggle("pw-empty", count === 0);
    pile.classList.toggle("pw-blocked", Boolean(blocker));
    pile.removeAttribute("title");
    let label;
    if (count === 0) {
      const mark = el("span", "pw-recycle", { "aria-hidden": "true" }, blocker ? "\u2715" : "\u21bb");
      pile.append(mark);
      if (blocker) pile.title = blocker;
      label = blocker ? `Recycle unavailable: ${blocker}` : "Stock empty: recycle the waste";
    } else if (top) {
      const card = el("div", "pw-card pw-face", { "data-card": top, "data-status": "in_play" });
      paintFace(card, top);
      pile.append(card);
      label = `Stock: ${cardName(top)} face up, ${count} cards`;
    } else {
      pile.append(el("div", "pw-card pw-back", { "aria-hidden": "true" }));
      label = `Stock: ${count} cards face down; draw`;
    }
    pile.append(el("span", "pw-count", { "aria-hidden": "true" }, String(count)));
    pile.setAttribute("aria-label", label);
  }

  renderWaste(state) {
    const { fan, top, count } = state.waste;
    const pile = this.waste;
    pile.replaceChildren();
    pile.classList.toggle("pw-empty", count === 0);
    fan.forEach((code, position) => {
      const card = el("div", "pw-card pw-face");
      card.style.setProperty("--pw-fan", String(position));
      paintFace(card, code);
      if (position === fan.length - 1) {
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
    if (state.deal.number !== null) parts.push(`Deal #${state.deal.number}`);
    if (state.deal.proven === false) parts.push("unproven deal");
    const spans = parts.map((text) => el("span", "pw-stat", {}, text));
    this.timeSpan = el("span", "pw-stat pw-time", { "aria-label": "Time played" });
    this.clock = {
      base: state.clock.elapsed,
      at: performance.now(),
      running: state.clock.running && !state.clock.paused,
    };
    // Spaces between the items keep the status readable as text (flex layout ignores them).
    const items = [...spans, this.timeSpan].flatMap((span) => [span, document.createTextNode(" ")]);
    this.status.replaceChildren(...items.slice(0, -1));
    this.tick();
  }

  tick() {
    if (!this.timeSpan) return;
    const { base, at, running } = this.clock;
    const seconds = base + (running ? (performance.now() - at) / 1000 : 0);
    this.timeSpan.textContent = `Time ${formatTime(seconds)}`;
  }

  renderControls(state) {
    const s = state.status;
    // Greyed, not disabled: pressed anyway, they say why ("nothing to undo").
    this.buttons.undo.classList.toggle("pw-unavailable", !s.can_undo);
    this.buttons.redo.classList.toggle("pw-unavailable", !s.can_redo);
    const paused = state.clock.paused;
    this.buttons.pause.textContent = paused ? "Resume" : "Pause";
    this.buttons.pause.setAttribute("aria-pressed", String(paused));
    for (const [name, box] of Object.entries(this.optionBoxes)) box.checked = state.options[name];
    const next = state.next_rules;
    const preset = next.name.split(",")[0];
    if (PRESETS.includes(preset)) this.presetSelect.value = preset;
    this.passesSelect.value = next.passes === null ? "unlimited" : String(next.passes);
    this.root.classList.toggle("pw-paused", paused);
  }

  renderHint(state, previous) {
    const hint = state.hint;
    let text = "";
    if (state.finding_deal) text = "finding a winnable deal\u2026";
    else if (hint && hint.status === "checking") text = "checking for a solution\u2026";
    else if (hint && hint.status === "failed") text = hint.reason;
    else if (hint) {
      const lead = hint.verdict === "lost" ? "No solution is left from here. " : "";
      const fallback = hint.move ? `Try ${hint.move}.` : "No move to suggest.";
      text = `${lead}${hint.reason || fallback}`;
    }
    this.hintLine.textContent = text;
    this.hintLine.classList.toggle("pw-lost", Boolean(hint && hint.verdict === "lost"));
    const before = previous ? JSON.stringify(previous.hint) + previous.finding_deal : "";
    if (text && before !== JSON.stringify(hint) + state.finding_deal) this.announce(text);
  }

  // Selection, partner and hint highlights.
  paintHighlights() {
    const state = this.state;
    const partners = new Set();
    if (this.selected && state.options.highlight_partners) {
      for (const move of state.legal) {
        const [a, b] = moveCards(move);
        if (b === undefined) continue;
        if (a === this.selected) partners.add(b);
        if (b === this.selected) partners.add(a);
      }
    }
    const hint = state.hint && state.hint.status === "done" ? state.hint : null;
    const hinted = new Set(hint ? moveCards(hint.move) : []);
    for (const node of this.root.querySelectorAll(".pw-card[data-card]")) {
      const code = node.dataset.card;
      node.classList.toggle("pw-selected", code === this.selected);
      node.classList.toggle("pw-partner", partners.has(code));
      node.classList.toggle("pw-hinted", hinted.has(code));
      if (node.getAttribute("role") === "button") {
        node.setAttribute("aria-pressed", String(code === this.selected));
      }
    }
    const stockTop = state.stock.top;
    this.stock.classList.toggle("pw-partner", Boolean(stockTop && partners.has(stockTop)));
    const stockHint = hint && (hint.kind === "draw" || hint.kind === "recycle");
    this.stock.classList.toggle("pw-hinted", Boolean(stockHint));
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
        const [a, b] = moveCards(move);
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
    } else if (action === "continue") {
      text = `Saved game continued at move ${state.status.moves}`;
    } else if (action === "step") {
      text = `The game after move ${this.model.get("moves").length}`;
    }
    const outcome = state.status.outcome;
    if (outcome === "won") {
      this.say(`Pyramid cleared in ${state.status.moves} moves!`);
    } else if (outcome === "stuck") {
      this.say("No moves left: undo, restart or deal again.");
    } else if (state.status.dead_end) {
      this.say("Dead end: no card the stock can still bring would ever fit.");
    } else if (previous) {
      this.message.textContent = "";
      this.message.classList.remove("pw-error");
      this.announce(text);
    }
  }

  // One notice at a time over the table: paused, won, lost (a hint's proof), stuck, dead end.
  currentNotice(state) {
    const s = state.status;
    const key = (kind) => `${kind}:${state.position_version}`;
    if (state.clock.paused) return { kind: "paused", key: key("paused") };
    if (s.outcome === "won") return { kind: "won", key: key("won") };
    if (state.hint && state.hint.verdict === "lost") return { kind: "lost", key: key("lost") };
    if (s.outcome === "stuck") return { kind: "stuck", key: key("stuck") };
    if (s.dead_end) return { kind: "dead_end", key: key("dead_end") };
    return null;
  }

  renderPanel(state) {
    const notice = this.currentNotice(state);
    const panel = this.panel;
    if (!notice || (notice.kind !== "paused" && this.closed.has(notice.key))) {
      panel.hidden = true;
      panel.removeAttribute("data-notice");
      panel.replaceChildren();
      return;
    }
    if (panel.dataset.notice === notice.key && !panel.hidden) return;
    panel.dataset.notice = notice.key;
    panel.dataset.kind = notice.kind;
    const box = el("div", "pw-panel-box");
    const s = state.status;
    const button = (action, label) =>
      el("button", "pw-button", { type: "button", "data-action": action }, label);
    const exits = [button("undo", "Undo"), button("restart", "Replay this deal"), button("new", "New deal")];
    const look = button("look", "Look at the board");
    let title;
    let lines = [];
    let buttons;
    if (notice.kind === "paused") {
      title = "Paused";
      lines = ["The clock is stopped and moves wait until you resume."];
      buttons = [button("resume", "Resume")];
    } else if (notice.kind === "won") {
      title = "Pyramid cleared!";
      lines = [
        `Time ${formatTime(state.clock.elapsed)}`,
        `Moves ${s.moves}`,
        `Cards cleared ${s.cleared} of 28`,
      ];
      if (s.score !== null) lines.push(`Score ${s.score}`);
      buttons = [
        button("new", "New deal"),
        button("restart", "Replay this deal"),
        button("review", "Review"),
        look,
      ];
    } else if (notice.kind === "lost") {
      title = "No solution from here";
      lines = [state.hint.reason || "The solver proved that this position cannot be won."];
      buttons = [...exits, look];
    } else if (notice.kind === "stuck") {
      title = "Out of moves";
      lines = ["No pair, no King, no draw and no recycle is left. This is not a loss: undo, or play the deal again."];
      buttons = [...exits, button("review", "Review"), look];
    } else {
      title = "Dead end";
      lines = ["No card the stock can still bring would ever fit the pyramid."];
      buttons = [...exits, look];
    }
    box.append(el("h3", "pw-panel-title", {}, title));
    for (const line of lines) box.append(el("p", "pw-panel-line", {}, line));
    if (notice.kind === "won" && state.deal.id) {
      const row = el("div", "pw-row");
      const code = el("input", "pw-input pw-deal-code", {
        type: "text",
        readonly: "",
        "aria-label": "Deal code",
        "data-field": "deal-code",
      });
      code.value = state.deal.id;
      row.append(code, button("copy", "Copy"));
      box.append(row);
    }
    const row = el("div", "pw-row pw-panel-actions");
    row.append(...buttons);
    box.append(row);
    panel.setAttribute("aria-label", title);
    panel.replaceChildren(box);
    panel.hidden = false;
    this.announce(`${title}. ${lines.join(" ")}`);
  }

  // The Continue offer: how far the saved game got, never its cards (Python sends none).
  renderOffer(state) {
    const offer = state.offer;
    const key = offer ? `offer:${JSON.stringify(offer)}` : null;
    const box = this.offer;
    if (!offer || this.closed.has(key)) {
      box.hidden = true;
      box.replaceChildren();
      delete box.dataset.key;
      return;
    }
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const moves = `${offer.moves} move${offer.moves === 1 ? "" : "s"}`;
    const text =
      `Your last ${offer.rules} game is saved: ${moves}, ${offer.cleared} of 28 cleared, ` +
      `${formatTime(offer.elapsed)} played.`;
    box.replaceChildren(
      el("span", "pw-offer-text", {}, text),
      el("button", "pw-button pw-primary", { type: "button", "data-action": "continue" }, "Continue"),
      el("button", "pw-button", { type: "button", "data-action": "offer-close" }, "Not now"),
    );
    box.hidden = false;
    this.announce(`${text} Continue?`);
  }

  // The Records panel (opened per view): the current rules' records, as Python keeps them.
  renderRecords(state) {
    const box = this.records;
    const records = state.records;
    this.buttons.records.setAttribute("aria-expanded", String(this.showRecords));
    if (!this.showRecords || !records) {
      box.hidden = true;
      box.replaceChildren();
      delete box.dataset.key;
      return;
    }
    const key = JSON.stringify(records);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const dash = (value, format = String) => (value === null ? "—" : format(value));
    const items = [
      ["Games", records.games],
      ["Wins", records.wins],
      ["Losses", records.losses],
      ["Win rate", dash(records.win_rate, (rate) => `${Math.round(rate * 100)}%`)],
      ["Current streak", records.current_streak],
      ["Best streak", records.best_streak],
      ["Fastest win", dash(records.fastest_win, formatTime)],
      ["Fewest moves", dash(records.fewest_moves)],
    ];
    if (state.rules.scoring || records.best_score !== null) {
      items.push(["Best score", dash(records.best_score)]);
    }
    const list = el("dl", "pw-records-list");
    for (const [name, value] of items) {
      const item = el("div", "pw-record", { "data-record": name.toLowerCase().replace(/ /g, "_") });
      item.append(el("dt", "", {}, name), el("dd", "", {}, String(value)));
      list.append(item);
    }
    const parts = [el("h3", "pw-section-title", {}, `Records: ${records.rules}`), list];
    if (!records.saving) {
      parts.push(el("p", "pw-note", {}, "Saving is off (store=None): nothing is recorded."));
    }
    parts.push(el("button", "pw-button", { type: "button", "data-action": "records" }, "Close"));
    box.replaceChildren(...parts);
    box.hidden = false;
  }

  // The game review: a table of the moves, the decisive one marked; a row steps the board
  // to the position before that move (Python undoes or replays the reviewed game's moves).
  renderReview(state) {
    const box = this.review;
    const review = state.review;
    if (!review) {
      box.hidden = true;
      box.replaceChildren();
      delete box.dataset.key;
      return;
    }
    const key = JSON.stringify(review);
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      box.replaceChildren(...this.reviewContent(review));
      box.hidden = false;
      if (review.status === "done") this.announce(review.summary);
    }
    // The row of the move the board is about to play (none at the end of the game).
    const played = this.model.get("moves").length;
    for (const row of box.querySelectorAll("tr[data-moves]")) {
      const current = Number(row.dataset.moves) === played;
      row.classList.toggle("pw-current", current);
      if (current) {
        row.setAttribute("aria-current", "step");
        this.keepInView(row);
      } else {
        row.removeAttribute("aria-current");
      }
    }
  }

  // Scroll the review's own scroller (never the notebook) so that `row` is visible.
  keepInView(row) {
    const scroller = row.closest(".pw-review-scroll");
    const head = scroller.querySelector("thead");
    const view = scroller.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    const top = view.top + (head ? head.offsetHeight : 0);
    if (box.top < top) scroller.scrollTop -= top - box.top;
    else if (box.bottom > view.bottom) scroller.scrollTop += box.bottom - view.bottom;
  }

  reviewContent(review) {
    const title = el("h3", "pw-section-title", {}, "Review");
    const close = el("button", "pw-button", { type: "button", "data-action": "review-close" }, "Close");
    if (review.status === "reviewing") {
      return [title, el("p", "pw-note", { role: "status" }, "reviewing…"), close];
    }
    if (review.status !== "done") {
      return [title, el("p", "pw-note pw-error", { role: "status" }, review.reason), close];
    }
    const table = el("table", "pw-review-table");
    const head = el("tr");
    for (const name of ["#", "Move", "Before", "After", "Fair hint", ""]) {
      head.append(el("th", "", { scope: "col" }, name));
    }
    table.append(el("thead"), el("tbody"));
    table.tHead.append(head);
    for (const row of review.rows) {
      const tr = el("tr", "pw-review-row", {
        "data-action": "step",
        "data-moves": String(row.number - 1),
        "data-number": String(row.number),
      });
      if (row.decisive) tr.classList.add("pw-decisive");
      const step = el(
        "button",
        "pw-step",
        {
          type: "button",
          "data-action": "step",
          "data-moves": String(row.number - 1),
          "aria-label": `Show the board before move ${row.number}, ${row.move}`,
        },
        String(row.number),
      );
      const cell = (text, className = "") => el("td", className, {}, text);
      const first = el("td");
      first.append(step);
      const hint = row.hint ? `${row.hint}${row.followed ? " ✓" : ""}` : "";
      const hintCell = cell(hint);
      if (row.hint_reason) hintCell.title = row.hint_reason;
      const note = row.decisive
        ? `◀ the win slipped away here; ${row.keeps_win} would keep it`
        : "";
      tr.append(
        first,
        cell(row.move, "pw-notation"),
        cell(VERDICT_WORDS[row.before] || row.before, `pw-verdict pw-${row.before}`),
        cell(VERDICT_WORDS[row.after] || row.after, `pw-verdict pw-${row.after}`),
        hintCell,
        cell(note, "pw-review-note"),
      );
      table.tBodies[0].append(tr);
    }
    const scroller = el("div", "pw-review-scroll");
    scroller.append(table);
    const end = el(
      "button",
      "pw-button",
      { type: "button", "data-action": "step-end", "data-moves": String(review.rows.length) },
      "Back to the end",
    );
    const actions = el("div", "pw-row");
    actions.append(end, close);
    return [title, el("p", "pw-review-summary", {}, review.summary), scroller, actions];
  }

  // ---------------------------------------------------------------- commands
  command(action, node = null) {
    const state = this.state;
    if (!state) return;
    if (action === "fullscreen") return this.toggleFullscreen();
    if (action === "pause") return this.send(state.clock.paused ? "resume" : "pause");
    if (action === "look") {
      const notice = this.currentNotice(state);
      if (notice) this.closed.add(notice.key);
      return this.renderPanel(state);
    }
    if (action === "offer-close") {
      if (state.offer) this.closed.add(`offer:${JSON.stringify(state.offer)}`);
      return this.renderOffer(state);
    }
    if (action === "records") {
      this.showRecords = !this.showRecords;
      return this.renderRecords(state);
    }
    if (action === "review") {
      // From a notice, the board behind it shows again: the review steps through it.
      if (this.panel.contains(node)) this.command("look");
      return this.closeMenuAnd("review");
    }
    if (action === "review-close") return this.send("review_close");
    if (action === "step" || action === "step-end") {
      return this.send("review_step", { moves: Number(node.dataset.moves) });
    }
    if (action === "copy") return this.copy(state.deal.id, "Deal code copied");
    if (action === "menu") return;
    if (action === "deal-number") {
      const number = Number(this.numberInput.value);
      if (this.numberInput.value === "" || !Number.isInteger(number) || number < 0) {
        return this.say("Type a deal number (a whole number) first", true);
      }
      return this.closeMenuAnd("new", { number });
    }
    if (action === "daily") return this.closeMenuAnd("new", { daily: true });
    if (action === "open-code") {
      const code = this.codeInput.value.trim();
      if (!code) return this.say("Paste a deal or position code first", true);
      return this.closeMenuAnd("new", { code });
    }
    if (["new", "restart"].includes(action)) return this.closeMenuAnd(action);
    this.send(action);
  }

  closeMenuAnd(action, fields = {}) {
    this.menu.open = false;
    this.send(action, fields);
  }

  toggleFullscreen() {
    if (document.fullscreenElement === this.root) {
      document.exitFullscreen?.();
      return;
    }
    const request = this.root.requestFullscreen?.();
    if (!request) return this.say("Full screen is not available here", true);
    request.catch(() => this.say("Full screen is not available here", true));
  }

  onChange(event) {
    const target = event.target;
    if (target.dataset.option) {
      this.send("option", { name: target.dataset.option, value: target.checked });
    } else if (target.dataset.setting) {
      const passes = this.passesSelect.value;
      this.send("rules", { name: `${this.presetSelect.value},passes=${passes}` });
    }
  }

  visibilityChanged() {
    if (!this.state) return;
    if (document.hidden && this.state.clock.running) this.send("pause", { auto: true });
    else if (!document.hidden && this.state.clock.paused) this.send("resume", { auto: true });
  }

  // ---------------------------------------------------------------- pointer
  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const actionNode = event.target.closest("[data-action]");
    if (actionNode && actionNode.tagName !== "SUMMARY") {
      this.command(actionNode.dataset.action, actionNode);
      return;
    }
    if (event.target.closest(".pw-panel, .pw-menu, .pw-offer, .pw-records, .pw-review")) return;
    const cardNode = event.target.closest(".pw-card[data-card]");
    const pileNode = event.target.closest("[data-pile]");
    if (pileNode && pileNode.dataset.pile === "stock") {
      this.activateStock();
    } else if (cardNode) {
      this.activateCard(cardNode.dataset.card, cardNode.dataset.status);
    } else {
      return;
    }
    this.setCursor(cardNode && !pileNode ? cardNode : pileNode || cardNode, false);
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

  // Drag one card onto another to pair them (mouse, pen and touch alike).
  onPointerDown(event) {
    if (!event.isPrimary || event.button !== 0) return;
    const node = event.target.closest('.pw-card[data-card][data-status="in_play"]');
    if (!node || !this.root.contains(node)) return;
    this.drag = { node, code: node.dataset.card, x: event.clientX, y: event.clientY, moved: false };
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved) {
      if (Math.hypot(dx, dy) < DRAG_START_PX) return;
      drag.moved = true;
      drag.node.classList.add("pw-dragging");
      drag.node.setPointerCapture?.(event.pointerId);
    }
    drag.node.style.translate = `${dx}px ${dy}px`;
  }

  onPointerUp(event) {
    const drag = this.drag;
    if (!drag) return;
    if (drag.moved) {
      this.suppressClick = true;
      window.setTimeout(() => (this.suppressClick = false), 0);
      const target = this.dropTarget(drag.node, event.clientX, event.clientY);
      if (target && target !== drag.code) {
        this.selected = null;
        this.send("pair", { cards: [drag.code, target] }, [drag.code, target]);
      }
    }
    this.endDrag();
  }

  dropTarget(dragged, x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      if (node === dragged || dragged.contains(node) || !this.root.contains(node)) continue;
      const card = node.closest(".pw-card[data-card]");
      if (card && card !== dragged) return card.dataset.card;
      const pile = node.closest('[data-pile="stock"]');
      if (pile) return this.state.stock.top;
    }
    return null;
  }

  endDrag() {
    if (!this.drag) return;
    this.drag.node.classList.remove("pw-dragging");
    this.drag.node.style.translate = "";
    this.drag = null;
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
    return null;
  }

  cardNode(code) {
    return this.root.querySelector(`.pw-card[data-card="${code}"]`);
  }

  // The cursor is the one element with tabindex 0 (a roving tab stop); the pyramid index it
  // was on is kept so that, when its card goes, the cursor moves to a neighbour.
  setCursor(node, focus = true) {
    if (!node) return;
    for (const other of this.root.querySelectorAll('.pw-table [tabindex="0"]')) {
      if (other !== node) other.setAttribute("tabindex", "-1");
    }
    node.setAttribute("tabindex", "0");
    this.cursorIndex = node.dataset.index === undefined ? null : Number(node.dataset.index);
    if (focus) node.focus({ preventScroll: false });
  }

  restoreFocus(hadFocus, key) {
    const targets = this.targets();
    let cursor = this.table.querySelector('[tabindex="0"]');
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
      const start = this.table.querySelector('[tabindex="0"]');
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

  escape() {
    const state = this.state;
    const notice = state && this.currentNotice(state);
    if (this.menu.open) {
      this.menu.open = false;
    } else if (state && state.hint) {
      this.send("dismiss");
    } else if (notice && notice.kind !== "paused" && !this.closed.has(notice.key)) {
      this.command("look");
    } else {
      this.selected = null;
      this.say("");
      if (state) this.paintHighlights();
    }
  }

  onKey(event) {
    // Nothing typed inside the widget may reach JupyterLab's shortcuts (d d deletes a cell).
    event.stopPropagation();
    const target = event.target;
    if (target.closest("input, textarea, select")) {
      if (event.key === "Enter" && target.dataset.field === "number") this.command("deal-number");
      if (event.key === "Enter" && target.dataset.field === "code") this.command("open-code");
      return;
    }
    const key = event.key;
    const ctrl = event.ctrlKey || event.metaKey;
    const onControl = ["BUTTON", "SUMMARY"].includes(target.tagName);
    let consumed = true;
    if (key.startsWith("Arrow")) {
      this.moveCursor(key.slice(5).toLowerCase());
    } else if ((key === "Enter" || key === " ") && !onControl) {
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
    } else if (key === "Escape") {
      this.escape();
    } else {
      const action = {
        d: "draw",
        r: "recycle",
        u: "undo",
        n: "new",
        h: "hint",
        p: "pause",
        f: "fullscreen",
      }[key.toLowerCase()];
      if (action) this.command(action);
      else consumed = false;
    }
    if (consumed) event.preventDefault();
  }
}

function render({ model, el: host }) {
  const view = new PyramidView(model, host);
  return () => view.destroy();
}

export default { render };
