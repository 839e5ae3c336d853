// The table: choose a game, preset and options, sit against the server's
// built-in bots (BotService.ChooseMove), and play a match.
//
// The page holds the match — the state, or the state as the server sealed
// it — and sends it with every call; it shows only what the player's seat
// may see (GetView, ApplyMove's next_views). The loop: while the deal is on,
// a bot seat that may act asks its bot and plays (ApplyMove with the next
// acting seats' legal moves and views); when the player may act, the page
// waits for a click on a legal move or on a card of the hand.

import {
  MatchPhase,
  RejectionReasonSchema,
  type Event as GameEvent,
  type Move,
  type Rejection,
  type SeatEvents,
  type View,
} from "../../typescript/src/gen/croupier/v1/game_pb.js";
import type {
  GameDescriptor,
  PresetDescriptor,
} from "../../typescript/src/gen/croupier/v1/options_pb.js";
import type { LegalMove, SeatMoves } from "../../typescript/src/gen/croupier/v1/service_pb.js";

import {
  bots,
  carry,
  croupier,
  heldOf,
  newMatchId,
  problemOf,
  type Held,
  type Problem,
} from "./api.js";
import { cardEl, cardName } from "./cards.js";
import { h, replace } from "./dom.js";
import { cardMove, cardsUsedBy, isCardAction } from "./moves.js";
import { optionsForm, type OptionsForm } from "./options.js";
import { enumText, problemParts, viewParts } from "./render.js";

/** What the page is doing, in `data-status` of the status line (for people and tests). */
type Status =
  "loading" | "idle" | "busy" | "your-turn" | "waiting" | "deal-over" | "match-over" | "error";

interface LogEntry {
  text: string;
  kind: "event" | "deal" | "rejection" | "move";
}

const MAX_LOG = 400;

export class Table {
  readonly element: HTMLElement;
  private games: GameDescriptor[] = [];
  private form!: {
    game: HTMLSelectElement;
    preset: HTMLSelectElement;
    seats: HTMLSelectElement;
    mySeat: HTMLSelectElement;
    seed: HTMLInputElement;
    delay: HTMLInputElement;
    seal: HTMLInputElement;
    matchId: HTMLInputElement;
    options: HTMLElement;
    optionsForm?: OptionsForm;
  };
  private readonly statusEl = h(
    "div",
    { class: "status", "data-testid": "status", "data-status": "loading", "data-seq": "0" },
    "Loading the games…",
  );
  private readonly errorEl = h("div", {
    class: "error",
    "data-testid": "error",
    role: "alert",
    hidden: true,
  });
  private readonly board = h("div", { class: "board", hidden: true });
  private readonly summaryEl = h("span", { class: "dim" });
  private readonly logEl = h("ul", { class: "log", "data-testid": "event-log" });
  private seq = 0;

  // The match.
  private game: GameDescriptor | undefined;
  private matchId = "";
  private me = 0;
  private held: Held | undefined;
  /** The legal moves of the acting seats, as last answered. */
  private legal = new Map<number, LegalMove[]>();
  /** The views of seats, as last answered (ApplyMove's next_views, GetView). */
  private views = new Map<number, View>();
  private myView: View | undefined;
  private log: LogEntry[] = [];
  private rejection: { rejection: Rejection; notation: string; move: Move } | undefined;
  private choices: LegalMove[] = [];
  /** Bumped by every new game, so a bot loop of an older one stops. */
  private generation = 0;
  private queue: Promise<void> = Promise.resolve();

  /** Called with the held state when the player asks to inspect the table. */
  onInspect: (held: Held) => void = () => {};

  constructor() {
    this.element = h("section", { class: "table-tab", "data-testid": "table-tab" });
  }

  async start(): Promise<void> {
    this.element.append(this.buildForm(), this.statusEl, this.errorEl, this.board);
    try {
      this.games = (await croupier.listGames({})).games;
      replace(
        this.form.game,
        this.games.map((g) =>
          h("option", { value: g.name }, g.displayName ? `${g.displayName} (${g.name})` : g.name),
        ),
      );
      this.onGameChange();
      this.setStatus("idle", "Choose a game and press New game.");
    } catch (error) {
      this.showProblem(problemOf(error));
      this.setStatus("error", "The server did not answer ListGames.");
    }
  }

  // ---- the form -------------------------------------------------------

  private buildForm(): HTMLElement {
    const game = h("select", {
      id: "game",
      "data-testid": "game",
      onchange: () => this.onGameChange(),
    });
    const preset = h("select", {
      id: "preset",
      "data-testid": "preset",
      onchange: () => this.onPresetChange(),
    });
    const seats = h("select", {
      id: "seat-count",
      "data-testid": "seat-count",
      onchange: () => this.onSeatsChange(),
    });
    const mySeat = h("select", { id: "my-seat", "data-testid": "my-seat" });
    const seed = h("input", {
      id: "seed",
      "data-testid": "seed",
      type: "number",
      min: "0",
      step: "1",
      value: String(1 + Math.floor(Math.random() * 9999)),
    });
    const delay = h("input", {
      id: "bot-delay",
      "data-testid": "bot-delay",
      type: "number",
      min: "0",
      step: "50",
      value: "400",
    });
    const seal = h("input", { id: "seal", "data-testid": "seal", type: "checkbox" });
    const matchId = h("input", {
      id: "match-id",
      "data-testid": "match-id-input",
      type: "text",
      placeholder: "random",
      size: 12,
    });
    const options = h("div", { class: "options-slot" });
    this.form = { game, preset, seats, mySeat, seed, delay, seal, matchId, options };
    const field = (id: string, text: string, control: HTMLElement, help?: string) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: id }, text),
        control,
        help ? h("div", { class: "help" }, help) : null,
      );
    const form = h(
      "form",
      {
        class: "new-game",
        "data-testid": "new-game-form",
        onsubmit: (event: Event) => {
          event.preventDefault();
          this.newGame();
        },
      },
      h(
        "div",
        { class: "fields" },
        field("game", "Game", game),
        field("preset", "Preset", preset),
        field("seat-count", "Seats", seats),
        field("my-seat", "Your seat", mySeat),
        field("seed", "Seed", seed),
        field("bot-delay", "Bot delay (ms)", delay),
        field("match-id", "Match id", matchId),
        h(
          "div",
          { class: "field check" },
          seal,
          h("label", { for: "seal" }, "Seal the state"),
          h(
            "div",
            { class: "help" },
            "The server encrypts the state it hands the page (needs a server with sealing keys).",
          ),
        ),
      ),
      h(
        "details",
        { class: "options-details", "data-testid": "options-details" },
        h("summary", {}, "Rule options"),
        options,
      ),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary", "data-testid": "new-game" }, "New game"),
      ),
    );
    return h(
      "details",
      { class: "new-game-panel", "data-testid": "new-game-panel", open: true },
      h("summary", {}, "New game ", this.summaryEl),
      form,
    );
  }

  private selectedGame(): GameDescriptor | undefined {
    return this.games.find((g) => g.name === this.form.game.value);
  }

  private selectedPreset(): PresetDescriptor | undefined {
    return this.selectedGame()?.presets.find((p) => p.name === this.form.preset.value);
  }

  private onGameChange(): void {
    const game = this.selectedGame();
    if (game === undefined) return;
    replace(
      this.form.preset,
      game.presets.map((p) =>
        h(
          "option",
          { value: p.name, title: p.description },
          p.description ? `${p.name} — ${p.description}` : p.name,
        ),
      ),
    );
    this.form.preset.value = game.defaultPreset || (game.presets[0]?.name ?? "");
    this.onPresetChange();
  }

  private onPresetChange(): void {
    const game = this.selectedGame();
    if (game === undefined) return;
    const preset = this.selectedPreset();
    const min = preset?.minSeats || game.minSeats;
    const max = preset?.maxSeats || game.maxSeats;
    const before = Number(this.form.seats.value);
    const counts = Array.from({ length: max - min + 1 }, (_, i) => min + i);
    replace(
      this.form.seats,
      counts.map((n) => h("option", { value: String(n) }, String(n))),
    );
    this.form.seats.value = String(
      counts.includes(before) ? before : Math.min(Math.max(min, 3), max),
    );
    this.onSeatsChange();
    const form = optionsForm(game, preset);
    this.form.optionsForm = form;
    replace(this.form.options, form.element);
  }

  private onSeatsChange(): void {
    const count = Number(this.form.seats.value);
    const before = Number(this.form.mySeat.value || "0");
    replace(
      this.form.mySeat,
      Array.from({ length: count }, (_, i) => h("option", { value: String(i) }, `P${i}`)),
    );
    this.form.mySeat.value = String(before < count ? before : 0);
  }

  // ---- running actions one at a time ----------------------------------

  /** Runs `action` after every action queued before it; a failure is shown, never thrown. */
  private exclusive(action: () => Promise<void>): Promise<void> {
    const run = async () => {
      this.setStatus("busy");
      try {
        await action();
      } catch (error) {
        this.showProblem(problemOf(error));
      }
      this.render();
      this.settle();
    };
    this.queue = this.queue.then(run, run);
    return this.queue;
  }

  private setStatus(status: Status, text?: string): void {
    if (status !== "busy") this.seq += 1;
    this.statusEl.dataset["status"] = status;
    this.statusEl.dataset["seq"] = String(this.seq);
    if (text !== undefined) this.statusEl.textContent = text;
  }

  /** Is a server error (not a rejected move) on show? */
  private failed(): boolean {
    return !this.errorEl.hidden && this.errorEl.dataset["kind"] === "error";
  }

  /** The status once nothing is running. */
  private settle(): void {
    const failed = this.failed();
    if (this.held === undefined) {
      this.setStatus(
        failed ? "error" : "idle",
        failed ? "Something went wrong: see above." : "Choose a game and press New game.",
      );
      return;
    }
    const phase = this.phase();
    if (phase === MatchPhase.MATCH_OVER) {
      this.setStatus("match-over", "The match is over.");
    } else if (phase === MatchPhase.DEAL_OVER) {
      this.setStatus("deal-over", "The deal is over: press Next deal.");
    } else if ((this.legal.get(this.me) ?? []).length > 0) {
      this.setStatus("your-turn", "Your move: click a legal move or a card of your hand.");
    } else {
      this.setStatus(
        failed ? "error" : "waiting",
        failed ? "Something went wrong: see above." : "Waiting.",
      );
    }
  }

  /** After an error: the bots play on from the state the page holds. */
  private resume(): Promise<void> {
    const generation = this.generation;
    return this.exclusive(async () => {
      this.showProblem(undefined);
      await this.afterChange([], []);
      await this.runBots(generation);
    });
  }

  private showProblem(problem: Problem | undefined): void {
    if (problem === undefined) {
      this.errorEl.hidden = true;
      replace(this.errorEl);
      return;
    }
    this.errorEl.hidden = false;
    this.errorEl.dataset["kind"] = "error";
    replace(this.errorEl, problemParts(problem, "error"));
  }

  private showRejection(): void {
    const shown = this.rejection;
    if (shown === undefined) return;
    const { rejection, notation } = shown;
    this.errorEl.hidden = false;
    this.errorEl.dataset["kind"] = "rejection";
    replace(
      this.errorEl,
      h("strong", {}, `Not allowed${notation ? ` (${notation})` : ""}: `),
      h("span", { "data-testid": "rejection-message" }, rejection.message),
      h(
        "span",
        { class: "rule" },
        " — rule ",
        h("code", { "data-testid": "rejection-rule" }, rejection.rule),
        ", ",
        enumText(RejectionReasonSchema, rejection.reason),
      ),
    );
  }

  // ---- the match ------------------------------------------------------

  private phase(): MatchPhase {
    if (this.held === undefined) return MatchPhase.UNSPECIFIED;
    return this.held.sealed !== undefined
      ? this.held.sealed.phase
      : (this.held.state.match?.phase ?? MatchPhase.UNSPECIFIED);
  }

  private actingSeats(): number[] {
    if (this.held === undefined) return [];
    return this.held.sealed !== undefined
      ? this.held.sealed.actingSeats
      : this.held.state.actingSeats;
  }

  private moveNumber(): bigint {
    if (this.held === undefined) return 0n;
    return this.held.sealed !== undefined
      ? this.held.sealed.moveNumber
      : this.held.state.moveNumber;
  }

  private currentSeat(): number | undefined {
    if (this.held?.state !== undefined) return this.held.state.currentSeat;
    return this.myView?.currentSeat;
  }

  newGame(): Promise<void> {
    const generation = ++this.generation;
    const game = this.selectedGame();
    if (game === undefined) return Promise.resolve();
    return this.exclusive(async () => {
      if (generation !== this.generation) return;
      const seatCount = Number(this.form.seats.value);
      this.me = Number(this.form.mySeat.value || "0");
      // The bots' choices are seeded by the match id: the same id, seed
      // and moves replay the same match.
      this.matchId = this.form.matchId.value.trim() || newMatchId();
      this.game = game;
      this.held = undefined;
      this.legal.clear();
      this.views.clear();
      this.myView = undefined;
      this.log = [];
      this.rejection = undefined;
      this.choices = [];
      this.showProblem(undefined);
      const answer = await croupier.newGame({
        game: game.name,
        preset: this.form.preset.value,
        options: this.form.optionsForm?.changed() ?? [],
        seatCount,
        seed: BigInt(this.form.seed.value || "0"),
        seatEvents: true,
        seal: this.form.seal.checked,
        matchId: this.matchId,
      });
      this.held = heldOf(answer);
      this.logDeal(answer.seatEvents);
      this.board.hidden = false;
      // The table takes the room now; the form folds (a click opens it).
      (this.element.querySelector(".new-game-panel") as HTMLDetailsElement | null)?.removeAttribute(
        "open",
      );
      this.summaryEl.textContent = `— playing ${game.name} (${this.form.preset.value}), ${seatCount} seats, seed ${this.form.seed.value}${this.held?.sealed ? ", sealed" : ""}`;
      await this.afterChange([], []);
      await this.runBots(generation);
    });
  }

  private nextDeal(): Promise<void> {
    const generation = this.generation;
    return this.exclusive(async () => {
      if (this.held === undefined) return;
      this.rejection = undefined;
      this.choices = [];
      this.showProblem(undefined);
      const answer = await croupier.nextDeal({ ...carry(this.held), seatEvents: true });
      this.held = heldOf(answer);
      this.logDeal(answer.seatEvents);
      await this.afterChange([], []);
      await this.runBots(generation);
    });
  }

  private logDeal(seatEvents: SeatEvents[]): void {
    const deal = this.held?.state?.match?.dealNumber ?? this.held?.sealed?.dealNumber ?? 0;
    this.addLog({ text: `Deal ${deal}`, kind: "deal" });
    this.logEvents(seatEvents);
  }

  private logEvents(seatEvents: SeatEvents[]): void {
    const mine = seatEvents.find((s) => s.seat === this.me);
    for (const event of mine?.events ?? []) this.addLog({ text: eventText(event), kind: "event" });
  }

  private addLog(entry: LogEntry): void {
    this.log.push(entry);
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
  }

  /**
   * After the held state changed: the legal moves and views that came with
   * it, then whatever else the loop needs — the legal moves of every acting
   * seat, and the player's view.
   */
  private async afterChange(nextLegal: SeatMoves[], nextViews: View[]): Promise<void> {
    this.legal.clear();
    this.views.clear();
    for (const seatMoves of nextLegal) this.legal.set(seatMoves.seat, seatMoves.moves);
    for (const view of nextViews) this.views.set(view.seat, view);
    const held = this.held;
    if (held === undefined) return;
    if (this.phase() === MatchPhase.DEAL_IN_PROGRESS) {
      for (const seat of this.actingSeats()) {
        if (!this.legal.has(seat))
          this.legal.set(seat, (await croupier.listLegalMoves({ ...carry(held), seat })).moves);
      }
    }
    this.myView =
      this.views.get(this.me) ?? (await croupier.getView({ ...carry(held), seat: this.me })).view;
  }

  /** Applies `move`; false (and the rejection shown) when the rules refuse it. */
  private async apply(move: Move): Promise<boolean> {
    if (this.held === undefined) return false;
    const answer = await croupier.applyMove({
      ...carry(this.held),
      move,
      seatEvents: true,
      nextLegalMoves: true,
      nextViews: true,
    });
    if (!answer.accepted) {
      this.rejection = { rejection: answer.rejection!, notation: answer.notation, move };
      this.showRejection();
      this.addLog({
        text: `Not allowed (${answer.notation || "?"}): ${answer.rejection?.message ?? ""}`,
        kind: "rejection",
      });
      return false;
    }
    const next = heldOf(answer);
    if (next === undefined) throw new Error("ApplyMove accepted the move but answered no state");
    this.held = next;
    this.logEvents(answer.seatEvents);
    await this.afterChange(answer.nextLegalMoves, answer.nextViews);
    return true;
  }

  /** Which bot seat moves next, if any: the player, when able to act, is waited for. */
  private nextBot(): number | undefined {
    if (this.phase() !== MatchPhase.DEAL_IN_PROGRESS) return undefined;
    const able = this.actingSeats().filter((s) => (this.legal.get(s) ?? []).length > 0);
    const botSeats = able.filter((s) => s !== this.me);
    const current = this.currentSeat();
    if (current !== undefined && botSeats.includes(current)) return current;
    if (able.includes(this.me)) return undefined;
    return botSeats[0];
  }

  /** Plays the bots' moves until the player may act or the deal is over. */
  private async runBots(generation: number): Promise<void> {
    for (let seat = this.nextBot(); seat !== undefined; seat = this.nextBot()) {
      const delay = Number(this.form.delay.value) || 0;
      if (delay > 0) {
        this.render();
        this.setStatus("busy", `P${seat} is thinking…`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      if (generation !== this.generation || this.held === undefined) return;
      const moves = this.legal.get(seat) ?? [];
      const view =
        this.views.get(seat) ?? (await croupier.getView({ ...carry(this.held), seat })).view;
      const { moveIndex: index } = await bots.chooseMove({
        view,
        legalMoves: moves,
        matchId: this.matchId,
      });
      const chosen = moves[index];
      if (chosen === undefined)
        throw new Error(`the bot of P${seat} chose move ${index} of ${moves.length}`);
      if (!(await this.apply(chosen.move!))) {
        throw new Error(`the server refused P${seat}'s listed move ${chosen.notation}`);
      }
    }
  }

  /** The player's move: a legal move clicked, or a card of the hand. */
  private play(move: Move): Promise<void> {
    const generation = this.generation;
    return this.exclusive(async () => {
      this.choices = [];
      this.rejection = undefined;
      this.showProblem(undefined);
      if (await this.apply({ ...move, seenMoveNumber: this.moveNumber() })) {
        await this.runBots(generation);
      }
    });
  }

  /**
   * A click on a card of the hand: the game's "play/discard this card". One
   * legal move of it is played; several (a Queen's suits, a wild's colours)
   * are offered to choose from; none sends the move as built here, so the
   * server's rejection says why it is not allowed.
   */
  private clickCard(card: number): void {
    const game = this.game;
    if (game === undefined) return;
    const matching = (this.legal.get(this.me) ?? []).filter(
      (m) => m.move && isCardAction(m.move, game.name, card),
    );
    if (matching.length === 1) {
      void this.play(matching[0]!.move!);
      return;
    }
    if (matching.length > 1) {
      this.choices = matching;
      this.rejection = undefined;
      this.showProblem(undefined);
      this.render();
      return;
    }
    const move = cardMove(game.name, this.me, card);
    if (move === undefined) return;
    void this.play(move);
  }

  // ---- drawing --------------------------------------------------------

  private render(): void {
    const view = this.myView;
    const game = this.game;
    if (view === undefined || game === undefined) {
      replace(this.board);
      return;
    }
    const parts = viewParts(view);
    const phase = this.phase();
    const myMoves = phase === MatchPhase.DEAL_IN_PROGRESS ? (this.legal.get(this.me) ?? []) : [];
    const used = new Set<number>();
    for (const legal of myMoves)
      if (legal.move) for (const card of cardsUsedBy(legal.move)) used.add(card);

    const hand = h(
      "div",
      { class: "cards hand", "data-testid": "hand", "data-count": parts.hand.cards.length },
      parts.hand.cards.map((card) =>
        cardEl(parts.hand.typeName, card, {
          playable: used.has(card),
          onClick: () => this.clickCard(card),
        }),
      ),
    );
    if (parts.hand.cards.length === 0) hand.append(h("span", { class: "dim" }, "(no cards)"));

    const moves = h(
      "div",
      { class: "moves", "data-testid": "legal-moves" },
      myMoves.map((legal) =>
        h(
          "button",
          {
            type: "button",
            class: "move",
            "data-testid": "legal-move",
            "data-notation": legal.notation,
            onclick: () => void this.play(legal.move!),
          },
          legal.notation,
        ),
      ),
    );
    if (myMoves.length === 0 && phase === MatchPhase.DEAL_IN_PROGRESS) {
      moves.append(h("span", { class: "dim" }, "You may not act now. "));
      if (this.failed()) {
        moves.append(
          h(
            "button",
            { type: "button", "data-testid": "resume", onclick: () => void this.resume() },
            "Let the bots play on",
          ),
        );
      }
    } else if (myMoves.length === 0) {
      moves.append(h("span", { class: "dim" }, "None: the deal is over."));
    }

    const choices =
      this.choices.length === 0
        ? null
        : h(
            "div",
            { class: "choices", "data-testid": "choices" },
            h("span", {}, "Which one? "),
            this.choices.map((legal) =>
              h(
                "button",
                {
                  type: "button",
                  class: "move",
                  "data-testid": "choice",
                  "data-notation": legal.notation,
                  onclick: () => void this.play(legal.move!),
                },
                legal.notation,
              ),
            ),
            h(
              "button",
              {
                type: "button",
                class: "link",
                onclick: () => {
                  this.choices = [];
                  this.render();
                },
              },
              "cancel",
            ),
          );

    const between =
      phase === MatchPhase.DEAL_OVER || phase === MatchPhase.MATCH_OVER
        ? this.scores(view, phase)
        : null;

    const sealed = this.held?.sealed;
    const inspect = h(
      "button",
      {
        type: "button",
        class: "link",
        "data-testid": "to-inspector",
        onclick: () => this.held && this.onInspect(this.held),
      },
      sealed === undefined
        ? "Load this table into the inspector"
        : "Load this table into the inspector (sealed: views and moves, not the state)",
    );

    replace(
      this.board,
      h(
        "div",
        { class: "main" },
        h(
          "div",
          { class: "heading" },
          h("h2", {}, game.displayName || game.name),
          h(
            "span",
            { class: "dim", "data-testid": "match-id" },
            sealed ? `sealed · key ${sealed.keyId}` : "",
          ),
        ),
        parts.seats,
        parts.match,
        between,
        h("div", { class: "felt" }, parts.table),
        h("h3", {}, "Your hand"),
        hand,
        h("h3", {}, "Your legal moves"),
        moves,
        choices,
        h("div", { class: "footer" }, parts.options, inspect),
      ),
      h("aside", { class: "side" }, h("h3", {}, "Events"), this.logEl),
    );
    replace(
      this.logEl,
      this.log.map((entry) => h("li", { class: entry.kind }, entry.text)),
    );
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  private scores(view: View, phase: MatchPhase): HTMLElement {
    const match = view.match;
    const rows = view.seats.map((seat, i) =>
      h(
        "tr",
        { class: match?.dealWinners.includes(i) ? "winner" : "" },
        h(
          "td",
          {},
          `P${i}${seat.name && seat.name !== `P${i}` ? ` ${seat.name}` : ""}${i === this.me ? " (you)" : ""}`,
        ),
        h("td", { "data-testid": "deal-points" }, String(match?.dealPoints[i] ?? "")),
        h("td", { "data-testid": "score" }, String(seat.score)),
        h("td", {}, seat.eliminated ? "out" : ""),
      ),
    );
    const over = phase === MatchPhase.MATCH_OVER;
    return h(
      "div",
      { class: "between", "data-testid": over ? "match-over" : "deal-over" },
      h(
        "h3",
        {},
        over
          ? `Match over — won by ${(match?.winners ?? []).map((s) => `P${s}`).join(", ") || "nobody"}`
          : `Deal ${match?.dealNumber ?? ""} over — won by ${(match?.dealWinners ?? []).map((s) => `P${s}`).join(", ") || "nobody"}`,
      ),
      h(
        "table",
        { class: "scores", "data-testid": "scores" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "seat"),
            h("th", {}, "this deal"),
            h("th", {}, "match total"),
            h("th", {}, ""),
          ),
        ),
        h("tbody", {}, rows),
      ),
      over
        ? null
        : h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-testid": "next-deal",
              onclick: () => void this.nextDeal(),
            },
            "Next deal",
          ),
    );
  }
}

/** An event's sentence; the game writes it (`text`). */
function eventText(event: GameEvent): string {
  if (event.text) return event.text;
  const cards = event.cards.map((c) => cardName("croupier.v1.FrenchCard", c)).join(" ");
  return `${event.kind}${cards ? ` ${cards}` : ""}`;
}
