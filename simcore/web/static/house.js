// House rules: the committed verdict of each question, and the question asked of another system. The
// page's state (question, system, size) is kept in its URL, so a reload or a shared link asks the same.
"use strict";

const committed = JSON.parse($("#committed-data").textContent);
const sides = JSON.parse($("#sides-data").textContent);  // question -> {a, b}: A and B in a player's words

function verdictTable(rows, cols) {
  return el("div", { class: "scroll" }, table(cols, rows, "verdict-table stack"));
}

// A measure's value as the report prints it: a rate as a percentage, a difference of rates in
// percentage points, anything else as a plain number, with the digits that tell a difference from its
// threshold of practical size (analyses/house_rules.py's table).
const value = (kind, x) => kind === "rate" ? fmtPct(x, null, null, 1) : fmtNumber(x);
const diff = (kind, x, lo, hi, t) => {
  const scale = kind === "rate" ? 100 : 1, threshold = missing(t) ? null : scale * t;
  return fmtSigned(scale * x, scale * lo, scale * hi, kind === "rate" ? " pp" : "", 1, threshold);
};

function saveState() {
  const q = new URLSearchParams({ question: $("#question").value });
  const opt = $("#question").selectedOptions[0];
  if ($("#variant").value !== opt.dataset.variant) q.set("variant", $("#variant").value);
  if ($("#hands").value !== "5000") q.set("hands", $("#hands").value);
  history.replaceState(null, "", `?${q}`);
}

function showCommitted(keepSystem = false) {
  const q = $("#question").value, row = committed[q], side = sides[q];
  const opt = $("#question").selectedOptions[0];
  if (!keepSystem) $("#variant").value = opt.dataset.variant;
  $("#question-title").textContent = opt.textContent;
  $("#changes").textContent = `A: ${side.a}; B: ${side.b}.`;
  const box = $("#committed");
  if (!row) { box.replaceChildren(el("p", { class: "note" }, "Not in the committed report: ask it below.")); return; }
  box.replaceChildren(
    el("p", { class: "note" }, `Committed report: ${row.variant}, ${fmtInt(row.n)} paired ${row.mode}.`),
    verdictTable([row], [["measure", r => r.measure, "measure", ""], ["A", r => value(r.kind, r.a)], ["B", r => value(r.kind, r.b)],
      ["B − A", r => diff(r.kind, r.diff, r.diff_lo, r.diff_hi, r.threshold), "diff"], ["size", r => r.size, "size"]]),
    el("p", { class: "verdict" }, row.verdict));
}

async function ask() {
  clearErrors();
  saveState();
  const body = { question: $("#question").value, variant: $("#variant").value, hands: Number($("#hands").value) };
  const side = sides[body.question];
  const out = $("#asked");
  out.replaceChildren();
  try {
    const unit = ` ${$("#question").selectedOptions[0].dataset.mode}`;
    const r = await runJob("/api/compare", body, $("#compare-job"), "compare", unit, "reading the verdict");
    const first = r.rows[0] || {};
    const kind = x => x.kind || "points";
    out.replaceChildren(
      el("p", { class: "note" }, `${body.variant}: A, ${side.a}, against B, ${side.b}; ${fmtInt(first.n)} paired ${first.mode}, seed ${first.seed}.`),
      verdictTable(r.rows, [["measure", x => x.measure, "measure", ""], ["A", x => value(kind(x), x.a), "a"],
        ["B", x => value(kind(x), x.b), "b"], ["B − A", x => diff(kind(x), x.estimate, x.lo, x.hi, x.threshold), "diff"],
        ["size", x => x.size, "size"]]),
      el("p", { class: "verdict" }, r.verdict));
  } catch (e) { showError(e.field || "compare", e.message); }
}

function loadState() {
  const q = new URLSearchParams(location.search);
  const pick = (box, v) => { if (v && $(`${box} option[value="${CSS.escape(v)}"]`)) $(box).value = v; };
  pick("#question", q.get("question"));
  showCommitted();
  pick("#variant", q.get("variant"));
  if (q.get("hands")) $("#hands").value = q.get("hands");
}

$("#question").addEventListener("change", () => { showCommitted(); saveState(); });
for (const box of ["#variant", "#hands"]) $(box).addEventListener("change", saveState);
$("#go").addEventListener("click", ask);
loadState();
