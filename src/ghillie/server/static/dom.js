// Building DOM nodes. Game text (names, notes, log lines, uploaded scenarios) is always
// inserted as text nodes, never parsed as HTML, so nothing a player types can run as code.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key in node && !(node instanceof SVGElement) && key !== "list") {
      node[key] = value; // properties such as value, checked, disabled, textContent
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

/** Append children: nodes, strings (as text), arrays of either; null/false are skipped. */
export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** h("div", {class: "x"}, "text", child) — an HTML element. */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** s("circle", {cx: 1}) — an SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** Words for a machine name: "record_ambushes" → "Record ambushes". */
export function humanize(name) {
  const words = String(name).replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The server's QR code (SVG text), made safe to insert: parsed (not pasted as HTML),
 * scripts and event handlers cannot survive, and scaled by CSS through a viewBox. Null if
 * the text holds no SVG. */
export function qrImage(svgText, label) {
  const doc = new DOMParser().parseFromString(String(svgText), "text/html");
  const svg = doc.querySelector("svg");
  if (!svg) return null;
  svg.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
  for (const node of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) if (/^on/i.test(attr.name)) node.removeAttribute(attr.name);
  }
  const width = svg.getAttribute("width");
  const height = svg.getAttribute("height");
  if (width && height && !svg.getAttribute("viewBox")) svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  return document.importNode(svg, true);
}
