// The orders a side may give now (view.commands), one card each, generated from the
// ruleset's command schemas. Cards persist across updates so that an opponent's move never
// wipes a half-filled form; they come and go as commands become allowed or not.

import * as api from "./api.js";
import { h, humanize } from "./dom.js";
import { FormError, commandForm } from "./forms.js";
import { OddsPanel } from "./odds.js";
import { hasFields, hasRequired } from "./schema.js";
import { t } from "./i18n.js";

export class Orders {
  /**
   * @param {HTMLElement} container where the cards go
   * @param {HTMLElement} result where the latest answer or refusal is shown
   * @param {{game, token, ruleset, pick, getView, afterCommand}} options
   */
  constructor(container, result, options) {
    this.container = container;
    this.result = result;
    this.options = options;
    this.cards = new Map(); // command name → {el, form}
    this.offers = new Map(); // command name → the view's offer: its choices and defaults
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
  }

  card(name) {
    const spec = this.options.ruleset.commands[name] || { schema: { properties: {} }, fields: {} };
    const title = spec.title || humanize(name);
    const help = spec.help || "";
    const rules = spec.rules && spec.rules.length ? h("abbr", { class: "rules", title: t("Rules: {rules}", { rules: spec.rules.join(", ") }) }, "§") : null;
    const view = this.options.getView();
    const mode = view.mode === "map" ? "map" : "table";
    const simple = !hasFields(spec.schema) || !Object.entries(spec.fields || {}).some(([, w]) => !w.only || w.only === mode);
    if (simple && !hasRequired(spec.schema)) {
      const button = h("button", { type: "button", class: "command-button", dataset: { command: name } }, title);
      const message = h("p", { class: "message", "aria-live": "polite" });
      const el = h("div", { class: "command simple" }, button, help ? h("small", { class: "hint" }, help, " ", rules) : rules, message);
      button.addEventListener("click", () => {
        if (spec.confirm && !confirm(spec.confirm)) return;
        this.send({ type: name }, button, message, null);
      });
      return { el, form: null };
    }
    let odds = null; // made once the form exists; the form's changes feed it
    const form = commandForm(spec.schema, {
      command: name,
      words: spec.fields || {},
      secretFields: new Set(spec.secret_fields || []),
      choices: (wpath) => ((this.offers.get(name) || {}).choices || {})[wpath],
      pick: this.options.pick,
      mode,
      changed: () => {
        form.unmark();
        if (odds) odds.changed();
      },
    });
    const oddsName = name.replace(/_/g, "-");
    if ((this.options.ruleset.odds || []).includes(oddsName)) {
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
          onsubmit: (event) => {
            event.preventDefault();
            let value;
            try {
              value = form.get(true);
            } catch (error) {
              if (!(error instanceof FormError)) throw error;
              this.refused(form, message, error.message, error.path);
              return;
            }
            if (spec.confirm && !confirm(spec.confirm)) return;
            this.send(value, submit, message, form);
          },
        },
        help ? h("p", { class: "doc" }, help, " ", rules) : rules,
        form.el,
        odds ? odds.el : null,
        submit,
        message,
      ),
    );
    const offer = this.offers.get(name) || {};
    if (offer.defaults) form.set(offer.defaults);
    if (odds) odds.changed();
    return { el, form };
  }

  refused(form, message, text, path) {
    // The reason goes beside the field it concerns when there is one, and under the button.
    if (form && path) form.mark(path, text);
    this.say(message, "error", text);
  }

  async send(command, button, message, form) {
    button.disabled = true;
    this.say(message, "pending", t("Sending…"));
    try {
      const answer = await api.command(this.options.game, this.options.token, command);
      const lines = (answer.said || []).map((line) => line.text).filter(Boolean);
      this.say(message, "ok", lines.length ? lines.join(" ") : t("Done."));
      this.answeredSeq = answer.seq;
      this.options.afterCommand(answer);
    } catch (error) {
      if (error instanceof api.Problem) {
        this.refused(form, message, error.message, (error.body || {}).field);
      } else {
        this.say(message, "error", t("Could not reach the server. Check the connection and try again."));
      }
    } finally {
      button.disabled = false;
    }
  }

  say(message, kind, text) {
    for (const el of [message, this.result]) {
      if (!el) continue;
      el.className = `message ${kind}`;
      el.textContent = text;
    }
  }
}
