// Bidding cards: the rules picker points at the chosen system's committed card; for any other system,
// or pasted rules, a card made on demand (a job with progress, kept by the server once made).
"use strict";

const SYSTEMS = ($("#card-choice").dataset.systems || "").split(" ").filter(Boolean);

async function choose() {
  clearErrors();
  const note = $("#card-choice");
  $$(".card-sheet").forEach(a => a.classList.remove("chosen"));
  $("#made").hidden = true; $("#made").replaceChildren();
  $("#made-box").hidden = true;
  const asked = rules();
  let id = asked.variant, name = asked.variant;
  if (asked.rules_text) {  // pasted rules: read them (errors under the rules field), then say what we have
    try { const d = await post("/api/deck", asked); id = d.variant; name = `your rules (${d.variant}, ${d.name})`; }
    catch (e) { showError(e.field || "rules", e.message); note.textContent = ""; return; }
  }
  if (!asked.rules_text && SYSTEMS.includes(id)) {
    const sheet = document.getElementById(id);
    sheet.classList.add("chosen");
    sheet.scrollIntoView({ block: "start" });
    note.textContent = `${id}: its card is below.`;
    return;
  }
  note.replaceChildren(el("strong", {}, `No committed card for ${name}. `),
    "Make one now at a small size; once made it is kept, and asking again is instant.");
  $("#made-box").hidden = false;
}

async function make() {
  clearErrors();
  $("#make").disabled = true;
  try {
    const c = await runJob("/api/card", rules(), $("#card-job"), "card", " hands dealt and played");
    const made = $("#made");
    made.replaceChildren(
      el("div", { class: "card-text" }),
      el("p", { class: "note noprint" }, c.cached ? "Read back from the results store (made before)." : `Made in ${c.seconds} s and kept.`),
      el("details", { class: "card-png", open: true }, el("summary", { class: "noprint" }, "the printable card (PNG)"),
        el("img", { src: c.png, alt: `bidding card for ${c.system}` })));
    $(".card-text", made).innerHTML = c.html;  // the server's rendering of the card's Markdown, raw HTML escaped
    made.dataset.system = c.system;
    made.hidden = false;
    made.scrollIntoView({ block: "start" });
  } catch (e) { if (e.message !== "cancelled") showError(e.field || "card", e.message); }
  finally { $("#make").disabled = false; }
}

$("#make").addEventListener("click", make);
// The system chosen is kept in the URL (?variant=ID, and #ID where it has a card), so a reload or a
// shared link opens the same card.
function saveState() {
  const id = $("#variant").value, q = new URLSearchParams({ variant: id });
  history.replaceState(null, "", `?${q}` + (SYSTEMS.includes(id) ? `#${id}` : ""));
}

hookRulesFile(() => { saveState(); choose(); });
{
  const asked = new URLSearchParams(location.search).get("variant") || location.hash.slice(1);
  if (asked && $(`#variant option[value="${CSS.escape(asked)}"]`)) { $("#variant").value = asked; choose(); }
}
