// The single inputs of the generated forms: pieces chosen from what the side can see, named
// choices, places typed or tapped on the map, numbers with their units, yes/no and text.
// Each is {el, get(strict), set(value)}; see forms.js for how they are put together. Every
// input takes `info`: {title, help, unit, optional, path, wpath, ctx}.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { inRange, rangeOf, rangeWords } from "./ranges.js";

export class FormError extends Error {
  constructor(message, path) {
    super(message);
    this.path = path; // the field at fault, to show the reason beside it
  }
}

const blank = (v) => v === undefined || v === null || v === "";

// --- layout --------------------------------------------------------------------------------

let lastId = 0;

export function labelled(info, control) {
  const top = info.path.split(".")[0];
  const secret = info.ctx.secretFields && info.ctx.secretFields.has(top);
  // The label names the field's (first) input, so screen readers and taps find it.
  const inputs = control.matches("input, select") ? [control] : [...control.querySelectorAll("input, select")];
  const target = inputs[0];
  if (target && !target.id) target.id = `f${++lastId}`;
  return h(
    "div",
    { class: "field", dataset: { path: info.path } },
    h("label", { htmlFor: target ? target.id : undefined },
      h("span", { class: "field-title" }, info.title),
      info.unit ? h("span", { class: "unit" }, ` (${info.unit})`) : null,
      secret ? secretBadge() : null),
    control,
    info.help ? h("small", { class: "hint" }, info.help) : null,
  );
}

function secretBadge() {
  return h("span", { class: "badge secret", title: t("Only your side ever sees this") }, t("secret"));
}

export function changed(ctx) {
  if (ctx.changed) ctx.changed();
}

/** A field left empty: `sentence` is already in the reader's words, with {field}. */
function need(info, sentence) {
  return new FormError(sentence.replace("{field}", info.title), info.path);
}

// --- scalars -------------------------------------------------------------------------------

export function constant(value) {
  return { el: null, get: () => value, set: () => {} };
}

export function text(info, schema) {
  const input = h("input", {
    type: "text",
    name: info.path,
    maxLength: schema.maxLength || undefined,
    autocomplete: "off",
    oninput: () => changed(info.ctx),
  });
  if (typeof schema.default === "string") input.value = schema.default;
  const widget = {
    el: labelled(info, input),
    get(strict) {
      const value = input.value.trim();
      if (value === "") {
        if (!info.optional && strict) throw need(info, t("Fill in: {field}."));
        return undefined;
      }
      return value;
    },
    set(value) {
      input.value = blank(value) ? "" : String(value);
    },
  };
  register(info.ctx, info.path, widget);
  return widget;
}

/** One of the pieces this field may name now, as the side's view offers them. Choosing one
 * may fill in other fields of its group (a ship's move starts from where it stands). */
export function pieces(info, schema) {
  const { ctx, path, wpath } = info;
  const select = h("select", { name: path });
  let offered = [];
  // An option's value is the piece's id (or, for a value that is not a string, its place).
  const key = (o, i) => (typeof o.value === "string" ? o.value : `#${i}`);
  const find = (value) => offered.findIndex((o) => o.value === value);
  // A choice may hold only while other fields of its group say so (the chosen unit's models).
  const holds = (o) => Object.entries(o.when || {}).every(([name, value]) => {
    const other = nearest(ctx, path, name);
    return other && other.get(false) === value;
  });
  const fill = () => {
    const all = ctx.choices(wpath) || [];
    offered = all.filter(holds);
    // Choices that each belong to another field's answer (a unit's models) wait for it: the
    // field shows once that is chosen, rather than as an empty list.
    if (widget.el) widget.el.classList.toggle("waits", all.length > 0 && !offered.length && all.every((o) => o.when));
    select.replaceChildren(
      h("option", { value: "" }, offered.length ? t("— choose —") : t("— nothing to choose now —")),
      ...offered.map((o, i) => h("option", { value: key(o, i) }, o.label)),
    );
    // Keep the piece chosen if it is still on offer; otherwise the choice is cleared.
    const i = find(widget.value);
    select.value = i >= 0 ? key(offered[i], i) : "";
    if (i < 0) widget.value = undefined;
    if (widget.el) warn();
  };
  const chosen = () => {
    const i = [...select.options].findIndex((o) => o.selected) - 1;
    return i >= 0 && select.value !== "" ? offered[i] : null;
  };
  // What choosing it would cost (a unit whose move voids its own standing order), shown
  // beside the field once it is chosen.
  const warning = h("small", { class: "hint warn", role: "status", hidden: true });
  const warn = () => {
    const said = (chosen() || {}).warn || [];
    warning.replaceChildren(...said.map((w) => h("span", {}, w, " ")));
    warning.hidden = !said.length;
  };
  const widget = {
    value: undefined,
    el: labelled(info, select),
    get(strict) {
      const choice = chosen();
      if (!choice) {
        if (!info.optional && strict) throw need(info, t("Choose: {field}."));
        return undefined;
      }
      return choice.value;
    },
    set(value) {
      widget.value = blank(value) ? undefined : value;
      const i = find(widget.value);
      select.value = i >= 0 ? key(offered[i], i) : "";
      warn();
    },
  };
  widget.el.append(warning);
  select.addEventListener("change", () => {
    const choice = chosen();
    warn();
    widget.value = choice ? choice.value : undefined;
    if (choice && choice.fills) fillSiblings(ctx, path, choice.fills);
    ctx.form.refresh(); // choices that depend on this one follow it
    changed(ctx);
  });
  ctx.form.refreshers.push(fill);
  fill();
  register(ctx, path, widget);
  return widget;
}

/** The field `name` nearest to `path`: in its own group, else in the groups around it (the
 * unit beside a list of that unit's models). */
export function nearest(ctx, path, name) {
  for (let parent = path; parent.includes("."); ) {
    parent = parent.replace(/\.[^.]*$/, "");
    const found = ctx.form.paths[`${parent}.${name}`];
    if (found) return found;
  }
  return ctx.form.paths[name];
}

function fillSiblings(ctx, path, fills) {
  const parent = path.includes(".") ? path.replace(/\.[^.]*$/, "") : "";
  for (const [name, value] of Object.entries(fills)) {
    const target = ctx.form.paths[parent ? `${parent}.${name}` : name];
    if (target) target.set(value);
  }
}

/** A named choice: the words say what each value means ("the first marker", not 0). */
export function options(info, schema, choices) {
  const { ctx, path, optional } = info;
  const select = h(
    "select",
    { name: path, onchange: () => changed(ctx) },
    h("option", { value: "", disabled: !optional }, optional ? "—" : t("— choose —")),
    choices.map((o) => h("option", { value: String(o.value) }, o.label)),
  );
  const pick = (value) => {
    select.value = blank(value) || !choices.some((o) => o.value === value) ? "" : String(value);
  };
  pick(schema.default);
  const widget = {
    el: labelled(info, select),
    get(strict) {
      const found = choices.find((o) => String(o.value) === select.value);
      if (!found) {
        if (!optional && strict) throw need(info, t("Choose: {field}."));
        return undefined;
      }
      return found.value;
    },
    set(value) {
      pick(blank(value) && !optional ? schema.default : value);
    },
  };
  register(ctx, path, widget);
  return widget;
}

export function number(info, schema) {
  const integer = schema.type === "integer";
  const range = rangeOf(schema);
  const input = h("input", {
    type: "number",
    name: info.path,
    inputMode: integer ? "numeric" : "decimal",
    step: integer ? "1" : "any",
    min: range.low ?? undefined,
    max: range.high ?? undefined,
    oninput: () => changed(info.ctx),
  });
  if (typeof schema.default === "number") input.value = String(schema.default);
  const widget = {
    el: labelled(info, input),
    get(strict) {
      const raw = input.value.trim();
      if (raw === "") {
        // A browser leaves a number input empty when what was typed is not a number.
        if (input.validity && input.validity.badInput) {
          if (strict) throw new FormError(rangeWords(info.title, info.unit, range), info.path);
          return undefined;
        }
        if (!info.optional && strict) throw need(info, t("Fill in: {field}."));
        return undefined;
      }
      const value = Number(raw);
      // Not a number, not whole where a whole one is asked, or past the schema's bounds
      // (which the server holds the command to): the range, beside the field, before sending.
      if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || !inRange(value, range)) {
        if (strict) throw new FormError(rangeWords(info.title, info.unit, range), info.path);
        return undefined;
      }
      return value;
    },
    set(value) {
      input.value = blank(value) ? "" : String(value);
    },
  };
  register(info.ctx, info.path, widget);
  return widget;
}

export function checkbox(info, schema) {
  const box = h("input", { type: "checkbox", name: info.path, onchange: () => changed(info.ctx) });
  box.checked = schema.default === true;
  const el = h(
    "div",
    { class: "field check", dataset: { path: info.path } },
    h("label", {}, box, " ", info.title),
    info.help ? h("small", { class: "hint" }, info.help) : null,
  );
  const widget = {
    el,
    get: () => box.checked,
    set(value) {
      box.checked = value === true;
    },
  };
  register(info.ctx, info.path, widget);
  return widget;
}

/** A yes/no that may also be left unsaid (a nullable boolean). */
export function triState(info) {
  const select = h(
    "select",
    { name: info.path, onchange: () => changed(info.ctx) },
    h("option", { value: "" }, "—"),
    h("option", { value: "true" }, t("yes")),
    h("option", { value: "false" }, t("no")),
  );
  const widget = {
    el: labelled(info, select),
    get: () => (select.value === "" ? undefined : select.value === "true"),
    set(value) {
      select.value = value === true ? "true" : value === false ? "false" : "";
    },
  };
  register(info.ctx, info.path, widget);
  return widget;
}

// --- places --------------------------------------------------------------------------------

const PLACEHOLDER = { square: () => t("e.g. D2"), hex: () => t("e.g. 0412") };

/** A square or a hex, by its label: typed, or tapped on the map. */
export function place(info, schema, where) {
  const { ctx, path } = info;
  const input = h("input", {
    type: "text",
    name: path,
    maxLength: schema.maxLength || 8,
    autocomplete: "off",
    autocapitalize: "characters",
    placeholder: PLACEHOLDER[where] ? PLACEHOLDER[where]() : "",
    oninput: () => changed(ctx),
  });
  const pick = pickButton(info, where, (label) => {
    input.value = String(label);
    changed(ctx);
  });
  const widget = {
    place: { where, starts: info.starts, title: info.title }, // drawn on the map as entered
    el: labelled(info, h("div", { class: "place" }, input, pick)),
    get(strict) {
      const value = input.value.trim().toUpperCase();
      if (value === "") {
        if (!info.optional && strict) throw need(info, t("Fill in: {field}."));
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

function pickButton(info, where, done) {
  if (!info.ctx.pick) return null;
  return h("button", {
    type: "button",
    class: "pick",
    dataset: { path: info.path },
    onclick: () => info.ctx.pick(info.title, where, done, info.snap),
  }, t("Tap on the map"));
}

/** An [x, y] point on the table in inches, typed or tapped on the map. */
export function position(info) {
  const { ctx, path, title, optional } = info;
  const x = h("input", { type: "number", step: "any", inputMode: "decimal", name: `${path}.x`, placeholder: t("across"), "aria-label": t("{field}: inches across", { field: title }) });
  const y = h("input", { type: "number", step: "any", inputMode: "decimal", name: `${path}.y`, placeholder: t("down"), "aria-label": t("{field}: inches down", { field: title }) });
  for (const input of [x, y]) input.addEventListener("input", () => changed(ctx));
  const pick = pickButton(info, "point", (point) => {
    x.value = String(point[0]);
    y.value = String(point[1]);
    changed(ctx);
  });
  const widget = {
    place: { where: "point", starts: info.starts, title }, // drawn on the map as entered
    el: labelled(info, h("div", { class: "xy" }, x, y, pick)),
    get(strict) {
      if (x.value === "" && y.value === "") {
        if (!optional && strict) throw need(info, t("Give a position: {field}."));
        return optional ? null : undefined;
      }
      const point = [Number(x.value), Number(y.value)];
      if (x.value === "" || y.value === "" || !point.every(Number.isFinite)) {
        if (strict) throw new FormError(t("{field}: give inches across and down.", { field: title }), path);
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

/** Every widget by its path ("hidings.0.marker"), for filling one field from another. */
export function register(ctx, path, widget) {
  ctx.form.paths[path] = widget;
}
