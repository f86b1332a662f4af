// Forms generated from the commands' JSON Schemas, so a ruleset's new command needs no new
// page code. Each widget is {el, get(strict), set(value)}: get returns the value to send,
// or undefined to leave the field out (the server then uses its default); with strict it
// throws a FormError for a required field left empty or an unreadable number.

import { h, humanize } from "./dom.js";
import { isPosition, properties, unwrap } from "./schema.js";

export class FormError extends Error {}

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
  return text(title, schema, path, name, optional, ctx);
}

function holdsPositions(schema, root) {
  if (isPosition(schema, root)) return true;
  if (schema.type !== "array") return false;
  if (schema.prefixItems) return schema.prefixItems.every((item) => isPosition(item, root));
  return Boolean(schema.items) && isPosition(unwrap(schema.items, root).schema, root);
}

// --- layout --------------------------------------------------------------------------------

let lastId = 0;

function labelled(title, schema, control, ctx, path, extra) {
  const top = path.split(".")[0];
  const secret = ctx.secretFields && ctx.secretFields.has(top);
  // The label names the field's (last) input, so screen readers and taps find it.
  const inputs = control.matches("input, select") ? [control] : [...control.querySelectorAll("input, select")];
  const target = inputs[inputs.length - 1];
  if (target && !target.id) target.id = `f${++lastId}`;
  return h(
    "div",
    { class: "field" },
    h("label", { htmlFor: target ? target.id : undefined }, h("span", { class: "field-title" }, title), secret ? secretBadge() : null),
    control,
    extra || null,
    schema.description ? h("small", { class: "hint" }, schema.description) : null,
  );
}

function secretBadge() {
  return h("span", { class: "badge secret", title: "Only your side ever sees this" }, "secret");
}

function changed(ctx) {
  if (ctx.changed) ctx.changed();
}

// --- scalars -------------------------------------------------------------------------------

function constant(value) {
  return { el: null, get: () => value, set: () => {} };
}

function text(title, schema, path, name, optional, ctx) {
  const input = h("input", {
    type: "text",
    name: path,
    maxLength: schema.maxLength || undefined,
    autocomplete: "off",
    oninput: () => changed(ctx),
  });
  if (typeof schema.default === "string") input.value = schema.default;
  const picker = pieceChoice(ctx, path, schema, input);
  const widget = {
    el: labelled(title, schema, picker ? h("div", { class: "pair" }, picker.el, input) : input, ctx, path),
    get(strict) {
      const value = input.value.trim();
      if (value === "") {
        if (!optional && strict) throw new FormError(`Fill in: ${title}.`);
        return undefined;
      }
      return value;
    },
    set(value) {
      input.value = blank(value) ? "" : String(value);
      if (picker) picker.sync();
    },
  };
  input.addEventListener("input", () => picker && picker.sync());
  register(ctx, path, widget);
  return widget;
}

/** A select of the pieces a field may name (from the view), next to the free-text input
 * that stays the source of truth: choosing fills the input, typing selects what matches. */
function pieceChoice(ctx, path, schema, input) {
  const name = fieldName(path);
  if (!ctx.choices || !ctx.choices(path, name, schema)) return null;
  const select = h("select", { name: `${path}:choice`, "aria-label": `choose ${name}` });
  const fill = () => {
    const options = ctx.choices(path, name, schema) || [];
    const current = input.value;
    select.replaceChildren(
      h("option", { value: "" }, "— choose —"),
      ...options.map((o) => h("option", { value: o.value }, o.label)),
    );
    select.value = options.some((o) => o.value === current) ? current : "";
  };
  select.addEventListener("change", () => {
    input.value = select.value;
    changed(ctx);
    if (ctx.onField) ctx.onField(path, select.value, ctx.form);
  });
  ctx.form.refreshers.push(fill);
  fill();
  return {
    el: select,
    sync() {
      const match = [...select.options].some((o) => o.value === input.value);
      select.value = match ? input.value : "";
    },
  };
}

function number(title, schema, path, optional, ctx) {
  const integer = schema.type === "integer";
  const input = h("input", {
    type: "number",
    name: path,
    inputMode: integer ? "numeric" : "decimal",
    step: integer ? "1" : "any",
    min: schema.minimum ?? schema.exclusiveMinimum,
    max: schema.maximum ?? schema.exclusiveMaximum,
    oninput: () => changed(ctx),
  });
  if (typeof schema.default === "number") input.value = String(schema.default);
  const widget = {
    el: labelled(title, schema, input, ctx, path),
    get(strict) {
      const raw = input.value.trim();
      if (raw === "") {
        if (!optional && strict) throw new FormError(`Fill in: ${title}.`);
        return undefined;
      }
      const value = Number(raw);
      if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) {
        if (strict) throw new FormError(`${title}: not a ${integer ? "whole " : ""}number.`);
        return undefined;
      }
      return value;
    },
    set(value) {
      input.value = blank(value) ? "" : String(value);
    },
  };
  register(ctx, path, widget);
  return widget;
}

function choice(title, schema, path, optional, ctx) {
  const select = h(
    "select",
    { name: path, onchange: () => changed(ctx) },
    optional ? h("option", { value: "" }, "—") : null,
    schema.enum.map((v) => h("option", { value: String(v) }, humanize(v))),
  );
  if (schema.default !== undefined && schema.default !== null) select.value = String(schema.default);
  const widget = {
    el: labelled(title, schema, select, ctx, path),
    get(strict) {
      if (select.value === "") {
        if (!optional && strict) throw new FormError(`Choose: ${title}.`);
        return undefined;
      }
      return schema.enum.find((v) => String(v) === select.value);
    },
    set(value) {
      if (!blank(value)) select.value = String(value);
      else if (optional) select.value = "";
      else select.value = String(schema.default ?? schema.enum[0]);
    },
  };
  register(ctx, path, widget);
  return widget;
}

function checkbox(title, schema, path, ctx) {
  const box = h("input", { type: "checkbox", name: path, onchange: () => changed(ctx) });
  box.checked = schema.default === true;
  const el = h(
    "div",
    { class: "field check" },
    h("label", {}, box, " ", title),
    schema.description ? h("small", { class: "hint" }, schema.description) : null,
  );
  const widget = {
    el,
    get: () => box.checked,
    set(value) {
      box.checked = value === true;
    },
  };
  register(ctx, path, widget);
  return widget;
}

/** A yes/no that may also be left unsaid (a nullable boolean). */
function triState(title, schema, path, ctx) {
  const select = h(
    "select",
    { name: path, onchange: () => changed(ctx) },
    h("option", { value: "" }, "—"),
    h("option", { value: "true" }, "yes"),
    h("option", { value: "false" }, "no"),
  );
  const widget = {
    el: labelled(title, schema, select, ctx, path),
    get: () => (select.value === "" ? undefined : select.value === "true"),
    set(value) {
      select.value = value === true ? "true" : value === false ? "false" : "";
    },
  };
  register(ctx, path, widget);
  return widget;
}

// --- positions -----------------------------------------------------------------------------

/** An [x, y] position in inches, typed or picked on the map. */
function position(title, schema, ctx, path, optional) {
  const x = h("input", { type: "number", step: "any", inputMode: "decimal", name: `${path}.x`, placeholder: "x", "aria-label": `${title} x` });
  const y = h("input", { type: "number", step: "any", inputMode: "decimal", name: `${path}.y`, placeholder: "y", "aria-label": `${title} y` });
  for (const input of [x, y]) input.addEventListener("input", () => changed(ctx));
  const pick = ctx.pick
    ? h("button", {
        type: "button",
        class: "pick",
        dataset: { path },
        onclick: () =>
          ctx.pick(title, (point) => {
            x.value = String(point[0]);
            y.value = String(point[1]);
            changed(ctx);
          }),
      }, "Pick on map")
    : null;
  const widget = {
    el: labelled(title, schema, h("div", { class: "xy" }, x, y, pick), ctx, path),
    get(strict) {
      if (x.value === "" && y.value === "") {
        if (!optional && strict) throw new FormError(`Give a position: ${title}.`);
        return optional ? null : undefined;
      }
      const point = [Number(x.value), Number(y.value)];
      if (x.value === "" || y.value === "" || !point.every(Number.isFinite)) {
        if (strict) throw new FormError(`${title}: give both x and y.`);
        return undefined;
      }
      return point;
    },
    set(value) {
      x.value = Array.isArray(value) ? String(value[0]) : "";
      y.value = Array.isArray(value) ? String(value[1]) : "";
    },
  };
  register(ctx, path, widget);
  return widget;
}

/** A fixed-length tuple of other shapes (three sniper-marker positions). */
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

/** Every widget by its path ("hidings.0.marker"), for hooks that fill one field from another. */
function register(ctx, path, widget) {
  ctx.form.paths[path] = widget;
}

/** The field a path names: its last part that is not a list index ("hidings.0.marker" → marker). */
export function fieldName(path) {
  return path.split(".").filter((part) => !/^\d+$/.test(part)).pop() || path;
}
