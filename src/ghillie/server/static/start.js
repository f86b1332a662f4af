// The start page: pick the rules and a scenario (bundled or uploaded), create the game, and
// hand out one private link per side, the table screen's and the referee's, each with its
// QR code.

import * as api from "./api.js";
import { h, qrImage } from "./dom.js";

const $ = (id) => document.getElementById(id);

let rulesets = [];
let scenarios = [];
let upload = null; // {name, body} of a chosen scenario file
let reading = Promise.resolve(); // the file being read, if any: create waits for it

function radio(name, value, checked, title, detail, extra) {
  const input = h("input", { type: "radio", name, value, checked, id: `${name}-${value}` });
  return h(
    "label",
    { class: "choice", for: input.id },
    input,
    h("span", { class: "choice-text" }, h("strong", {}, title), extra || null, detail ? h("small", {}, detail) : null),
  );
}

function chosen(name) {
  const input = document.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : null;
}

function showRulesets() {
  $("rulesets").replaceChildren(
    ...rulesets.map((r, i) => radio("ruleset", r.id, i === 0, r.title, r.summary)),
  );
  showScenarios();
}

function showScenarios() {
  const ruleset = chosen("ruleset");
  const list = scenarios.filter((sc) => sc.ruleset === ruleset);
  $("scenarios").replaceChildren(
    ...list.map((sc, i) =>
      radio("scenario", sc.name, i === 0, sc.title, sc.description,
        h("span", { class: `badge mode ${sc.mode}` }, sc.mode === "map" ? "on ghillie's map" : "at a real table")),
    ),
  );
}

async function readUpload(file) {
  const text = await file.text();
  if (/\.json$/i.test(file.name)) {
    try {
      return { scenario_data: JSON.parse(text) };
    } catch {
      throw new Error("That .json file is not valid JSON.");
    }
  }
  return { scenario_toml: text };
}

function showError(text) {
  const el = $("error");
  el.hidden = !text;
  el.textContent = text || "";
}

async function create(event) {
  event.preventDefault();
  showError("");
  const button = $("create-button");
  button.disabled = true;
  try {
    await reading;
    let body;
    if (upload) {
      body = upload.body;
    } else {
      const name = chosen("scenario");
      if (!name) throw new Error("Choose a scenario, or upload a scenario file.");
      body = { scenario: name };
    }
    // "clients": each side's page holds its own dice chain; "host": the host holds them all.
    const clients = $("client-chains").checked;
    showLinks(await api.createGame({ ...body, chains: clients ? "clients" : "host" }), clients);
  } catch (error) {
    showError(error instanceof api.Problem || error instanceof Error ? error.message : String(error));
  } finally {
    button.disabled = false;
  }
}

function qrCode(svgText, label) {
  return qrImage(svgText, `QR code of the link for ${label}`) || h("p", {}, "(no QR code)");
}

async function copy(input, button) {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    // Plain http on a local network has no clipboard API: select and use the old command.
    input.focus();
    input.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
  }
  button.textContent = ok ? "Copied!" : "Select and copy";
  setTimeout(() => (button.textContent = "Copy"), 2000);
}

// The referee's link and the table screen's are not a side's: each says what it is for.
const SPECIAL = {
  referee: {
    badge: h("span", { class: "badge secret" }, "sees everything"),
    hint: "For the host or an umpire only.",
    open: "Open the referee's page",
  },
  spectator: {
    badge: h("span", { class: "badge public" }, "shows no secrets"),
    hint: "For a tablet or TV everyone at the table can see: where the game stands, the map and what is on the table, the latest news. It shows no side's secrets and gives no orders.",
    open: "Open the table screen",
  },
};

function linkCard(link) {
  const special = SPECIAL[link.observer];
  const input = h("input", { type: "text", readOnly: true, value: link.url, class: "url", "aria-label": `link for ${link.name}`, onfocus: (e) => e.target.select() });
  const button = h("button", { type: "button", class: "copy" }, "Copy");
  button.addEventListener("click", () => copy(input, button));
  return h(
    "li",
    { class: `link${special ? ` ${link.observer}` : ""}`, dataset: { observer: link.observer } },
    h("h3", {}, link.name, special ? special.badge.cloneNode(true) : null),
    h("p", { class: "hint" }, special ? special.hint : `For the player of ${link.name} only.`),
    h("div", { class: "qr" }, qrCode(link.qr_svg, link.name)),
    h("div", { class: "url-row" }, input, button),
    special ? null : h("p", { class: "seat-status", dataset: { taken: "false" }, "aria-live": "polite" }, "Seat not taken yet."),
    h("a", { href: link.url, target: "_blank", rel: "noopener noreferrer", class: "open" }, special ? special.open : "Open this side's page"),
  );
}

let watching = null; // the timer that keeps the links' seat lines up to date

/** Which seats a device has taken (seat.js), every few seconds while the links are shown:
 * opening a link to check it takes nothing; the player taking their seat shows here. */
function watchSeats(created) {
  clearInterval(watching);
  const referee = created.links.find((l) => l.observer === "referee");
  if (!referee) return;
  const token = referee.url.split("#")[1];
  const update = async () => {
    if ($("links").hidden) return;
    let answer;
    try {
      answer = await api.seats(created.game_id, token);
    } catch {
      return; // the next round tries again
    }
    for (const [side, seat] of Object.entries(answer.seats || {})) {
      const line = document.querySelector(`li.link[data-observer="${CSS.escape(side)}"] .seat-status`);
      if (!line || !seat) continue;
      const when = seat.since ? new Date(seat.since) : null;
      const at = when && !Number.isNaN(when.getTime()) ? ` at ${when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}` : "";
      line.dataset.taken = seat.taken ? "true" : "false";
      line.textContent = seat.taken ? `Seat taken by a device${at}. Only that device plays this side now.` : "Seat not taken yet.";
    }
  };
  update();
  watching = setInterval(update, 3000);
}

/** Does this link point at the computer it was made on only (served without --lan)? A phone
 * opening it would look for ghillie on itself. */
function onlyHere(url) {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || host.startsWith("127.");
}

function showLinks(created, clients) {
  $("game-title").textContent = created.title;
  $("clients-note").hidden = !clients;
  // The players' links first, then the table screen's, then the referee's.
  const rank = (l) => ({ spectator: 1, referee: 2 })[l.observer] || 0;
  const links = [...created.links].sort((a, b) => rank(a) - rank(b));
  $("link-list").replaceChildren(...links.map(linkCard));
  $("loopback-note").hidden = !links.every((l) => onlyHere(l.url));
  watchSeats(created);
  $("new-game").hidden = true;
  $("links").hidden = false;
  $("links").scrollIntoView({ block: "start" });
}

/** A scenario file was chosen (or the choice cleared): read it, ready to send. */
async function chooseFile(file) {
  showError("");
  upload = null;
  $("file-note").hidden = true;
  if (!file) return;
  try {
    upload = { name: file.name, body: await readUpload(file) };
    $("file-note").textContent = `The game will use ${file.name}.`;
    $("file-note").hidden = false;
    document.querySelectorAll('input[name="scenario"]').forEach((i) => (i.checked = false));
  } catch (error) {
    showError(error.message);
  }
}

async function main() {
  try {
    [rulesets, scenarios] = await Promise.all([api.rulesets(), api.scenarios()]);
  } catch {
    $("rulesets").replaceChildren(h("p", { class: "message error" }, "Could not reach the server. Reload the page to try again."));
    return;
  }
  showRulesets();
  $("rulesets").addEventListener("change", showScenarios);
  $("scenarios").addEventListener("change", () => {
    // Choosing a bundled scenario again sets an uploaded file aside.
    upload = null;
    $("file").value = "";
    $("file-note").hidden = true;
  });
  $("file").addEventListener("change", () => {
    reading = chooseFile($("file").files[0]);
  });
  $("create").addEventListener("submit", create);
  $("again").addEventListener("click", () => {
    $("links").hidden = true;
    $("new-game").hidden = false;
  });
}

main();
