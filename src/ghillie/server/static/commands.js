// The orders a side may give now (view.commands), one card each, generated from the
// ruleset's command schemas. Cards persist across updates so that an opponent's move never
// wipes a half-filled form; they come and go as commands become allowed or not. An order
// given goes to the outbox (outbox.js), which sends it over the websocket; while it is on
// its way every order's button is disabled and the order's card says where it stands: not
// sent yet (offline), sent, or waiting for the dice of whom.

import { h, humanize } from "./dom.js";
import { FormError, commandForm } from "./forms.js";
import { askFirst } from "./confirm.js";
import { OddsPanel } from "./odds.js";
import { ruleMark } from "./panels.js";
import { sideName } from "./pieces.js";
import { hasFields, hasRequired } from "./schema.js";
import { t } from "./i18n.js";

// A roll that has waited this long for another side's page: say what to do about it.
const LONG_WAIT_MS = 20_000;
const HOST = "host";
const isCount = (value) => Number.isSafeInteger(value) && value >= 0;

export class Orders {
  /**
   * @param {HTMLElement} container where the cards go
   * @param {HTMLElement} result where the latest answer or refusal is shown
   * @param {{game, token, ruleset, pick, getView, afterCommand, outbox}} options outbox:
   *   where orders go (outbox.js), whose changes the page passes to showOutbox()
   */
  constructor(container, result, options) {
    this.container = container;
    this.result = result;
    this.options = options;
    this.cards = new Map(); // command name → {el, form, message}
    this.offers = new Map(); // command name → the view's offer: its choices and defaults
    this.shownOutcome = null; // the outbox's outcome last shown
    this.waitFrom = null; // {k, at}: the roll our order waits on, and since when
    this.hint = null; // the timer that adds what to do to a long wait
  }

  update(view) {
    // A new event from someone else makes the last answer old news.
    if (this.answeredSeq !== undefined && view.seq > this.answeredSeq) {
      this.result.className = "message";
      this.result.textContent = "";
      this.answeredSeq = undefined;
    }
    const wanted = view.commands || [];
    const names = wanted.map((c) => c.type);
    this.offers = new Map(wanted.map((c) => [c.type, c]));
    for (const [name, card] of this.cards) {
      if (!names.includes(name)) {
        card.el.remove();
        this.cards.delete(name);
        if (this.planned === name) this.showPlan(null);
      }
    }
    names.forEach((name, index) => {
      let card = this.cards.get(name);
      if (!card) {
        card = this.card(name);
        this.cards.set(name, card);
      } else if (card.form) {
        card.form.refresh(); // the pieces a field may name follow the view
      }
      // Move a card only when it is out of place: moving a node drops the focus inside it.
      const here = this.container.children[index];
      if (here !== card.el) this.container.insertBefore(card.el, here || null);
    });
    if (!names.length) {
      const idle =
        view.phase === "over"
          ? t("The game is over.")
          : view.seq < 0
            ? t("The game starts once every side has opened its page.")
            : t("Nothing to do now: waiting for the other side.");
      this.container.replaceChildren(h("p", { class: "empty" }, idle));
      this.cards.clear();
    } else {
      const idle = this.container.querySelector(":scope > p.empty");
      if (idle) idle.remove();
    }
    this.showOutbox();
  }

  card(name) {
    const spec = this.options.ruleset.commands[name] || { schema: { properties: {} }, fields: {} };
    const title = spec.title || humanize(name);
    const help = spec.help || "";
    const rules = ruleMark(spec);
    const view = this.options.getView();
    const mode = view.mode === "map" ? "map" : "table";
    const typed = view.typed_dice !== false; // does this game take dice typed in?
    const words = spec.fields || {};
    // A field of typed dice, or one inside it ("rolls.dice"), is not asked in a game without.
    const typedField = (path) => path.split(".").some((_, i, parts) => (words[parts.slice(0, i + 1).join(".")] || {}).typed);
    const asked = ([path, w]) => (!w.only || w.only === mode) && (typed || !typedField(path));
    const simple = !hasFields(spec.schema) || !Object.entries(words).some(asked);
    if (simple && !hasRequired(spec.schema)) {
      const button = h("button", { type: "button", class: "command-button", dataset: { command: name } }, title);
      const message = h("p", { class: "message", "aria-live": "polite" });
      const el = h("div", { class: "command simple" }, button, help ? h("small", { class: "hint" }, help, " ", rules) : rules, message);
      button.addEventListener("click", async () => {
        if (spec.confirm && !(await askFirst(spec.confirm, title))) return;
        this.send({ type: name });
      });
      return { el, form: null, message };
    }
    let odds = null; // made once the form exists; the form's changes feed it
    const form = commandForm(spec.schema, {
      command: name,
      words: spec.fields || {},
      secretFields: new Set(spec.secret_fields || []),
      choices: (wpath) => ((this.offers.get(name) || {}).choices || {})[wpath],
      note: (wpath) => ((this.offers.get(name) || {}).notes || {})[wpath],
      pick: this.options.pick,
      mode,
      typed,
      changed: () => {
        // A reason beside a field goes once that field is fixed, and its words under the
        // button with it.
        const marked = form.marked;
        form.recheck();
        if (marked && !form.marked) this.say(message, "", "");
        this.showPlan(name);
        if (odds) odds.changed();
      },
    });
    if (spec.odds) {
      odds = new OddsPanel(this.options.game, this.options.token, form);
    }
    const message = h("p", { class: "message", "aria-live": "polite" });
    const submit = h("button", { type: "submit", class: "send" }, title);
    const el = h(
      "details",
      { class: "command", dataset: { command: name } },
      h("summary", {}, title, spec.secret_fields && spec.secret_fields.length ? h("span", { class: "badge secret" }, t("secret")) : null),
      h(
        "form",
        {
          dataset: { command: name },
          novalidate: true,
          onsubmit: async (event) => {
            event.preventDefault();
            let value;
            try {
              value = form.get(true);
            } catch (error) {
              if (!(error instanceof FormError)) throw error;
              this.refused(form, message, error.message, error.path, true);
              return;
            }
            if (spec.confirm && !(await askFirst(spec.confirm, title))) return;
            this.send(value);
          },
        },
        help ? h("p", { class: "doc" }, help, " ", rules) : rules,
        form.el,
        odds ? odds.el : null,
        submit,
        message,
      ),
    );
    // The one order the game waits for (an answer asked of this side, say) opens by itself:
    // nothing else but the any-time ones can be given now.
    // The map draws what the open order plans: its places, as they are entered.
    el.addEventListener("toggle", () => {
      if (el.open) this.showPlan(name);
      else if (this.planned === name) this.showPlan(null);
    });
    const waiting = [...this.offers.keys()].filter((n) => !(this.options.ruleset.commands[n] || {}).anytime);
    if (waiting.length === 1 && waiting[0] === name) el.open = true;
    const offer = this.offers.get(name) || {};
    if (offer.defaults) form.set(offer.defaults);
    if (odds) odds.changed();
    return { el, form, message };
  }

  /** Have the map draw the places the order `name` plans (none: null), as entered. */
  showPlan(name) {
    const card = name ? this.cards.get(name) : null;
    this.planned = card && card.form ? name : null;
    if (this.options.plan) this.options.plan(this.planned ? card.form.places() : []);
  }

  refused(form, message, text, path, sticky = false) {
    // The reason goes beside the field it concerns when there is one, and under the button.
    if (form && path) form.mark(path, text, sticky);
    this.say(message, "error", text);
  }

  send(command) {
    // Refused only while another order is on its way, and then every button is disabled.
    this.options.outbox.give(command);
  }

  /** Draw the outbox: the order on its way, or the answer or refusal it last got. */
  showOutbox() {
    const outbox = this.options.outbox;
    const busy = outbox.busy;
    for (const button of this.container.querySelectorAll("button.send, button.command-button")) {
      button.disabled = busy;
    }
    if (busy) {
      const card = this.cards.get(outbox.entry.command.type);
      this.say(card ? card.message : null, "pending", this.pendingLine(this.options.getView()));
      return;
    }
    this.waitFrom = null;
    clearTimeout(this.hint);
    const outcome = outbox.outcome;
    if (!outcome || outcome === this.shownOutcome) return;
    this.shownOutcome = outcome;
    const card = this.cards.get(outcome.command.type);
    const message = card ? card.message : null;
    if (outcome.problem) {
      const problem = outcome.problem;
      // A malformed value (a number past its range) is the field's own: its reason stays
      // until that field is fixed.
      this.refused(card ? card.form : null, message, problem.detail || problem.code || t("The order was refused."), problem.field, problem.code === "malformed_command");
      return;
    }
    const answer = outcome.answer;
    const lines = (answer.said || []).map((line) => line.text).filter(Boolean);
    this.say(message, "ok", lines.length ? lines.join(" ") : t("Done."));
    this.showPlan(null); // carried out: the game's own map shows it now
    this.answeredSeq = answer.seq;
    this.options.afterCommand(answer);
  }

  /** Where the order on its way stands, in the player's words. */
  pendingLine(view) {
    const outbox = this.options.outbox;
    const offline = navigator.onLine === false;
    if (!outbox.sent) {
      if (outbox.live.live) return t("Sending…"); // going out now
      if (outbox.entry.unclear) {
        // It went out once, and the connection went before its answer came.
        return offline
          ? t("No answer yet — you are offline. The order will be sent again when the connection is back; it cannot count twice.")
          : t("No answer yet — the connection dropped. The order will be sent again when it is back; it cannot count twice.");
      }
      return offline
        ? t("Not sent yet — you are offline; it will be sent when the connection is back.")
        : t("Not sent yet — there is no connection to the server; it will be sent when the connection is back.");
    }
    return (view && this.rollWait(view)) || t("Sending…");
  }

  /** Whom our order's roll waits for ("Waiting for the dice of Ork warband's page (roll
   * 4)…"), and after a long wait what to do about it; null if no roll waits for it. */
  rollWait(view) {
    const fairness = view.fairness || {};
    const request = fairness.request;
    if (!request || typeof request !== "object" || request.side !== view.you) {
      this.waitFrom = null;
      return null;
    }
    const k = request.k;
    if (!this.waitFrom || this.waitFrom.k !== k) {
      this.waitFrom = { k, at: Date.now() };
      clearTimeout(this.hint);
      this.hint = setTimeout(() => this.showOutbox(), LONG_WAIT_MS + 50);
    }
    const sides = new Set((view.sides || []).map((side) => side && side.id));
    const waiting = Array.isArray(fairness.waiting) ? fairness.waiting : [];
    const whom = waiting.map((party) => {
      if (party === HOST) return t("the host");
      if (party === view.you) return t("this page");
      return sides.has(party) ? t("{side}'s page", { side: sideName(view, party) }) : t("another party");
    });
    const roll = isCount(k) ? k : "?";
    if (!whom.length) return t("Rolling the dice (roll {k})…", { k: roll });
    let text = t("Waiting for the dice of {whom} (roll {k})…", { whom: whom.join(", "), k: roll });
    const others = waiting.filter((party) => party !== HOST && party !== view.you && sides.has(party));
    if (others.length && Date.now() - this.waitFrom.at >= LONG_WAIT_MS) {
      // And what to do if that page is gone for good: a lost phone never stalls the game.
      text += " " + t("Ask {sides} to open their page. If their device is lost, they open their link on another one and start a new dice chain there.", { sides: others.map((side) => sideName(view, side)).join(", ") });
    }
    return text;
  }

  say(message, kind, text) {
    for (const el of [message, this.result]) {
      if (!el) continue;
      el.className = `message ${kind}`;
      el.textContent = text;
    }
  }
}
