// Bidding cards: the rules picker points at the chosen system's card, or says why there is none.
"use strict";

const SYSTEMS = ($("#card-choice").dataset.systems || "").split(" ").filter(Boolean);

async function choose() {
  clearErrors();
  const note = $("#card-choice");
  $$(".card-sheet").forEach(a => a.classList.remove("chosen"));
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
  note.replaceChildren(el("strong", {}, `No bidding card for ${name}. `),
    `Cards come from the committed report (${SYSTEMS.join(", ")}). For this system, My hand's bid advice gives a hand's bid curve; `,
    el("code", {}, `pinochle report --variant ${asked.rules_text ? "YOUR-RULES.toml" : id}`), " writes its card.");
}

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
