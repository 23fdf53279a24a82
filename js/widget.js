// @ts-check
// Pyramid Solitaire front end: one anywidget ES module, no bundler, no dependencies.
//
// Python's None reaches some front ends as null and others as undefined (JupyterLite's
// Pyodide kernel), so absent values are always tested loosely (`== null`), never strictly.
//
// Every view draws the model's `state` trait and nothing else, so all views of one widget show
// the same board; only the selection, the keyboard cursor, the message line, which notices
// were closed and whether the Records panel is open are per view. Every move goes to Python as
// an intent message; Python answers each with an ack carrying the engine's verdict. The front
// end never decides legality or what a tap means: it selects on its own only a card Python
// listed in `state.selectable`, sends every other tap, and highlights partners from the legal
// moves Python sent. The Game menu's choices come from the `catalog` trait.
//
// The file is cut along its seams, one headed section each:
//   Types          JSDoc types of the traits, the intents and the acks (they mirror
//                  pyramid_widget/view.py and pyramid_widget/intents.py)
//   Cards, words   card names, move notation, times
//   DOM helpers    element building, no state
//   Render: board  pure functions: state in, DOM patches out (pyramid, stock, waste, highlights)
//   Render: panels pure functions for the status line, the controls, the hint line, the menu,
//                  the notices, the Continue offer, the records, the review, the puzzle and
//                  the watch (a strategy playing on the board)
//   Sync and ack   sends intents with seq/view/version, matches acks, reports refusals
//   Input          one controller: pointer, keyboard and commands become local UI changes
//                  (cursor, selection, menus) or intents
//   View           the glue: builds the skeleton, listens to the model, calls the renderers

// =============================================================================== Types

/** @typedef {string} CardCode A card as the engine writes it: "5h", "Tc", "Ks". */
/** @typedef {string} MoveText A move's notation: "Kc", "5h+8c", "draw", "recycle". */

/**
 * The rules of a game (view.py `_rules_summary`: `Rules.to_dict()` plus its name).
 * @typedef {object} RulesView
 * @property {string} name e.g. "classic" or "classic,passes=1"
 * @property {boolean} stock_in_play
 * @property {number | null} passes null: unlimited
 * @property {"pyramid" | "deck"} win
 * @property {boolean} scoring
 * @property {boolean} king_from_stock
 * @property {string} passes_choice the value of the catalog's pass choice: "1" ... "unlimited"
 */

/**
 * The game's own rules (view.py `rules_view`): the settings and how to play under them, in
 * sections for the Rules panel (the rules' own, then the controls).
 * @typedef {RulesView & {explained: {title: string, text: string}[]}} GameRulesView
 */

/**
 * One pyramid slot, apex first (view.py `pyramid_statuses`).
 * @typedef {object} SlotView
 * @property {CardCode} card
 * @property {"in_play" | "covered" | "removed"} status
 * @property {string | null} label the card and where it lies, as a screen reader says it
 */

/**
 * @typedef {object} StatusView
 * @property {number} cleared
 * @property {number} moves
 * @property {number} pass
 * @property {number | null} passes
 * @property {number | null} passes_left
 * @property {number | null} score null when the rules do not score
 * @property {boolean} can_undo
 * @property {boolean} can_redo
 * @property {string | null} recycle_refusal why the empty stock cannot be recycled, if so
 * @property {"won" | "stuck" | null} outcome
 * @property {boolean} dead_end
 * @property {string[]} items the status line, item by item (the clock is the view's own)
 */

/**
 * A finished hint (view.py `hint_view`).
 * @typedef {object} HintDone
 * @property {"done"} status
 * @property {MoveText | null} move
 * @property {"pair" | "king" | "draw" | "recycle" | "none"} kind
 * @property {"winnable" | "unwinnable" | "unknown"} verdict
 * @property {string} reason the hint line: the move, one reason, how it stands
 * @property {string} detail what lies behind it, for a player who opens it ("" for none)
 * @property {number | null} chance
 * @property {boolean} looks_lost every sampled order lost (the reason says so)
 */

/** A background job that failed (a hint or a review); `reason` is for the player. */
/** @typedef {{status: "failed", reason: string}} JobFailed */
/** @typedef {HintDone | {status: "checking"} | JobFailed} HintView */

/**
 * The Continue offer (view.py `offer_view`): how far the saved game got, never its cards.
 * @typedef {object} OfferView
 * @property {string} rules
 * @property {number} moves
 * @property {number} cleared
 * @property {number} elapsed
 * @property {string} text the sentence to show (it says what playing another deal counts as)
 */

/**
 * One rules preset's records (view.py `records_view`: `Records.to_dict()` plus `saving`).
 * @typedef {object} RecordsView
 * @property {string} rules
 * @property {number} games
 * @property {number} wins
 * @property {number} losses
 * @property {number} current_streak
 * @property {number} best_streak
 * @property {number | null} fastest_win seconds
 * @property {number | null} fewest_moves
 * @property {number | null} best_score
 * @property {number | null} win_rate 0..1
 * @property {boolean} saving false with store=None or a read-only database
 * @property {string} title the panel's heading
 * @property {{key: string, label: string, value: string}[]} items each record in words
 * @property {string[]} notes sentences saying what counts, which games the losses were, and
 *   whether saving is off
 */

/** @typedef {"winnable" | "unwinnable" | "unknown" | "won"} ReviewVerdict */

/**
 * One move of a reviewed game (view.py `review_view`).
 * @typedef {object} ReviewRow
 * @property {number} number
 * @property {MoveText} move
 * @property {string} move_text the move in card symbols
 * @property {ReviewVerdict} before
 * @property {ReviewVerdict} after
 * @property {MoveText | null} hint
 * @property {string | null} hint_text
 * @property {string | null} hint_reason
 * @property {boolean} followed
 * @property {boolean} decisive
 * @property {MoveText | null} keeps_win
 * @property {string | null} keeps_win_text
 * @property {string | null} note the decisive row's note
 * @property {string} step_label the row's button, which shows the board before the move
 */

/**
 * @typedef {object} ReviewDone
 * @property {"done"} status
 * @property {string} summary
 * @property {"won" | "stuck" | null} outcome
 * @property {number | null} mistake
 * @property {MoveText | null} better
 * @property {string | null} better_text
 * @property {boolean} hints false: the review has no hint column at all
 * @property {string[]} columns the headings: number, move, before, after, hint, note
 * @property {ReviewRow[]} rows
 * @property {number} end the move count the game ended at
 */

/** @typedef {ReviewDone | {status: "reviewing"} | JobFailed} ReviewView */

/**
 * Display choices that are not rules (view.py `ViewOptions`).
 * @typedef {object} OptionsView
 * @property {boolean} highlight_partners
 * @property {boolean} auto_pair
 * @property {boolean} fair_hints
 * @property {boolean} dead_end_notice
 * @property {boolean} winnable_only
 * @property {number} waste_fan
 */

/**
 * The session's puzzle score (puzzle_mode.py `Score`): puzzles tried (moved in, or the answer
 * shown), solved (the answer found, not shown), solved with no wrong try.
 * @typedef {{tried: number, solved: number, first_try: number}} PuzzleScore
 */

/**
 * The puzzle on the board (puzzle_mode.py `PuzzleRun.view`, over puzzles `Puzzle.about`):
 * where it stands, never its answer, nor its code or deal while a card is unseen.
 * @typedef {object} PuzzleView
 * @property {string} id the puzzle's stable id (`w.puzzle(id)` opens it again)
 * @property {string} rules
 * @property {number} move moves played on its deal before the position
 * @property {string} task what to find
 * @property {string[]} themes ids of the catalog's puzzle themes
 * @property {string[]} theme_titles the same themes in words
 * @property {string} difficulty one of the catalog's difficulties
 * @property {number} rating
 * @property {number} unseen cards the player has not seen
 * @property {number} [deal] the deal it came from, only once every card is seen
 * @property {number} number its place in the set stepped through, from 1
 * @property {number} count how many puzzles that set holds
 * @property {"find" | "play" | "won"} phase find the answer; play on to the win (optional); won
 * @property {string} prompt what the board asks for now
 * @property {string | null} said the last verdict: why a move was refused, that it was right,
 *   the answer shown, or what the puzzle counted as once won
 * @property {"refused" | "right" | "shown" | "won" | null} said_kind which of those `said` is
 * @property {boolean} solved its answer was found (not shown): it counts as solved
 * @property {boolean} shown its answer was shown
 * @property {PuzzleScore} score
 * @property {string} tally the score in words
 */

/**
 * A strategy playing on the board (watch_mode.py `WatchMode.view`): its next move is marked
 * as a hint is, then played at the next beat, unless the watch is paused, over, or the
 * player's own ("yours": the player took over).
 * @typedef {object} WatchView
 * @property {string} player the strategy's name
 * @property {"playing" | "paused" | "over" | "yours"} phase
 * @property {MoveText | null} move the move chosen and marked (a legal move now)
 * @property {"pair" | "king" | "draw" | "recycle" | null} kind
 * @property {string} said what the board says of it, in Python's words
 * @property {number} played moves the strategy has played
 * @property {number} speed moves a second
 */

/**
 * What just changed the board (view.py `MoveEvent`).
 * @typedef {object} EventView
 * @property {"play" | "undo" | "redo" | "new" | "restart" | "continue" | "step" | "refresh"
 *   | "start" | "puzzle" | "watch"} action
 * @property {MoveText | null} move
 */

/**
 * What a control can do now (view.py): a control that cannot is greyed, and `why` says why.
 * @typedef {{enabled: boolean, why: string | null}} ControlView
 * @typedef {"hint" | "undo" | "redo" | "recycle" | "pause" | "review" | "restart"} ControlName
 */

/**
 * The `state` trait (view.py `build_state`).
 * @typedef {object} State
 * @property {number} schema
 * @property {number} version
 * @property {number} position_version
 * @property {{code: string | null, number: number | null, proven: boolean | null}} deal
 * @property {GameRulesView} rules
 * @property {SlotView[]} pyramid
 * @property {{count: number, top: CardCode | null, label: string}} stock top: null when face
 *   down or empty; label: the pile as a screen reader says it
 * @property {{count: number, top: CardCode | null, fan: CardCode[], label: string,
 *   top_label: string | null}} waste label: the pile; top_label: its top card
 * @property {CardCode[]} playable
 * @property {CardCode[]} selectable the cards a tap only selects, when nothing is selected (a
 *   card in play that needs a partner); empty with auto-pair on
 * @property {MoveText[]} legal
 * @property {StatusView} status
 * @property {{elapsed: number, running: boolean, paused: boolean}} clock
 * @property {HintView | null} hint
 * @property {RulesView} next_rules
 * @property {boolean} finding_deal
 * @property {OfferView | null} offer
 * @property {RecordsView | null} records
 * @property {ReviewView | null} review
 * @property {EventView} event
 * @property {{text: string, lasting: boolean} | null} narration what the board says of the
 *   change: shown under the table until the position changes (`lasting`), or only spoken
 * @property {OptionsView} options
 * @property {Record<ControlName, ControlView>} controls
 * @property {NoticeView | null} notice the notice over the table (view.py `notice_view`)
 * @property {{restart: boolean, deal: boolean}} at_stake a restart, or another deal or saved
 *   game, would record the game in play as lost: the view asks first
 * @property {PuzzleView | null} puzzle the puzzle on the board, or null out of puzzle mode
 * @property {WatchView | null} watch the strategy playing on the board, or null
 */

/**
 * @typedef {object} NoticeView
 * @property {"paused" | "won" | "puzzle_solved" | "lost" | "unwinnable" | "stuck" | "dead_end"} kind
 * @property {string} title
 * @property {string[]} lines
 * @property {string} spoken the title and the lines as a screen reader says them
 */

/**
 * The `catalog` trait: the choices the Game menu offers, set once by Python (the front end
 * keeps no copy of presets, pass choices or option labels).
 * @typedef {object} Catalog
 * @property {{name: string, label: string, summary: string}[]} presets
 * @property {{value: string, label: string}[]} passes
 * @property {{name: keyof OptionsView, label: string, help: string}[]} options
 * @property {Record<ReviewVerdict, string>} verdicts the one vocabulary of verdicts
 * @property {Record<ReviewVerdict, string>} verdict_titles the same words as a title
 * @property {PuzzleCatalog} puzzles the puzzles' themes and difficulties, for the filters
 * @property {{question: string, yes: string, no: string}} give_up the give-up question
 * @property {Record<string, string[]>} actions intents.py's actions and the fields of each
 * @property {BoardWords} words the board's fixed words (words.py `BOARD_WORDS`)
 */

/**
 * @typedef {object} BoardWords
 * @property {string} time the clock's label
 * @property {string} checking a hint is being worked out
 * @property {string} finding a winnable deal is being searched for
 * @property {string} reviewing a review is being made
 * @property {string} detail the hint detail's disclosure
 * @property {string} number_first the deal number box is empty or holds no whole number
 * @property {string} code_first the code box is empty
 * @property {string} no_full_screen
 * @property {string} copied the deal code went to the clipboard
 * @property {string} copy_this before a code the clipboard would not take
 * @property {string} puzzle_closed
 * @property {string} watch_stopped
 */

/**
 * The puzzles' themes and difficulties, and each preset's Puzzles menu (view.py `catalog`,
 * `puzzle_menu`): only the themes, and under each the difficulties, that hold puzzles, each
 * labelled with its count ("" is "any").
 * @typedef {object} PuzzleCatalog
 * @property {{id: string, title: string, meaning: string}[]} themes
 * @property {{id: string, label: string}[]} difficulties easiest first
 * @property {Record<string, PuzzleMenuTheme[]>} menus by preset name
 * @property {string} none what the menu says under rules with no puzzles
 */

/** One theme of a Puzzles menu and its difficulties.
 * @typedef {{id: string, label: string, difficulties: {id: string, label: string}[]}} PuzzleMenuTheme
 */

/**
 * What a view asks Python for: intents.py's `ACTIONS` table, written out by its
 * `request_typedef()` (tests/test_design.py fails when the two differ). `Intent` adds the
 * envelope. A tap is every click or Enter on a card or a pile that is not a local selection:
 * Python decides what it means (draw, recycle, a King, a pair with the selected card, auto-pair).
 * @typedef {{action: "tap", target: CardCode | "stock" | "waste", selected?: CardCode, face?: CardCode | "back" | "empty"}
 *   | {action: "pair", cards: [CardCode, CardCode]}
 *   | {action: "draw"}
 *   | {action: "recycle"}
 *   | {action: "undo"}
 *   | {action: "redo"}
 *   | {action: "restart", give_up?: boolean}
 *   | {action: "new", number?: number, daily?: boolean, code?: string, give_up?: boolean}
 *   | {action: "hint"}
 *   | {action: "dismiss"}
 *   | {action: "pause", auto?: boolean}
 *   | {action: "unpause", auto?: boolean}
 *   | {action: "option", name: string, value: boolean}
 *   | {action: "rules", name: string}
 *   | {action: "share"}
 *   | {action: "continue", give_up?: boolean}
 *   | {action: "review"}
 *   | {action: "review_step", moves: number}
 *   | {action: "review_close"}
 *   | {action: "puzzle", id?: string, theme?: string, difficulty?: string, rules?: string, step?: 1 | -1}
 *   | {action: "puzzle_answer"}
 *   | {action: "puzzle_close"}
 *   | {action: "watch_pause"}
 *   | {action: "watch_resume"}
 *   | {action: "watch_step"}
 *   | {action: "watch_take_over"}
 *   | {action: "watch_stop"}
 * } Request
 */
/** @typedef {Extract<Request, {action: "puzzle"}>} PuzzleRequest */
/** @typedef {Request & {type: "intent", seq: number, view: string, version: number}} Intent */

/**
 * Python's answer to one intent (intents.py `ack`).
 * @typedef {object} Ack
 * @property {"ack"} type
 * @property {number | null} seq
 * @property {string | null} view
 * @property {boolean} ok
 * @property {string | null} reason why not, as code reads it
 * @property {string | null} said the same as a sentence, as the board shows it
 * @property {MoveText | null} move
 * @property {string} [code] for "share": the deal's code
 * @property {CardCode} [select] for a tap that only selects: the card to select
 */

/**
 * The traits this front end reads.
 * @typedef {object} Traits
 * @property {State | null} state
 * @property {Catalog | null | undefined} catalog
 * @property {MoveText[]} moves
 * @property {number} drawn the state version a view last drew (a notice for the host)
 */

/**
 * The part of anywidget's model this module uses (no dependency on anywidget's own types).
 * @typedef {object} Model
 * @property {<K extends keyof Traits>(name: K) => Traits[K]} get
 * @property {(event: string, callback: (content: unknown) => void) => void} on
 * @property {(event: string, callback: (content: unknown) => void) => void} off
 * @property {(content: Intent) => void} send
 * @property {(name: "drawn", value: number) => void} set
 * @property {() => void} save_changes
 */

// =============================================================================== Cards, words

/** @type {Record<string, {symbol: string, red: boolean}>} */
const SUITS = {
  c: { symbol: "\u2663", red: false },
  d: { symbol: "\u2666", red: true },
  h: { symbol: "\u2665", red: true },
  s: { symbol: "\u2660", red: false },
};
const REMOVE_MS = 180;
const DRAG_START_PX = 8;

/** A card as the board draws it: "10♠" for "Ts". @param {CardCode} code */
function cardSymbol(code) {
  return `${code[0] === "T" ? "10" : code[0]}${SUITS[code[1]].symbol}`;
}

/** The cards a move names (none for a draw or a recycle). @param {MoveText | null} move */
function moveCards(move) {
  if (!move || move === "draw" || move === "recycle") return [];
  return move.split("+");
}

/** A pyramid index's row and column, apex (0) first. @param {number} index */
function rowCol(index) {
  let row = 0;
  while (((row + 1) * (row + 2)) / 2 <= index) row += 1;
  return [row, index - (row * (row + 1)) / 2];
}

/** "1:05" or "1:02:03". @param {number} seconds */
function formatTime(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// =============================================================================== DOM helpers

/**
 * A new element with a class, attributes and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className = "", attrs = {}, text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

/** A button that carries a command in its data-action.
 * @param {string} action @param {string} label */
function actionButton(action, label, className = "pw-button") {
  return el("button", className, { type: "button", "data-action": action }, label);
}

/**
 * Give a button two labels in one grid cell, `shown` and (hidden) `other`, so that it is as
 * wide as the longer of them and a change of label (Pause / Resume) moves nothing.
 * @param {HTMLElement} button @param {string} shown @param {string} other
 */
function setLabels(button, shown, other) {
  const labels = button.firstElementChild;
  if (labels instanceof HTMLElement && labels.dataset.shown === shown) return;
  const box = el("span", "pw-labels", { "data-shown": shown });
  box.append(el("span", "", {}, shown), el("span", "", { "aria-hidden": "true" }, other));
  button.replaceChildren(box);
}

/** The nearest HTML element at or above `target` matching `selector`.
 * @param {EventTarget | Element | null} target @param {string} selector
 * @returns {HTMLElement | null} */
function closest(target, selector) {
  if (!(target instanceof Element)) return null;
  const found = target.closest(selector);
  return found instanceof HTMLElement ? found : null;
}

/** @param {EventTarget | Element | null} node @returns {HTMLElement | null} */
function asHtml(node) {
  return node instanceof HTMLElement ? node : null;
}

/**
 * The element inside `root` that has the focus, or null. The focus is read from `root`'s own
 * document or shadow root: marimo draws the board in a shadow root, where
 * `document.activeElement` is only the shadow's host.
 * @param {HTMLElement} root @returns {HTMLElement | null}
 */
function focusedIn(root) {
  const scope = root.getRootNode();
  const active =
    scope instanceof ShadowRoot || scope instanceof Document ? scope.activeElement : null;
  return active instanceof HTMLElement && root.contains(active) ? active : null;
}

/** The box `node` lies in, crossing out of a shadow root to its host.
 * @param {Element} node @returns {Element | null} */
function parentBox(node) {
  if (node.parentElement) return node.parentElement;
  const scope = node.getRootNode();
  return scope instanceof ShadowRoot ? scope.host : null;
}

/** How far to scroll a view spanning `top`..`bottom` so that `box` is in it, its top first when
 * it is the taller. @param {DOMRect} box @param {number} top @param {number} bottom */
function scrollNeeded(box, top, bottom) {
  if (box.top < top) return box.top - top;
  if (box.bottom > bottom) return Math.min(box.bottom - bottom, box.top - top);
  return 0;
}

/**
 * Scroll just enough that `node` is in view: each box around it that scrolls for the reader
 * (overflow auto or scroll, as a notebook's scroller), then the page. The host's layout boxes,
 * which hide their overflow, keep their place (scrollIntoView would scroll them too).
 * @param {HTMLElement} node
 */
function reveal(node) {
  const page = document.scrollingElement;
  for (let box = parentBox(node); box && box !== page; box = parentBox(box)) {
    if (!/auto|scroll/.test(getComputedStyle(box).overflowY)) continue;
    if (box.scrollHeight <= box.clientHeight) continue;
    const top = box.getBoundingClientRect().top + box.clientTop;
    box.scrollTop += scrollNeeded(node.getBoundingClientRect(), top, top + box.clientHeight);
  }
  const shift = scrollNeeded(node.getBoundingClientRect(), 0, window.innerHeight);
  if (shift) window.scrollBy(0, shift);
}

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/**
 * Show `box` holding what `build` makes, rebuilt only when `key` changes; hide it for null.
 * @param {HTMLElement} box @param {string | null} key @param {() => Node[]} build
 * @returns {boolean} whether it was (re)built
 */
function patchRegion(box, key, build) {
  if (key == null) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.key;
    return false;
  }
  if (box.dataset.key === key && !box.hidden) return false;
  box.dataset.key = key;
  box.replaceChildren(...build());
  box.hidden = false;
  return true;
}

// =============================================================================== Render: board

/** Fill a card element with its face: corner index (rank and suit, which a fanned card
 * stacks) and a large centre suit. @param {HTMLElement} node @param {CardCode} code */
function paintFace(node, code) {
  const suit = SUITS[code[1]];
  node.classList.toggle("pw-red", suit.red);
  const corner = el("span", "pw-corner", { "aria-hidden": "true" });
  const symbol = cardSymbol(code);
  corner.append(el("span", "", {}, symbol.slice(0, -1)), el("span", "", {}, suit.symbol));
  const pip = el("span", "pw-pip", { "aria-hidden": "true" }, suit.symbol);
  node.replaceChildren(corner, pip);
  node.dataset.face = code;
}

/**
 * Patch the pyramid to `pyramid`. `slots` (index -> element, null once removed) is the view's
 * memory of the cards it drew, so a card keeps its element (and focus) from state to state.
 * @param {HTMLElement} container @param {(HTMLElement | null)[]} slots
 * @param {SlotView[]} pyramid @param {boolean} animate
 */
function patchPyramid(container, slots, pyramid, animate) {
  pyramid.forEach((slot, index) => {
    let node = slots[index];
    if (slot.status === "removed") {
      if (node) removeCard(node, animate);
      slots[index] = null;
      return;
    }
    if (!node) {
      const [row, col] = rowCol(index);
      node = el("div", "pw-card", { role: "button", tabindex: "-1" });
      node.style.setProperty("--pw-row", String(row));
      node.style.setProperty("--pw-col", String(col));
      node.dataset.index = String(index);
      if (animate) node.classList.add("pw-arriving");
      container.append(node);
      slots[index] = node;
    }
    if (node.dataset.face !== slot.card) paintFace(node, slot.card);
    node.dataset.card = slot.card;
    node.dataset.status = slot.status;
    node.setAttribute("aria-label", slot.label || "");
  });
}

/** The card leaves at once for tests and screen readers; only a ghost fades out.
 * @param {HTMLElement} node @param {boolean} animate */
function removeCard(node, animate) {
  if (focusedIn(node)) node.blur();
  for (const name of ["data-card", "data-status", "role", "tabindex"]) node.removeAttribute(name);
  node.setAttribute("aria-hidden", "true");
  node.className = "pw-card pw-leaving";
  if (!animate) {
    node.remove();
    return;
  }
  window.setTimeout(() => node.remove(), REMOVE_MS);
}

/** A pile's name, drawn under it. @param {string} name */
function pileLabel(name) {
  return el("span", "pw-pile-label", { "aria-hidden": "true" }, name);
}

/** The stock: face down, or (rules with its top in play) its top face up on the rest of the
 * stock, which shows as a card back under it; empty, the recycle sign or why not.
 * @param {HTMLElement} pile @param {State} state */
function patchStock(pile, state) {
  const { count, top } = state.stock;
  const recycle = state.controls.recycle;
  const refusal = count === 0 && !recycle.enabled ? recycle.why || "" : null;
  pile.replaceChildren();
  pile.classList.toggle("pw-empty", count === 0);
  pile.classList.toggle("pw-blocked", refusal != null);
  pile.classList.toggle("pw-open", Boolean(top));
  pile.removeAttribute("title");
  if (count === 0) {
    const sign = refusal != null ? "\u2715" : "\u21bb";
    pile.append(el("span", "pw-recycle", { "aria-hidden": "true" }, sign));
    if (refusal) pile.title = refusal;
  } else if (top) {
    if (count > 1) pile.append(el("div", "pw-card pw-back", { "aria-hidden": "true" }));
    const card = el("div", "pw-card pw-face", { "data-card": top, "data-status": "in_play" });
    paintFace(card, top);
    pile.append(card);
  } else {
    pile.append(el("div", "pw-card pw-back", { "aria-hidden": "true" }));
  }
  pile.append(el("span", "pw-count", { "aria-hidden": "true" }, String(count)), pileLabel("Stock"));
  pile.setAttribute("aria-label", state.stock.label);
}

/** @param {HTMLElement} pile @param {State} state */
function patchWaste(pile, state) {
  const { fan, count, label } = state.waste;
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
      card.setAttribute("aria-label", state.waste.top_label || "");
    } else {
      card.classList.add("pw-under");
      card.setAttribute("aria-hidden", "true");
    }
    pile.append(card);
  });
  pile.append(pileLabel("Waste"));
  pile.setAttribute("aria-label", label);
}

/**
 * Which cards to outline: the selected one, its partners (from the legal moves Python sent,
 * when highlighting is on) and the hint's cards, or those of the move a watched strategy
 * chose.
 * @param {State} state @param {CardCode | null} selected
 */
function highlights(state, selected) {
  /** @type {Set<CardCode>} */
  const partners = new Set();
  if (selected && state.options.highlight_partners) {
    for (const move of state.legal) {
      const [a, b] = moveCards(move);
      if (b === undefined) continue;
      if (a === selected) partners.add(b);
      if (b === selected) partners.add(a);
    }
  }
  const hint = state.hint && state.hint.status === "done" ? state.hint : state.watch;
  const hinted = new Set(hint ? moveCards(hint.move) : []);
  const stockHinted = Boolean(hint && (hint.kind === "draw" || hint.kind === "recycle"));
  return { selected, partners, hinted, stockHinted };
}

/** @param {HTMLElement} root @param {HTMLElement} stock @param {State} state
 * @param {CardCode | null} selected */
function patchHighlights(root, stock, state, selected) {
  const marks = highlights(state, selected);
  for (const node of root.querySelectorAll(".pw-card[data-card]")) {
    if (!(node instanceof HTMLElement)) continue;
    const code = node.dataset.card ?? "";
    node.classList.toggle("pw-selected", code === selected);
    node.classList.toggle("pw-partner", marks.partners.has(code));
    node.classList.toggle("pw-hinted", marks.hinted.has(code));
    if (node.getAttribute("role") === "button") {
      node.setAttribute("aria-pressed", String(code === selected));
    }
  }
  const top = state.stock.top;
  stock.classList.toggle("pw-partner", Boolean(top && marks.partners.has(top)));
  stock.classList.toggle("pw-hinted", marks.stockHinted);
}

// =============================================================================== Render: panels

/** The status line's items, Python's; the time is its own span, which the view's clock ticks
 * on. @param {State} state */
function statusItems(state) {
  const spans = state.status.items.map((text) => el("span", "pw-stat", {}, text));
  const time = el("span", "pw-stat pw-time");
  // Spaces between the items keep the status readable as text (flex layout ignores them).
  const nodes = [...spans, time].flatMap((span) => [span, document.createTextNode(" ")]);
  return { nodes: nodes.slice(0, -1), time };
}

/**
 * The toolbar buttons, keyed by their action.
 * @typedef {"undo" | "redo" | "hint" | "pause" | "new" | "restart" | "records"
 *   | "fullscreen"} ButtonName
 * @typedef {Record<ButtonName, HTMLButtonElement>} Buttons
 */

/** Which of Python's controls a button's data-action stands for.
 * @type {Record<string, ControlName>} */
const CONTROL_OF = {
  undo: "undo",
  redo: "redo",
  hint: "hint",
  pause: "pause",
  restart: "restart",
  review: "review",
};

/** The control behind an action, when Python says it cannot do anything now.
 * @param {State} state @param {string} action @returns {ControlView | null} */
function unavailable(state, action) {
  const name = CONTROL_OF[action];
  const control = name ? state.controls[name] : null;
  return control && !control.enabled ? control : null;
}

/**
 * Grey every button (toolbar, menu, notices) whose control cannot do anything now, with
 * Python's reason as its tooltip. Greyed, not disabled: it stays focusable, and pressed it
 * says why. The pause button keeps one width for both of its labels.
 * @param {HTMLElement} root @param {Buttons} buttons @param {State} state
 */
function patchControls(root, buttons, state) {
  for (const node of root.querySelectorAll("button[data-action]")) {
    if (!(node instanceof HTMLElement)) continue;
    const action = node.dataset.action || "";
    if (!(action in CONTROL_OF)) continue;
    const off = unavailable(state, action);
    node.setAttribute("aria-disabled", String(Boolean(off)));
    if (off && off.why) node.title = off.why;
    else node.removeAttribute("title");
  }
  const paused = state.clock.paused;
  setLabels(buttons.pause, paused ? "Resume" : "Pause", paused ? "Pause" : "Resume");
  buttons.pause.setAttribute("aria-pressed", String(paused));
}

/** The hint line: a search in progress, or the hint's own sentence.
 * @param {State} state @param {Catalog | null | undefined} catalog */
function hintText(state, catalog) {
  const hint = state.hint;
  if (state.finding_deal) return fixedWord(catalog, "finding");
  if (!hint) return "";
  if (hint.status === "checking") return fixedWord(catalog, "checking");
  return hint.reason;
}

/** The hint proved that the position cannot be won. @param {State} state */
function hintSaysUnwinnable(state) {
  return Boolean(state.hint && state.hint.status === "done" && state.hint.verdict === "unwinnable");
}

/** One of the board's fixed words, from Python's catalog ("" until the catalog arrives).
 * @param {Catalog | null | undefined} catalog @param {keyof BoardWords} key */
function fixedWord(catalog, key) {
  return catalog ? catalog.words[key] : "";
}

/** The verdict's words, from Python's catalog (the key itself until the catalog arrives).
 * @param {Catalog | null | undefined} catalog @param {ReviewVerdict} verdict */
function verdictWords(catalog, verdict) {
  return catalog ? catalog.verdicts[verdict] : verdict;
}

/**
 * The Game menu's inputs.
 * @typedef {object} MenuParts
 * @property {HTMLDetailsElement} menu
 * @property {HTMLElement} summary the menu's button
 * @property {HTMLInputElement} numberInput
 * @property {HTMLInputElement} codeInput
 * @property {HTMLInputElement} shareOutput
 * @property {HTMLSelectElement} presetSelect
 * @property {HTMLSelectElement} passesSelect
 * @property {HTMLFieldSetElement} optionsGroup
 * @property {HTMLParagraphElement} reviewWhy why the review opens later, under its item
 * @property {HTMLSelectElement} puzzleTheme the puzzle filter's theme ("" for any)
 * @property {HTMLSelectElement} puzzleDifficulty the puzzle filter's difficulty ("" for any)
 * @property {HTMLButtonElement} puzzleOpen opens the first puzzle of the filter
 */

/** The "Game" menu: this game (how to play it, its review), deals (number, daily, code,
 * share), puzzles (a theme, a difficulty), rules for the next deal, options. It opens over the
 * board (see widget.css). The catalog's choices are filled in by `patchCatalog`.
 * @returns {MenuParts} */
function menuParts() {
  const menu = el("details", "pw-menu");
  const summary = el("summary", "pw-button", { "data-action": "menu" }, "Game \u25be");
  menu.append(summary);
  const body = el("div", "pw-menu-body");

  const game = el("fieldset", "pw-group");
  game.append(el("legend", "", {}, "This game"));
  const reviewWhy = el("p", "pw-why", { "data-why": "review", hidden: "" });
  game.append(
    actionButton("rules-panel", "How to play (rules)"),
    actionButton("restart", "Restart this deal"),
    actionButton("review", "Review this game"),
    reviewWhy,
  );

  const deals = el("fieldset", "pw-group");
  deals.append(el("legend", "", {}, "Deals"));
  const numberInput = el("input", "pw-input", {
    type: "number",
    min: "0",
    step: "1",
    inputmode: "numeric",
    "aria-label": "Deal number",
    placeholder: "Deal number",
    "data-field": "number",
  });
  const numberRow = el("div", "pw-row");
  numberRow.append(numberInput, actionButton("deal-number", "Deal"));
  const codeInput = el("input", "pw-input", {
    type: "text",
    "aria-label": "Shared deal or position code",
    placeholder: "Paste a shared code",
    "data-field": "code",
  });
  const codeRow = el("div", "pw-row");
  codeRow.append(codeInput, actionButton("open-code", "Open"));
  const shareOutput = el("input", "pw-input", {
    type: "text",
    readonly: "",
    "aria-label": "This deal's code",
    placeholder: "Share gives this deal's code",
    "data-field": "share",
  });
  const shareRow = el("div", "pw-row");
  shareRow.append(actionButton("share", "Share"), shareOutput);
  deals.append(
    actionButton("new", "Random deal"),
    actionButton("daily", "Daily deal"),
    numberRow,
    codeRow,
    shareRow,
  );

  const puzzles = el("fieldset", "pw-group");
  puzzles.append(el("legend", "", {}, "Puzzles"));
  const puzzleTheme = el("select", "pw-input", {
    "aria-label": "Puzzle theme",
    "data-field": "puzzle-theme",
  });
  const puzzleDifficulty = el("select", "pw-input", {
    "aria-label": "Puzzle difficulty",
    "data-field": "puzzle-difficulty",
  });
  const filterRow = el("div", "pw-row pw-puzzle-filter");
  filterRow.append(puzzleTheme, puzzleDifficulty);
  const puzzleOpen = actionButton("puzzle-open", "Open a puzzle");
  puzzles.append(filterRow, puzzleOpen);

  const rules = el("fieldset", "pw-group");
  rules.append(el("legend", "", {}, "Rules (from the next deal)"));
  const presetSelect = el("select", "pw-input", {
    "aria-label": "Rules",
    "data-setting": "preset",
  });
  const passesSelect = el("select", "pw-input", {
    "aria-label": "Passes through the stock",
    "data-setting": "passes",
  });
  rules.append(presetSelect, passesSelect);

  const optionsGroup = el("fieldset", "pw-group");
  body.append(game, deals, puzzles, rules, optionsGroup);
  menu.append(body);
  return {
    menu, summary, numberInput, codeInput, shareOutput, presetSelect, passesSelect, optionsGroup,
    reviewWhy, puzzleTheme, puzzleDifficulty, puzzleOpen,
  };
}

/** Fill the menu's choices from the catalog. @param {MenuParts} parts @param {Catalog} catalog */
function patchCatalog(parts, catalog) {
  parts.presetSelect.replaceChildren(
    ...catalog.presets.map(({ name, label, summary }) => {
      const option = el("option", "", { value: name }, label);
      if (summary) option.title = summary;
      return option;
    }),
  );
  parts.passesSelect.replaceChildren(
    ...catalog.passes.map(({ value, label }) => el("option", "", { value }, label)),
  );
  const rows = catalog.options.map(({ name, label, help }) => {
    const row = el("label", "pw-check");
    if (help) row.title = help;
    row.append(el("input", "", { type: "checkbox", "data-option": name }), ` ${label}`);
    return row;
  });
  parts.optionsGroup.replaceChildren(el("legend", "", {}, "Options"), ...rows);
  delete parts.puzzleTheme.dataset.drawn;
}

/** The Puzzles group under the rules on the board (the catalog's menu of that preset): its
 * themes and, under the theme chosen, its difficulties, each with its count, so that only
 * choices holding puzzles are offered. Under rules with no puzzles it says so and Open is
 * greyed. Drawn again only when the rules or the theme chosen change.
 * @param {MenuParts} parts @param {Catalog} catalog @param {string} rules */
function patchPuzzleMenu(parts, catalog, rules) {
  const { puzzleTheme, puzzleDifficulty, puzzleOpen } = parts;
  if (puzzleTheme.dataset.drawn === `${rules}/${puzzleTheme.value}`) return;
  const menu = catalog.puzzles.menus[rules] ?? [];
  const meanings = new Map(catalog.puzzles.themes.map(({ id, meaning }) => [id, meaning]));
  const themes = menu.map(({ id, label }) => {
    const option = el("option", "", { value: id }, label);
    const meaning = meanings.get(id);
    if (meaning) option.title = meaning;
    return option;
  });
  const none = el("option", "", { value: "" }, catalog.puzzles.none);
  keepChoice(puzzleTheme, menu.length ? themes : [none]);
  const theme = menu.find(({ id }) => id === puzzleTheme.value) ?? menu[0];
  const levels = (theme ? theme.difficulties : []).map(({ id, label }) =>
    el("option", "", { value: id }, label),
  );
  keepChoice(puzzleDifficulty, levels);
  puzzleTheme.disabled = puzzleDifficulty.disabled = !menu.length;
  puzzleOpen.setAttribute("aria-disabled", String(!menu.length));
  if (menu.length) puzzleOpen.removeAttribute("title");
  else puzzleOpen.title = catalog.puzzles.none;
  puzzleTheme.dataset.drawn = `${rules}/${puzzleTheme.value}`;
}

/** Give a select new options, keeping the player's choice if it is still among them.
 * @param {HTMLSelectElement} select @param {HTMLOptionElement[]} options */
function keepChoice(select, options) {
  const chosen = select.value;
  select.replaceChildren(...options);
  if (options.some((option) => option.value === chosen)) select.value = chosen;
}

/** The menu shows the options in force, the rules of the next deal, and why the review
 * waits if it does. @param {MenuParts} parts @param {State} state */
function patchMenuValues(parts, state) {
  const review = unavailable(state, "review");
  parts.reviewWhy.textContent = review ? review.why || "" : "";
  parts.reviewWhy.hidden = !(review && review.why);
  for (const box of parts.optionsGroup.querySelectorAll("input[data-option]")) {
    if (!(box instanceof HTMLInputElement)) continue;
    const name = /** @type {keyof OptionsView} */ (box.dataset.option);
    box.checked = Boolean(state.options[name]);
  }
  const next = state.next_rules;
  const preset = next.name.split(",")[0];
  if ([...parts.presetSelect.options].some((option) => option.value === preset)) {
    parts.presetSelect.value = preset;
  }
  parts.passesSelect.value = next.passes_choice;
}

/**
 * What the message line says after a change of position, in Python's words: `say` is shown
 * and spoken (a won, stuck or dead-end game); otherwise the line is cleared and `announce`
 * only spoken (nothing when the view has just been drawn).
 * @param {State} state @param {State | null} previous @param {Catalog | null | undefined} catalog
 * @returns {{say: string} | {announce: string} | null}
 */
function narration(state, previous, catalog) {
  const said = state.narration;
  if (said && said.lasting) return { say: said.text };
  if (!previous) return null;
  const { action } = state.event;
  let text = said ? said.text : "";
  if (action === "refresh" && previous.puzzle && !state.puzzle) {
    text = fixedWord(catalog, "puzzle_closed");
  } else if (action === "refresh" && previous.watch && !state.watch) {
    text = fixedWord(catalog, "watch_stopped");
  }
  // A move the puzzle let through: its verdict ("Right: ...") follows the move's words.
  const verdict = state.puzzle ? state.puzzle.said : null;
  if (action === "play" && verdict && verdict !== previous.puzzle?.said) {
    text = `${text} ${verdict}`;
  }
  return { announce: text };
}

/** @typedef {NoticeView & {key: string}} Notice a notice, keyed by its position to close it */

/**
 * The notice over the table, if Python says there is one (view.py `notice_view`).
 * @param {State} state @returns {Notice | null} */
function currentNotice(state) {
  const notice = state.notice;
  return notice ? { ...notice, key: `${notice.kind}:${state.position_version}` } : null;
}

/** A notice's words (Python's) and buttons. @param {State} state @param {Notice} notice
 * @param {Catalog | null | undefined} catalog */
function noticeContent(state, notice, catalog) {
  const winnableOnly = catalog?.options.find((option) => option.name === "winnable_only");
  const exits = [
    actionButton("undo", "Undo"),
    actionButton("restart", "Replay this deal"),
    actionButton("new", "New deal"),
  ];
  const look = actionButton("look", "Look at the board");
  const review = actionButton("review", "Review");
  const { title, lines } = notice;
  /** @type {Record<NoticeView["kind"], HTMLButtonElement[]>} */
  const offered = {
    paused: [actionButton("unpause", "Resume")],
    puzzle_solved: [
      actionButton("puzzle-next", "Next puzzle", "pw-button pw-primary"),
      actionButton("puzzle-close", "Close the puzzle"),
      look,
    ],
    won: [actionButton("new", "New deal"), actionButton("restart", "Replay this deal"), review, look],
    lost: [
      actionButton("new", "New deal", "pw-button pw-primary"),
      ...(state.options.winnable_only || !winnableOnly
        ? []
        : [actionButton("winnable-only", winnableOnly.label)]),
      review,
      look,
    ],
    unwinnable: [...exits, look],
    stuck: [...exits, review, look],
    dead_end: [...exits, look],
  };
  const buttons = offered[notice.kind];
  const box = el("div", "pw-panel-box");
  box.append(el("h3", "pw-panel-title", {}, title));
  for (const line of lines) box.append(el("p", "pw-panel-line", {}, line));
  if (notice.kind === "won" && !state.puzzle && state.deal.code) {
    const row = el("div", "pw-row");
    const code = el("input", "pw-input pw-deal-code", {
      type: "text",
      readonly: "",
      "aria-label": "Deal code",
      "data-field": "deal-code",
    });
    code.value = state.deal.code;
    row.append(code, actionButton("copy", "Copy"));
    box.append(row);
  }
  const row = el("div", "pw-row pw-panel-actions");
  row.append(...buttons);
  box.append(row);
  return { title, lines, box };
}

/** The Continue offer: Python's sentence and its two answers. @param {OfferView} offer
 * @returns {Node[]} */
function offerContent(offer) {
  return [
    el("span", "pw-offer-text", {}, offer.text),
    actionButton("continue", "Continue", "pw-button pw-primary"),
    actionButton("offer-close", "Not now"),
  ];
}

/** The Records panel: the current rules' records, in Python's words.
 * @param {RecordsView} records @returns {Node[]} */
function recordsContent(records) {
  const list = el("dl", "pw-records-list");
  for (const { key, label, value } of records.items) {
    const item = el("div", "pw-record", { "data-record": key });
    item.append(el("dt", "", {}, label), el("dd", "", {}, value));
    list.append(item);
  }
  /** @type {Node[]} */
  const parts = [el("h3", "pw-section-title", {}, records.title), list];
  for (const note of records.notes) parts.push(el("p", "pw-note", {}, note));
  parts.push(actionButton("records", "Close"));
  return parts;
}

/** The Rules panel: how to play under the game's rules, in Python's sections.
 * @param {GameRulesView} rules @returns {Node[]} */
function rulesContent(rules) {
  /** @type {Node[]} */
  const parts = [el("h3", "pw-section-title", {}, "How to play")];
  for (const { title, text } of rules.explained) {
    parts.push(el("h4", "pw-rules-title", {}, title), el("p", "pw-rules-text", {}, text));
  }
  parts.push(actionButton("rules-panel", "Close"));
  return parts;
}

/** The game review: a table of the moves in card symbols, with Python's verdict words; the
 * hint column only when the review has hints, the note column only when a move has a note.
 * A row's button steps the board to the position before that move.
 * @param {ReviewView} review @param {Catalog | null | undefined} catalog @returns {Node[]} */
function reviewContent(review, catalog) {
  const title = el("h3", "pw-section-title", {}, "Review");
  const close = actionButton("review-close", "Close");
  if (review.status === "reviewing") {
    const reviewing = fixedWord(catalog, "reviewing");
    return [title, el("p", "pw-note", { role: "status" }, reviewing), close];
  }
  if (review.status !== "done") {
    return [title, el("p", "pw-note pw-error", { role: "status" }, review.reason), close];
  }
  const notes = review.rows.some((row) => row.note);
  const [number, move, before, after, hinted, noted] = review.columns;
  const columns = [number, move, before, after];
  if (review.hints) columns.push(hinted);
  if (notes) columns.push(noted);
  const table = el("table", "pw-review-table");
  const head = el("tr");
  for (const name of columns) head.append(el("th", "", { scope: "col" }, name));
  const thead = el("thead");
  const tbody = el("tbody");
  thead.append(head);
  table.append(thead, tbody);
  /** @param {string} text */
  const cell = (text, className = "") => el("td", className, {}, text);
  /** @param {ReviewVerdict} verdict */
  const verdict = (verdict) => cell(verdictWords(catalog, verdict), `pw-verdict pw-${verdict}`);
  for (const row of review.rows) {
    const moves = String(row.number - 1);
    const tr = el("tr", "pw-review-row", {
      "data-action": "step",
      "data-moves": moves,
      "data-number": String(row.number),
    });
    if (row.decisive) tr.classList.add("pw-decisive");
    const step = el(
      "button",
      "pw-step",
      {
        type: "button",
        "data-action": "step",
        "data-moves": moves,
        "aria-label": row.step_label,
      },
      String(row.number),
    );
    const first = el("td");
    first.append(step);
    tr.append(first, cell(row.move_text, "pw-move"), verdict(row.before), verdict(row.after));
    if (review.hints) {
      const text = row.hint_text ? `${row.hint_text}${row.followed ? " \u2713" : ""}` : "";
      const hint = cell(text, "pw-hint-cell");
      if (row.hint_reason) hint.title = row.hint_reason;
      tr.append(hint);
    }
    if (notes) tr.append(cell(row.note ? `\u25c0 ${row.note}` : "", "pw-review-note"));
    tbody.append(tr);
  }
  const scroller = el("div", "pw-review-scroll");
  scroller.append(table);
  const end = el(
    "button",
    "pw-button",
    { type: "button", "data-action": "step-end", "data-moves": String(review.end) },
    "Back to the end",
  );
  const actions = el("div", "pw-row");
  actions.append(end, close);
  return [title, el("p", "pw-review-summary", {}, review.summary), scroller, actions];
}

/** Mark the review row of the move the board is about to play (none at the end of the game).
 * @param {HTMLElement} box @param {number} played @returns {HTMLElement | null} that row */
function patchReviewCurrent(box, played) {
  let found = null;
  for (const row of box.querySelectorAll("tr[data-moves]")) {
    if (!(row instanceof HTMLElement)) continue;
    const current = Number(row.dataset.moves) === played;
    row.classList.toggle("pw-current", current);
    if (current) {
      row.setAttribute("aria-current", "step");
      found = row;
    } else {
      row.removeAttribute("aria-current");
    }
  }
  return found;
}

/** Scroll the review's own scroller (never the notebook) so that `row` shows whole in it,
 * under the sticky header and above a scroll bar; a row out of view comes to the middle, with
 * the moves before and after it around it. @param {HTMLElement} row */
function keepInView(row) {
  const scroller = row.closest(".pw-review-scroll");
  if (!scroller) return;
  const head = scroller.querySelector("thead");
  const inner = scroller.getBoundingClientRect().top + scroller.clientTop;
  const top = inner + (head ? head.getBoundingClientRect().height : 0);
  const bottom = inner + scroller.clientHeight;
  const box = row.getBoundingClientRect();
  if (box.top >= top - 0.5 && box.bottom <= bottom + 0.5) return;
  scroller.scrollTop += box.top + box.height / 2 - (top + bottom) / 2;
}

/**
 * The puzzle panel's elements, built once (a button keeps its focus from puzzle to puzzle).
 * @typedef {object} PuzzleParts
 * @property {HTMLElement} box
 * @property {HTMLElement} title "Puzzle n of count"
 * @property {HTMLElement} level the difficulty
 * @property {HTMLElement} score
 * @property {HTMLElement} themes
 * @property {HTMLElement} prompt what the board asks for now
 * @property {HTMLElement} said the last verdict
 * @property {HTMLButtonElement} answer "Show the answer", while the answer is to be found
 */

/** The puzzle panel, above the table, never over a card. Each of its lines keeps one height
 * whatever it says (the heading and the themes on one line each, the prompt and the verdict
 * in a box of a fixed height, the buttons' labels fixed), so it never moves the board.
 * @returns {PuzzleParts} */
function puzzleParts() {
  const box = el("section", "pw-puzzle", { "aria-label": "Puzzle", hidden: "" });
  const head = el("div", "pw-puzzle-head");
  const title = el("h3", "pw-puzzle-title");
  const level = el("span", "pw-puzzle-level");
  const score = el("span", "pw-puzzle-score");
  head.append(title, level, score);
  const themes = el("p", "pw-puzzle-themes");
  const talk = el("div", "pw-puzzle-talk");
  const prompt = el("p", "pw-puzzle-prompt");
  const said = el("p", "pw-puzzle-said");
  talk.append(prompt, said);
  const actions = el("div", "pw-row pw-puzzle-actions");
  const answer = actionButton("puzzle-answer", "Show the answer");
  actions.append(
    answer,
    actionButton("puzzle-previous", "Previous"),
    actionButton("puzzle-next", "Next"),
    actionButton("puzzle-close", "Close the puzzle"),
  );
  box.append(head, themes, talk, actions);
  return { box, title, level, score, themes, prompt, said, answer };
}

/** Show the puzzle on the board, or hide the panel out of puzzle mode. The words are
 * Python's: the prompt, the verdict, the theme titles and the difficulty come in the state,
 * the themes' meanings (a tooltip) in the catalog.
 * @param {PuzzleParts} parts @param {PuzzleView | null} puzzle
 * @param {Catalog | null | undefined} catalog */
function patchPuzzle(parts, puzzle, catalog) {
  parts.box.hidden = puzzle == null;
  if (puzzle == null) return;
  parts.box.dataset.phase = puzzle.phase;
  parts.box.dataset.puzzle = puzzle.id;
  parts.title.textContent = `Puzzle ${puzzle.number} of ${puzzle.count}`;
  const found = puzzle.deal == null ? "" : `, from deal ${puzzle.deal} after ${puzzle.move} moves`;
  parts.title.title = `Puzzle ${puzzle.id}${found}`;
  parts.level.textContent = `Difficulty: ${puzzle.difficulty}`;
  parts.score.textContent = puzzle.tally;
  const titles = puzzle.theme_titles;
  const themes = `${titles.length === 1 ? "Theme" : "Themes"}: ${titles.join("; ")}`;
  parts.themes.textContent = themes;
  const known = catalog ? catalog.puzzles.themes : [];
  const meanings = puzzle.themes.map((id) => known.find((theme) => theme.id === id));
  parts.themes.title = meanings.some(Boolean)
    ? meanings.map((theme) => (theme ? `${theme.title}: ${theme.meaning}` : "")).join("\n")
    : themes;
  parts.prompt.textContent = puzzle.prompt;
  parts.said.textContent = puzzle.said ?? "";
  parts.said.dataset.kind = puzzle.said_kind ?? "";
  // Kept in its place (hidden, not removed) so that the buttons after it never move.
  parts.answer.style.visibility = puzzle.phase === "find" ? "" : "hidden";
}

/**
 * The watch panel's elements, built once (a button keeps its focus from move to move).
 * @typedef {object} WatchParts
 * @property {HTMLElement} box
 * @property {HTMLElement} title "Watching greedy"
 * @property {HTMLElement} said what Python says of the game
 * @property {Record<string, HTMLElement>} buttons by their action
 */

/** The watch panel, above the table like the puzzle's: a strategy's name, what it does, and
 * the buttons that pause, step, take over and stop it. @returns {WatchParts} */
function watchParts() {
  const box = el("section", "pw-watch", { "aria-label": "Watching a strategy", hidden: "" });
  const title = el("h3", "pw-watch-title");
  const said = el("p", "pw-watch-said", { "aria-live": "off" });
  const actions = el("div", "pw-row pw-watch-actions");
  /** @type {Record<string, HTMLElement>} */
  const buttons = {
    watch_pause: actionButton("watch_pause", "Pause"),
    watch_resume: actionButton("watch_resume", "Resume"),
    watch_step: actionButton("watch_step", "Step"),
    watch_take_over: actionButton("watch_take_over", "Take over"),
    watch_stop: actionButton("watch_stop", "Stop watching"),
  };
  actions.append(...Object.values(buttons));
  box.append(title, said, actions);
  return { box, title, said, buttons };
}

/** Which of the watch's buttons a phase offers. @type {Record<WatchView["phase"], string[]>} */
const WATCH_BUTTONS = {
  playing: ["watch_pause", "watch_step", "watch_take_over", "watch_stop"],
  paused: ["watch_resume", "watch_step", "watch_take_over", "watch_stop"],
  over: ["watch_take_over", "watch_stop"],
  yours: ["watch_stop"],
};

/** Show the watch, or hide the panel when no strategy plays on the board.
 * @param {WatchParts} parts @param {WatchView | null} watch */
function patchWatch(parts, watch) {
  parts.box.hidden = watch == null;
  if (watch == null) return;
  parts.box.dataset.phase = watch.phase;
  parts.title.textContent = `Watching ${watch.player}`;
  parts.said.textContent = watch.said;
  const offered = WATCH_BUTTONS[watch.phase];
  for (const [action, button] of Object.entries(parts.buttons)) {
    button.hidden = !offered.includes(action);
  }
  parts.buttons.watch_stop.textContent = watch.phase === "yours" ? "Back to my game" : "Stop watching";
}

// =============================================================================== Sync and ack

/**
 * What the sync layer reports back to the view.
 * @typedef {object} SyncHandlers
 * @property {(reason: string, cards: CardCode[]) => void} refused an intent was refused
 * @property {(code: string) => void} shared a share's deal code arrived
 * @property {(card: CardCode) => void} select a tap only selected this card
 */

/** @param {unknown} msg @returns {msg is Ack} */
function isAck(msg) {
  return typeof msg === "object" && msg != null && /** @type {Ack} */ (msg).type === "ack";
}

/**
 * Sends this view's intents (numbered, tagged with the view and the state version it drew)
 * and matches each ack to its intent, to bounce the cards of a refused one.
 */
class Sync {
  /** @param {Model} model @param {() => number} version @param {SyncHandlers} handlers */
  constructor(model, version, handlers) {
    this.model = model;
    this.version = version;
    this.handlers = handlers;
    this.id = `v${Math.random().toString(36).slice(2, 10)}`;
    this.seq = 0;
    /** @type {Map<number, CardCode[]>} seq -> the cards involved */
    this.pending = new Map();
    /** @param {unknown} msg */
    this.onMessage = (msg) => this.receive(msg);
    model.on("msg:custom", this.onMessage);
  }

  close() {
    this.model.off("msg:custom", this.onMessage);
  }

  /** @param {Request} request @param {CardCode[]} [cards] the cards to bounce if refused */
  send(request, cards = []) {
    this.seq += 1;
    this.pending.set(this.seq, cards);
    const version = this.version();
    this.model.send({ ...request, type: "intent", seq: this.seq, view: this.id, version });
  }

  /** @param {unknown} msg */
  receive(msg) {
    if (!isAck(msg) || msg.view !== this.id) return;
    const cards = (msg.seq != null && this.pending.get(msg.seq)) || [];
    if (msg.seq != null) this.pending.delete(msg.seq);
    if (!msg.ok) this.handlers.refused(msg.said || "", cards);
    else if (msg.select) this.handlers.select(msg.select);
    else if (msg.code) this.handlers.shared(msg.code);
  }
}

// =============================================================================== Input

/** @type {Record<string, string>} the keys and the commands they give */
const KEY_COMMANDS = {
  d: "draw",
  r: "recycle",
  u: "undo",
  n: "new",
  h: "hint",
  p: "pause",
  f: "fullscreen",
};
/**
 * What the player sees on a pile: its face-up top card, "back" (face-down cards) or "empty".
 * @param {State} state @param {"stock" | "waste"} pile @returns {CardCode | "back" | "empty"}
 */
function pileFace(state, pile) {
  const { top, count } = pile === "stock" ? state.stock : state.waste;
  return top || (count ? "back" : "empty");
}

/**
 * The request for a command that is an action of no fields in Python's table, or null.
 * @param {Catalog | null | undefined} catalog @param {string} command @returns {Request | null}
 */
function fieldless(catalog, command) {
  const fields = catalog ? catalog.actions[command] : undefined;
  return fields && fields.length === 0 ? /** @type {Request} */ ({ action: command }) : null;
}

/**
 * The one input controller: clicks, drags, keys and menu changes become either local UI
 * changes (the cursor, the selection, menus, closed notices, the Records panel) or intents
 * sent through the sync layer. It never draws: it asks the view to repaint.
 */
class Input {
  /** @param {PyramidView} view @param {Sync} sync */
  constructor(view, sync) {
    this.view = view;
    this.sync = sync;
    /** @type {number | null} the pyramid index the cursor was on */
    this.cursorIndex = null;
    /** @type {{node: HTMLElement, code: CardCode, x: number, y: number, moved: boolean} | null} */
    this.drag = null;
    /** @type {Extract<Request, {action: "new" | "restart" | "continue"}> | null} what waits
     * for the player's answer to the give-up question */
    this.pendingLeave = null;
    this.suppressClick = false;
    this.onVisibility = () => this.visibilityChanged();
    const root = view.dom.root;
    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("keydown", (event) => this.onKey(event));
    root.addEventListener("change", (event) => this.onChange(event));
    root.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    root.addEventListener("pointermove", (event) => this.onPointerMove(event));
    root.addEventListener("pointerup", (event) => this.onPointerUp(event));
    root.addEventListener("pointercancel", () => this.endDrag());
    // Notebook 7 runs its shortcuts (d d deletes a cell, r makes it Raw) in the capture phase,
    // before any listener of the board, and tries them on the focused element before its
    // ancestors. Lumino, their engine there and in JupyterLab and Voila, passes over an
    // element marked data-lm-suppress-shortcuts: whatever takes the focus here is marked.
    root.addEventListener("focusin", (event) => {
      const target = asHtml(event.target);
      if (target) target.dataset.lmSuppressShortcuts = "true";
    });
    view.dom.menu.menu.addEventListener("toggle", () => view.fitMenu());
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  close() {
    document.removeEventListener("visibilitychange", this.onVisibility);
  }

  /** @param {Request} request @param {CardCode[]} [cards] */
  send(request, cards = []) {
    this.sync.send(request, cards);
  }

  // ------------------------------------------------------------------ commands
  /** A command from a button's data-action or a key; the focus stays in the board even when
   * the command hides what had it. @param {string} action
   * @param {HTMLElement | null} [node] the button pressed */
  command(action, node = null) {
    const had = focusedIn(this.view.dom.root);
    const opener = this.openerOf(had);
    this.perform(action, node);
    if (had) this.keepFocus(had, opener);
  }

  /** @param {string} action @param {HTMLElement | null} node */
  perform(action, node) {
    const view = this.view;
    const state = view.state;
    if (!state) return;
    view.clearTransient();
    const menu = view.dom.menu;
    if (action === "fullscreen") return this.toggleFullscreen();
    if (action === "pause" && state.clock.paused) return this.send({ action: "unpause" });
    const off = unavailable(state, action);
    if (off) return view.say(off.why || "", "info");
    if (action === "pause") return this.send({ action: "pause" });
    if (action === "unpause") return this.send({ action: "unpause" });
    if (action === "rules-panel") {
      menu.menu.open = false;
      view.ui.showRules = !view.ui.showRules;
      view.showRules(state);
      if (view.ui.showRules) reveal(view.dom.rules);
      return;
    }
    if (action === "look") {
      const notice = currentNotice(state);
      if (notice) view.ui.closed.add(notice.key);
      return view.showNotice(state);
    }
    if (action === "offer-close") {
      if (state.offer) view.ui.closed.add(`offer:${JSON.stringify(state.offer)}`);
      return view.showOffer(state);
    }
    if (action === "records") {
      view.ui.showRecords = !view.ui.showRecords;
      view.showRecords(state);
      if (view.ui.showRecords) reveal(view.dom.records);
      return;
    }
    if (action === "review" && node && view.dom.panel.contains(node)) {
      // From a notice, the board behind it shows again: the review steps through it.
      this.command("look");
    }
    if (action === "review-close") return this.send({ action: "review_close" });
    if (action === "puzzle-open") {
      /** @type {PuzzleRequest} */
      const request = { action: "puzzle", rules: state.rules.name };
      if (menu.puzzleTheme.value) request.theme = menu.puzzleTheme.value;
      if (menu.puzzleDifficulty.value) request.difficulty = menu.puzzleDifficulty.value;
      return this.closeMenuAnd(request);
    }
    if (action === "puzzle-next" || action === "puzzle-previous") {
      return this.send({ action: "puzzle", step: action === "puzzle-next" ? 1 : -1 });
    }
    if (action === "puzzle-close") return this.send({ action: "puzzle_close" });
    if (action === "puzzle-answer") return this.send({ action: "puzzle_answer" });
    if (action === "step" || action === "step-end") {
      return this.send({ action: "review_step", moves: Number(node?.dataset.moves) });
    }
    if (action === "copy") return view.copy(state.deal.code || "");
    if (action === "menu") return;
    if (action === "deal-number") {
      const input = menu.numberInput;
      const number = Number(input.value);
      if (input.value === "" || !Number.isInteger(number) || number < 0) {
        return view.say(fixedWord(view.catalog, "number_first"), "error");
      }
      return this.leave({ action: "new", number });
    }
    if (action === "daily") return this.leave({ action: "new", daily: true });
    if (action === "open-code") {
      const code = menu.codeInput.value.trim();
      if (!code) return view.say(fixedWord(view.catalog, "code_first"), "error");
      return this.leave({ action: "new", code });
    }
    if (action === "new" || action === "restart" || action === "continue") {
      return this.leave({ action });
    }
    if (action === "winnable-only") {
      return this.send({ action: "option", name: "winnable_only", value: true });
    }
    if (action === "give-up") return this.answerAsk(true);
    if (action === "keep-playing") return this.answerAsk(false);
    if (action === "review") return this.closeMenuAnd({ action });
    const request = fieldless(view.model.get("catalog"), action);
    if (request) this.send(request);
  }

  /** @param {Request} request */
  closeMenuAnd(request) {
    this.view.dom.menu.menu.open = false;
    this.send(request);
  }

  /**
   * Send a request that leaves the game (a restart, another deal or saved game); while that
   * would record the game as lost (Python's `at_stake`), ask the player first.
   * @param {Extract<Request, {action: "new" | "restart" | "continue"}>} request
   */
  leave(request) {
    const state = this.view.state;
    if (!state) return;
    const stake = request.action === "restart" ? state.at_stake.restart : state.at_stake.deal;
    if (!stake) return this.closeMenuAnd(request);
    this.view.dom.menu.menu.open = false;
    this.pendingLeave = request;
    this.view.showAsk(true);
  }

  /** The player answered the give-up question. @param {boolean} giveUp */
  answerAsk(giveUp) {
    const request = this.pendingLeave;
    this.pendingLeave = null;
    this.view.showAsk(false);
    if (giveUp && request) this.send({ ...request, give_up: true });
    else this.setCursor(this.cursorNode() || this.targets()[0]);
  }

  toggleFullscreen() {
    const root = this.view.dom.root;
    if (document.fullscreenElement === root) {
      document.exitFullscreen?.();
      return;
    }
    const request = root.requestFullscreen?.();
    const refused = () => this.view.say(fixedWord(this.view.catalog, "no_full_screen"), "error");
    if (!request) return refused();
    request.catch(refused);
  }

  /** A checkbox or a select of the Game menu. @param {Event} event */
  onChange(event) {
    const target = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
    const menu = this.view.dom.menu;
    if (target instanceof HTMLInputElement && target.dataset.option) {
      this.send({ action: "option", name: target.dataset.option, value: target.checked });
    } else if (target.dataset.setting) {
      const name = `${menu.presetSelect.value},passes=${menu.passesSelect.value}`;
      this.send({ action: "rules", name });
    } else if (target === menu.puzzleTheme) {
      this.view.showPuzzleMenu();
    }
  }

  visibilityChanged() {
    const state = this.view.state;
    if (!state) return;
    if (document.hidden && state.clock.running) this.send({ action: "pause", auto: true });
    else if (!document.hidden && state.clock.paused) this.send({ action: "unpause", auto: true });
  }

  // ------------------------------------------------------------------ taps
  /** A tap on a card: only selecting a card of `state.selectable` (nothing selected yet) and
   * deselecting the selected card stay local; anything else is a tap for Python to decide.
   * @param {CardCode} code */
  activateCard(code) {
    const view = this.view;
    const state = view.state;
    if (!state) return;
    view.clearTransient();
    const selected = view.ui.selected;
    if (selected === code) {
      view.select(null);
    } else if (!selected && state.selectable.includes(code)) {
      view.select(code);
    } else {
      this.tap(code, code);
    }
  }

  /** Send a tap with the current selection, which it clears; a tap on a pile says what the
   * player saw on it, so that Python applies it only while it means what it meant then.
   * @param {CardCode | "stock" | "waste"} target @param {CardCode | null} card the card tapped */
  tap(target, card) {
    const state = this.view.state;
    if (!state) return;
    this.view.clearTransient();
    const selected = this.view.ui.selected;
    if (selected) this.view.select(null);
    const cards = [selected, card].filter((code) => code != null);
    const pile = target === "stock" || target === "waste" ? { face: pileFace(state, target) } : {};
    this.send({ action: "tap", target, ...(selected ? { selected } : {}), ...pile }, cards);
  }

  // ------------------------------------------------------------------ pointer
  /** @param {MouseEvent} event */
  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const target = event.target;
    const menu = this.view.dom.menu.menu;
    if (menu.open && !closest(target, ".pw-menu")) menu.open = false; // a click outside closes it
    const actionNode = closest(target, "[data-action]");
    if (actionNode && actionNode.tagName !== "SUMMARY") {
      this.command(actionNode.dataset.action || "", actionNode);
      return;
    }
    const panels = ".pw-panel, .pw-menu, .pw-offer, .pw-records, .pw-review, .pw-puzzle, .pw-watch";
    if (closest(target, panels)) {
      return;
    }
    const cardNode = closest(target, ".pw-card[data-card]");
    const pileNode = closest(target, "[data-pile]");
    if (pileNode && pileNode.dataset.pile === "stock") {
      this.tap("stock", this.view.state?.stock.top ?? null);
    } else if (cardNode) {
      this.activateCard(cardNode.dataset.card || "");
    } else {
      return;
    }
    this.setCursor(cardNode && !pileNode ? cardNode : pileNode || cardNode, false);
  }

  // Drag one card onto another to pair them (mouse, pen and touch alike).
  /** @param {PointerEvent} event */
  onPointerDown(event) {
    if (!event.isPrimary || event.button !== 0) return;
    const node = closest(event.target, '.pw-card[data-card][data-status="in_play"]');
    if (!node || !this.view.dom.root.contains(node)) return;
    const code = node.dataset.card || "";
    this.drag = { node, code, x: event.clientX, y: event.clientY, moved: false };
  }

  /** @param {PointerEvent} event */
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

  /** @param {PointerEvent} event */
  onPointerUp(event) {
    const drag = this.drag;
    if (!drag) return;
    if (drag.moved) {
      this.suppressClick = true;
      window.setTimeout(() => (this.suppressClick = false), 0);
      const target = this.dropTarget(drag.node, event.clientX, event.clientY);
      if (target && target !== drag.code) {
        this.view.ui.selected = null;
        this.view.clearTransient();
        this.send({ action: "pair", cards: [drag.code, target] }, [drag.code, target]);
      }
    }
    this.endDrag();
  }

  /** The card under the pointer (the stock pile means its top card).
   * @param {HTMLElement} dragged @param {number} x @param {number} y @returns {CardCode | null} */
  dropTarget(dragged, x, y) {
    const root = this.view.dom.root;
    for (const node of document.elementsFromPoint(x, y)) {
      if (node === dragged || dragged.contains(node) || !root.contains(node)) continue;
      const card = closest(node, ".pw-card[data-card]");
      if (card && card !== dragged) return card.dataset.card || null;
      if (closest(node, '[data-pile="stock"]')) return this.view.state?.stock.top ?? null;
    }
    return null;
  }

  endDrag() {
    if (!this.drag) return;
    this.drag.node.classList.remove("pw-dragging");
    this.drag.node.style.translate = "";
    this.drag = null;
  }

  // ------------------------------------------------------------------ cursor
  /** Cursor targets: the cards in play, then the waste and the stock piles.
   * @returns {HTMLElement[]} */
  targets() {
    const dom = this.view.dom;
    /** @type {HTMLElement[]} */
    const cards = [...dom.pyramid.querySelectorAll('.pw-card[data-status="in_play"]')].filter(
      (node) => node instanceof HTMLElement,
    );
    const waste = asHtml(dom.waste.querySelector(".pw-card[data-card]"));
    return [...cards, ...(waste ? [waste] : []), dom.stock];
  }

  /** What the focused element stands for, to find it again after a render.
   * @param {Element | null} node @returns {string | null} */
  keyOf(node) {
    if (!(node instanceof HTMLElement)) return null;
    const pile = closest(node, "[data-pile]");
    if (pile && pile.dataset.pile === "stock") return "pile:stock";
    if (node.dataset.card) return `card:${node.dataset.card}`;
    return null;
  }

  /** The cursor is the one element with tabindex 0 (a roving tab stop); the pyramid index it
   * was on is kept so that, when its card goes, the cursor moves to a neighbour.
   * @param {HTMLElement | null | undefined} node */
  setCursor(node, focus = true) {
    if (!node) return;
    for (const other of this.view.dom.root.querySelectorAll('.pw-table [tabindex="0"]')) {
      if (other !== node) other.setAttribute("tabindex", "-1");
    }
    node.setAttribute("tabindex", "0");
    this.cursorIndex = node.dataset.index === undefined ? null : Number(node.dataset.index);
    if (focus) node.focus({ preventScroll: false });
  }

  /** @returns {HTMLElement | null} */
  cursorNode() {
    return asHtml(this.view.dom.table.querySelector('[tabindex="0"]'));
  }

  /** After a render: keep the cursor on a target, and the focus in the widget if it was there.
   * @param {boolean} hadFocus @param {string | null} key what was focused (`keyOf`) */
  restoreFocus(hadFocus, key) {
    const targets = this.targets();
    let cursor = this.cursorNode();
    if (!cursor || !targets.includes(cursor)) {
      const again = key && key.startsWith("card:") ? this.view.cardNode(key.slice(5)) : null;
      cursor =
        again && targets.includes(again)
          ? again
          : this.nearestTarget(this.cursorIndex) || targets[0];
      if (cursor) this.setCursor(cursor, false);
    }
    // The focused card went away (removed, or a new deal): focus follows the cursor, as in a
    // list whose focused item is deleted.
    if (hadFocus && this.lostFocus()) (cursor || this.view.dom.root).focus({ preventScroll: true });
  }

  /** Whether the element that has the focus in the board is gone or hidden (then keys would
   * go to the page, and from there to the host's shortcuts). */
  lostFocus() {
    const now = focusedIn(this.view.dom.root);
    if (!now) return true;
    // checkVisibility is recent (Safari 17.4); without it, an element not rendered has no box.
    return now.checkVisibility ? !now.checkVisibility() : now.getClientRects().length === 0;
  }

  /** What opens again the menu or the panel that `node` lies in (the Records panel: its
   * button; the Game menu and the Rules panel, opened from it: the menu's button), if any.
   * @param {HTMLElement | null} node @returns {HTMLElement | null} */
  openerOf(node) {
    const { menu, records, rules, buttons } = this.view.dom;
    if (!node || menu.summary.contains(node)) return null;
    if (records.contains(node)) return buttons.records;
    return menu.menu.contains(node) || rules.contains(node) ? menu.summary : null;
  }

  /** After a command or a key that hid what had the focus (the Game menu closed, a panel
   * closed, a notice set aside): the focus goes to what opens that menu or panel again, else
   * to the cursor. @param {HTMLElement} had what had the focus before
   * @param {HTMLElement | null} opener `openerOf(had)`, taken before */
  keepFocus(had, opener) {
    if (!this.lostFocus()) return;
    if (opener) opener.focus({ preventScroll: true });
    else this.restoreFocus(true, this.keyOf(had));
  }

  /** The card in play closest to pyramid index `index`. @param {number | null} index */
  nearestTarget(index) {
    const targets = this.targets().filter((node) => node.dataset.index !== undefined);
    if (index == null || !targets.length) return null;
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

  /** Move the cursor to the nearest target on screen in that direction.
   * @param {"left" | "right" | "up" | "down"} direction */
  moveCursor(direction) {
    const targets = this.targets();
    const active = focusedIn(this.view.dom.root);
    const current = targets.find((node) => node === active);
    if (!current) {
      const start = this.cursorNode();
      this.setCursor(start && targets.includes(start) ? start : targets[0]);
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

  // ------------------------------------------------------------------ keyboard
  escape() {
    const view = this.view;
    const state = view.state;
    const notice = state && currentNotice(state);
    if (!view.dom.ask.hidden) {
      this.answerAsk(false);
    } else if (view.dom.menu.menu.open) {
      view.dom.menu.menu.open = false;
    } else if (state && state.hint) {
      this.send({ action: "dismiss" });
    } else if (notice && notice.kind !== "paused" && !view.ui.closed.has(notice.key)) {
      this.command("look");
    } else {
      view.say("", "info");
      view.select(null);
    }
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    // Nothing typed inside the widget may reach the host's shortcuts bound in the bubble
    // phase (JupyterLab's, marimo's); those bound in the capture phase skip the focused
    // element (see the focusin listener).
    event.stopPropagation();
    const had = focusedIn(this.view.dom.root);
    const opener = this.openerOf(had);
    this.key(event);
    if (had) this.keepFocus(had, opener);
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    if (target.closest("input, textarea, select")) {
      if (event.key === "Enter" && target.dataset.field === "number") this.command("deal-number");
      if (event.key === "Enter" && target.dataset.field === "code") this.command("open-code");
      return;
    }
    const key = event.key;
    const ctrl = event.ctrlKey || event.metaKey;
    const onControl = ["BUTTON", "SUMMARY"].includes(target.tagName);
    let consumed = true;
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "ArrowUp" || key === "ArrowDown") {
      this.moveCursor(/** @type {"left" | "right" | "up" | "down"} */ (key.slice(5).toLowerCase()));
    } else if ((key === "Enter" || key === " ") && !onControl) {
      const cursor = this.targets().includes(target) ? target : null;
      if (cursor === this.view.dom.stock) this.tap("stock", this.view.state?.stock.top ?? null);
      else if (cursor) this.activateCard(cursor.dataset.card || "");
      else this.moveCursor("right");
    } else if (ctrl && !event.altKey) {
      const lower = key.toLowerCase();
      if (lower === "z" && !event.shiftKey) this.command("undo");
      else if (lower === "y" || (lower === "z" && event.shiftKey)) this.command("redo");
      else consumed = false;
    } else if (event.altKey || event.metaKey) {
      consumed = false;
    } else if (key === "Escape") {
      this.escape();
    } else {
      const action = KEY_COMMANDS[key.toLowerCase()];
      if (action) this.command(action);
      else consumed = false;
    }
    if (consumed) event.preventDefault();
  }
}

// =============================================================================== View

/**
 * The view's skeleton: the elements the renderers patch.
 * @typedef {object} Dom
 * @property {HTMLDivElement} root
 * @property {PuzzleParts} puzzle the puzzle panel, above the table
 * @property {WatchParts} watch the watch panel, above the table
 * @property {HTMLDivElement} table
 * @property {HTMLDivElement} pyramid
 * @property {HTMLDivElement} stock
 * @property {HTMLDivElement} waste
 * @property {HTMLDivElement} panel the notice over the table
 * @property {HTMLDivElement} offer
 * @property {HTMLDivElement} records
 * @property {HTMLDivElement} rules the Rules panel
 * @property {HTMLDivElement} review
 * @property {HTMLDivElement} status
 * @property {HTMLDivElement} hintLine
 * @property {HTMLDetailsElement} hintDetail the hint's detail, a disclosure under its line
 * @property {HTMLDivElement} message
 * @property {HTMLDivElement} ask the give-up question, over the talk box
 * @property {HTMLDivElement} controls the button row
 * @property {HTMLDivElement} live the screen readers' polite live region
 * @property {Buttons} buttons
 * @property {MenuParts} menu
 */

/**
 * What belongs to one view only, never to the model.
 * @typedef {object} LocalUi
 * @property {CardCode | null} selected
 * @property {Set<string>} closed notices and offers this view closed ("kind:position_version")
 * @property {boolean} showRecords
 * @property {boolean} showRules
 */

/** @param {HTMLElement} host @returns {Dom} */
function buildDom(host) {
  const root = el("div", "pw-root", {
    "data-lm-suppress-shortcuts": "true",
    tabindex: "-1",
    role: "application",
    "aria-roledescription": "Pyramid Solitaire",
    "aria-label": "Pyramid Solitaire",
  });
  const puzzle = puzzleParts();
  const watch = watchParts();
  const table = el("div", "pw-table");
  const pyramid = el("div", "pw-pyramid", { role: "group", "aria-label": "Pyramid" });
  const stock = el("div", "pw-pile pw-stock", {
    "data-pile": "stock",
    role: "button",
    tabindex: "-1",
  });
  const waste = el("div", "pw-pile pw-waste", { "data-pile": "waste", role: "group" });
  const panel = el("div", "pw-panel", { role: "dialog", "aria-modal": "false", hidden: "" });
  table.append(pyramid, stock, waste, panel);
  // Outside the table, never over the cards: the Continue offer, the records, the rules, the
  // review.
  const offer = el("div", "pw-offer", { role: "region", "aria-label": "Saved game", hidden: "" });
  const records = el("div", "pw-records", { role: "region", "aria-label": "Records", hidden: "" });
  const rules = el("div", "pw-rules", { role: "region", "aria-label": "How to play", hidden: "" });
  const review = el("div", "pw-review", {
    role: "region",
    "aria-label": "Game review",
    hidden: "",
  });
  const status = el("div", "pw-status", { "aria-label": "Game status" });
  // The hint and the message share one box of a fixed height (widget.css).
  const talk = el("div", "pw-talk");
  const hintLine = el("div", "pw-hint-line");
  const hintDetail = el("details", "pw-hint-detail", { hidden: "" });
  hintDetail.append(el("summary"), el("p"));
  const message = el("div", "pw-message", { role: "status" });
  // The give-up question covers the talk box, one line with its two buttons (widget.css).
  const ask = el("div", "pw-ask", { role: "alertdialog", "aria-modal": "false", hidden: "" });
  talk.append(hintLine, hintDetail, message, ask);
  const live = el("div", "pw-sr-only", { "aria-live": "polite", "aria-atomic": "true" });

  const controls = el("div", "pw-controls", { role: "toolbar", "aria-label": "Game controls" });
  /** @param {string} action @param {string} label @param {string} key */
  const button = (action, label, key) => {
    const node = actionButton(action, label);
    if (key) node.setAttribute("aria-keyshortcuts", key);
    controls.append(node);
    return node;
  };
  /** @type {Buttons} */
  const buttons = {
    undo: button("undo", "Undo", "U"),
    redo: button("redo", "Redo", ""),
    hint: button("hint", "Hint", "H"),
    pause: button("pause", "Pause", ""),
    new: button("new", "New deal", "N"),
    restart: button("restart", "Restart", ""),
    records: button("records", "Records", ""),
    fullscreen: button("fullscreen", "Full screen", "F"),
  };
  const menu = menuParts();
  controls.append(menu.menu);
  buttons.records.setAttribute("aria-expanded", "false");
  root.append(puzzle.box, watch.box, table, offer, status, talk, controls, records, rules, review);
  root.append(live);
  host.replaceChildren(root);
  return {
    root, puzzle, watch, table, pyramid, stock, waste, panel, offer, records, rules, review, status,
    hintLine, hintDetail, message, ask, controls, live, buttons, menu,
  };
}

/** One view of the widget: draws the model's state, keeps this view's own UI state. */
class PyramidView {
  /** @param {Model} model @param {HTMLElement} host */
  constructor(model, host) {
    this.model = model;
    /** @type {State | null} */
    this.state = null;
    /** @type {LocalUi} */
    this.ui = { selected: null, closed: new Set(), showRecords: false, showRules: false };
    /** @type {Catalog | null} */
    this.catalog = null;
    /** @type {(HTMLElement | null)[]} pyramid index -> card element (null when removed) */
    this.slots = new Array(28).fill(null);
    this.clock = { base: 0, at: 0, running: false };
    /** @type {HTMLElement | null} */
    this.timeSpan = null;
    this.dom = buildDom(host);
    this.sync = new Sync(model, () => (this.state ? this.state.version : 0), {
      refused: (reason, cards) => this.refused(reason, cards),
      shared: (code) => this.shared(code),
      select: (card) => this.select(card),
    });
    this.input = new Input(this, this.sync);
    this.dom.hintDetail.addEventListener("toggle", () => this.detailToggled());
    this.onState = () => this.render(this.model.get("state"));
    this.onCatalog = () => this.showCatalog(this.model.get("catalog"));
    model.on("change:state", this.onState);
    model.on("change:catalog", this.onCatalog);
    this.timer = window.setInterval(() => this.tick(), 1000);
    this.showCatalog(model.get("catalog"));
    this.render(model.get("state"));
  }

  destroy() {
    this.model.off("change:state", this.onState);
    this.model.off("change:catalog", this.onCatalog);
    this.sync.close();
    this.input.close();
    window.clearInterval(this.timer);
  }

  // ------------------------------------------------------------------ drawing
  /** The Game menu's choices, from Python's catalog. @param {Catalog | null | undefined} catalog */
  showCatalog(catalog) {
    if (!catalog) return;
    this.catalog = catalog;
    patchCatalog(this.dom.menu, catalog);
    if (this.state) {
      patchMenuValues(this.dom.menu, this.state);
      this.showPuzzleMenu();
      patchPuzzle(this.dom.puzzle, this.state.puzzle, catalog);
    }
  }

  /** The Game menu's Puzzles group, under the rules of the board shown. */
  showPuzzleMenu() {
    if (!this.catalog || !this.state) return;
    patchPuzzleMenu(this.dom.menu, this.catalog, this.state.rules.name);
  }

  /** @param {State | null} state */
  render(state) {
    if (!state || !state.pyramid) return;
    const dom = this.dom;
    const previous = this.state;
    this.state = state;
    const focused = focusedIn(dom.root);
    const hadFocus = focused != null;
    const focusedKey = this.input.keyOf(focused);
    // Another deal or puzzle is dealt at once; a move's cards arrive and leave.
    const dealt = ["new", "restart", "puzzle", "watch"].includes(state.event.action);
    const animate = previous && !dealt;

    patchPyramid(dom.pyramid, this.slots, state.pyramid, Boolean(animate) && !reducedMotion());
    patchStock(dom.stock, state);
    patchWaste(dom.waste, state);
    this.showStatus(state);
    patchPuzzle(dom.puzzle, state.puzzle, this.catalog);
    patchWatch(dom.watch, state.watch);
    const shown = state.puzzle?.said_kind === "shown" ? state.puzzle.said : null;
    if (shown && shown !== previous?.puzzle?.said) this.announce(shown);
    patchMenuValues(dom.menu, state);
    this.showPuzzleMenu();
    dom.root.classList.toggle("pw-paused", state.clock.paused);
    this.showHint(state, previous);

    // A selection belongs to the game it was made in: another deal or game drops it. (The
    // event stays what last changed the position: a hint or a pause after it changes none.)
    const positionChanged = !previous || previous.position_version !== state.position_version;
    const replaced = positionChanged && (dealt || state.event.action === "continue");
    if (this.ui.selected && (replaced || !state.playable.includes(this.ui.selected))) {
      this.ui.selected = null;
    }
    this.paintHighlights();

    if (positionChanged) this.narrate(state, previous);
    const noticeOpened = this.showNotice(state);
    this.showOffer(state);
    this.showRecords(state);
    this.showRules(state);
    const reviewBuilt = this.showReview(state);
    patchControls(dom.root, dom.buttons, state); // after the notices: their buttons too
    dom.root.dataset.version = String(state.version);
    this.notifyDrawn(state.version);
    this.input.restoreFocus(hadFocus, focusedKey);
    // What opens while the player is on the board comes into view (a move or a button of
    // this view opened it); a change made from a cell leaves the notebook where it is.
    if (hadFocus && noticeOpened) this.focusNotice();
    if (hadFocus && reviewBuilt) reveal(dom.review);
  }

  /** Tell the host which state this view drew. Hosts that re-run code when a widget's value
   * changes from the page (marimo) then re-run what reads the board; Python decides nothing
   * from it (every move already went through Python).
   * @param {number} version */
  notifyDrawn(version) {
    if (this.model.get("drawn") === version) return;
    this.model.set("drawn", version);
    this.model.save_changes();
  }

  /** @param {State} state */
  showStatus(state) {
    const { nodes, time } = statusItems(state);
    this.timeSpan = time;
    this.clock = {
      base: state.clock.elapsed,
      at: performance.now(),
      running: state.clock.running && !state.clock.paused,
    };
    this.dom.status.replaceChildren(...nodes);
    this.tick();
  }

  tick() {
    if (!this.timeSpan) return;
    const { base, at, running } = this.clock;
    const seconds = base + (running ? (performance.now() - at) / 1000 : 0);
    this.timeSpan.textContent = `${fixedWord(this.catalog, "time")} ${formatTime(seconds)}`.trim();
  }

  /** A new hint (or search) clears whatever the message line said before it.
   * @param {State} state @param {State | null} previous */
  showHint(state, previous) {
    const text = hintText(state, this.catalog);
    const line = this.dom.hintLine;
    const hint = state.hint && state.hint.status === "done" ? state.hint : null;
    line.textContent = text;
    this.showHintDetail(hint ? hint.detail : "");
    line.classList.toggle("pw-lost", hintSaysUnwinnable(state));
    line.classList.toggle("pw-doubtful", Boolean(hint && hint.looks_lost));
    const before = previous ? JSON.stringify(previous.hint) + previous.finding_deal : "";
    if (text && before !== JSON.stringify(state.hint) + state.finding_deal) {
      this.say("", "info");
      this.announce(text);
    }
  }

  /** The hint's detail under its line, closed until the player opens it; a new detail closes
   * the old one. @param {string} detail */
  showHintDetail(detail) {
    const box = this.dom.hintDetail;
    const [summary, text] = box.children;
    summary.textContent = fixedWord(this.catalog, "detail");
    if (text.textContent !== detail) box.open = false;
    text.textContent = detail;
    box.hidden = !detail;
  }

  /** The hint's detail was opened or closed: opened, the talk box scrolls to it. */
  detailToggled() {
    const box = this.dom.hintDetail;
    const talk = box.parentElement;
    if (box.open && talk) talk.scrollTop = box.offsetTop - talk.offsetTop;
  }

  paintHighlights() {
    if (this.state) patchHighlights(this.dom.root, this.dom.stock, this.state, this.ui.selected);
  }

  /** @param {State} state @param {State | null} previous */
  narrate(state, previous) {
    const words = narration(state, previous, this.catalog);
    if (!words) return;
    if ("say" in words) {
      this.say(words.say, "outcome");
      return;
    }
    this.say("", "info");
    this.announce(words.announce);
  }

  /** @param {State} state @returns {boolean} whether a notice opened */
  showNotice(state) {
    const notice = currentNotice(state);
    const shown = notice && (notice.kind === "paused" || !this.ui.closed.has(notice.key));
    const panel = this.dom.panel;
    // Drawn again when its words or what it offers change, not only when the position does.
    const drawn = notice && JSON.stringify([notice, state.options.winnable_only]);
    return patchRegion(panel, shown && notice ? drawn : null, () => {
      if (!notice) return [];
      const { title, box } = noticeContent(state, notice, this.catalog);
      panel.dataset.kind = notice.kind;
      panel.setAttribute("aria-label", title);
      this.announce(notice.spoken);
      return [box];
    });
  }

  /** @param {State} state */
  showOffer(state) {
    const offer = state.offer;
    const key = offer ? `offer:${JSON.stringify(offer)}` : null;
    const shown = key && !this.ui.closed.has(key) ? key : null;
    if (patchRegion(this.dom.offer, shown, () => (offer ? offerContent(offer) : [])) && offer) {
      this.announce(offer.text);
    }
  }

  /** @param {State} state */
  showRecords(state) {
    const records = state.records;
    this.dom.buttons.records.setAttribute("aria-expanded", String(this.ui.showRecords));
    const key = this.ui.showRecords && records ? JSON.stringify(records) : null;
    patchRegion(this.dom.records, key, () => (records ? recordsContent(records) : []));
  }

  /** @param {State} state */
  showRules(state) {
    const rules = state.rules;
    const key = this.ui.showRules ? JSON.stringify(rules) : null;
    patchRegion(this.dom.rules, key, () => rulesContent(rules));
  }

  /** @param {State} state @returns {boolean} whether the review was (re)built */
  showReview(state) {
    const review = state.review;
    const box = this.dom.review;
    const built = patchRegion(box, review ? JSON.stringify(review) : null, () =>
      review ? reviewContent(review, this.catalog) : [],
    );
    if (!review) return false;
    if (built && review.status === "done") this.announce(review.summary);
    const row = patchReviewCurrent(box, this.model.get("moves").length);
    if (row) keepInView(row);
    return built;
  }

  /** A notice that opens while the player is on the board: its first action takes the focus
   * (keys then act on it, as in a dialog), and it is scrolled into view. */
  focusNotice() {
    const first = asHtml(this.dom.panel.querySelector(".pw-panel-actions button"));
    if (first) first.focus({ preventScroll: true });
    const box = asHtml(this.dom.panel.firstElementChild);
    if (box) reveal(box);
  }

  /** The open Game menu reaches from the top of the widget down to the button row, no
   * further (it lies over the board, and a longer menu scrolls inside), and is scrolled into
   * view. */
  fitMenu() {
    const { root, controls, menu } = this.dom;
    if (!menu.menu.open) return;
    const room = controls.getBoundingClientRect().top - root.getBoundingClientRect().top - 10;
    menu.menu.style.setProperty("--pw-menu-room", `${Math.max(160, Math.floor(room))}px`);
    const body = asHtml(menu.menu.querySelector(".pw-menu-body"));
    if (body) reveal(body);
  }

  // ------------------------------------------------------------------ local UI
  /** Select a card (or nothing) in this view only. @param {CardCode | null} code */
  select(code) {
    this.ui.selected = code;
    this.paintHighlights();
  }

  /** @param {CardCode} code @returns {HTMLElement | null} */
  cardNode(code) {
    return asHtml(this.dom.root.querySelector(`.pw-card[data-card="${code}"]`));
  }

  /**
   * Show (and speak) a message. An "error" (a refusal) or an "info" (a copied code, why a
   * control is greyed) lasts until the player's next action; an "outcome" (won, out of moves,
   * dead end) until the position changes.
   * @param {string} text @param {"error" | "info" | "outcome"} kind
   */
  say(text, kind) {
    const message = this.dom.message;
    message.textContent = text;
    message.classList.toggle("pw-error", kind === "error" && Boolean(text));
    if (kind === "outcome") delete message.dataset.transient;
    else message.dataset.transient = "true";
    this.announce(text);
  }

  /** Show or hide the give-up question, in Python's words; open, it takes the focus (on "Keep
   * playing", the answer that loses nothing). @param {boolean} open */
  showAsk(open) {
    const ask = this.dom.ask;
    const words = this.model.get("catalog")?.give_up;
    if (open && words) {
      const text = el("span", "pw-ask-text", {}, words.question);
      const yes = actionButton("give-up", words.yes, "pw-button");
      const no = actionButton("keep-playing", words.no, "pw-button pw-primary");
      ask.setAttribute("aria-label", words.question);
      ask.replaceChildren(text, yes, no);
      ask.hidden = false;
      this.announce(words.question);
      no.focus();
    } else {
      ask.hidden = true;
    }
  }

  /** The player acts: a refusal or a note from before goes. */
  clearTransient() {
    if (this.dom.message.dataset.transient && this.dom.message.textContent) this.say("", "info");
  }

  /** @param {string} text */
  announce(text) {
    // Re-setting the same text would not be spoken again; clear first.
    const live = this.dom.live;
    live.textContent = "";
    if (text) window.setTimeout(() => (live.textContent = text), 30);
  }

  /** Put a deal code on the clipboard, and say so (or show it to be copied by hand).
   * @param {string} text */
  copy(text) {
    const fallback = () => this.say(`${fixedWord(this.catalog, "copy_this")} ${text}`, "info");
    if (!navigator.clipboard) return fallback();
    const copied = () => this.say(fixedWord(this.catalog, "copied"), "info");
    navigator.clipboard.writeText(text).then(copied, fallback);
  }

  // ------------------------------------------------------------------ acks
  /** @param {string} reason @param {CardCode[]} cards */
  refused(reason, cards) {
    this.ui.selected = null;
    // A move the puzzle refused is explained in the puzzle panel (the state came first): the
    // message line stays clear and the reason is only spoken, so it reads once.
    const puzzle = this.state?.puzzle;
    if (puzzle && puzzle.said_kind === "refused" && puzzle.said === reason) {
      this.say("", "info");
      this.announce(reason);
    } else {
      this.say(reason, "error");
    }
    this.bounce(cards);
    this.paintHighlights();
  }

  /** @param {string} code */
  shared(code) {
    this.dom.menu.shareOutput.value = code;
    this.copy(code);
  }

  /** @param {CardCode[]} cards */
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
}

/** anywidget's entry point. @param {{model: Model, el: HTMLElement}} props */
function render({ model, el: host }) {
  const view = new PyramidView(model, host);
  return () => view.destroy();
}

export default { render };
