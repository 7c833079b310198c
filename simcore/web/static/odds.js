// Odds: dealt-hand events per hand and per deal, simulated beside the exact values. The page's state
// (system, events, hands, seed) is kept in its URL, so a reload or a shared link asks the same.
"use strict";

// The events a hand of the chosen system can hold, by name (five nines is not offered without nines).
async function loadEvents() {
  clearErrors();
  let deck;
  try { deck = await post("/api/deck", rules()); } catch (e) { showError(e.field || "variant", e.message); return; }
  const box = $("#events"), picked = new Set($$("#events option").filter(o => o.selected).map(o => o.value));
  box.replaceChildren(...deck.events.map(e => el("option", { value: e.event, title: e.help, selected: picked.has(e.event) }, e.name)));
  saveState();
  document.body.dataset.events = Number(document.body.dataset.events || 0) + 1;  // for tests: the list is the system's
}

function saveState() {
  const q = new URLSearchParams(), r = rules();
  if (!r.rules_text) q.set("variant", r.variant);
  const events = $$("#events option").filter(o => o.selected).map(o => o.value);
  if (events.length) q.set("events", events.join(","));
  if ($("#extra").value.trim()) q.set("extra", $("#extra").value.trim());
  if ($("#hands").value !== "1000000") q.set("hands", $("#hands").value);
  if ($("#seed").value !== "1") q.set("seed", $("#seed").value);
  history.replaceState(null, "", q.toString() ? `?${q}` : location.pathname);
}

function loadState() {
  const q = new URLSearchParams(location.search);
  if (q.get("variant") && $(`#variant option[value="${CSS.escape(q.get("variant"))}"]`)) $("#variant").value = q.get("variant");
  const events = new Set((q.get("events") || "").split(",").filter(Boolean));
  $$("#events option").forEach(o => { o.selected = events.has(o.value); });
  if (q.get("extra")) $("#extra").value = q.get("extra");
  if (q.get("hands")) $("#hands").value = q.get("hands");
  if (q.get("seed")) $("#seed").value = q.get("seed");
}

async function deal() {
  clearErrors();
  saveState();
  const events = $$("#events option").filter(o => o.selected).map(o => o.value);
  const extra = $("#extra").value.trim();
  if (extra) events.push(...extra.split(/[\s,]+/).filter(Boolean));
  const body = { ...rules(), events: events.length ? events : null, hands: Number($("#hands").value), seed: Number($("#seed").value) };
  const out = $("#odds");
  out.replaceChildren();
  try {
    const r = await runJob("/api/odds", body, $("#odds-job"), "odds", " deals", "working out the exact odds");
    const rows = r.rows, first = rows[0] || {};
    const shown = [...new Set(rows.map(x => x.event))];
    const at = {};
    for (const x of rows) at[`${x.event}|${x.per}`] = x;
    const sim = (ev, per) => { const x = at[`${ev}|${per}`]; return fmtPct(x.estimate, x.lo, x.hi); };
    const exact = (ev, per) => fmtPct(at[`${ev}|${per}`].exact);
    // "1 in N" where it reads sensibly: for a chance under even (not "1 in 1" for 94%)
    const oneIn = (ev, per) => { const x = at[`${ev}|${per}`], p = x.exact ?? x.estimate; return !missing(p) && p < 0.5 ? fmtOneIn(p) : ""; };
    out.replaceChildren(
      el("p", { class: "note" }, `${first.variant}: ${fmtInt(first.hands)} hands in ${fmtInt(first.deals)} deals, seed ${first.seed}; simulated with its 95% interval beside the exact value (– where not known exactly).`),
      el("div", { class: "scroll" }, table([
        ["meld or hand", ev => at[`${ev}|hand`].name, "event", ""],
        ["per hand", ev => sim(ev, "hand"), "hand"], ["exact", ev => exact(ev, "hand"), "hand-exact", "hand, exact"], ["", ev => oneIn(ev, "hand"), "hand-one-in", "hand, odds"],
        ["per deal", ev => sim(ev, "deal"), "deal"], ["exact", ev => exact(ev, "deal"), "deal-exact", "deal, exact"], ["", ev => oneIn(ev, "deal"), "deal-one-in", "deal, odds"],
      ], shown, "odds-table stack")));
  } catch (e) { showError(e.field || "odds", e.message); }
}

$("#go").addEventListener("click", deal);
for (const box of ["#events", "#extra", "#hands", "#seed"]) $(box).addEventListener("change", saveState);
hookRulesFile(loadEvents);
loadState();
loadEvents();
