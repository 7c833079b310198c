// My hand: the card grid, the meld under each trump, the bid curve and the odds of what the others hold.
// The page's state (system, hand, seat, deals, seed, given) is kept in its URL, so a reload or a shared
// link opens the same hand.
"use strict";

const SUIT_NAMES = { S: "♠", H: "♥", D: "♦", C: "♣" };
let deck = null;          // /api/deck's answer
let counts = {};          // card -> copies picked
let meldTimer = null;
let tapped = false;       // the last change was a tap on the grid (then the meld is scrolled into view)

function cardOrder() { return deck.cards.map(c => c.card); }
function held() { return Object.values(counts).reduce((a, b) => a + b, 0); }

function handText() {
  return cardOrder().flatMap(c => Array(counts[c] || 0).fill(c)).join(" ");
}

function parseTyped(text) {
  const out = {};
  for (let tok of text.toUpperCase().replace(/♠/g, "S").replace(/♥/g, "H").replace(/♦/g, "D").replace(/♣/g, "C").split(/[\s,]+/)) {
    if (!tok) continue;
    if (tok.startsWith("T")) tok = "10" + tok.slice(1);
    out[tok] = (out[tok] || 0) + 1;
  }
  return out;
}

// A card can take one more copy while the deck has one and the hand has room; a tap on a card that
// cannot clears it (a card with none picked is then disabled: greyed, as nothing can be added).
function canAdd(c) { return (counts[c.card] || 0) < c.copies && held() < deck.hand_size; }

function renderGrid() {
  const grid = $("#grid");
  grid.replaceChildren();
  for (const suit of ["S", "H", "D", "C"]) {
    const row = el("div", { class: `suit suit-${suit}` }, el("span", { class: "suit-name", "aria-hidden": "true" }, SUIT_NAMES[suit]));
    for (const c of deck.cards.filter(c => c.card.endsWith(suit))) {
      const n = counts[c.card] || 0, room = canAdd(c);
      row.append(el("button", {
        type: "button", class: "card" + (n ? " picked" : "") + (room ? "" : " full") + (n > c.copies ? " over" : ""),
        "data-card": c.card, "aria-pressed": n ? "true" : "false", disabled: !n && !room,
        title: `${c.card}: ${n} of ${c.copies}` + (room ? "" : n ? "; a tap clears it" : "; the hand is full"), onclick: () => tap(c),
      }, c.card.slice(0, -1), n > 1 ? el("sup", {}, `×${n}`) : ""));
    }
    grid.append(row);
  }
  $("#hand-count").textContent = `${held()} of ${deck.hand_size}`;
}

function tap(c) {
  counts[c.card] = canAdd(c) ? (counts[c.card] || 0) + 1 : 0;
  $("#hand").value = handText();
  tapped = true;
  renderGrid();
  saveState();
  scheduleMeld();
}

function scheduleMeld() {
  clearTimeout(meldTimer);
  meldTimer = setTimeout(showMeld, 150);
}

// The page's state in its URL (query string): what a reload or a shared link reopens.
function saveState() {
  const q = new URLSearchParams();
  const r = rules();
  if (!r.rules_text) q.set("variant", r.variant);
  const hand = $("#hand").value.trim();
  if (hand) q.set("hand", hand);
  for (const [key, box, dflt] of [["seat", "#seat", "0"], ["deals", "#hands", "20000"], ["seed", "#seed", "1"]])
    if ($(box).value && $(box).value !== dflt) q.set(key, $(box).value);
  if ($("#given").value.trim()) q.set("given", $("#given").value.trim());
  history.replaceState(null, "", q.toString() ? `?${q}` : location.pathname);
}

function loadState() {
  const q = new URLSearchParams(location.search);
  if (q.get("variant") && $(`#variant option[value="${CSS.escape(q.get("variant"))}"]`)) $("#variant").value = q.get("variant");
  if (q.get("hand")) $("#hand").value = q.get("hand");
  if (q.get("deals")) $("#hands").value = q.get("deals");
  if (q.get("seed")) $("#seed").value = q.get("seed");
  if (q.get("given")) { $("#given").value = q.get("given"); $("#given-box").open = true; }
  return q.get("seat");
}

async function loadDeck(seat = null) {
  clearErrors();
  try {
    deck = await post("/api/deck", rules());
  } catch (e) { showError(e.field || "variant", e.message); return; }
  const keep = parseTyped($("#hand").value);
  counts = {};
  for (const c of deck.cards) if (keep[c.card]) counts[c.card] = Math.min(keep[c.card], c.copies);
  $("#hand").value = handText();
  const box = $("#seat"), was = seat ?? box.value;
  box.replaceChildren(...Array.from({ length: deck.players }, (_, i) =>
    el("option", { value: i }, i === 0 ? "0 (dealer's left, opens)" : i === deck.players - 1 ? `${i} (dealer)` : String(i))));
  if (was && Number(was) < deck.players) box.value = was;
  $("#widow-section").hidden = !deck.widow_worth;
  $("#widow").replaceChildren();
  $("#hold-note").textContent = holdNote();
  // the places a condition may name in this system (partner only with partners, widow only with one)
  const words = ["me", ...["partner", "left", "right"].filter(p => deck.places.includes(p)), "seat N", "any", ...(deck.places.includes("widow") ? ["widow"] : [])];
  $("#given-places").replaceChildren(...words.flatMap((w, i) => [i ? ", " : "", el("code", {}, w)]));
  renderGrid();
  saveState();
  showMeld();
}

// What "what the others hold" covers, in this system's words: partner only where it has partners,
// the widow only where it deals one.
function holdNote() {
  const names = { partner: "partner's hand", left: "my left opponent's", right: "my right opponent's", any_other: "any other player's", widow: "the widow" };
  const places = deck.places.filter(p => names[p]).map(p => names[p]);
  const list = places.length > 1 ? `${places.slice(0, -1).join(", ")} and ${places[places.length - 1]}` : places[0];
  return `Given my cards: the chance of each meld in ${list}. Melds no hand of ${deck.variant}'s deck can hold are left out.`;
}

// Cards typed that the deck does not have, in one line: tokens that are whole cards (a token being
// typed, or one that is no card at all, is left to the server's message); the server refuses too many copies.
function unknownCards(typed) {
  const known = new Set(cardOrder());
  const bad = Object.keys(typed).filter(c => /^(A|10|K|Q|J|9)[SHDC]$/.test(c) && !known.has(c));
  return bad.length ? `${bad.join(" ")}: not in ${deck.variant}'s deck (${deck.cards.length} kinds of card: ${cardOrder().join(" ")})` : "";
}

async function showMeld() {
  const box = $("#meld");
  const hand = $("#hand").value.trim();
  $('.error[data-for="hand"]').textContent = "";
  const bad = unknownCards(parseTyped(hand));
  if (bad) { showError("hand", bad); box.replaceChildren(); return; }
  const n = held();
  if (n < deck.hand_size) {
    box.replaceChildren(el("p", { class: "note" }, n ? `${deck.hand_size - n} more card${deck.hand_size - n > 1 ? "s" : ""} to see the meld under each trump (bid advice and odds take fewer: the rest are dealt at random).`
      : "Pick cards to see the meld under each trump."));
    return;
  }
  let rows;
  try { rows = await post("/api/meld", { ...rules(), hand }); }
  catch (e) { showError(e.field || "hand", e.message); box.replaceChildren(); return; }
  const byTrump = {};
  for (const r of rows) (byTrump[r.trump] = byTrump[r.trump] || []).push(r);
  box.replaceChildren(...Object.entries(byTrump).map(([trump, rs]) =>
    el("div", { class: "trump" + (rs[0].best ? " best" : ""), "data-trump": trump },
      el("h3", {}, `${SUIT_NAMES[trump]} trump `, el("span", { class: "total" }, rs[0].total), rs[0].best ? el("small", {}, " best") : ""),
      el("ul", {}, rs.filter(r => r.meld).map(r => el("li", { "data-meld": r.meld }, `${r.name}${r.count > 1 ? " ×" + r.count : ""}`, el("span", {}, r.points))))
    )));
  if (tapped) $("#meld-section").scrollIntoView({ block: "start", behavior: "instant" });  // the meld and Bid advice, under the thumb
  tapped = false;
}

async function advise() {
  clearErrors();
  saveState();
  const hand = $("#hand").value.trim();
  if (!hand) { showError("hand", "hand: pick some cards first"); return; }
  const given = $("#given").value.trim() || null;
  const body = { ...rules(), hand, seat: Number($("#seat").value), hands: Number($("#hands").value), seed: Number($("#seed").value), given };
  const out = $("#advise");
  $("#advise-section").scrollIntoView({ block: "start", behavior: "instant" });
  const hold = holdOdds(body);
  const widow = widowWorth(body);
  if (!deck.has_auction) {
    out.replaceChildren(el("p", { class: "note" }, `${deck.variant} has no auction: no bid to advise.`));
  } else {
    out.replaceChildren();
    try {
      const r = await runJob("/api/advise", body, $("#advise-job"), "advise", " deals", "reading the bids and partner's meld");
      const rows = r.rows, first = rows[0] || {};
      const hi = Object.fromEntries(r.highest.map(h => [h.share, h]));
      // the bid with its interval, where the interval is more than the bid itself
      const said = h => h && h.bid !== null ? `${h.bid}` + ((h.lo !== null || h.hi !== null) && !(h.lo === h.bid && h.hi === h.bid) ? ` (${h.lo ?? "–"}–${h.hi ?? "–"})` : "") : "none";
      out.replaceChildren(
        el("p", { class: "headline", id: "advise-headline" },
          "Made in 50% of deals: ", el("strong", { id: "bid50" }, said(hi[0.5])),
          " · in 75%: ", el("strong", { id: "bid75" }, said(hi[0.75]))),
        el("p", { class: "note" }, `Over ${fmtInt(first.hands)} deals of the unseen cards, played out by the heuristic at every seat; named trump ${SUIT_NAMES[first.named_trump] ?? "none"}. Intervals are 95%.`),
        acceptanceNote(r.acceptance),
        el("div", { class: "pair" }, bidChart(rows, r.highest, $("#advise").clientWidth, "bid-chart"),
          table([["bid", r => r.bid], ["P(make) [95%]", r => fmtPct(r.estimate, r.lo, r.hi), "p"]], rows, "advise-table")),
        partnerMeld(r.headline.partner_meld));
      $("#advise-headline").scrollIntoView({ block: "nearest", behavior: "instant" });
    } catch (e) { showError(e.field || "advise", e.message); }
  }
  await hold;
  await widow;
}

// "given ...: 14,466 of 200,000 deals meet it (7.2%)": how rare the condition is.
function acceptanceNote(a) {
  if (!a) return "";
  const share = a.acceptance;
  return el("p", { class: "note given-note" }, `Given ${a.given}: ${fmtInt(a.accepted)} of ${fmtInt(a.tried)} deals meet it (${fmtPct(share.exact ?? share.estimate)}); only those are kept.`);
}

// Partner's meld as dealt, under the trump I would name: its mean and P(meld >= M).
function partnerMeld(pm) {
  if (!pm) return "";
  const ci = x => `${fmtNum(x.ci95[0])}–${fmtNum(x.ci95[1])}`;
  return el("div", { class: "partner-meld" },
    el("h3", {}, "Partner's meld"),
    el("p", {}, `Under ${SUIT_NAMES[pm.trump] || pm.trump} as dealt${deck.before ? ` (before ${deck.before})` : ""}: mean `, el("strong", { id: "partner-mean" }, fmtNum(pm.mean.estimate)),
      ` (${ci(pm.mean)}) over ${fmtInt(pm.deals)} deals.`),
    table([["meld at least", x => x.meld], ["chance [95%]", x => fmtPct(x.estimate, x.ci95[0], x.ci95[1]), "p"]], pm.at_least, "partner-table"));
}

function fmtNum(x) { return x === null || x === undefined ? "–" : String(Number(x.toPrecision(4))); }

// The widow's worth (systems where the bidder takes the widow): exact, as a job.
async function widowWorth(body) {
  const out = $("#widow");
  out.replaceChildren();
  if (!deck.widow_worth) return;
  if (held() !== deck.hand_size) {
    out.append(el("p", { class: "note" }, `The widow's worth needs the whole hand (${deck.hand_size} cards).`));
    return;
  }
  try {
    const r = await runJob("/api/widow", { ...rules(), hand: body.hand }, $("#widow-job"), "widow", " distinct widows", "weighing them");
    const how = r.trump_after_widow ? "trump named after the widow: the best trump after it against the best before"
      : `trump named before the widow (${SUIT_NAMES[r.named_trump] ?? "none"}, the heuristic's from my hand): the gain under it`;
    const gains = r.gain.at_least, step = Math.ceil(gains.length / 12);
    const shown = gains.filter((_, i) => i % step === 0);
    const widowRows = picks => table([["widow", w => w.cards, "cards"], ["chance", w => fmtPct(w.p), "p"],
      ["meld after", w => Object.entries(w.meld_after).map(([t, m]) => `${SUIT_NAMES[t] || t}${m}`).join(" "), "after"]], picks, "widow-list");
    out.replaceChildren(
      el("p", { class: "headline" }, "Mean gain: ", el("strong", { id: "widow-gain" }, `${r.gain.mean >= 0 ? "+" : ""}${r.gain.mean.toFixed(2)}`), " points"),
      el("p", { class: "note" }, `${how}; over ${fmtInt(r.rows[0].widows)} widows (${fmtInt(r.distinct_widows)} distinct), every one counted.`),
      table([["trump", x => SUIT_NAMES[x.trump] || x.trump, "trump"], ["before", x => x.before], ["after (mean)", x => x.mean_after.toFixed(2), "after"], ["gain (mean)", x => x.mean_gain.toFixed(2), "gain"]], r.rows, "widow-table"),
      el("p", {}, "Chance the widow gains at least X points: "),
      el("ul", { class: "inline", id: "widow-at-least" }, shown.map(([x, p]) => el("li", { "data-x": x }, `${x}: `, el("strong", {}, fmtPct(p))))),
      el("h3", {}, "Best widows"), widowRows(r.best),
      el("h3", {}, "Likeliest widows"), widowRows(r.likeliest));
  } catch (e) { showError(e.field || "widow", e.message); }
}

const PLACE_NAMES = { me: "me", partner: "partner", left: "left opp.", right: "right opp.", any_other: "any other", table: "table", widow: "widow" };

async function holdOdds(body) {
  const out = $("#hold");
  out.replaceChildren();
  $("#hold-count").textContent = "";
  try {
    const r = await runJob("/api/hold-odds", { ...rules(), hand: body.hand, hands: Math.min(4000000, body.hands * 20), seed: body.seed, given: body.given },
      $("#hold-job"), "hold", " deals", "working out the exact values");
    const places = [...new Set(r.rows.map(x => x.place))].filter(p => p !== "me" && p !== "table");
    const at = {};
    for (const x of r.rows) at[`${x.event}|${x.place}`] = x;
    const nameOf = ev => at[`${ev}|me`].name;
    // an event no other hand can hold, given my cards (exactly 0 wherever it is known and never seen)
    const never = ev => places.every(p => { const x = at[`${ev}|${p}`]; return !x || (x.exact === 0 || (x.exact === null && x.estimate === 0 && x.hi < 1e-4)); });
    const all = [...new Set(r.rows.map(x => x.event))];
    const events = all.filter(ev => !never(ev)), dropped = all.filter(never);
    const cell = (ev, p) => {
      const x = at[`${ev}|${p}`];
      if (!x) return "";
      // exact plainly, a simulated chance marked ≈ (as the report prints them); "1 in N" under even, which
      // a phone leaves out to keep one line per meld
      const known = x.exact !== null, chance = known ? x.exact : x.estimate;
      return el("span", { title: `simulated ${fmtPct(x.estimate, x.lo, x.hi)}` + (known ? `; exact ${fmtPct(x.exact)}` : "") },
        (known ? "" : "≈ ") + fmtPct(chance), chance > 0 && chance < 0.5 ? el("small", { class: "odds" }, ` (${fmtOneIn(chance)})`) : "");
    };
    $("#hold-count").textContent = `(${events.length} melds)`;
    out.replaceChildren(
      el("p", { class: "note" }, `Exact where one hand settles it, else simulated over ${fmtInt(r.rows[0].deals)} deals of the cards I do not hold (≈; hover or press for its 95% interval).`),
      acceptanceNote(r.acceptance),
      el("div", { class: "scroll" }, table([["meld", nameOf, "event", ""], ...places.map(p => [PLACE_NAMES[p] || p, ev => cell(ev, p), p])], events, "hold-table")),
      dropped.length ? el("p", { class: "note" }, `Not listed, as no other hand can hold them given my cards: ${dropped.map(nameOf).join(", ")}.`) : "");
  } catch (e) { showError(e.field || "hold", e.message); }
}

$("#hand").addEventListener("input", () => {
  const typed = parseTyped($("#hand").value);
  counts = {};
  for (const c of deck.cards) if (typed[c.card]) counts[c.card] = typed[c.card];
  tapped = false;
  renderGrid();
  saveState();
  scheduleMeld();
});
$("#clear").addEventListener("click", () => { counts = {}; $("#hand").value = ""; renderGrid(); saveState(); showMeld(); });
$("#go").addEventListener("click", advise);
// The chart is drawn at the width it has: drawn again when that changes (a phone turned, a window resized).
let chartWidth = null;
addEventListener("resize", () => {
  const old = $("#bid-chart"), w = $("#advise").clientWidth;
  if (!old || w === chartWidth) return;
  chartWidth = w;
  old.replaceWith(bidChart(old.chartRows, old.chartHighest, w, "bid-chart"));
});
for (const box of ["#seat", "#hands", "#seed", "#given"]) $(box).addEventListener("change", saveState);
// "What the others hold" is long: open at once on a wide screen, folded on a phone.
$("#hold-box").open = !matchMedia("(max-width: 480px)").matches;
hookRulesFile(() => loadDeck());
const seatAsked = loadState();
loadDeck(seatAsked);
