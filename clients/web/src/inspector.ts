// The inspector, for developers integrating Croupier: paste or upload any
// game state as proto JSON (or a sealed state), see every seat's view side
// by side and the legal moves of every acting seat, apply moves, step back
// through the history, and export the state and the move list.

import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";

import {
  GameStateSchema,
  MatchPhase,
  MatchPhaseSchema,
  MoveSchema,
  RejectionReasonSchema,
  type Move,
  type View,
} from "../../typescript/src/gen/croupier/v1/game_pb.js";
import {
  SealedStateSchema,
  type LegalMove,
} from "../../typescript/src/gen/croupier/v1/service_pb.js";

import { carry, croupier, heldOf, problemOf, type Held } from "./api.js";
import { download, h, replace } from "./dom.js";
import { cardRow, enumText, problemParts, viewParts } from "./render.js";

interface Step {
  held: Held;
  /** The move that led here from the step before (none for the loaded state). */
  move?: { seat: number; notation: string; move: Move };
  /** What happened, the events' sentences. */
  events: string[];
}

export class Inspector {
  readonly element: HTMLElement;
  private readonly input = h("textarea", {
    class: "json",
    "data-testid": "inspector-json",
    rows: 8,
    spellcheck: "false",
    placeholder:
      'A GameState as proto JSON ({"schemaVersion": 2, "game": "…", …}), or a sealed state ({"matchId": …, "blob": …}).',
  });
  private readonly errorEl = h("div", {
    class: "error",
    "data-testid": "inspector-error",
    role: "alert",
    hidden: true,
  });
  private readonly statusEl = h(
    "div",
    { class: "status", "data-testid": "inspector-status", "data-status": "empty", "data-seq": "0" },
    "Load a state to inspect it.",
  );
  private readonly body = h("div", { class: "inspector-body" });
  private history: Step[] = [];
  private views: View[] = [];
  private legal = new Map<number, LegalMove[]>();
  private seq = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor() {
    const file = h("input", {
      type: "file",
      accept: ".json,application/json",
      "data-testid": "inspector-file",
      onchange: async () => {
        const chosen = file.files?.[0];
        if (chosen === undefined) return;
        this.input.value = await chosen.text();
        void this.loadText(this.input.value);
      },
    });
    this.element = h(
      "section",
      { class: "inspector-tab", "data-testid": "inspector-tab" },
      h(
        "p",
        { class: "help" },
        "Paste a GameState as proto JSON (what toJson, grpcurl or the export below write) or upload a file. ",
        "The server checks it in full and answers every seat's view and the legal moves of every acting seat.",
      ),
      this.input,
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          {
            type: "button",
            class: "primary",
            "data-testid": "inspector-load",
            onclick: () => void this.loadText(this.input.value),
          },
          "Load",
        ),
        h("label", { class: "file" }, "or upload: ", file),
      ),
      this.statusEl,
      this.errorEl,
      this.body,
    );
  }

  /** Loads a held state (the table's) as the start of a new history. */
  load(held: Held): Promise<void> {
    this.input.value = JSON.stringify(heldJson(held), null, 2);
    return this.run(async () => {
      await this.show([{ held, events: [] }]);
    });
  }

  private loadText(text: string): Promise<void> {
    return this.run(async () => {
      let json: JsonValue;
      try {
        json = JSON.parse(text) as JsonValue;
      } catch (error) {
        throw new Error(`not JSON: ${(error as Error).message}`);
      }
      const object =
        json !== null && typeof json === "object" && !Array.isArray(json) ? json : undefined;
      const sealedJson =
        object?.["sealedState"] ??
        object?.["sealed_state"] ??
        (object && "blob" in object ? object : undefined);
      let held: Held;
      if (sealedJson !== undefined && sealedJson !== null) {
        held = { sealed: fromJson(SealedStateSchema, sealedJson) };
      } else {
        const stateJson = object?.["state"] ?? json;
        held = { state: fromJson(GameStateSchema, stateJson) };
      }
      await this.show([{ held, events: [] }]);
    });
  }

  private run(action: () => Promise<void>): Promise<void> {
    const go = async () => {
      this.statusEl.dataset["status"] = "busy";
      this.errorEl.hidden = true;
      try {
        await action();
        this.statusEl.dataset["status"] = this.history.length ? "ready" : "empty";
        this.statusEl.textContent = this.history.length
          ? this.summary()
          : "Load a state to inspect it.";
      } catch (error) {
        const problem = problemOf(error);
        this.errorEl.hidden = false;
        replace(this.errorEl, problemParts(problem, "inspector-error"));
        this.statusEl.dataset["status"] = "error";
        this.statusEl.textContent = "Not loaded: see the error above.";
      }
      this.statusEl.dataset["seq"] = String(++this.seq);
      this.render();
    };
    this.queue = this.queue.then(go, go);
    return this.queue;
  }

  private current(): Step | undefined {
    return this.history[this.history.length - 1];
  }

  private summary(): string {
    const view = this.views[0];
    if (view === undefined) return "";
    const phase = enumText(MatchPhaseSchema, view.match?.phase ?? 0);
    return `${view.game}, ${view.seats.length} seats, deal ${view.match?.dealNumber ?? 0}, move ${view.moveNumber}, ${phase}; acting: ${view.actingSeats.map((s) => `P${s}`).join(", ") || "none"}`;
  }

  /**
   * Makes `history` the inspected one, once every seat's view and the legal
   * moves of every acting seat of its last step have come: a state the
   * server refuses leaves the inspector as it was.
   */
  private async show(history: Step[]): Promise<void> {
    const step = history[history.length - 1];
    if (step === undefined) return;
    const first = (await croupier.getView({ ...carry(step.held), seat: 0 })).view!;
    const views = [first];
    for (let seat = 1; seat < first.seats.length; seat++) {
      views.push((await croupier.getView({ ...carry(step.held), seat })).view!);
    }
    const legal = new Map<number, LegalMove[]>();
    if (first.match?.phase === MatchPhase.DEAL_IN_PROGRESS) {
      for (const seat of first.actingSeats) {
        legal.set(seat, (await croupier.listLegalMoves({ ...carry(step.held), seat })).moves);
      }
    }
    this.history = history;
    this.views = views;
    this.legal = legal;
  }

  private apply(legal: LegalMove): Promise<void> {
    return this.run(async () => {
      const step = this.current();
      if (step === undefined || legal.move === undefined) return;
      const answer = await croupier.applyMove({ ...carry(step.held), move: legal.move });
      if (!answer.accepted) {
        const r = answer.rejection;
        throw new Error(
          `rejected: ${r?.message ?? ""} (rule ${r?.rule ?? "?"}, ${enumText(RejectionReasonSchema, r?.reason ?? 0)})`,
        );
      }
      const held = heldOf(answer);
      if (held === undefined) throw new Error("ApplyMove answered no state");
      await this.show([
        ...this.history,
        {
          held,
          move: {
            seat: legal.move.seat,
            notation: answer.notation || legal.notation,
            move: legal.move,
          },
          events: answer.events.map((e) => e.text),
        },
      ]);
    });
  }

  private nextDeal(): Promise<void> {
    return this.run(async () => {
      const step = this.current();
      if (step === undefined) return;
      const answer = await croupier.nextDeal({ ...carry(step.held) });
      const held = heldOf(answer);
      if (held === undefined) throw new Error("NextDeal answered no state");
      await this.show([...this.history, { held, events: answer.events.map((e) => e.text) }]);
    });
  }

  private back(): Promise<void> {
    return this.run(async () => {
      if (this.history.length > 1) await this.show(this.history.slice(0, -1));
    });
  }

  private exportState(): void {
    const step = this.current();
    if (step === undefined) return;
    download(
      step.held.sealed ? "croupier-sealed-state.json" : "croupier-state.json",
      `${JSON.stringify(heldJson(step.held), null, 2)}\n`,
    );
  }

  private moveList(): { seat: number; notation: string; move: JsonValue }[] {
    return this.history.flatMap((step) =>
      step.move === undefined
        ? []
        : [
            {
              seat: step.move.seat,
              notation: step.move.notation,
              move: toJson(MoveSchema, step.move.move),
            },
          ],
    );
  }

  private render(): void {
    const step = this.current();
    if (step === undefined || this.views.length === 0) {
      replace(this.body);
      return;
    }
    const first = this.views[0]!;
    const phase = first.match?.phase ?? MatchPhase.UNSPECIFIED;
    const toolbar = h(
      "div",
      { class: "toolbar" },
      h(
        "button",
        {
          type: "button",
          "data-testid": "inspector-back",
          disabled: this.history.length < 2,
          onclick: () => void this.back(),
        },
        "◀ Back",
      ),
      h(
        "button",
        { type: "button", "data-testid": "export-state", onclick: () => this.exportState() },
        "Export state",
      ),
      h(
        "button",
        {
          type: "button",
          "data-testid": "export-moves",
          disabled: this.history.length < 2,
          onclick: () =>
            download("croupier-moves.json", `${JSON.stringify(this.moveList(), null, 2)}\n`),
        },
        "Export moves",
      ),
      phase === MatchPhase.DEAL_OVER
        ? h(
            "button",
            {
              type: "button",
              "data-testid": "inspector-next-deal",
              onclick: () => void this.nextDeal(),
            },
            "Next deal",
          )
        : null,
    );

    const history = h(
      "ol",
      { class: "history", "data-testid": "inspector-history", start: "0" },
      this.history.map((s, i) =>
        h(
          "li",
          { class: i === this.history.length - 1 ? "current" : "" },
          s.move === undefined
            ? i === 0
              ? "loaded state"
              : "next deal"
            : `P${s.move.seat} ${s.move.notation}`,
        ),
      ),
    );

    const shared = viewParts(first, { viewer: false });
    const columns = h(
      "div",
      { class: "views", "data-testid": "inspector-views" },
      this.views.map((view) => this.column(view)),
    );

    replace(
      this.body,
      toolbar,
      h(
        "div",
        { class: "inspector-grid" },
        h(
          "div",
          { class: "inspector-main" },
          shared.seats,
          shared.match,
          step.events.length
            ? h(
                "div",
                { class: "last-events", "data-testid": "inspector-events" },
                h("strong", {}, "Last step: "),
                step.events.join(" · "),
              )
            : null,
          columns,
        ),
        h(
          "aside",
          { class: "side" },
          h("h3", {}, "History"),
          history,
          h(
            "details",
            { class: "state-json" },
            h("summary", {}, step.held.sealed ? "sealed state JSON" : "state JSON"),
            h(
              "pre",
              { "data-testid": "inspector-state" },
              JSON.stringify(heldJson(step.held), null, 2),
            ),
          ),
        ),
      ),
    );
  }

  private column(view: View): HTMLElement {
    const parts = viewParts(view);
    const moves = this.legal.get(view.seat);
    const acting = moves !== undefined;
    return h(
      "div",
      {
        class: acting ? "view-column acting" : "view-column",
        "data-testid": "inspector-view",
        "data-seat": view.seat,
      },
      h("h3", {}, `P${view.seat}'s view`, acting ? h("span", { class: "badge" }, "may act") : null),
      h(
        "div",
        { class: "line" },
        h("span", { class: "label" }, "hand:"),
        " ",
        cardRow(parts.hand.typeName, parts.hand.cards, "inspector-hand"),
      ),
      h("div", { class: "felt" }, parts.table),
      acting
        ? h(
            "div",
            { class: "moves", "data-testid": "inspector-moves", "data-seat": view.seat },
            (moves ?? []).length === 0 ? h("span", { class: "dim" }, "(no legal move)") : null,
            (moves ?? []).map((legal) =>
              h(
                "button",
                {
                  type: "button",
                  class: "move",
                  "data-testid": "inspector-move",
                  "data-seat": view.seat,
                  "data-notation": legal.notation,
                  onclick: () => void this.apply(legal),
                },
                legal.notation,
              ),
            ),
          )
        : null,
      parts.options,
    );
  }
}

function heldJson(held: Held): JsonValue {
  return held.sealed !== undefined
    ? toJson(SealedStateSchema, held.sealed)
    : toJson(GameStateSchema, held.state);
}
