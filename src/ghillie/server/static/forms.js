// Forms generated from the commands' JSON Schemas, so a ruleset's new command needs no new
// page code. Each widget is {el, get(strict), set(value)}: get returns the value to send,
// or undefined to leave the field out (the server then uses its default); with strict it
// throws a FormError for a required field left empty or an unreadable number.

import { h, humanize } from "./dom.js";
import {
  FormError,
  changed,
  checkbox,
  choice,
  constant,
  number,
  position,
  register,
  text,
  triState,
} from "./inputs.js";
import { isPosition, properties, unwrap } from "./schema.js";

export { FormError };

const blank = (v) => v === undefined || v === null || v === "";

/**
 * Build the form of one command.
 * @param {object} schema the command's JSON Schema
 * @param {object} ctx {command, secretFields: Set, choices(path, name, schema) → [{value,label}]|null,
 *   pick(label, done) | null — to take a position from the map, positions: false to leave
 *   optional positions out (table mode), onField(path, value, form), changed()}
 */
export function commandForm(schema, ctx) {
  const form = { fields: {}, paths: {}, refreshers: [] };
  const full = { ...ctx, root: schema, form };
  const body = objectFields(schema, full, "", true);
  form.el = body.el;
  form.get = (strict) => ({ type: ctx.command, ...(body.get(strict) || {}) });
  form.set = body.set;
  form.refresh = () => form.refreshers.forEach((refresh) => refresh());
  return form;
}

function field(schemaNode, ctx, path, name, required) {
  const { schema, nullable } = unwrap(schemaNode, ctx.root);
  const optional = !required || nullable;
  // The field's own name reads better than pydantic's titles ("ObserveRolls", "Line Of Sight").
  const title = humanize(name);
  if (schema.const !== undefined) return constant(schema.const);
  // At a real table the table itself is the map: optional positions are left out.
  if (ctx.positions === false && optional && holdsPositions(schema, ctx.root)) {
    return constant(undefined);
  }
  if (schema.type === "object" || schema.properties) {
    return nullable || !required
      ? optionalGroup(title, schema, ctx, path)
      : group(title, schema, ctx, path);
  }
  if (schema.type === "array") {
    if (isPosition(schema, ctx.root)) return position(title, schema, ctx, path, optional);
    if (schema.prefixItems) return tuple(title, schema, ctx, path, optional);
    const list = array(title, schema, ctx, path);
    return nullable && schema.default === null ? optionalWrap(title, list, ctx, path) : list;
  }
  if (Array.isArray(schema.enum)) return choice(title, schema, path, optional, ctx);
  if (schema.type === "boolean") {
    return nullable ? triState(title, schema, path, ctx) : checkbox(title, schema, path, ctx);
  }
  if (schema.type === "integer" || schema.type === "number") {
    return number(title, schema, path, optional, ctx);
  }
  return text(title, schema, path, optional, ctx);
}

function holdsPositions(schema, root) {
  if (isPosition(schema, root)) return true;
  if (schema.type !== "array") return false;
  if (schema.prefixItems) return schema.prefixItems.every((item) => isPosition(item, root));
  return Boolean(schema.items) && isPosition(unwrap(schema.items, root).schema, root);
}

function tuple(title, schema, ctx, path, optional) {
  const parts = schema.prefixItems.map((item, i) =>
    field(item, ctx, `${path}.${i}`, `${title} ${i + 1}`, true),
  );
  const widget = {
    el: h("fieldset", { class: "group" }, h("legend", {}, title), parts.map((p) => p.el)),
    get(strict) {
      const values = parts.map((p) => p.get(false));
      if (values.every((v) => v === undefined || v === null)) {
        if (!optional && strict) throw new FormError(`Fill in: ${title}.`);
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

// --- structures ----------------------------------------------------------------------------

function objectFields(schema, ctx, path, top) {
  const widgets = [];
  for (const { name, field: node, required } of properties(schema)) {
    const sub = path ? `${path}.${name}` : name;
    const widget = field(node, ctx, sub, name, required);
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

function group(title, schema, ctx, path) {
  const inner = objectFields(schema, ctx, path, false);
  const widget = {
    el: h("fieldset", { class: "group" }, h("legend", {}, title), inner.el),
    get: inner.get,
    set: inner.set,
  };
  register(ctx, path, widget);
  return widget;
}

/** An object the command may leave out (measured values, entered rolls): a switch opens it. */
function optionalGroup(title, schema, ctx, path) {
  return optionalWrap(title, group(title, schema, ctx, path), ctx, path);
}

function optionalWrap(title, inner, ctx, path) {
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
function array(title, schema, ctx, path) {
  const items = [];
  const list = h("ol", { class: "items" });
  const max = schema.maxItems ?? Infinity;
  const min = schema.minItems ?? 0;
  const add = h("button", { type: "button", class: "add", dataset: { path } }, `Add ${singular(title)}`);

  function render(values) {
    items.length = 0;
    list.replaceChildren();
    values.forEach((value) => addItem(value));
    add.disabled = items.length >= max;
  }

  function addItem(value) {
    const index = items.length;
    const item = field(schema.items || {}, ctx, `${path}.${index}`, `${singular(title)} ${index + 1}`, true);
    if (value !== undefined) item.set(value);
    const remove = h("button", {
      type: "button",
      class: "remove",
      title: "Remove",
      "aria-label": `Remove ${singular(title)} ${index + 1}`,
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

  add.addEventListener("click", () => {
    if (items.length < max) addItem(undefined);
    add.disabled = items.length >= max;
    changed(ctx);
  });
  render(Array.isArray(schema.default) ? schema.default : Array.from({ length: min }, () => undefined));

  const widget = {
    el: h("fieldset", { class: "group list" }, h("legend", {}, title, " ", hintCount(schema)), list, add),
    get(strict) {
      if (strict && items.length < min) throw new FormError(`${title}: at least ${min}.`);
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
  register(ctx, path, widget);
  return widget;
}

function hintCount(schema) {
  if (schema.minItems && schema.maxItems === schema.minItems) return `(${schema.minItems})`;
  return null;
}

function singular(title) {
  const word = String(title);
  if (/ies$/i.test(word)) return word.slice(0, -3) + "y";
  if (/s$/i.test(word) && !/ss$/i.test(word)) return word.slice(0, -1);
  return word;
}
