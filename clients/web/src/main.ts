// The Croupier web table: the page served by `croupier serve --web`. Two
// tabs: the table (play against the server's bots) and the inspector.

import { problemOf } from "./api.js";
import { h, replace } from "./dom.js";
import { Inspector } from "./inspector.js";
import { Table } from "./table.js";

function main(): void {
  const root = document.getElementById("app") ?? document.body;
  const fatal = h("div", {
    class: "error fatal",
    "data-testid": "fatal",
    role: "alert",
    hidden: true,
  });
  // Nothing may leave a blank page: whatever escapes is shown.
  const show = (error: unknown) => {
    const problem = problemOf(error);
    fatal.hidden = false;
    replace(fatal, h("strong", {}, problem.code), " ", problem.message);
  };
  window.addEventListener("error", (event) => show(event.error ?? event.message));
  window.addEventListener("unhandledrejection", (event) => show(event.reason));

  const table = new Table();
  const inspector = new Inspector();
  const tabs = {
    table: h(
      "button",
      { type: "button", class: "tab", "data-testid": "tab-table", onclick: () => select("table") },
      "Table",
    ),
    inspector: h(
      "button",
      {
        type: "button",
        class: "tab",
        "data-testid": "tab-inspector",
        onclick: () => select("inspector"),
      },
      "Inspector",
    ),
  };
  const select = (which: "table" | "inspector") => {
    table.element.hidden = which !== "table";
    inspector.element.hidden = which !== "inspector";
    tabs.table.classList.toggle("active", which === "table");
    tabs.inspector.classList.toggle("active", which === "inspector");
    tabs.table.setAttribute("aria-selected", String(which === "table"));
    tabs.inspector.setAttribute("aria-selected", String(which === "inspector"));
    if (location.hash !== `#${which}`) history.replaceState(null, "", `#${which}`);
  };
  table.onInspect = (held) => {
    select("inspector");
    void inspector.load(held);
  };

  replace(
    root,
    h(
      "header",
      { class: "top" },
      h("h1", {}, "Croupier"),
      h("nav", { class: "tabs", role: "tablist" }, tabs.table, tabs.inspector),
    ),
    fatal,
    h("main", {}, table.element, inspector.element),
  );
  select(location.hash === "#inspector" ? "inspector" : "table");
  void table.start();
}

main();
