// Asking before an order that cannot be taken back ("End the phase"): the ruleset's words give
// the question (an order's `confirm`), and the page asks it in a dialog of its own — modal,
// labelled by the question, Cancel first and focused, Escape cancels — not window.confirm,
// which a phone's browser may suppress and which cannot be styled or translated. Cancel
// leaves the page as it was: nothing is sent and the form keeps what was entered.

import { h } from "./dom.js";
import { t } from "./i18n.js";

let asked = 0; // ids for the question's element, one dialog per question

/**
 * Ask `question`; resolves true if the player chose `yes` (the order's own title), false if
 * they cancelled (the Cancel button, Escape, or a tap outside the dialog).
 * @param {string} question
 * @param {string} yes
 * @returns {Promise<boolean>}
 */
export function askFirst(question, yes) {
  asked += 1;
  const id = `confirm-question-${asked}`;
  const cancel = h("button", { type: "button", class: "cancel", autofocus: true }, t("Cancel"));
  const go = h("button", { type: "button", class: "go" }, yes);
  const dialog = h(
    "dialog",
    { class: "confirm", role: "alertdialog", "aria-modal": "true", "aria-labelledby": id },
    h("p", { id, class: "question" }, question),
    h("div", { class: "buttons" }, cancel, go),
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    let answer = false;
    cancel.addEventListener("click", () => dialog.close());
    go.addEventListener("click", () => {
      answer = true;
      dialog.close();
    });
    // A tap on the backdrop (outside the dialog's box) is a Cancel too.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close();
    });
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer);
    });
    dialog.showModal();
    cancel.focus();
  });
}
