// The Fairness panel of a side's page (fairplay.js), and what it adds elsewhere on the page:
// the alarms with the receipts to save, the notes on the game's status (new chains, rolls
// drawn without a page, who a roll waits for), each opening checked in the log, and the game
// record to download. It only reads what the page keeps. Methods of FairPlay (fairplay.js).

import * as api from "./api.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { sideName } from "./pieces.js";
import { HOST, audit, isCount } from "./fairreceipts.js";
import { SLOW_ROLL_MS } from "./fairprotocol.js";

/** The record's file name, from the game's title and the day: "ghillie-green-hell-2026-12-01.json". */
export const recordName = (title) => {
  const slug = String(title || "game").toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "") || "game";
  return `ghillie-${slug}-${new Date().toISOString().slice(0, 10)}.json`;
};

/** The browser saves `text` as the file `name` (JSON). */
const saveFile = (name, text) => {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

const short = (value) => (typeof value === "string" ? value.slice(0, 12) : "?");

export const showing = {
  /** The sides whose new dice chain the host has announced (before its first roll), or
   * whose new chain started at an event of the log, in the players' words. */
  chainNotes(view) {
    const notes = [];
    for (const { side, from } of (view.fairness || {}).new_chains || []) {
      if (!isCount(from)) continue;
      notes.push(
        side === this.me
          ? t("Your seat was taken over by another device: from roll {from} on, your dice come from a new chain made there. No earlier roll changes.", { from })
          : t("The seat of {side} was taken over by another device: from roll {from} on, its dice come from a new chain made there. No earlier roll changes.", { side: this.partyName(view, side), from }),
      );
    }
    for (const [seq, sides] of this.missing) {
      for (const side of sides) {
        // Who could have known it: the host, and every side whose page gave its share.
        const others = (view.sides || []).filter((s) => s && s.id !== side).map((s) => (s.id === this.me ? t("your side") : this.partyName(view, s.id)));
        const knew = [t("the host"), ...others].join(t(" and "));
        const gave = side === this.me && this.gave().includes(seq) && !this.cameLate.has(seq);
        notes.push(
          gave
            ? t("Roll {seq} was drawn without this page's share, though it gave it (see the alarm): {knew} could have known that roll in advance.", { seq, knew })
            : side === this.me && this.refusedRoll(seq)
            ? t("Roll {seq} was drawn without this page's share, which it refused to give (see the alarm): {knew} could have known that roll in advance.", { seq, knew })
            : side === this.me
            ? t("Roll {seq} was drawn without this page's share (it did not give it in time): {knew} could have known that roll in advance.", { seq, knew })
            : t("Roll {seq} was drawn without a share from the page of {side} (it did not give it in time): {knew} could have known that roll in advance.", { seq, side: this.partyName(view, side), knew }),
        );
      }
    }
    for (const [seq, chains] of this.newChains) {
      for (const side of Object.keys(chains)) {
        notes.push(
          side === this.me
            ? t("From event {seq} on, your dice come from a new chain (your seat moved to another device).", { seq })
            : t("From event {seq} on, the dice of {side} come from a new chain (its seat moved to another device).", { seq, side: this.partyName(view, side) }),
        );
      }
    }
    return notes;
  },

  /** The alarms, for the top of the page; null if there are none. */
  alarmBox() {
    if (!this.alarms.size) return null;
    return h(
      "section",
      { class: "alarm", role: "alert" },
      h("h2", {}, t("Fairness alarm")),
      [...this.alarms.values()].map((text) => h("p", {}, text)),
      this.me ? this.receiptsBox() : "",
    );
  },

  /** The page's receipts saved to a file now: the evidence an alarm asks the player to
   * keep, while the game is on and its record cannot be had yet (or never will be). */
  receiptsBox() {
    const record = recordName(this.title);
    const name = record.replace(/\.json$/, `-receipts-${this.me}.json`);
    const button = h("button", { type: "button", class: "receipts-button" }, t("Save this page's receipts"));
    button.addEventListener("click", () => saveFile(name, JSON.stringify(this.receipts())));
    return h(
      "div",
      { class: "alarm-receipts" },
      button,
      h("p", { class: "hint" }, t("With the game record, once the host gives it: "), h("code", {}, `ghillie audit ${record} --receipts ${name}`)),
    );
  },

  /** Who the open roll waits for, once it has waited long enough to matter; else null. */
  slowRoll(view) {
    const waiting = this.waiting(view);
    if (!waiting || Date.now() - this.pending.since < SLOW_ROLL_MS) return null;
    return t("{roll} is waiting for: {waiting}.", { roll: this.rollWords(view), waiting });
  },

  rollWords(view) {
    const k = view.fairness.request.k;
    return isCount(k) ? t("Roll {k}", { k }) : t("A roll");
  },

  /** A side's name as this game gives it; anything else the host wrote is not repeated. */
  partyName(view, id) {
    if (id === HOST) return t("the host");
    if (id === this.me) return t("this page");
    return (view.sides || []).some((s) => s && s.id === id) ? sideName(view, id) : t("a party this game does not have");
  },

  /** Before the game starts: who has not opened their page yet; else null. */
  joiningNote(view) {
    const joining = ((view.fairness || {}).joining || []).filter((side) => side !== this.me);
    if (!joining.length) return null;
    return t("Waiting for {join} to take their seat: the game starts once every side has.", { join: joining.map((side) => this.partyName(view, side)).join(", ") });
  },

  waiting(view) {
    const fairness = view.fairness || {};
    if (!fairness.request || !this.pending) return null;
    // This page itself, when it refused the roll: it is not slow, and will not give it.
    const refused = this.refusedRoll(fairness.request.k);
    const parties = (fairness.waiting || []).map((p) => (p === this.me && refused ? t("this page, which will not give its share (see the alarm)") : this.partyName(view, p)));
    return parties.length ? parties.join(", ") : null;
  },

  /** The Fairness panel's content. */
  panel(view) {
    this.title = view.title; // names the record's file
    const rows = [];
    if (this.me) {
      rows.push(this.chainRow(view));
      const receipts = this.kept || this.receipts();
      const heads = receipts.heads;
      const latest = heads.reduce((a, b) => (b.seq > (a ? a.seq : -1) ? b : a), null);
      rows.push(
        h(
          "p",
          { class: "fair-receipts" },
          t("Receipts kept: {length}", { length: heads.length + receipts.requests.length }),
          latest ? t(" (latest signed head: event {seq}, ", { seq: latest.seq }) : "",
          latest ? h("code", {}, short(latest.hash)) : "",
          latest ? ")." : ".",
          this.storage.persistent ? "" : t(" This browser keeps no storage for this page: they are lost when it closes."),
        ),
      );
      const others = (view.sides || []).filter((s) => s.id !== this.me);
      rows.push(
        h(
          "ul",
          { class: "fair-roots" },
          others.map((side) => {
            const roots = (view.log || []).map((e) => e.proof && e.proof.roots && e.proof.roots[side.id]).filter(Boolean);
            return h(
              "li",
              { dataset: { side: side.id } },
              tn("{side}: {n} commitment to its secrets received", "{side}: {n} commitments to its secrets received", roots.length, { side: side.name }),
              roots.length ? [t(", latest "), h("code", {}, short(roots[roots.length - 1]))] : "",
              ".",
            );
          }),
        ),
      );
      const checked = [...this.checks.values()].flat();
      if (checked.length) {
        const good = checked.filter((c) => c.ok === true).length;
        const bad = checked.filter((c) => c.ok === false).length;
        const matched = tn("Revealed secrets checked against their commitments: {n} matches", "Revealed secrets checked against their commitments: {n} match", good);
        const failed = bad ? tn(", {n} does NOT", ", {n} do NOT", bad) : "";
        rows.push(h("p", { class: "fair-openings" }, `${matched}${failed}.`));
      }
    } else {
      // The referee's page plays no side: it holds no chain and no receipts, so it has
      // nothing to check; say so, rather than show an empty panel.
      rows.push(h("p", { class: "fair-referee" }, t("This page plays no side, so it holds no dice chain and keeps no receipts: each side's page checks the host as the game goes, and ghillie audit checks the whole record after it.")));
    }
    const joining = this.joiningNote(view);
    if (joining) rows.push(h("p", { class: "fair-joining" }, joining));
    const waiting = this.waiting(view);
    if (waiting) {
      rows.push(h("p", { class: "fair-waiting" }, `${this.rollWords(view)} is waiting for: ${waiting}.`));
    }
    if (this.problem) rows.push(h("p", { class: "message error fair-problem" }, this.problem));
    const archived = (view.fairness || {}).archived;
    if (archived !== undefined) {
      rows.push(h("p", { class: "message error fair-archived" }, t("This game was started under an earlier version of ghillie's fairness rules and cannot go on here. Download its record and check it with ghillie audit --unfinished.")));
    }
    if (view.phase === "over" || archived !== undefined) rows.push(this.recordBox());
    return h("div", {}, rows);
  },

  chainRow(view) {
    const texts = {
      page: ["fair-chain page", t("Your share of every roll comes from a dice chain held by this page: the host cannot know it in advance or steer the rolls.")],
      host: ["fair-chain host", t("Your dice chain is held by the host, not by this page: the host could steer the rolls. (The game was created without the pages' contributions.)")],
      unlisted: ["fair-chain unlisted message error", t("The host's record of this game does not roll your dice from the chain this page holds: the host could steer the rolls (see the alarm).")],
      elsewhere: ["fair-chain elsewhere message error", t("This device holds the seat of {side} but not its dice chain (was this browser's storage cleared?). Rolls wait for it: start a new dice chain on this device.", { side: sideName(view, this.me) })],
      none: ["fair-chain none", t("This server says nothing of who holds your dice chain.")],
    };
    const [cls, text] = texts[this.chainState] || texts.none;
    return h("p", { class: cls, dataset: { holder: this.chainState } }, text);
  },

  recordBox() {
    const name = recordName(this.title);
    const note = h("p", { class: "message", "aria-live": "polite" });
    const button = h("button", { type: "button", class: "primary record-button" }, t("Download the game record"));
    button.addEventListener("click", () => this.download(button, note));
    return h(
      "div",
      { class: "fair-record" },
      button,
      note,
      h("p", { class: "hint" }, t("Check it with: "), h("code", {}, `ghillie audit ${name}`)),
    );
  },

  async download(button, note) {
    button.disabled = true;
    note.className = "message pending";
    note.textContent = t("Fetching the record…");
    try {
      // The record's own text, not parsed and written again: JavaScript has one kind of
      // number, so 4.0 would come back as 4, and the audit accepts a record only in the one
      // form the host wrote it. The receipts go in as the object's last field.
      let text = await api.recordText(this.game, this.token);
      if (this.me) {
        const receipts = JSON.stringify({ [this.me]: this.receipts() });
        text = text.replace(/\}\s*$/, `,"receipts":${receipts}}`);
      }
      const name = recordName(this.title);
      saveFile(name, text);
      note.className = "message ok";
      note.textContent = t("Saved as {name}{receipts}.", { name, receipts: this.me ? t(", with this page's receipts") : "" });
    } catch (error) {
      note.className = "message error";
      note.textContent = error instanceof api.Problem ? error.message : t("Could not fetch the record. Try again.");
    } finally {
      button.disabled = false;
    }
  },

  /** Lines for a log entry: each opening shown to this side, checked, in the players' words
   * (the view's `secret_words`). Openings of one piece that checked alike, against the same
   * roots, make one line: "What marker M1 hides (a unit: Machine-gun position)". */
  openingLines(entry) {
    const groups = [];
    for (const check of this.checks.get(entry.seq) || []) {
      const { opening, ok, missing } = check;
      if (!opening || typeof opening !== "object") {
        groups.push({ bad: true });
        continue;
      }
      const written = opening.written && typeof opening.written === "object" ? opening.written.seq : undefined;
      const at = isCount(written) ? written : null;
      const last = groups[groups.length - 1];
      const alike = (g) =>
        g && !g.bad && g.opening.piece === opening.piece && g.ok === ok && g.missing === missing && g.at === at && g.opening.root_seq === opening.root_seq;
      if (alike(last)) last.values.push(this.factValue(opening));
      else groups.push({ opening, ok, missing, at, values: [this.factValue(opening)] });
    }
    return groups.map((g) => this.openingLine(g));
  },

  openingLine({ bad, opening, ok, missing, at, values }) {
    if (bad) return h("p", { class: "line opening opening-bad" }, t("✗ Something revealed here does NOT match its commitment — {audit}.", { audit: audit() }));
    const what = `${this.factName(opening)} (${values.join(": ")})`;
    // root_seq is the event before this one whenever the opening was checked at all, and
    // a write proof that checked names an event no later.
    const rootSeq = opening.root_seq;
    if (ok === true && at !== null) {
      const published = at === rootSeq ? t("the commitment published then") : t("the commitments published then and at event {n}", { n: rootSeq });
      return h("p", { class: "line opening opening-ok" }, t("✓ {what} was written at event {at} and has not changed since: it matches {published}.", { what, at, published }));
    }
    if (ok === true) {
      return h("p", { class: "line opening opening-ok" }, t("✓ {what}: matches the commitment published at event {n}.", { what, n: rootSeq }));
    }
    if (ok === false) {
      const events = isCount(rootSeq) ? (at !== null && at !== rootSeq ? t(" (events {at} and {n})", { at, n: rootSeq }) : t(" (event {n})", { n: rootSeq })) : "";
      return h("p", { class: "line opening opening-bad" }, t("✗ {what} does NOT match its commitment{events} — {audit}.", { what, events, audit: audit() }));
    }
    return h("p", { class: "line opening opening-unknown" }, t("? {what}: this page never received the commitment of event {n} to check it against.", { what, n: missing }));
  },

  /** The opened fact of a piece, as its players name it ("What marker M1 hides"). */
  factName(opening) {
    const piece = this.names.get(opening.piece) || short(opening.piece).slice(0, 8);
    const words = this.secretWords.get(opening.key);
    const what = words && typeof words.what === "string" ? words.what : t("A secret of {piece}");
    return what.split("{piece}").join(piece);
  },

  /** An opened value in words: the ruleset's for it, a piece's name, or as it is. */
  factValue(opening) {
    const words = this.secretWords.get(opening.key);
    const values = words && Array.isArray(words.values) ? words.values : [];
    const found = values.find((pair) => Array.isArray(pair) && pair[0] === opening.value && typeof pair[1] === "string");
    return found ? found[1] : this.value(opening.value);
  },

  value(v) {
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (v === null || v === undefined) return "nothing";
    if (typeof v === "string") return this.names.get(v) || v;
    return JSON.stringify(v);
  }
};
