// Forms drawn from a command's JSON Schema and the words its ruleset gives each field
// (labels, help, what kind of answer it takes), so a ruleset's new command needs no page
// code. Each widget is {el, get(strict), set(value)}: get returns the value to send, or
// undefined to leave the field out (the server then uses its default); with strict it
// throws a FormError for a required field left empty or an unreadable number.

import { h, humanize } from "./dom.js";
import {
  FormError,
  changed,
  nearest,
  checkbox,
  constant,
  number,
  options,
  pieces,
  place,
  position,
  register,
  text,
  triState,
} from "./inputs.js";
import { isPosition, properties, unwrap } from "./schema.js";
import { t } from "./i18n.js";

export { FormError };

const blank = (v) => v === undefined || v === null || v === "";

/**
 * Build the form of one command.
 * @param {object} schema the command's JSON Schema
 * @param {object} ctx {command, words: {path: field words}, secretFields: Set,
 *   choices(wordsPath) → [{value,label,fills}] | undefined (from the side's view),
 *   pick(label, where, done, snap) | null — to take a place from the map (snap: the name of
 *   the map line a tapped point moves onto, if any), mode ("map"|"table"),
 *   typed (false: the game takes no dice typed in), note(wordsPath) → words beside the field
 *   now (how many dice a roll takes, and whose: the view's offer), changed()}
 */
export function commandForm(schema, ctx) {
  const form = { fields: {}, paths: {}, refreshers: [], order: [], conditions: [] };
  const shown = () => form.conditions.forEach((update) => update());
  const full = {
    ...ctx,
    root: schema,
    form,
    changed: () => {
      shown(); // a field asked only for some values of another follows it
      if (ctx.changed) ctx.changed();
    },
  };
  const body = objectFields(schema, full, "", "", true);
  form.el = body.el;
  form.get = (strict) => ({ type: ctx.command, ...(body.get(strict) || {}) });
  form.set = (value) => {
    body.set(value);
    shown();
  };
  form.refresh = () => {
    form.refreshers.forEach((refresh) => refresh());
    shown();
  };
  shown();
  /** The places entered so far, for the map to draw while the order is planned. */
  form.places = () => places(form, full);
  /** The words a field is shown with ("Marker"), for messages that name it. */
  form.labelOf = (path) => {
    for (let p = path; p; p = p.replace(/\.?[^.]*$/, "")) {
      const widget = form.paths[p];
      const title = widget && widget.el && widget.el.querySelector(".field-title, legend");
      if (title) return title.textContent;
    }
    return null;
  };
  /** Show a refusal's reason beside the field it concerns; false if no such field shows.
   * `sticky`: the reason is that field's own value (a number past its range), and stays
   * until that field is fixed; otherwise (a rule that weighs several fields) any change
   * takes it away. */
  form.mark = (path, message, sticky = false) => {
    form.unmark();
    let widget = null;
    for (let p = path; p && !widget; p = p.replace(/\.?[^.]*$/, "")) widget = form.paths[p];
    if (!widget || !widget.el) return false;
    const note = h("p", { class: "field-error", role: "alert" }, message);
    widget.el.append(note);
    widget.el.classList.add("invalid");
    form.marked = { widget, note, path, sticky, value: snapshot(widget) };
    return true;
  };
  /** After a change: the reason beside a field stays until that field is fixed. */
  form.recheck = () => recheck(form);
  form.unmark = () => {
    if (!form.marked) return;
    form.marked.note.remove();
    form.marked.widget.el.classList.remove("invalid");
    form.marked = null;
  };
  return form;
}

/** The places a form holds now, for the map to draw as the order is planned (board.js
 * `plan`): one {path, title, where, points | labels, line, from} per place field shown —
 * a point, a square, a hex, or a list of points (a path, a zone) — with `from` the piece
 * its `starts` field names, if any. Only the form's own fields: nothing of a ruleset. */
function places(form, ctx) {
  const out = [];
  for (const [path, widget] of Object.entries(form.paths)) {
    const place = widget.place;
    if (!place || !widget.el || !form.el.contains(widget.el) || widget.el.closest("[hidden]")) continue;
    const parent = form.paths[path.replace(/\.?[^.]*$/, "")];
    if (parent && parent.place && parent.place.list) continue; // drawn with its list
    const value = widget.get(false);
    const values = (place.list ? (Array.isArray(value) ? value : []) : [value]).filter((v) => !blank(v));
    const piece = place.starts ? nearest(ctx, path, place.starts) : null;
    const from = piece ? piece.get(false) : undefined;
    if (!values.length) continue;
    const shape = { path, title: place.title, where: place.where, line: Boolean(place.line), from: typeof from === "string" ? from : null };
    if (place.where === "point") shape.points = values.filter((v) => Array.isArray(v) && v.every(Number.isFinite));
    else shape.labels = values.map(String);
    out.push(shape);
  }
  return out;
}

const snapshot = (widget) => JSON.stringify(widget.get(false) ?? null);

/** A sticky mark's field is fixed once its value changed and the page's own check takes it;
 * while it still fails that check, the note says why now. */
function recheck(form) {
  const marked = form.marked;
  if (!marked) return;
  if (!marked.sticky || !form.el.contains(marked.widget.el)) return form.unmark();
  if (snapshot(marked.widget) === marked.value) return; // the same value: the same reason
  try {
    marked.widget.get(true);
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    marked.note.textContent = error.message;
    marked.value = snapshot(marked.widget);
    return;
  }
  form.unmark();
}

function field(schemaNode, ctx, path, wpath, name, required, entry = false) {
  const { schema, nullable } = unwrap(schemaNode, ctx.root);
  const optional = !required || nullable;
  // An entry of a list shares the list's words but is titled by its place ("Marker 2").
  const own = ctx.words[wpath] || {};
  const words = entry ? { ...own, label: undefined, help: undefined, item: undefined } : own;
  const title = words.label || (entry ? name : humanize(name));
  if (schema.const !== undefined) return constant(schema.const);
  // A field for a real table only, or for a map only, is left out of the other.
  if (words.only && words.only !== ctx.mode) return constant(undefined);
  // Dice rolled at the table are asked for only in a game that takes them.
  if (words.typed && ctx.typed === false) return constant(undefined);
  if (words.kind === "hidden") return constant(undefined);
  const info = { title, help: words.help, unit: words.unit, snap: words.snap, optional, path, wpath, ctx, line: words.line, starts: words.starts };
  // A list of pieces or places: each entry asks for one (the words describe the entries).
  if (!entry && schema.type === "array" && schema.items && !schema.prefixItems && !isPosition(schema, ctx.root)) {
    const list = array(info, schema, words.item);
    return nullable && schema.default === null ? optionalWrap(info, list) : list;
  }
  if (words.kind === "piece") {
    // Nothing it could name now, and it may be left out: then it is not asked at all.
    if (optional && !(ctx.choices(wpath) || []).length) return constant(undefined);
    return pieces(info, schema);
  }
  if (words.options) return options(info, schema, words.options);
  if (words.kind === "place" && !isPosition(schema, ctx.root)) return place(info, schema, words.where);
  if (schema.type === "object" || schema.properties) {
    return nullable || !required ? optionalGroup(info, schema) : group(info, schema);
  }
  if (schema.type === "array") {
    if (isPosition(schema, ctx.root)) return position(info, schema);
    if (schema.prefixItems) return tuple(info, schema);
    const list = array(info, schema, words.item);
    return nullable && schema.default === null ? optionalWrap(info, list) : list;
  }
  if (Array.isArray(schema.enum)) return options(info, schema, schema.enum.map((v) => ({ value: v, label: humanize(v) })));
  if (schema.type === "boolean") return nullable ? triState(info, schema) : checkbox(info, schema);
  if (schema.type === "integer" || schema.type === "number") return number(info, schema);
  return text(info, schema);
}

function tuple(info, schema) {
  const { ctx, path, wpath, title, optional } = info;
  const parts = schema.prefixItems.map((item, i) =>
    field(item, ctx, `${path}.${i}`, `${wpath}.${i}`, `${title} ${i + 1}`, true),
  );
  const widget = {
    el: h("fieldset", { class: "group" }, h("legend", {}, title), hint(info), parts.map((p) => p.el)),
    get(strict) {
      const values = parts.map((p) => p.get(false));
      if (values.every((v) => v === undefined || v === null)) {
        if (!optional && strict) throw new FormError(t("Fill in: {field}.", { field: title }), path);
        return undefined;
      }
      return parts.map((p) => p.get(strict));
    },
    set(value) {
      parts.forEach((p, i) => p.set(Array.isArray(value) ? value[i] : undefined));
    },
  };
  register(ctx, path, widget);
  return widget;
}

function hint(info) {
  return info.help ? h("small", { class: "hint" }, info.help) : null;
}

// --- structures ----------------------------------------------------------------------------

function objectFields(schema, ctx, path, wpath, top) {
  const widgets = [];
  for (const { name, field: node, required } of properties(schema)) {
    const sub = path ? `${path}.${name}` : name;
    const wsub = wpath ? `${wpath}.${name}` : name;
    const widget = field(node, ctx, sub, wsub, name, required);
    noted(widget, ctx, wsub);
    const when = (ctx.words[wsub] || {}).when;
    if (when && widget.el) askedWhen(widget, when, ctx, sub);
    widgets.push([name, widget]);
    if (top) ctx.form.fields[name] = widget;
  }
  return {
    el: h("div", { class: "fields" }, widgets.map(([, w]) => w.el)),
    get(strict) {
      const out = {};
      for (const [name, widget] of widgets) {
        const value = widget.get(strict);
        if (value !== undefined) out[name] = value;
      }
      return out;
    },
    set(value) {
      for (const [name, widget] of widgets) widget.set(value ? value[name] : undefined);
    },
  };
}

/** The words the view's offer puts beside a field now (`notes`), under its label, kept up
 * to date as the view changes; nothing is added to a field that never has any. */
function noted(widget, ctx, wpath) {
  if (!widget.el || !ctx.note) return;
  let note = null;
  const show = () => {
    const text = ctx.note(wpath) || "";
    if (!text && !note) return;
    if (!note) {
      note = h("p", { class: "note", "aria-live": "polite" });
      widget.el.firstChild.after(note);
    }
    note.textContent = text;
    note.hidden = !text;
  };
  ctx.form.refreshers.push(show);
  show();
}

/** A field asked only while other fields of its group hold one of the given values (the
 * words' `when`): hidden, and left out of the command, otherwise. */
function askedWhen(widget, when, ctx, path) {
  const holds = () =>
    Object.entries(when).every(([name, values]) => {
      const other = nearest(ctx, path, name);
      return Boolean(other) && values.includes(other.get(false));
    });
  const get = widget.get;
  widget.get = (strict) => (holds() ? get(strict) : undefined);
  ctx.form.conditions.push(() => {
    widget.el.hidden = !holds();
  });
}

function group(info, schema) {
  const inner = objectFields(schema, info.ctx, info.path, info.wpath, false);
  const widget = {
    el: h("fieldset", { class: "group" }, h("legend", {}, info.title), hint(info), inner.el),
    get: inner.get,
    set: inner.set,
  };
  register(info.ctx, info.path, widget);
  return widget;
}

/** An object the command may leave out (measured values, entered rolls): a switch opens it. */
function optionalGroup(info, schema) {
  const inner = objectFields(schema, info.ctx, info.path, info.wpath, false);
  const body = { el: h("div", { class: "fields" }, hint(info), inner.el), get: inner.get, set: inner.set };
  return optionalWrap(info, body);
}

function optionalWrap(info, inner) {
  const { ctx, path, title } = info;
  const box = h("input", { type: "checkbox", name: `${path}:on` });
  const body = h("div", { class: "optional-body", hidden: true }, inner.el);
  box.addEventListener("change", () => {
    body.hidden = !box.checked;
    changed(ctx);
  });
  const widget = {
    el: h("div", { class: "optional" }, h("label", { class: "check" }, box, " ", title), body),
    get: (strict) => (box.checked ? inner.get(strict) : undefined),
    set(value) {
      box.checked = !blank(value);
      body.hidden = !box.checked;
      inner.set(value);
    },
  };
  register(ctx, path, widget);
  return widget;
}

/** A list the player grows and shrinks (orders, hidings, markers, model positions). */
function array(info, schema, itemWord) {
  const { ctx, path, wpath, title } = info;
  const items = [];
  const list = h("ol", { class: "items" });
  const max = schema.maxItems ?? Infinity;
  const min = schema.minItems ?? 0;
  const noun = itemWord || title;
  const add = h("button", { type: "button", class: "add", dataset: { path } }, `+ ${noun}`);

  function render(values) {
    items.length = 0;
    list.replaceChildren();
    values.forEach((value) => addItem(value));
    add.disabled = items.length >= max;
  }

  function addItem(value) {
    const index = items.length;
    // Entries share their words: "orders.unit" names the unit of every order.
    const item = field(schema.items || {}, ctx, `${path}.${index}`, wpath, `${capital(noun)} ${index + 1}`, true, true);
    if (value !== undefined) item.set(value);
    const remove = h("button", {
      type: "button",
      class: "remove",
      title: t("Remove"),
      "aria-label": t("Remove {item} {n}", { item: noun, n: index + 1 }),
      onclick: () => {
        const values = items.map((w) => w.get(false));
        values.splice(index, 1);
        render(values);
        changed(ctx);
      },
    }, "✕");
    items.push(item);
    list.append(h("li", {}, h("div", { class: "item-body" }, item.el), remove));
  }

  // A list of points (a path, a zone, a unit's models): tapped on the map one after another,
  // and once some are placed, one tap moves them all, keeping their formation; single
  // points can still be moved one by one.
  const pointsList = Boolean(schema.items) && isPosition(unwrap(schema.items, ctx.root).schema, ctx.root);
  const tapping = ctx.pick && pointsList ? tapPoints(info, noun, items, max, render) : null;
  const together = ctx.pick && pointsList
    ? h("button", {
        type: "button",
        class: "pick all",
        dataset: { path },
        onclick: () => ctx.pick(t("{field}: where the middle of the group goes", { field: title }), "point", (to) => {
          const values = items.map((w) => w.get(false));
          const placed = values.filter((v) => Array.isArray(v));
          if (!placed.length) return;
          const mid = [0, 1].map((k) => placed.reduce((sum, v) => sum + v[k], 0) / placed.length);
          const round = (n) => Math.round(n * 10) / 10;
          render(values.map((v) => (Array.isArray(v) ? [round(v[0] + to[0] - mid[0]), round(v[1] + to[1] - mid[1])] : v)));
          changed(ctx);
        }),
      }, t("Move them all: tap the map"))
    : null;
  if (together) {
    // Moving them all needs something placed to move: an empty path offers the taps above.
    const offer = () => {
      together.hidden = !items.some((w) => Array.isArray(w.get(false)));
      if (tapping) tapping.disabled = items.length >= max && items.every((w) => Array.isArray(w.get(false)));
    };
    ctx.form.conditions.push(offer);
    offer();
  }

  add.addEventListener("click", () => {
    if (items.length < max) addItem(undefined);
    add.disabled = items.length >= max;
    changed(ctx);
  });
  render(Array.isArray(schema.default) ? schema.default : Array.from({ length: min }, () => undefined));

  const widget = {
    el: h("fieldset", { class: "group list" }, h("legend", {}, title, " ", hintCount(schema)), hint(info), tapping, together, list, add),
    get(strict) {
      if (strict && items.length < min) throw new FormError(t("{field}: at least {n}.", { field: title, n: min }), path);
      return items.map((w) => {
        const value = w.get(strict);
        return value === undefined ? null : value;
      });
    },
    set(values) {
      render(Array.isArray(values) ? values : []);
    },
    get length() {
      return items.length;
    },
  };
  if (pointsList) widget.place = { where: "point", list: true, line: Boolean(info.line), starts: info.starts, title };
  register(ctx, path, widget);
  return widget;
}

/** The button that adds a list's points by tapping the map, one after another until the
 * player cancels or the list is full. */
function tapPoints(info, noun, items, max, render) {
  const { ctx, path, title } = info;
  const next = () => {
    // Each tap fills the first entry still empty (a path starts with one), else adds one.
    const values = items.map((w) => w.get(false));
    const empty = values.findIndex((v) => !Array.isArray(v));
    const index = empty >= 0 ? empty : values.length;
    if (index >= max) return;
    const label = t("{field}: {item} {n} (Cancel when done)", { field: title, item: noun, n: index + 1 });
    ctx.pick(label, "point", (point) => {
      const now = items.map((w) => w.get(false));
      now[index] = point;
      render(now);
      changed(ctx);
      next();
    });
  };
  return h("button", { type: "button", class: "pick add-points", dataset: { path }, onclick: next }, t("+ {item}: tap the map", { item: noun }));
}

function hintCount(schema) {
  if (schema.minItems && schema.maxItems === schema.minItems) return `(${schema.minItems})`;
  return null;
}

function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
