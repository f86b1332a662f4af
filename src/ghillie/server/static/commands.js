// The orders a side may give now (view.commands), one card each, generated from the
// ruleset's command schemas. Cards persist across updates so that an opponent's move never
// wipes a half-filled form; they come and go as commands become allowed or not.

import * as api from "./api.js";
import { h, humanize } from "./dom.js";
import { FormError, commandForm } from "./forms.js";
import { OddsPanel } from "./odds.js";
import { choices } from "./pieces.js";
import { hasFields, isPosition, unwrap } from "./schema.js";

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
  }

  update(view) {
    const wanted = view.commands || [];
    for (const [name, card] of this.cards) {
      if (!wanted.includes(name)) {
        card.el.remove();
        this.cards.delete(name);
      }
    }
    wanted.forEach((name, index) => {
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
    if (!wanted.length) {
      const idle =
        view.phase === "over"
          ? "The game is over."
          : view.seq < 0
            ? "The game starts once every side has opened its page."
            : "Nothing to do now: waiting for the other side.";
      this.container.replaceChildren(h("p", { class: "empty" }, idle));
      this.cards.clear();
    } else {
      const idle = this.container.querySelector(":scope > p.empty");
      if (idle) idle.remove();
    }
  }

  card(name) {
    const spec = this.options.ruleset.commands[name] || { schema: { properties: {} }, doc: "" };
    const title = humanize(name);
    const doc = spec.doc ? spec.doc.replace(/\s+/g, " ") : "";
    if (!hasFields(spec.schema)) {
      const button = h("button", { type: "button", class: "command-button", dataset: { command: name }, title: doc }, title);
      const el = h("div", { class: "command simple" }, button, doc ? h("small", { class: "hint" }, doc) : null);
      button.addEventListener("click", () => {
        if (name === "end_game" && !confirm("End the game for everyone?")) return;
        this.send({ type: name }, button, null);
      });
      return { el, form: null };
    }
    let odds = null; // made once the form exists; the form's changes feed it
    const form = commandForm(spec.schema, {
      command: name,
      secretFields: new Set(spec.secret_fields || []),
      choices: (path, field) => choices(this.options.getView(), name, path, field),
      pick: this.options.pick,
      positions: this.options.getView().mode === "map",
      onField: (path, value, f) => this.filled(name, path, value, f, spec.schema),
      changed: () => odds && odds.changed(),
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
      h("summary", {}, title, spec.secret_fields && spec.secret_fields.length ? h("span", { class: "badge secret" }, "secret") : null),
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
              message.className = "message error";
              message.textContent = error.message;
              return;
            }
            this.send(value, submit, message);
          },
        },
        doc ? h("p", { class: "doc" }, doc) : null,
        form.el,
        odds ? odds.el : null,
        submit,
        message,
      ),
    );
    this.prefill(form);
    if (odds) odds.changed();
    return { el, form };
  }

  /** Start a list of new markers at the number the side still has to lay out. */
  prefill(form) {
    const board = this.options.getView().board || {};
    const markers = form.fields.markers;
    if (markers && "length" in markers && board.markers_to_place > 0) {
      markers.set(Array.from({ length: board.markers_to_place }, () => ({})));
    }
  }

  /** A unit was chosen: where a command takes one position per model (move, set up), start
   * from the unit's models as they stand, so the player only changes what moves. */
  filled(name, path, value, form, schema) {
    const view = this.options.getView();
    // ambush-fields: a move chosen for a ship starts from where that ship is and how it
    // faces, so at a table only the hexes that changed need typing.
    const move = /^(moves\.\d+)\.ship$/.exec(path);
    if (move) {
      const ship = (view.pieces || []).find((p) => p.id === value);
      const now = (ship && ship.public) || {};
      const to = form.paths[`${move[1]}.to`];
      const heading = form.paths[`${move[1]}.heading`];
      if (to && now.at && to.get(false) === undefined) to.set(now.at);
      if (heading && now.heading) heading.set(now.heading);
      return;
    }
    if (path !== "unit" || !form.fields.models || view.mode !== "map") return;
    const models = unwrap((schema.properties || {}).models || {}, schema).schema;
    const item = models.items ? unwrap(models.items, schema).schema : null;
    if (models.type !== "array" || !item || !isPosition(item, schema)) return;
    const unit = (view.pieces || []).find((p) => p.id === value);
    const list = unit && unit.public && unit.public.models;
    if (!Array.isArray(list)) return;
    form.fields.models.set(list.filter((m) => !m.lost).map((m) => m.at || null));
  }

  async send(command, button, message) {
    button.disabled = true;
    this.say(message, "pending", "Sending…");
    try {
      const answer = await api.command(this.options.game, this.options.token, command);
      const lines = (answer.lines || []).map((line) => line.text).filter(Boolean);
      this.say(message, "ok", lines.length ? lines.join(" ") : "Done.");
      this.options.afterCommand(answer);
    } catch (error) {
      const text = error instanceof api.Problem ? error.message : "Could not reach the server. Check the connection and try again.";
      this.say(message, "error", text);
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
