// House rules: the committed verdict of each question, and the question asked of another system.
"use strict";

const committed = JSON.parse($("#committed-data").textContent);

function verdictTable(rows, cols) {
  return el("div", { class: "scroll" }, table(cols, rows, "verdict-table stack"));
}

const num = x => x === null || x === undefined ? "–" : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3);
const range = (lo, hi) => `[${num(lo)}, ${num(hi)}]`;

function showCommitted() {
  const q = $("#question").value, row = committed[q];
  const opt = $("#question").selectedOptions[0];
  $("#variant").value = opt.dataset.variant;
  const box = $("#committed");
  if (!row) { box.replaceChildren(el("p", { class: "note" }, "Not in the committed report: ask it below.")); return; }
  $("#changes").textContent = `A: ${row.a_is}; B: ${row.b_is}.`;
  box.replaceChildren(
    el("p", { class: "note" }, `Committed report: ${row.variant}, ${fmtInt(row.n)} paired ${row.mode}.`),
    verdictTable([row], [["measure", r => r.measure, "measure", ""], ["A", r => num(r.a)], ["B", r => num(r.b)],
      ["B − A", r => `${num(r.diff)} ${range(r.diff_lo, r.diff_hi)}`, "diff"], ["size", r => r.size, "size"]]),
    el("p", { class: "verdict" }, row.verdict));
}

async function ask() {
  clearErrors();
  const body = { question: $("#question").value, variant: $("#variant").value, hands: Number($("#hands").value) };
  const out = $("#asked");
  out.replaceChildren();
  try {
    const r = await runJob("/api/compare", body, $("#compare-job"), "compare");
    const first = r.rows[0] || {};
    out.replaceChildren(
      el("p", { class: "note" }, `${first.variant_a} (A) against ${first.variant_b} (B), ${fmtInt(first.n)} paired ${first.mode}, seed ${first.seed}.`),
      verdictTable(r.rows, [["measure", x => x.measure, "measure", ""], ["A", x => `${num(x.a)} ${range(x.a_lo, x.a_hi)}`, "a"],
        ["B", x => `${num(x.b)} ${range(x.b_lo, x.b_hi)}`, "b"], ["B − A", x => `${num(x.estimate)} ${range(x.lo, x.hi)}`, "diff"],
        ["size", x => x.size, "size"]]),
      el("p", { class: "verdict" }, r.verdict));
  } catch (e) { showError(e.field || "compare", e.message); }
}

$("#question").addEventListener("change", showCommitted);
$("#go").addEventListener("click", ask);
showCommitted();
