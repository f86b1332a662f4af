// A side's seat on this device (ghillie.server.seats; docs/fairness.md, "Seats"). A side's
// link opens its seat; the seat, and the side's dice chain, belong to the first device that
// *takes* it — not to one that merely opens the link (the host checking a link on the links
// page, say). The device proves it holds the seat with a seat key kept in this browser and
// sent with every connection. A second device is told the seat is taken, and shown nothing
// of the game; it may take the seat over with the code the holding device shows, or, when
// that device is lost, with a new dice chain from the next roll on.

import * as api from "./api.js";
import { h, qrImage } from "./dom.js";
import * as fair from "./fair.js";
import { t, useLanguage } from "./i18n.js";
import { sideName } from "./pieces.js";

const seatKeyName = (game, token) => `ghillie:seat:${game}:${fair.hex(fair.sha256(fair.utf8(token))).slice(0, 32)}`;

/** "14:05", in the reader's own clock; nothing for a time that will not parse. */
export function clock(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export class Seat {
  /**
   * @param {string} game the game id
   * @param {string} token the side's token (from the link)
   * @param {string|null} move a move code the link carries (`#token&seat-code=CODE`)
   * @param {object} storage the page's kept storage (fairplay's)
   * @param {{send: (m: object) => boolean, changed: () => void, stop: () => void,
   *   freshAnchor: (side: string) => string, chainFrom: (side: string, k: number) => void,
   *   signing: (side: string) => string|null, freshSigning: (side: string) => string,
   *   signingFrom: (side: string, k: number) => void}} hooks
   *   signing: the public key this device signs the side's orders with (made if need be);
   *   freshSigning: a new one, for a seat taken over
   */
  constructor(game, token, move, storage, hooks) {
    this.game = game;
    this.token = token;
    this.move = move;
    this.storage = storage;
    this.hooks = hooks;
    this.key = storage.get(seatKeyName(game, token));
    api.useSeat(this.key);
    this.state = null; // "free" | "yours" | "taken" | "none" (the referee, the table screen)
    this.seat = {};
    this.problem = null;
    this.offered = null; // {code, url, qr_svg}: shown while the player moves the seat
    this.movedAway = false; // this device held the seat, and another took it over
    this.busy = false;
  }

  /** Sent with the socket's first message: which device this is. */
  hello() {
    return this.key ? { seat: this.key } : {};
  }

  /** May this page play the side (give anchors, elements, orders) now? */
  get playing() {
    return this.state === "yours" || this.state === "none";
  }

  /** A message from the server about the seat; true if it was one. */
  received(message) {
    if (!message || message.type !== "seat") return false;
    this.busy = false;
    // A device shown no view learns the game's language for this reader from the seat.
    if (message.lang) useLanguage(message.lang).then((changed) => changed && this.hooks.changed());
    if (message.problem) {
      this.problem = message.problem.detail || message.problem.code;
    } else if (message.seat && typeof message.seat === "object") {
      this.problem = null;
      this.take(message.seat);
    }
    this.hooks.changed();
    return true;
  }

  take(seat) {
    const before = this.state;
    this.state = seat.state;
    this.seat = seat;
    if (seat.state === "yours" && Number.isInteger(seat.chain_from)) this.hooks.chainFrom(seat.side, seat.chain_from);
    if (seat.state === "yours" && Number.isInteger(seat.signing_from)) this.hooks.signingFrom(seat.side, seat.signing_from);
    if (seat.state === "taken" && (before === "yours" || before === "free")) {
      // Another device took the seat (over): this page stops, and says so.
      this.movedAway = before === "yours";
      this.hooks.stop();
    }
    if (seat.state === "taken" && this.move) {
      const code = this.move;
      this.move = null; // once: a wrong code is shown, not tried again on every reconnection
      history.replaceState(null, "", `${location.pathname}${location.search}#${this.token}`);
      this.takeOver({ type: "move_seat", code });
    }
  }

  newKey() {
    const key = fair.hex(fair.newSeed()).slice(0, 32);
    this.key = key;
    this.storage.set(seatKeyName(this.game, this.token), key);
    api.useSeat(key);
    return key;
  }

  /** Take the free seat for this device. */
  claim() {
    this.busy = true;
    const side = this.seat && this.seat.side;
    const signing = side ? this.hooks.signing(side) : null;
    this.hooks.send({ type: "take_seat", seat: this.key || this.newKey(), ...(signing ? { signing } : {}) });
    this.hooks.changed();
  }

  /** Take the seat over: with the holder's code, or (its device lost) with a new chain. */
  takeOver(message) {
    this.busy = true;
    // The device that holds the seat keeps its key; any other takes the seat with a new one.
    const key = this.state === "yours" && this.key ? this.key : this.newKey();
    const anchor = this.seat.chain === "client" ? this.hooks.freshAnchor(this.seat.side) : undefined;
    if (message.type === "new_chain" && !anchor) {
      this.busy = false;
      return;
    }
    // A new device signs the side's orders with a key of its own, from its first roll on.
    const signing = this.hooks.freshSigning(this.seat.side);
    this.hooks.send({ ...message, seat: key, anchor, signing });
    this.hooks.changed();
  }

  async offer() {
    this.busy = true;
    this.hooks.changed();
    try {
      this.offered = await api.offerMove(this.game, this.token);
      this.problem = null;
    } catch (error) {
      this.problem = error instanceof api.Problem ? error.message : t("Could not reach the server. Try again.");
    }
    this.busy = false;
    this.hooks.changed();
  }

  // --- what the page shows ------------------------------------------------------------------

  /** The seat's own screen, in place of the game: null while this page plays. */
  screen(view) {
    if (this.state === "free") return this.freeScreen(view);
    if (this.state === "taken") return this.takenScreen(view);
    return null;
  }

  freeScreen(view) {
    const side = view && view.sides ? sideName(view, this.seat.side) : null;
    const take = h("button", { type: "button", class: "primary take-seat", disabled: this.busy }, t("Take this seat"));
    take.addEventListener("click", () => this.claim());
    return h(
      "section",
      { class: "panel seat-screen", dataset: { seat: "free" } },
      h("h2", {}, side ? t("The seat of {side}", { side }) : t("A side's seat")),
      h("p", {}, t("Take the seat on the device you will play on. Your side's secrets and your dice chain will live on this device, and no other device will be shown them.")),
      h("p", { class: "hint" }, t("Only the player of this side should take it. If you only wanted to check the link, close this page.")),
      take,
      this.problemLine(),
      this.codeForm(),
    );
  }

  takenScreen() {
    const since = clock(this.seat.since);
    // Worded apart, not inside the sentence's own t(): the catalogue's extractor reads each.
    const at = since ? t(" at {time}", { time: since }) : "";
    const lost = h("button", { type: "button", class: "new-chain", disabled: this.busy }, t("Start a new dice chain here"));
    lost.addEventListener("click", () => {
      const sure = confirm(t("Only do this if the device that held this seat is lost or broken. Every page of the game is told, and the game's record shows from which roll your dice come from this device. Go on?"));
      if (sure) this.takeOver({ type: "new_chain" });
    });
    const again = h("button", { type: "button", class: "again" }, t("Check again"));
    again.addEventListener("click", () => location.reload());
    return h(
      "section",
      { class: "panel seat-screen", dataset: { seat: "taken" } },
      h("h2", {}, this.movedAway ? t("This seat moved to another device") : t("This seat is taken")),
      h(
        "p",
        {},
        this.movedAway
          ? t("Another device took this seat over{at}. This page no longer plays it and is shown nothing more of the game.", { at })
          : t("Another device took this seat{at}. The device that holds it has been told that this link was opened here.", { at }),
      ),
      h("h3", {}, t("Was that you, on another device?")),
      h("p", {}, t("On that device, open Fairness and choose “Move this seat to another device”. Then scan its code with this device's camera, or type the code here.")),
      this.codeForm(),
      h("h3", {}, t("Is that device lost or broken?")),
      h("p", {}, t("Start a new dice chain on this device. Your rolls use it from the next roll on; no earlier roll changes.")),
      lost,
      this.problemLine(),
      this.movedAway ? again : null,
    );
  }

  codeForm() {
    const input = h("input", { type: "text", name: "move-code", autocomplete: "off", autocapitalize: "characters", spellcheck: false, "aria-label": t("Move code"), placeholder: "XXXXX-XXXXX" });
    const send = h("button", { type: "submit", disabled: this.busy }, t("Move the seat here"));
    const form = h("form", { class: "move-code" }, h("label", {}, t("Move code"), input), send);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!input.value.trim()) return;
      this.takeOver({ type: "move_seat", code: input.value });
    });
    return this.state === "taken" ? form : h("details", {}, h("summary", {}, t("I have a move code from my other device")), form);
  }

  problemLine() {
    return this.problem ? h("p", { class: "message error seat-problem", role: "alert" }, this.problem) : null;
  }

  /** The Fairness panel's part for the device holding the seat. */
  panel() {
    if (this.state !== "yours") return null;
    const rows = [];
    const since = clock(this.seat.since);
    rows.push(h("p", { class: "seat-yours" }, since ? t("This device holds your seat (since {time}).", { time: since }) : t("This device holds your seat.")));
    const visits = Array.isArray(this.seat.visits) ? this.seat.visits : [];
    if (visits.length) {
      const last = clock(visits[visits.length - 1]);
      const at = last ? t(" at {time}", { time: last }) : "";
      rows.push(h("p", { class: "message error seat-visits", role: "alert" }, t("Another device opened your seat's link{at} and was told the seat is taken. If that was not you, someone else has your link.", { at })));
    }
    if (this.offered) {
      const code = this.offered.code;
      const spaced = `${code.slice(0, 5)}-${code.slice(5)}`;
      const done = h("button", { type: "button" }, t("Hide the code"));
      done.addEventListener("click", () => {
        this.offered = null;
        this.hooks.changed();
      });
      const qr = h("div", { class: "qr" }, qrImage(this.offered.qr_svg, t("QR code that moves this seat")));
      rows.push(
        h(
          "div",
          { class: "seat-move" },
          h("p", {}, t("On the new device, scan this code with the camera, or open this game's link there and type the code:")),
          qr,
          h("p", { class: "move-code-text" }, h("strong", {}, spaced)),
          h("p", { class: "hint" }, t("Anyone who has this code can take your seat: show it only to your own device. It works once.")),
          done,
        ),
      );
    } else {
      const move = h("button", { type: "button", class: "move-seat", disabled: this.busy }, t("Move this seat to another device"));
      move.addEventListener("click", () => this.offer());
      rows.push(move);
    }
    const problem = this.problemLine();
    if (problem) rows.push(problem);
    return h("div", { class: "seat-panel" }, rows);
  }
}
