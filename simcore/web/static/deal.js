// Deal viewer: a seeded or entered deal, played card by card; the page sends the decisions so far and
// draws the view the server sends back.
"use strict";

const HEURISTIC = -1;
let view = null;
let moves = [];

function dealBody(extra = {}) {
  const text = $("#cards").value.trim();
  const cards = text ? $("#cards").value.replace(/\s+$/, "").split("\n").slice(0, 9) : null;
  return { ...rules(), seed: Number($("#seed").value), cards, moves, values: $("#values").checked, ...extra };
}

let shown = 0;  // views drawn: a values job answers only the view it was started for

async function refresh(extra = {}) {
  clearErrors();
  stopValues();
  $("#table").classList.add("busy");
  try {
    view = await post("/api/deal", dealBody({ ...extra, values: false }));
    moves = view.moves;
    draw();
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
    view.values = r.values; view.values_note = r.values_note;
    draw();
    document.body.dataset.valued = Number(document.body.dataset.valued || 0) + 1;  // for tests
  } catch (e) {
    if (which === shown && e.message !== "cancelled") showError(e.field || "values", e.message);
    if (which === shown && e.message === "cancelled") { view.values_note = "values cancelled"; draw(); }
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

function draw() {
  const v = view;
  const status = v.over ? `Over: the hand adds ${v.returns.join(", ")} to the seats' scores.`
    : `Seat ${v.to_act} to play.`;
  $("#summary").replaceChildren(
    el("span", {}, `Bid ${v.bid ?? "–"} by seat ${v.bidder ?? "–"}, trump ${v.trump ?? "none"}`),
    v.meld ? el("span", {}, ` · meld ${v.meld.join(", ")}`) : "",
    el("span", {}, ` · trick points ${v.points.join(", ")}`),
    el("strong", { id: "status" }, " " + status));
  const legal = Object.fromEntries(v.legal.map(a => [a.card, a.code]));
  const seats = v.hands.map((hand, s) => {
    const mine = s === v.to_act;
    const cards = hand.map(c => {
      const playable = mine && c in legal;
      const value = playable && v.values ? v.values[c] : undefined;
      const exact = v.values_exact ? v.values_exact[c] !== false : true;
      return el("button", {
        type: "button", class: "card" + (playable ? " legal" : ""), disabled: !playable, "data-card": c,
        onclick: playable ? () => { moves.push(legal[c]); refresh(); } : null,
      }, c, value !== undefined ? el("small", { class: "dd" + (exact ? "" : " estimated") }, value === null ? "?" : (exact ? "" : "≈") + String(value)) : "");
    });
    const played = v.trick.find(([ts]) => ts === s);
    return el("div", { class: "seat" + (mine ? " to-act" : ""), "data-seat": s },
      el("h3", {}, seatName(s), played ? el("span", { class: "played" }, ` played ${played[1]}`) : ""),
      el("div", { class: "hand" }, cards));
  });
  $("#table").replaceChildren(...seats,
    v.values_note ? el("p", { class: "note" }, v.values_note) : "");
  $("#tricks").replaceChildren(v.tricks.length ? table(
    [["#", (t, i) => t.n], ["led by", t => t.leader], ["cards", t => t.cards.join(" ")], ["won by", t => t.winner], ["points", t => t.points]],
    v.tricks.map((t, i) => ({ ...t, n: i + 1 })).reverse(), "tricks-table") : "");
  $("#heuristic").disabled = $("#finish").disabled = v.over;
  $("#analyse").hidden = !v.over;
  if (!v.over) $("#analysis").replaceChildren();
  $("#undo").disabled = !moves.some(m => m !== HEURISTIC);
  document.body.dataset.drawn = Number(document.body.dataset.drawn || 0) + 1;  // for tests: a new view is up
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

$("#analyse").addEventListener("click", analyse);
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
$("#values").addEventListener("change", () => { if ($("#values").checked) refresh(); else { stopValues(); view.values = null; view.values_note = null; draw(); } });
hookRulesFile(() => { moves = []; refresh(); });
refresh();
