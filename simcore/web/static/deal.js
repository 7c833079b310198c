// Deal viewer: a seeded or entered deal, played card by card; the page sends the decisions so far and
// draws the view the server sends back. The position (system, seed, entered cards, decisions) is kept
// in the page's address, so a reload or a shared link opens the same position.
"use strict";

const HEURISTIC = -1;
const SUIT_NAMES = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "10", "K", "Q", "J", "9"];
let view = null;
let moves = [];

function dealLines() {
  const text = $("#cards").value.trim();
  return text ? $("#cards").value.replace(/\s+$/, "").split("\n").slice(0, 9) : null;
}

function dealBody(extra = {}) {
  return { ...rules(), seed: Number($("#seed").value), cards: dealLines(), moves, values: $("#values").checked, ...extra };
}

// --- the address: system, seed, entered cards and decisions ---------------------------------------
function positionQuery() {
  const q = new URLSearchParams();
  q.set("variant", $("#variant").value);
  q.set("seed", $("#seed").value);
  const lines = dealLines();
  if (lines) q.set("cards", lines.join("|"));
  if (moves.length) q.set("moves", moves.map(m => m === HEURISTIC ? "h" : String(m)).join("."));
  if (!$("#values").checked) q.set("values", "off");
  return "?" + q.toString();
}

function readPosition() {
  const q = new URLSearchParams(location.search);
  const variant = q.get("variant");
  if (variant && $$("#variant option").some(o => o.value === variant)) $("#variant").value = variant;
  if (q.get("seed") !== null && /^\d+$/.test(q.get("seed"))) $("#seed").value = q.get("seed");
  if (q.get("cards")) $("#cards").value = q.get("cards").split("|").join("\n");
  if (q.get("values") === "off") $("#values").checked = false;
  moves = (q.get("moves") || "").split(".").filter(Boolean).map(m => m === "h" ? HEURISTIC : Number(m)).filter(Number.isInteger);
}

function keepPosition() {
  const where = positionQuery();
  history.replaceState(null, "", where);
  $("#permalink").href = where;
  $("#permalink").title = rules().rules_text ? "the link names the shipped system only, not your pasted rules" : "";
}

// --- the view ----------------------------------------------------------------------------------------
let shown = 0;  // views drawn: a values job answers only the view it was started for

async function refresh(extra = {}) {
  clearErrors();
  stopValues();
  $("#table").classList.add("busy");
  try {
    view = await post("/api/deal", dealBody({ ...extra, values: false }));
    moves = view.moves;
    keepPosition();
    draw();
    forgetMakeable();
  } catch (e) { showError(e.field || "moves", e.message); }
  finally { $("#table").classList.remove("busy"); }
  if (view && $("#values").checked && view.legal.length) values(++shown);
}

// The double-dummy values of the cards the seat to play may play: a job, card by card, with progress
// and a Cancel button; the cards may be played meanwhile (that cancels it).
async function values(which) {
  try {
    const r = await runJob("/api/deal-values", dealBody({ moves: view.moves }), $("#values-job"), "values", " trick starts searched");
    if (which !== shown) return;
    view.values = r.values; view.values_exact = r.values_exact; view.values_note = r.values_note;
    draw(false);
    document.body.dataset.valued = Number(document.body.dataset.valued || 0) + 1;  // for tests
  } catch (e) {
    if (which === shown && e.message !== "cancelled") showError(e.field || "values", e.message);
    if (which === shown && e.message === "cancelled") { view.values_note = "values cancelled"; draw(false); }
  }
}

function stopValues() {
  shown++;
  const box = $("#values-job");
  if (!box.hidden) $(".cancel", box).click();
}

function seatName(s) {
  if (!view) return `seat ${s}`;
  const role = s === view.bidder ? " · bidder" : s === view.partner ? " · partner" : "";
  return `seat ${s}${s === view.players - 1 ? " (dealer)" : ""}${role}`;
}

// A card's value under it: the points its side takes from this trick on (null: the solve gave up).
// The one place a value is written, so that a mark (such as ≈ for an estimate) goes here.
// A card's value for the side to play: exact (proved by the solver) or estimated, marked ≈ (a search
// of the next tricks, then the learned evaluation)
function cardValue(value, exact = true) {
  if (value === undefined) return "";
  return el("small", { class: "dd" + (exact ? "" : " estimated"), title: exact ? "exact" : "estimated" },
    value === null ? "?" : (exact ? "" : "≈") + String(value));
}

function contractText(v) {
  if (!v.has_auction) {
    return `No auction${v.trump ? `: trump ${v.trump}` : ""}${v.turned ? `, the turned ${v.turned}` : ""}`;
  }
  if (v.bidder === null) return v.over ? "No bid: the hand was not played" : "Bidding";
  return `Bid ${v.bid} by seat ${v.bidder}, trump ${v.trump ?? "none"}`;
}

function seatBox(v, s, legal, place) {
  const mine = s === v.to_act;
  const cards = v.hands[s].map(c => {
    const playable = mine && c in legal;
    return el("button", {
      type: "button", class: "card" + (playable ? " legal" : ""), disabled: !playable, "data-card": c,
      onclick: playable ? () => { moves.push(legal[c]); refresh(); } : null,
    }, c, cardValue(playable && v.values ? v.values[c] : undefined, !(v.values_exact && v.values_exact[c] === false)));
  });
  const played = v.trick.find(([ts]) => ts === s);
  return el("div", { class: "seat" + (mine ? " to-act" : ""), "data-seat": s, style: place },
    el("h3", {}, seatName(s), played ? el("span", { class: "played" }, ` played ${played[1]}`) : ""),
    el("div", { class: "hand" }, cards));
}

// The middle of the table: the cards played to this trick by seat, in the order played; between
// tricks, the last trick and who took it.
function trickBox(v, place) {
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const playedCards = v.trick.length ? v.trick
    : last ? last.cards.map((c, i) => [(last.leader + i) % v.players, c]) : [];
  const title = v.trick.length ? `Trick ${v.tricks.length + 1}`
    : last ? `Trick ${v.tricks.length}: seat ${last.winner} took ${last.points} point${last.points === 1 ? "" : "s"}`
    : v.over ? "No trick played" : "Trick 1: nothing led yet";
  return el("div", { class: "trick" + (v.trick.length ? "" : " done"), style: place, id: "trick" },
    el("h3", {}, title),
    el("div", { class: "trick-cards" }, playedCards.map(([s, c]) =>
      el("span", { class: "played-card", "data-seat": s, "data-card": c }, el("small", {}, `seat ${s}`), c))));
}

function draw(scroll = true) {
  const v = view;
  const status = v.over ? `Over: the hand adds ${v.returns.join(", ")} to the seats' scores.`
    : `Seat ${v.to_act} to play.`;
  $("#summary").replaceChildren(el("strong", { id: "status" }, status), el("span", {}, contractText(v)));
  const legal = Object.fromEntries(v.legal.map(a => [a.card, a.code]));
  // seats around the table, clockwise: the first half along the top, left to right, the rest along
  // the bottom, right to left, the trick between them (a phone stacks them in this order)
  const top = Math.ceil(v.players / 2), cols = top;
  const boxes = [];
  for (let s = 0; s < top; s++) boxes.push(seatBox(v, s, legal, `--row:1;--col:${s + 1}`));
  boxes.push(trickBox(v, `--row:2;--col:1 / ${cols + 1}`));
  for (let s = top; s < v.players; s++) boxes.push(seatBox(v, s, legal, `--row:3;--col:${cols - (s - top)}`));
  $("#table").style.setProperty("--cols", cols);
  $("#table").replaceChildren(...boxes, v.values_note ? el("p", { class: "note" }, v.values_note) : "");
  drawPoints(v);
  drawBefore(v);
  $("#tricks").replaceChildren(v.tricks.length ? el("h2", {}, "Tricks") : "", v.tricks.length ? table(
    [["#", t => t.n], ["led by", t => t.leader], ["cards", t => t.cards.join(" ")], ["won by", t => t.winner], ["points", t => t.points]],
    v.tricks.map((t, i) => ({ ...t, n: i + 1 })).reverse(), "tricks-table") : "");
  $("#heuristic").disabled = $("#finish").disabled = v.over;
  $("#analyse").hidden = !v.over;
  if (!v.over) $("#analysis").replaceChildren();
  $("#undo").disabled = !moves.some(m => m !== HEURISTIC);
  if (scroll) {  // keep the seat to play (or, once over, the result) in sight after each card
    const target = $(".seat.to-act") || $("#summary");
    target.scrollIntoView({ block: "nearest" });
  }
  document.body.dataset.drawn = Number(document.body.dataset.drawn || 0) + 1;  // for tests: a new view is up
}

// Points per side so far: meld shown and trick points taken.
function drawPoints(v) {
  const name = side => side.seats.join(" & ") + (side.bidding ? " (bidder)" : "");
  $("#points").replaceChildren(el("h2", {}, "Points so far"),
    table([["seats", name], ["meld", s => s.meld ?? "–"], ["tricks", s => s.tricks],
      ["both", s => s.meld === null ? "–" : s.meld + s.tricks]], v.sides, "points-table"),
    el("p", { class: "note" }, "Meld as shown; whether it counts (a side that takes no trick, a contract set) is settled at the end of the hand."));
}

// The hand before the play: the auction, then trump, a called partner, the pass, the widow and the
// burial, in the order they happened, every card face up.
function drawBefore(v) {
  const items = [];
  if (v.bids.length) {
    items.push(el("li", {}, el("strong", {}, "Auction: "),
      v.bids.map(([s, b]) => `seat ${s} ${b ? b : "pass"}`).join(", ")));
  }
  const groups = [];
  for (const m of v.before_play) {  // consecutive cards of one seat's pass, burial, throw ... together
    const key = ["pass", "bury", "throw", "draw", "widow_card"].includes(m.move) ? `${m.move}:${m.seat}:${m.to ?? ""}` : null;
    const prev = groups[groups.length - 1];
    if (key && prev && prev.key === key) prev.cards.push(m.card);
    else groups.push({ key, m, cards: m.card ? [m.card] : [] });
  }
  const says = {
    widow: g => [`${g.m.kind === "stock" ? "Stock" : "Widow"}: `, g.m.cards.join(" ")],
    trump: g => ["Trump: ", `${g.m.suit ?? "none"}${g.m.turned ? ` (the turned ${g.m.turned})` : ""}`],
    call: g => ["Called: ", g.m.card ? `${g.m.card}, partner seat ${g.m.partner ?? "?"}` : "none: the bidder plays alone"],
    pass: g => [`Seat ${g.m.seat} passed to seat ${g.m.to ?? "?"}: `, g.cards.join(" ")],
    bury: g => [`Seat ${g.m.seat} buried: `, g.cards.join(" ")],
    throw: g => [`Seat ${g.m.seat} threw away: `, g.cards.join(" ")],
    draw: g => [`Seat ${g.m.seat} drew: `, g.cards.join(" ")],
    widow_card: g => [`Widow to seat ${g.m.seat}: `, g.cards.join(" ")],
    exchange_dix: g => [`Seat ${g.m.seat} exchanged the dix for `, g.m.card],
    table_meld: g => [`Seat ${g.m.seat} melded `, `${g.m.meld.replace(/_/g, " ")} (${g.m.points})`],
    not_played: g => ["Not played: ", g.m.outcome.replace(/_/g, " ")],
  };
  for (const g of groups) {
    const say = says[g.m.move];
    if (say) { const [label, what] = say(g); items.push(el("li", { "data-move": g.m.move }, el("strong", {}, label), what)); }
  }
  $("#before").replaceChildren(items.length ? el("h2", {}, "Before the play") : "", items.length ? el("ul", { class: "before" }, items) : "");
}

// Where the hand just played gave up points: each card of its last tricks against the best card, every
// hand seen and perfect play after (a job on the solver's queue, as the values are).
async function analyse() {
  clearErrors();
  $("#analysis").replaceChildren();
  try {
    const a = await runJob("/api/deal-analysis", dealBody({ moves: view.moves }), $("#analysis-job"), "analysis", " cards valued");
    const pts = x => x === null ? "?" : String(x);
    const worst = a.worst.length ? a.worst.map(d => `trick ${d.trick}, seat ${d.seat} (${d.role}) played ${d.card}: ${d.best_card} was worth ${d.exact ? "" : "about "}${d.given_up} more`).join("; ")
      : "no card gave up a point";
    $("#analysis").replaceChildren(
      el("h3", {}, a.tricks_left === a.tricks ? "Where the points went: every trick" : `Where the points went: the last ${a.tricks_left} tricks`),
      el("p", {}, `With every hand seen and perfect play from trick ${a.tricks - a.tricks_left + 1}, the bidding side (seats ${a.bidding_side.join(", ")}) would take ${a.decisions.length && !a.decisions[0].exact ? "about " : ""}${pts(a.bidding_side_double_dummy)} of the ${a.in_play} points left; it took ${a.bidding_side_took}. Worst: ${worst}.`
        + (a.estimated ? ` ≈: ${a.estimated} decisions estimated (a search of the next tricks, then the learned evaluation), the rest exact.` : "")
        + (a.unvalued ? ` ${a.unvalued} decisions not valued (the search gave up).` : "")),
      table([["seat", r => r.seat], ["role", r => r.role], ["cards", r => r.decisions], ["points given up", r => r.given_up]], a.per_seat, "analysis-seats"),
      table([["trick", d => d.trick], ["seat", d => d.seat], ["played", d => d.card], ["best", d => d.best_card ?? "?"], ["given up", d => (d.exact ? "" : "≈") + pts(d.given_up)]],
        a.decisions.filter(d => d.given_up !== 0), "analysis-cards"));
    document.body.dataset.analysed = Number(document.body.dataset.analysed || 0) + 1;  // for tests
  } catch (e) { if (e.message !== "cancelled") showError(e.field || "analysis", e.message); }
}

// The makeable bids of the deal: for each trump (a row) and each seat as the bidder (a column), the
// highest bid his side makes double dummy; then what the bidder of the hand on the table could have bid.
let madeFor = "";  // the deal the table shown is of

async function makeable() {
  clearErrors();
  $("#makeable-table").replaceChildren();
  const body = { ...rules(), seed: Number($("#seed").value), cards: dealLines(), exchange: $("#makeable-exchange").value };
  try {
    const m = await runJob("/api/deal-makeable", body, $("#makeable-job"), "makeable", " trick starts", "finishing");
    madeFor = JSON.stringify([body.seed, body.cards, body.variant]);
    drawMakeable(m);
    document.body.dataset.makeable = Number(document.body.dataset.makeable || 0) + 1;  // for tests
  } catch (e) { if (e.message !== "cancelled") showError(e.field || "makeable", e.message); }
}

function drawMakeable(m) {
  const seats = [...new Set(m.cells.map(c => c.bidder))], trumps = [...new Set(m.cells.map(c => c.trump))];
  const cell = (t, s) => m.cells.find(c => c.trump === t && c.bidder === s);
  const title = c => !c.allowed ? "not allowed" : `meld ${c.meld}; ` + (c.exact ? (c.made === null ? "not even the lowest contract" : `${c.made} made, ${c.made + 1} not`)
    : `${c.made ?? "nothing"} made, up to ${c.upper} unknown`) + (c.answered_by
      ? ` (answered by seat ${c.answered_by.bidder}'s solves${c.answered_by.mirrored ? ", the other side of the same deal" : ": the same deal"})`
      : ` (${c.solves} solves, ${fmtInt(c.nodes)} trick starts)`);
  const columns = [["trump", t => SUIT_NAMES[t] + " " + t]].concat(seats.map(s => [`seat ${s}`, t => {
    const c = cell(t, s);
    return el("span", { title: title(c), class: c.exact ? "" : "open" }, c.text);
  }, `seat-${s}`]));
  const said = [el("p", { class: "note" }, `Cards passed: ${m.exchange_text}. Lowest contract ${m.lowest_contract}; searches of ${fmtInt(m.limit)} trick starts first, then ten times longer for the cells still open, ${fmtInt(m.nodes)} trick starts searched${m.budget ? ` of a budget of ${fmtInt(m.budget)}` : ""}. ${m.seconds.toFixed(1)} s.`)];
  if (view && view.bidder !== null && view.bid) {
    const best = m.cells.filter(c => c.bidder === view.bidder && c.made !== null).sort((a, b) => b.made - a.made)[0];
    const here = view.trump ? m.cells.find(c => c.bidder === view.bidder && c.trump === view.trump) : null;
    const parts = [`Seat ${view.bidder} bid ${view.bid}`];
    if (here) parts.push(`in ${SUIT_NAMES[view.trump]} his side could have bid ${here.text} double dummy`);
    if (best && (!here || best.trump !== here.trump)) parts.push(`his best trump was ${SUIT_NAMES[best.trump]} (${best.text})`);
    if (!best) parts.push("no trump makes even the lowest contract for his side");
    said.unshift(el("p", { id: "makeable-bidder" }, parts.join("; ") + "."));
  }
  $("#makeable-table").replaceChildren(table(columns, trumps, "makeable-table"), ...said);
}

function forgetMakeable() {  // a new deal: the table shown is of the old one
  const now = JSON.stringify([Number($("#seed").value), dealLines(), $("#variant").value]);
  if (madeFor && now !== madeFor) { $("#makeable-table").replaceChildren(); madeFor = ""; }
}

// --- entering a deal by tapping: pick a seat, tap its cards in the deck ----------------------------
let deck = null;        // /api/deck's answer for the rules picked
let entered = [];       // one list of cards per seat
let enterSeat = 0;

function parseCards(text) {
  return text.toUpperCase().replace(/♠/g, "S").replace(/♥/g, "H").replace(/♦/g, "D").replace(/♣/g, "C")
    .split(/[\s,]+/).filter(Boolean).map(t => t.startsWith("T") ? "10" + t.slice(1) : t);
}

function usedCount(card) { return entered.reduce((n, h) => n + h.filter(c => c === card).length, 0); }

function enteredText() {
  const rest = deck.cards.flatMap(c => Array(Math.max(0, c.copies - usedCount(c.card))).fill(c.card));
  const full = entered.every(h => h.length === deck.hand_size);
  return entered.map(h => h.join(" ")).concat(full ? [rest.join(" ")] : []).join("\n");
}

function drawEntry() {
  if (!deck) return;
  $("#enter-seats").replaceChildren(...entered.map((h, s) => el("div", { class: "enter-seat" + (s === enterSeat ? " chosen" : ""), "data-seat": s },
    el("button", { type: "button", class: "seat-pick", "aria-pressed": s === enterSeat ? "true" : "false", onclick: () => { enterSeat = s; drawEntry(); } },
      `seat ${s}${s === deck.players - 1 ? " (dealer)" : ""} · ${h.length} of ${deck.hand_size}`),
    el("span", { class: "enter-hand" }, h.map((c, i) => el("button", {
      type: "button", class: "card small", "data-card": c, title: `take ${c} back`,
      onclick: () => { entered[s].splice(i, 1); enterSeat = s; syncEntry(); },
    }, c))))));
  const full = entered[enterSeat].length >= deck.hand_size;
  const grid = $("#enter-grid");
  grid.replaceChildren();
  for (const suit of ["S", "H", "D", "C"]) {
    const row = el("div", { class: `suit suit-${suit}` }, el("span", { class: "suit-name", "aria-hidden": "true" }, SUIT_NAMES[suit]));
    for (const rank of RANKS) {  // every rank, so that a card this deck lacks shows greyed out
      const card = rank + suit, copies = (deck.cards.find(c => c.card === card) || { copies: 0 }).copies;
      const left = copies - usedCount(card);
      row.append(el("button", {
        type: "button", class: "card", "data-card": card, disabled: left <= 0 || full,
        title: copies ? `${card}: ${left} of ${copies} left` : `${card}: not in this deck`, onclick: () => tapCard(card),
      }, rank, el("sup", {}, copies ? `${left}` : "–")));
    }
    grid.append(row);
  }
  $("#enter-play").disabled = !entered.every(h => h.length === deck.hand_size);
}

function syncEntry() { $("#cards").value = entered.some(h => h.length) ? enteredText() : ""; drawEntry(); }

function tapCard(card) {
  entered[enterSeat].push(card);
  if (entered[enterSeat].length >= deck.hand_size) {  // full: on to the next seat still short
    const next = entered.findIndex(h => h.length < deck.hand_size);
    if (next >= 0) enterSeat = next;
  }
  syncEntry();
}

async function loadDeck() {
  try { deck = await post("/api/deck", rules()); } catch (e) { deck = null; return; }
  const lines = ($("#cards").value || "").split("\n");
  entered = Array.from({ length: deck.players }, (_, s) => parseCards(lines[s] || "").slice(0, deck.hand_size));
  enterSeat = Math.max(0, entered.findIndex(h => h.length < deck.hand_size));
  drawEntry();
}

$("#enter-play").addEventListener("click", () => { moves = []; refresh(); });
$("#enter-clear").addEventListener("click", () => { entered = entered.map(() => []); enterSeat = 0; syncEntry(); });
$("#cards").addEventListener("change", loadDeck);

$("#analyse").addEventListener("click", analyse);
$("#makeable").addEventListener("click", makeable);
$("#makeable-exchange").addEventListener("change", () => { if (madeFor) makeable(); });
$("#new").addEventListener("click", () => { moves = []; refresh(); });
$("#heuristic").addEventListener("click", () => refresh({ then: "heuristic" }));
$("#finish").addEventListener("click", () => refresh({ then: "finish" }));
$("#undo").addEventListener("click", () => {
  // back to before the last card played, with the heuristic's steps before it
  let i = moves.length - 1;
  while (i >= 0 && moves[i] === HEURISTIC) i--;
  moves = moves.slice(0, Math.max(0, i));
  refresh();
});
$("#values").addEventListener("change", () => {
  keepPosition();
  if ($("#values").checked) refresh(); else { stopValues(); view.values = null; view.values_exact = null; view.values_note = null; draw(false); }
});
hookRulesFile(() => { moves = []; $("#cards").value = ""; loadDeck(); refresh(); });
readPosition();
loadDeck();
refresh();
