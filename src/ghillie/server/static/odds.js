// Live odds while a player fills in a command that rolls dice: the server builds the very
// check the rules would roll, from what this side may know, and answers its exact odds.

import { h } from "./dom.js";
import * as api from "./api.js";
import { t } from "./i18n.js";

const DELAY = 250; // ms of quiet typing before asking

export class OddsPanel {
  constructor(game, token, form) {
    this.game = game;
    this.token = token;
    this.form = form;
    this.el = h("div", { class: "odds", "aria-live": "polite" });
    this.timer = null;
    this.asked = 0;
  }

  /** The form changed: ask again once the player pauses. */
  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(), DELAY);
  }

  async ask() {
    const ticket = ++this.asked;
    let answer = {};
    try {
      answer = await api.odds(this.game, this.token, this.form.get(false));
    } catch {
      answer = {}; // odds are a help, not a requirement: say nothing rather than an error
    }
    if (ticket !== this.asked) return; // a later question is on its way
    this.show(answer);
  }

  show(answer) {
    if (answer && answer.refused) {
      // The order as it stands would be refused: say why now, not only once it is sent.
      const { code, detail, field } = answer.refused;
      const label = field ? this.form.labelOf(field) : null;
      const text = code === "malformed_command" && label
        ? t("Odds: fill in {field} to see them.", { field: label })
        : t("Odds: none yet — {reason}", { reason: detail });
      this.el.replaceChildren(h("small", { class: code === "malformed_command" ? "hint" : "hint warn" }, text));
      return;
    }
    if (!answer || !answer.outcomes || !answer.outcomes.length) {
      this.el.replaceChildren(h("small", { class: "hint" }, t("Odds: fill in the order to see them.")));
      return;
    }
    const dice = Object.entries(answer.dice || {}).map(([label, die]) => `${label} ${die}`);
    this.el.replaceChildren(
      h("p", { class: "odds-dice" }, dice.length ? t("Odds ({dice}):", { dice: dice.join(", ") }) : t("Odds:")),
      h(
        "ul",
        { class: "odds-list" },
        answer.outcomes.map((o) =>
          h(
            "li",
            { dataset: { outcome: o.outcome } },
            h("span", { class: "odds-bar", style: `width: ${share(o.probability)}%` }),
            h("span", { class: "odds-label" }, o.label),
            h("span", { class: "odds-percent" }, o.percent),
          ),
        ),
      ),
    );
  }
}

/** An exact probability as the server writes it ("3/8", "1", "0") → a width in percent. */
function share(probability) {
  const [top, bottom] = String(probability).split("/").map(Number);
  const p = bottom ? top / bottom : top;
  return Number.isFinite(p) ? Math.max(0, Math.min(100, p * 100)).toFixed(1) : 0;
}
