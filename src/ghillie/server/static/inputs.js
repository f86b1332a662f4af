// The single inputs of the generated forms: text (with a choice of pieces), numbers, enums,
// yes/no, and positions typed or picked on the map. Each is {el, get(strict), set(value)};
// see forms.js for how they are put together.

import { h, humanize } from "./dom.js";

export class FormError extends Error {}

const blank = (v) => v === undefined || v === null || v === "";

// --- layout --------------------------------------------------------------------------------

let lastId = 0;

export function labelled(title, schema, control, ctx, path) {
  const top = path.split(".")[0];
  const secret = ctx.secretFields && ctx.secretFields.has(top);
  // The label names the field's (last) input, so screen readers and taps find it.
  const inputs = control.matches("input, select") ? [control] : [...control.querySelectorAll("input, select")];
  const target = control.classList.contains("xy") ? inputs[0] : inputs[inputs.length - 1];
  if (target && !target.id) target.id = `f${++lastId}`;
  return h(
    "div",
    { class: "field" },
    h("label", { htmlFor: target ? target.id : undefined }, h("span", { class: "field-title" }, title), secret ? secretBadge() : null),
    control,
    schema.description ? h("small", { class: "hint" }, schema.description) : null,
  );
}

function secretBadge() {
  return h("span", { class: "badge secret", title: "Only your side ever sees this" }, "secret");
}

export function changed(ctx) {
  if (ctx.changed) ctx.changed();
}

// --- scalars -------------------------------------------------------------------------------

export function constant(value) {
  return { el: null, get: () => value, set: () => {} };
}

export function text(title, schema, path, optional, ctx) {
  const input = h("input", {
    type: "text",
    name: path,
    maxLength: schema.maxLength || undefined,
    autocomplete: "off",
    oninput: () => changed(ctx),
  });
  const picker = pieceChoice(ctx, path, schema, input);
  if (picker) input.placeholder = "or type a label, key or id";
  if (typeof schema.default === "string") input.value = schema.default;
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

export function number(title, schema, path, optional, ctx) {
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

export function choice(title, schema, path, optional, ctx) {
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

export function checkbox(title, schema, path, ctx) {
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
export function triState(title, schema, path, ctx) {
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
export function position(title, schema, ctx, path, optional) {
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
/** Every widget by its path ("hidings.0.marker"), for hooks that fill one field from another. */
export function register(ctx, path, widget) {
  ctx.form.paths[path] = widget;
}

/** The field a path names: its last part that is not a list index ("hidings.0.marker" → marker). */
export function fieldName(path) {
  return path.split(".").filter((part) => !/^\d+$/.test(part)).pop() || path;
}
