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

// Start a job and follow it: progress bar ("done of total" + unit), elapsed time, a cancel button;
// resolves with its result, rejects with an ApiError (its field, or fallback) when it fails or is cancelled.
async function runJob(url, body, box, fallback, unit = "") {
  const bar = $("progress", box), text = $(".job-text", box), cancel = $(".cancel", box);
  box.hidden = false; bar.removeAttribute("value"); text.textContent = "starting…";
  let job = await post(url, body).catch(e => { box.hidden = true; throw e; });
  const stop = () => call("DELETE", `/api/jobs/${job.id}`).catch(() => {});
  cancel.onclick = stop; cancel.disabled = false;
  box.dataset.job = job.id;
  try {
    while (job.status === "queued" || job.status === "running") {
      if (box.dataset.job === job.id) {  // a newer job may have taken the box
        if (job.fraction !== null) bar.value = job.fraction; else bar.removeAttribute("value");
        text.textContent = job.status === "queued" ? "waiting for a free worker…"
          : `${job.total ? fmtInt(job.done) + " of " + fmtInt(job.total) + unit : "running"} · ${job.seconds} s`;
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

function fmtInt(n) { return Number(n).toLocaleString("en-US"); }
function fmtP(p) {
  if (p === null || p === undefined) return "–";
  if (p === 0) return "0";
  if (p < 0.0001) return p.toExponential(2);
  return p >= 0.9995 ? p.toFixed(4) : String(Number(p.toPrecision(3)));
}
function fmtPct(p) { return p === null || p === undefined ? "–" : (100 * p).toFixed(1) + "%"; }
// A chance as a percentage with the digits that show a small one (0.0183%, 58.7%, 100%).
function fmtChance(p) {
  if (p === null || p === undefined) return "–";
  if (p === 0 || p === 1) return `${100 * p}%`;
  return `${Number((100 * p).toPrecision(p < 0.01 ? 3 : Math.min(3, Math.floor(Math.log10(100 * p)) + 2)))}%`;
}

// A table from columns [title, cell(row), data-col name, label]; each cell carries its label (default:
// the title), which a "stack" table shows beside the value on a phone, one block per row.
function table(columns, rows, cls = "") {
  return el("table", { class: cls },
    el("thead", {}, el("tr", {}, columns.map(c => el("th", { scope: "col" }, c[0])))),
    el("tbody", {}, rows.map(r => el("tr", {}, columns.map(c => el("td", { "data-col": c[2] || c[0], "data-label": c[3] ?? c[0] }, c[1](r)))))));
}

// The warm-up note: numba compiles the kernels on their first use.
async function watchWarmup() {
  const note = $("#warmup");
  for (;;) {
    let s;
    try { s = await call("GET", "/api/status"); } catch (e) { return; }
    const w = s.warmup;
    if (w.state === "ready" || w.state === "failed") {
      note.hidden = w.state !== "failed";
      if (w.state === "failed") note.textContent = `Warm-up failed (${w.error}); first answers will be slow.`;
      return;
    }
    note.hidden = false;
    note.textContent = "Warming up: compiling the simulation kernels (about a minute after a fresh install; seconds after). First answers wait for it.";
    await new Promise(r => setTimeout(r, 2000));
  }
}
watchWarmup();
