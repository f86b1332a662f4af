// After the game: step through it event by event, each side's view as its page showed it
// beside the referee's, which shows every secret. The server builds each past view with the
// same view() as during the game (GET /api/games/{id}/story?seq=N, once the game is over).
// Each column draws its view's map, as that side's page drew it then, the truth's with every
// piece where it really was: the maps side by side show what each side did not know.

import * as api from "./api.js";
import { Board, hasMap } from "./board.js";
import { h } from "./dom.js";
import * as panels from "./panels.js";
import { t, useLanguage } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = location.hash.slice(1);
let asked = 0;
const maps = new Map(); // observer -> {box, board}: kept from step to step, zoom and all

/** The observer's map at this step, drawn on the board it had at the step before. */
function mapOf(view) {
  if (!hasMap(view)) return null;
  let found = maps.get(view.you);
  if (!found) {
    const box = h("div", { class: "map-box replay-map", dataset: { observer: view.you } });
    // The whole map, not one's own pieces: the columns are compared side by side.
    found = { box, board: new Board(box, { maxHeight: () => window.innerHeight * 0.55, whole: true }) };
    maps.set(view.you, found);
  }
  return found;
}

function said(view, seq) {
  const entry = (view.log || []).find((e) => e.seq === seq);
  if (!entry) return [];
  if (view.you === "referee") {
    // Each side's lines, named; the spectators' are what anyone could see.
    return Object.entries(entry.said || {})
      .filter(([side]) => side !== "spectator")
      .flatMap(([side, lines]) => lines.map((l) => `${(view.sides.find((s) => s.id === side) || {}).name || side}: ${l.text}`));
  }
  return (entry.said || []).map((l) => l.text);
}

function column(view, seq) {
  const referee = view.you === "referee";
  const name = referee ? t("The whole truth (referee)") : (view.sides.find((s) => s.id === view.you) || {}).name;
  const news = said(view, seq);
  const drawn = mapOf(view);
  return h(
    "section",
    { class: `panel column${referee ? " truth" : ""}`, dataset: { observer: view.you } },
    h("h2", {}, name),
    h("div", { class: "status" }, panels.status(view)),
    drawn ? drawn.box : null,
    h("h3", {}, t("Told at this event")),
    news.length ? h("ul", { class: "news" }, news.map((text) => h("li", {}, text))) : h("p", { class: "empty" }, t("Nothing.")),
    h("h3", {}, referee ? t("Every piece") : t("Its forces")),
    referee ? panels.everything(view) : panels.own(view),
    referee ? null : h("h3", {}, t("What it knew of the enemy")),
    referee ? null : panels.known(view),
  );
}

async function show(seq) {
  const ticket = ++asked;
  let story;
  try {
    story = await api.story(game, token, seq);
  } catch (error) {
    $("what").textContent = error instanceof api.Problem ? error.message : t("Could not reach the server.");
    return;
  }
  if (ticket !== asked) return;
  const views = Object.values(story.views);
  await useLanguage(views[0].lang); // the page's own words in the language of the views
  if (ticket !== asked) return;
  $("title").textContent = views[0].title;
  $("step").max = String(story.last);
  $("step").value = String(story.seq);
  $("at").textContent = String(story.seq);
  $("last").textContent = String(story.last);
  const truth = story.views.referee;
  const entry = (truth.log || []).find((e) => e.seq === story.seq) || {};
  const who = entry.side ? (truth.sides.find((s) => s.id === entry.side) || {}).name : null;
  $("what").textContent = who ? t("Event {n}: {side} gave an order.", { n: story.seq, side: who }) : t("Event {n}: the game is set up.", { n: story.seq });
  const order = [...views.filter((v) => v.you !== "referee"), truth];
  $("columns").replaceChildren(...order.map((view) => column(view, story.seq)));
  // Drawn once in the page, so that each map measures the width its column gives it.
  for (const view of order) {
    const drawn = mapOf(view);
    if (drawn) drawn.board.draw(view);
  }
  history.replaceState(null, "", `#${token}`);
  current = story.seq;
}

let current = 0;

function main() {
  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(Math.max(0, current - 1)));
  $("next").addEventListener("click", () => show(current + 1));
  $("end").addEventListener("click", () => show(Number($("step").max) || 1e9));
  $("step").addEventListener("input", () => show(Number($("step").value)));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") show(current + 1);
    if (event.key === "ArrowLeft") show(Math.max(0, current - 1));
  });
  show(0);
}

main();
