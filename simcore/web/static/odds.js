// Odds: dealt-hand events per hand and per deal, simulated beside the exact values.
"use strict";

async function deal() {
  clearErrors();
  const events = $$("#events option").filter(o => o.selected).map(o => o.value);
  const extra = $("#extra").value.trim();
  if (extra) events.push(...extra.split(/[\s,]+/).filter(Boolean));
  const body = { ...rules(), events: events.length ? events : null, hands: Number($("#hands").value), seed: Number($("#seed").value) };
  const out = $("#odds");
  out.replaceChildren();
  try {
    const r = await runJob("/api/odds", body, $("#odds-job"), "odds");
    const rows = r.rows, first = rows[0] || {};
    const names = [...new Set(rows.map(x => x.event))];
    const at = {};
    for (const x of rows) at[`${x.event}|${x.per}`] = x;
    const sim = (ev, per) => { const x = at[`${ev}|${per}`]; return `${fmtP(x.estimate)} [${fmtP(x.lo)}, ${fmtP(x.hi)}]`; };
    const exact = (ev, per) => fmtP(at[`${ev}|${per}`].exact);
    const oneIn = (ev, per) => { const x = at[`${ev}|${per}`]; return x.exact ? `1 in ${fmtInt(Math.round(1 / x.exact))}` : x.one_in ? `1 in ${fmtInt(Math.round(x.one_in))}` : "–"; };
    out.replaceChildren(
      el("p", { class: "note" }, `${first.variant}: ${fmtInt(first.hands)} hands in ${fmtInt(first.deals)} deals, seed ${first.seed}; simulated with its 95% interval beside the exact value (– where not known exactly).`),
      el("div", { class: "scroll" }, table([
        ["event", ev => ev, "event", ""],
        ["per hand", ev => sim(ev, "hand"), "hand"], ["exact", ev => exact(ev, "hand"), "hand-exact", "hand, exact"], ["", ev => oneIn(ev, "hand"), "hand-one-in", "hand, odds"],
        ["per deal", ev => sim(ev, "deal"), "deal"], ["exact", ev => exact(ev, "deal"), "deal-exact", "deal, exact"], ["", ev => oneIn(ev, "deal"), "deal-one-in", "deal, odds"],
      ], names, "odds-table stack")));
  } catch (e) { showError(e.field || "odds", e.message); }
}

$("#go").addEventListener("click", deal);
hookRulesFile(null);
