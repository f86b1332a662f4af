// The pages' own words in the reader's language: headings, buttons and messages. The game's
// words (orders, pieces, the log) come from the server already spoken; these are the page's
// frame around them. `t("Waiting for {sides}.", {sides})` gives the sentence in the language
// the page was last told to use (English until then), its {names} filled in.

let table = {};
let plurals = {}; // English singular -> {one, few, many, other: the form}
let current = "en";

export function t(message, args) {
  const found = table[message] || message;
  return args ? fill(found, args) : found;
}

/** The {names} of `message` filled from `args`; "{side}'s" takes the possessive, as the
 * server's words do: "Nomads' page". */
function fill(message, args) {
  return message.replace(/\{(\w+)\}('s\b)?/g, (whole, name, s) => (name in args ? (s ? possessive(String(args[name])) : String(args[name])) : whole));
}

/** The English possessive of a name: "Orlov's", and "Nomads'" after a final s. */
export const possessive = (name) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

/** A sentence with a count, in the page's language: `tn("{n} commitment received",
 * "{n} commitments received", n)`, the form the language's plural rule picks for n (as the
 * catalogue gives them: 1 обязательство, 2 обязательства, 5 обязательств). */
export function tn(singular, plural, n, args) {
  const forms = plurals[singular];
  const found = forms ? forms[new Intl.PluralRules(current).select(n)] : null;
  const english = n === 1 ? singular : plural;
  const message = found || english;
  return fill(message, { n, ...(args || {}) });
}

export const language = () => current;

/** Use `lang` from now on (the language the view's words are in); true if it changed. */
export async function useLanguage(lang) {
  if (!lang || lang === current) return false;
  try {
    const response = await fetch(`/api/words?lang=${encodeURIComponent(lang)}`);
    const answer = await response.json();
    table = answer.words || {};
    plurals = answer.plurals || {};
    current = answer.lang || "en";
  } catch {
    return false; // the words are a courtesy: English stays
  }
  document.documentElement.lang = current;
  translateStatic();
  return true;
}

/** Elements marked data-t (in the page's HTML, or built before the words arrived): their
 * English text, translated; and those marked data-t-label, their aria-label. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) {
    if (!el.dataset.en) el.dataset.en = el.textContent;
    el.textContent = t(el.dataset.en);
  }
  for (const el of root.querySelectorAll("[data-t-label]")) {
    el.setAttribute("aria-label", t(el.dataset.tLabel));
  }
}
