// The start page: pick the rules and a scenario (bundled or uploaded), create the game, and
// hand out one private link per side, the table screen's and the referee's, each with its
// QR code.

import * as api from "./api.js";
import { h, qrImage } from "./dom.js";
import { language, t, useLanguage } from "./i18n.js";

const $ = (id) => document.getElementById(id);

let rulesets = [];
let scenarios = [];
let upload = null; // {name, body} of a chosen scenario file
let reading = Promise.resolve(); // the file being read, if any: create waits for it

function radio(name, value, checked, title, detail, extra, lang) {
  const input = h("input", { type: "radio", name, value, checked, id: `${name}-${value}` });
  return h(
    "label",
    // A ruleset that does not speak the page's language shows its own words, marked as such.
    { class: "choice", for: input.id, lang: lang || null },
    input,
    h("span", { class: "choice-text" }, h("strong", {}, title), extra || null, detail ? h("small", {}, detail) : null),
  );
}

function chosen(name) {
  const input = document.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : null;
}

function showRulesets() {
  // First the rules that speak the reader's language, if any does.
  const first = rulesets.find((r) => r.lang === language()) || rulesets[0];
  $("rulesets").replaceChildren(
    ...rulesets.map((r) => radio("ruleset", r.id, r === first, r.title, r.summary, null, r.lang)),
  );
  showScenarios();
}

function showScenarios() {
  const ruleset = chosen("ruleset");
  const list = scenarios.filter((sc) => sc.ruleset === ruleset);
  const lang = (rulesets.find((r) => r.id === ruleset) || {}).lang;
  $("scenarios").replaceChildren(
    ...list.map((sc, i) =>
      radio("scenario", sc.name, i === 0, sc.title, sc.description,
        h("span", { class: `badge mode ${sc.mode}` }, sc.mode === "map" ? t("on ghillie's map") : t("at a real table")), lang),
    ),
  );
}

async function readUpload(file) {
  const text = await file.text();
  if (/\.json$/i.test(file.name)) {
    try {
      return { scenario_data: JSON.parse(text) };
    } catch {
      throw new Error(t("That .json file is not valid JSON."));
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
      if (!name) throw new Error(t("Choose a scenario, or upload a scenario file."));
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
  return qrImage(svgText, t("QR code of the link for {name}", { name: label })) || h("p", {}, t("(no QR code)"));
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
  button.textContent = ok ? t("Copied!") : t("Select and copy");
  setTimeout(() => (button.textContent = t("Copy")), 2000);
}

// The referee's link and the table screen's are not a side's: each says what it is for.
const SPECIAL = {
  referee: () => ({
    badge: h("span", { class: "badge secret" }, t("sees everything")),
    hint: t("For the host or an umpire only."),
    open: t("Open the referee's page"),
  }),
  spectator: () => ({
    badge: h("span", { class: "badge public" }, t("shows no secrets")),
    hint: t("For a tablet or TV everyone at the table can see: where the game stands, the map and what is on the table, the latest news. It shows no side's secrets and gives no orders."),
    open: t("Open the table screen"),
  }),
};

function linkCard(link) {
  const special = SPECIAL[link.observer] ? SPECIAL[link.observer]() : null;
  const input = h("input", { type: "text", readOnly: true, value: link.url, class: "url", "aria-label": t("link for {name}", { name: link.name }), onfocus: (e) => e.target.select() });
  const button = h("button", { type: "button", class: "copy" }, t("Copy"));
  button.addEventListener("click", () => copy(input, button));
  return h(
    "li",
    { class: `link${special ? ` ${link.observer}` : ""}`, dataset: { observer: link.observer } },
    h("h3", {}, link.name, special ? special.badge.cloneNode(true) : null),
    h("p", { class: "hint" }, special ? special.hint : t("For the player of {name} only.", { name: link.name })),
    h("div", { class: "qr" }, qrCode(link.qr_svg, link.name)),
    h("div", { class: "url-row" }, input, button),
    special ? null : h("p", { class: "seat-status", dataset: { taken: "false" }, "aria-live": "polite" }, t("Seat not taken yet.")),
    h("a", { href: link.url, target: "_blank", rel: "noopener noreferrer", class: "open" }, special ? special.open : t("Open this side's page")),
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
      const at = when && !Number.isNaN(when.getTime()) ? when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
      line.dataset.taken = seat.taken ? "true" : "false";
      line.textContent = !seat.taken
        ? t("Seat not taken yet.")
        : at
          ? t("Seat taken by a device at {time}. Only that device plays this side now.", { time: at })
          : t("Seat taken by a device. Only that device plays this side now.");
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
    $("file-note").textContent = t("The game will use {file}.", { file: file.name });
    $("file-note").hidden = false;
    document.querySelectorAll('input[name="scenario"]').forEach((i) => (i.checked = false));
  } catch (error) {
    showError(error.message);
  }
}

/** The page's own words in the first of the browser's languages the pages speak. */
async function speakTheReadersLanguage() {
  for (const tag of navigator.languages || [navigator.language]) {
    const lang = String(tag || "").split("-")[0].toLowerCase();
    if (lang === "en") return;
    await useLanguage(lang);
    if (language() === lang) return;
  }
}

async function main() {
  await speakTheReadersLanguage();
  try {
    [rulesets, scenarios] = await Promise.all([api.rulesets(), api.scenarios()]);
  } catch {
    $("rulesets").replaceChildren(h("p", { class: "message error" }, t("Could not reach the server. Reload the page to try again.")));
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
