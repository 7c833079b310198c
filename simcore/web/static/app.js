// Shared by every page: the rules picker, JSON calls with errors shown beside their field, background
// jobs with progress and cancel, the warm-up note, and small formatting helpers. Plain JS, no library.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const MAX_RULES = 20000;

function rules() {
  const text = $("#rules-text") ? $("#rules-text").value : "";
  return { variant: $("#variant") ? $("#variant").value : "four-hand-150", rules_text: text.trim() ? text : null };
}

function hookRulesFile(onChange) {
  const file = $("#rules-file");
  if (file) file.addEventListener("change", () => {
    const f = file.files[0];
    if (!f) return;
    if (f.size > MAX_RULES) { showError("rules", `${f.name}: ${f.size} bytes; a rules file here is at most ${MAX_RULES}`); return; }
    f.text().then(t => { $("#rules-text").value = t; if (onChange) onChange(); });
  });
  if ($("#variant")) $("#variant").addEventListener("change", () => onChange && onChange());
  if ($("#rules-text")) $("#rules-text").addEventListener("change", () => onChange && onChange());
}

class ApiError extends Error {
  constructor(message, field, status) { super(message); this.field = field; this.status = status; }
}

function showError(field, message) {
  const box = $(`.error[data-for="${field}"]`) || $(".error[data-for]");
  if (box) { box.textContent = message; box.hidden = false; }
}

function clearErrors() {
  $$(".error[data-for]").forEach(e => { e.textContent = ""; });
}

async function call(method, url, body) {
  const init = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) init.body = JSON.stringify(body);
  let resp;
  try { resp = await fetch(url, init); } catch (e) { throw new ApiError("the server does not answer", null, 0); }
  const data = await resp.json().catch(() => ({ error: `${resp.status} ${resp.statusText}` }));
  if (!resp.ok) throw new ApiError(data.error || `${resp.status}`, data.field, resp.status);
  return data;
}

const post = (url, body) => call("POST", url, body);

// Start a job and follow it: progress bar ("1,200 of 4,000 deals"), elapsed time, a cancel button;
// resolves with its result, rejects with an ApiError (its field, or fallback) when it fails or is cancelled.
// `unit` names what is counted (" deals"); `after` says what the job does once every one is counted
// (the exact values, the verdict), shown instead of a full bar that seems stuck.
async function runJob(url, body, box, fallback, unit = "", after = "working out the answer") {
  const bar = $("progress", box), text = $(".job-text", box), cancel = $(".cancel", box);
  box.hidden = false; bar.removeAttribute("value"); text.textContent = "starting…";
  let job = await post(url, body).catch(e => { box.hidden = true; throw e; });
  const stop = () => call("DELETE", `/api/jobs/${job.id}`).catch(() => {});
  cancel.onclick = stop; cancel.disabled = false;
  box.dataset.job = job.id;
  try {
    while (job.status === "queued" || job.status === "running") {
      if (box.dataset.job === job.id) {  // a newer job may have taken the box
        text.textContent = jobPhase(job, unit, after);
        if (job.total && job.done < job.total) bar.value = job.fraction; else bar.removeAttribute("value");
      }
      await new Promise(r => setTimeout(r, 300));
      job = await call("GET", `/api/jobs/${job.id}`);
    }
  } finally {
    if (box.dataset.job === job.id) { box.hidden = true; cancel.onclick = null; }  // not if a newer job took the box
  }
  if (job.status !== "done") throw new ApiError(job.error, job.field || fallback, 0);
  return job.result;
}

// What a job is doing, in words: waiting, starting, "1,200 of 4,000 deals · 3 s", or, once all are
// counted, "all 4,000 deals counted; working out the exact values… · 5 s".
function jobPhase(job, unit, after) {
  if (job.status === "queued") return warmingUp ? "waiting for the warm-up…" : "waiting for a free worker…";
  const s = ` · ${Math.round(job.seconds)} s`;
  if (!job.total) return "starting…" + s;
  if (job.done >= job.total) return `all ${fmtInt(job.total)}${unit} counted; ${after}…${s}`;
  return `${fmtInt(job.done)} of ${fmtInt(job.total)}${unit}${s}`;
}

// Numbers for people, by the rules of the report's formatting (analyses/fmt.py; the browser tests
// hold these to it): percentages "54%", "3.9%", "0.0075%"; odds "1 in 393"; signed differences
// "+1.9 [+1.7 to +2.1]"; never scientific notation.
function missing(x) { return x === null || x === undefined || !Number.isFinite(x); }
function fmtInt(n) { return Number(n).toLocaleString("en-US"); }
function fixed(x, d) { return x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }); }
function decimalsForPercent(v) {
  v = Math.abs(v);
  if (v >= 10 || v === 0) return 0;
  if (v >= 1) return 1;
  return Math.min(4, 1 - Math.floor(Math.log10(v)));
}
// fmt.pct: a share as a percentage, with its interval only where it shows at the digits printed.
function fmtPct(p, lo = null, hi = null, decimals = null) {
  if (missing(p)) return "–";
  const d = decimals ?? decimalsForPercent(100 * p), f = x => (100 * x).toFixed(d);
  if (missing(lo) || missing(hi)) return f(p) + "%";
  const [a, e, b] = [f(lo), f(p), f(hi)];
  return a === e && e === b ? e + "%" : `${e}% [${a}–${b}%]`;
}
// fmt.one_in: "1 in 393" (whole numbers from 100 up, three significant digits below); "never" for 0.
function fmtOneIn(p) {
  if (missing(p)) return "–";
  if (p <= 0) return "never";
  const n = 1 / p;
  return "1 in " + (n >= 100 ? fixed(n, 0) : String(Number(n.toPrecision(3))));
}
// fmt.number: thousands separated from 1,000, else `digits` significant digits.
function fmtNumber(x, digits = 3) {
  if (missing(x)) return "–";
  if (Math.abs(x) >= 1000) return fixed(x, 0);
  if (x === 0) return "0";
  return x.toFixed(Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(x)))));
}
// fmt.decimals_apart: decimals at which |x| and its threshold print differently (at most 4).
function decimalsApart(x, threshold, d) {
  if (missing(x) || missing(threshold) || Math.abs(x) === threshold) return d;
  while (d < 4 && Math.abs(x).toFixed(d) === threshold.toFixed(d)) d += 1;
  return d;
}
// fmt.signed: a signed difference "+1.9 [+1.7 to +2.1]", digits chosen so the interval shows and, with a
// threshold, so the value never prints as the threshold it is judged against.
function fmtSigned(x, lo = null, hi = null, unit = "", digits = 1, threshold = null) {
  if (missing(x)) return "–";
  const both = !missing(lo) && !missing(hi);
  const half = both ? (hi - lo) / 2 : 0, ref = half > 0 ? half : Math.abs(x);
  let d = ref === 0 ? 0 : Math.min(4, Math.max(0, digits - 1 - Math.floor(Math.log10(ref))));
  if (Math.abs(x) < 10 && half >= 1) d = Math.max(d, 1);
  if (Math.abs(x) >= 100) d = 0;
  if (threshold !== null) d = decimalsApart(x, threshold, d);
  const s = v => (v < 0 ? "−" : "+") + fixed(Math.abs(v), d);
  if (!both) return s(x) + unit;
  const [a, e, b] = [s(lo), s(x), s(hi)];
  return a === e && e === b ? e + unit : `${e}${unit} [${a} to ${b}]`;
}
// A chance as a player reads it: the percentage, with "1 in N" beside it where that reads sensibly
// (under even: 94% is not "1 in 1"); one too small for a percentage's four decimals as odds only.
function fmtChance(p) {
  if (missing(p)) return "–";
  if (p > 0 && p < 1e-6) return fmtOneIn(p);
  return p > 0 && p < 0.5 ? `${fmtPct(p)} (${fmtOneIn(p)})` : fmtPct(p);
}

// A table from columns [title, cell(row), data-col name, label]; each cell carries its label (default:
// the title), which a "stack" table shows beside the value on a phone, one block per row.
function table(columns, rows, cls = "") {
  return el("table", { class: cls },
    el("thead", {}, el("tr", {}, columns.map(c => el("th", { scope: "col" }, c[0])))),
    el("tbody", {}, rows.map(r => el("tr", {}, columns.map(c => el("td", { "data-col": c[2] || c[0], "data-label": c[3] ?? c[0] }, c[1](r)))))));
}

// The warm-up note: numba compiles the kernels on their first use, the answers' first, then the
// double-dummy solver's (only the deal viewer's values, analyses and makeable tables wait for those).
// warmingUp: the note says that this page's jobs wait for a warm-up.
let warmingUp = false;
async function watchWarmup() {
  const note = $("#warmup");
  const solverPage = location.pathname === "/deal";
  for (;;) {
    let s;
    try { s = await call("GET", "/api/status"); } catch (e) { return; }
    const w = s.warmup, solver = w.solver || { state: "ready" };
    const done = state => state === "ready" || state === "failed";
    let text = "";
    if (!done(w.state)) text = "Warming up: compiling the simulation kernels (about a minute after a fresh install; seconds after). First answers wait for it.";
    else if (w.state === "failed") text = `Warm-up failed (${w.error}); first answers will be slow.`;
    else if (solverPage && !done(solver.state)) text = "Warming up: compiling the double-dummy solver (about a minute after a fresh install). The values, analysis and makeable bids wait for it; the deal and its play do not.";
    else if (solverPage && solver.state === "failed") text = `The solver's warm-up failed (${solver.error}); the first values will be slow.`;
    note.hidden = !text;
    note.textContent = text;
    warmingUp = !!text && !text.includes("failed");
    if (done(w.state) && (done(solver.state) || !solverPage)) return;
    await new Promise(r => setTimeout(r, 2000));
  }
}
watchWarmup();
