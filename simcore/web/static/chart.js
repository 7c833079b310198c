// The bid curve as an SVG chart: P(make B) by bid with each 95% interval, lines at 50% and 75%.
"use strict";

// `width`: the pixels the chart has (its box's width): the drawing is made at that size, one unit a
// pixel, so that its text is the stylesheet's size on a phone as on a desktop (not a 600-unit drawing
// shrunk to 360 px, text and all).
function bidChart(rows, highest, width = 600, id = null) {
  const W = Math.round(Math.max(280, Math.min(640, width || 600))), H = W < 480 ? 220 : 260;
  const L = 44, R = 12, T = 12, B = 38;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  if (id) svg.id = id;
  svg.chartRows = rows; svg.chartHighest = highest;  // to draw it again at another width
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "P(make) by bid with 95% intervals");
  const add = (tag, attrs, text) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    svg.append(n);
    return n;
  };
  const bids = rows.map(r => r.bid);
  const lo = Math.min(...bids), hi = Math.max(...bids);
  const x = b => L + (hi === lo ? (W - L - R) / 2 : (b - lo) / (hi - lo) * (W - L - R));
  const y = p => T + (1 - p) * (H - T - B);
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    add("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 || p === 0.75 ? "guide" : "grid" });
    add("text", { x: L - 6, y: y(p) + 4, "text-anchor": "end", class: "tick" }, `${p * 100}%`);
  }
  const step = Math.max(1, Math.ceil(rows.length / Math.max(3, Math.floor((W - L - R) / 48))));  // a label every 48 px at most
  let last = -Infinity;  // the last label's x: the last bid is labelled too, unless it would touch it
  rows.forEach((r, i) => {
    const at = x(r.bid);
    if ((i % step === 0 || i === rows.length - 1) && at - last >= 32) {
      add("text", { x: at, y: H - B + 18, "text-anchor": "middle", class: "tick" }, r.bid);
      last = at;
    }
  });
  add("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, "bid");
  for (const r of rows) add("line", { x1: x(r.bid), x2: x(r.bid), y1: y(r.lo), y2: y(r.hi), class: "interval" });
  add("polyline", { points: rows.map(r => `${x(r.bid)},${y(r.estimate)}`).join(" "), class: "curve" });
  for (const r of rows) {
    const dot = add("circle", { cx: x(r.bid), cy: y(r.estimate), r: 3.5, class: "point" });
    const t = document.createElementNS(ns, "title");
    t.textContent = `bid ${r.bid}: ${(100 * r.estimate).toFixed(1)}% [${(100 * r.lo).toFixed(1)}, ${(100 * r.hi).toFixed(1)}]`;
    dot.append(t);
  }
  for (const h of highest || []) {
    if (h.bid === null || h.bid < lo || h.bid > hi) continue;
    add("line", { x1: x(h.bid), x2: x(h.bid), y1: y(h.share), y2: y(0), class: "marker" });
  }
  return svg;
}
