// Reflection-driven rendering: a view (or any message) is drawn field by
// field from its protobuf-es descriptor, the same way for every game. Cards
// (FrenchCard, UnoCard enums, single or repeated) are drawn as cards, counts
// of hidden cards (`*_size`) as backs, nested messages as labelled groups,
// everything else as "label: value". Nothing here names a game.

import type { DescEnum, DescField, DescMessage } from "@bufbuild/protobuf";

import {
  GameOptionsSchema,
  MatchPhase,
  MatchPhaseSchema,
  ViewSchema,
  type View,
} from "../../typescript/src/gen/croupier/v1/game_pb.js";

import { backsEl, cardEl, isCardEnum, SUIT, suitEl, UNO_COLOR, unoColourEl } from "./cards.js";
import type { Problem } from "./api.js";
import { h, label, type Child } from "./dom.js";

type Msg = Record<string, unknown>;

/** A field's value in `message`, or undefined when a oneof holds another case. */
export function fieldValue(message: Msg, field: DescField): unknown {
  if (field.oneof !== undefined) {
    const group = message[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
    return group?.case === field.localName ? group.value : undefined;
  }
  return message[field.localName];
}

/** The message held by a oneof of `message` and its descriptor, when set. */
export function oneofMessage(
  desc: DescMessage,
  message: Msg,
  oneofName: string,
): { desc: DescMessage; value: Msg; field: DescField } | undefined {
  for (const field of desc.fields) {
    if (field.oneof?.name !== oneofName || field.fieldKind !== "message") continue;
    const value = fieldValue(message, field);
    if (value !== undefined) return { desc: field.message, value: value as Msg, field };
  }
  return undefined;
}

/** An enum value's name without the enum's prefix, in words: "DEAL_OVER" -> "deal over". */
export function enumText(desc: DescEnum, value: number): string {
  const named = desc.value[value];
  if (named === undefined) return String(value);
  const prefix = desc.sharedPrefix ?? "";
  const name = named.name.toLowerCase().startsWith(prefix.toLowerCase())
    ? named.name.slice(prefix.length)
    : named.name;
  return name.toLowerCase().replace(/_/g, " ");
}

function isDefault(value: unknown): boolean {
  return value === undefined || value === 0 || value === 0n || value === false || value === "";
}

function scalarEl(value: unknown): HTMLElement {
  if (typeof value === "boolean") return h("span", { class: "value" }, value ? "yes" : "no");
  if (value instanceof Uint8Array) return h("span", { class: "value" }, `${value.length} bytes`);
  return h("span", { class: "value" }, String(value));
}

function enumEl(desc: DescEnum, value: number): HTMLElement {
  if (desc.typeName === SUIT) return suitEl(value);
  if (desc.typeName === UNO_COLOR) return unoColourEl(value);
  if (isCardEnum(desc.typeName)) {
    return value === 0
      ? h("span", { class: "dim" }, "—")
      : cardEl(desc.typeName, value, { small: true });
  }
  return h("span", { class: "value" }, enumText(desc, value));
}

/** A row of cards; a long row (a pile) is drawn overlapping. */
export function cardRow(typeName: string, cards: readonly number[], testid?: string): HTMLElement {
  const row = h("span", {
    class: cards.length > 8 ? "cards fan" : "cards",
    "data-testid": testid,
    "data-count": cards.length,
  });
  if (cards.length === 0) row.append(h("span", { class: "dim" }, "(none)"));
  for (const card of cards) row.append(cardEl(typeName, card));
  return row;
}

function fact(name: string, valueEl: HTMLElement, dim = false): HTMLElement {
  return h(
    "span",
    { class: dim ? "fact dim" : "fact", "data-field": name },
    h("span", { class: "label" }, `${label(name)}:`),
    " ",
    valueEl,
  );
}

export interface MessageOptions {
  /** Field names not to draw (drawn elsewhere). */
  skip?: ReadonlySet<string>;
}

/**
 * Every field of `message`: cards and groups each on a line of their own,
 * scalars and enums gathered as small facts.
 */
export function renderMessage(
  desc: DescMessage,
  message: Msg,
  options: MessageOptions = {},
): HTMLElement {
  const box = h("div", { class: "message", "data-type": desc.typeName });
  const facts = h("div", { class: "facts" });
  const blocks: HTMLElement[] = [];
  for (const field of desc.fields) {
    if (options.skip?.has(field.name)) continue;
    const value = fieldValue(message, field);
    if (field.oneof !== undefined && value === undefined) continue;
    switch (field.fieldKind) {
      case "scalar": {
        if (field.presence === 1 /* EXPLICIT: proto3 optional */ && value === undefined) {
          facts.append(fact(field.name, h("span", { class: "value" }, "—"), true));
        } else if (/_size$/.test(field.name) && typeof value === "number") {
          facts.append(fact(field.name, backsEl(value)));
        } else {
          facts.append(fact(field.name, scalarEl(value), isDefault(value)));
        }
        break;
      }
      case "enum": {
        const number = (value as number | undefined) ?? 0;
        if (isCardEnum(field.enum.typeName)) {
          if (number !== 0) {
            blocks.push(
              h(
                "div",
                { class: "line", "data-field": field.name },
                h("span", { class: "label" }, `${label(field.name)}:`),
                " ",
                cardEl(field.enum.typeName, number),
              ),
            );
          } else {
            facts.append(fact(field.name, h("span", { class: "value" }, "—"), true));
          }
        } else {
          facts.append(fact(field.name, enumEl(field.enum, number), number === 0));
        }
        break;
      }
      case "message": {
        if (value === undefined) continue;
        blocks.push(group(field.name, renderMessage(field.message, value as Msg)));
        break;
      }
      case "list": {
        const items = (value as unknown[] | undefined) ?? [];
        if (field.listKind === "enum" && isCardEnum(field.enum.typeName)) {
          blocks.push(
            h(
              "div",
              { class: "line", "data-field": field.name },
              h("span", { class: "label" }, `${label(field.name)}:`),
              " ",
              cardRow(field.enum.typeName, items as number[]),
            ),
          );
        } else if (field.listKind === "enum") {
          const enumDesc = field.enum;
          const list = h("span", { class: "list" });
          items.forEach((item, i) =>
            list.append(i > 0 ? ", " : "", enumEl(enumDesc, item as number)),
          );
          facts.append(
            fact(
              field.name,
              items.length ? list : h("span", { class: "value" }, "[]"),
              !items.length,
            ),
          );
        } else if (field.listKind === "scalar") {
          const text = items.map((item) =>
            typeof item === "boolean" ? (item ? "yes" : "no") : String(item),
          );
          facts.append(
            fact(field.name, h("span", { class: "value" }, `[${text.join(", ")}]`), !items.length),
          );
        } else {
          const itemDesc = field.message;
          const list = h("div", { class: "items" });
          items.forEach((item, i) =>
            list.append(
              h(
                "div",
                { class: "item" },
                h("span", { class: "index" }, `#${i}`),
                renderMessage(itemDesc, item as Msg),
              ),
            ),
          );
          if (items.length === 0) list.append(h("span", { class: "dim" }, "(none)"));
          blocks.push(group(field.name, list, items.length));
        }
        break;
      }
      case "map":
        facts.append(fact(field.name, h("span", { class: "value" }, JSON.stringify(value))));
        break;
    }
  }
  if (facts.childElementCount > 0) box.append(facts);
  box.append(...blocks);
  return box;
}

function group(name: string, content: HTMLElement, count?: number): HTMLElement {
  return h(
    "fieldset",
    { class: "group", "data-field": name },
    h("legend", {}, count === undefined ? label(name) : `${label(name)} (${count})`),
    content,
  );
}

export interface ViewParts {
  /** The seat bar: every seat with its name, score, hand size, turn and who may act. */
  seats: HTMLElement;
  /** The match: deal, phase, last deal's points and winners. */
  match: HTMLElement;
  /** The game's view without the hand: the table. */
  table: HTMLElement;
  /** The viewer's hand (the game view's `hand`) and its card type. */
  hand: { typeName: string; cards: number[] };
  /** The rule options, folded. */
  options: HTMLElement;
}

const GAME_VIEW = "game_view";

/** A view in parts, so that a page lays them out as it likes. */
export function viewParts(view: View, how: { viewer?: boolean } = {}): ViewParts {
  const viewer = how.viewer ?? true;
  const gameView = oneofMessage(ViewSchema, view as unknown as Msg, GAME_VIEW);
  const handField = gameView?.desc.fields.find((f) => f.name === "hand");
  const handSizes =
    gameView === undefined ? [] : ((gameView.value["handSizes"] as number[] | undefined) ?? []);
  const inProgress = view.match?.phase === MatchPhase.DEAL_IN_PROGRESS;

  const seats = h("div", { class: "seats", "data-testid": "seats" });
  view.seats.forEach((seat, i) => {
    const acting = inProgress && view.actingSeats.includes(i);
    const turn = inProgress && view.currentSeat === i;
    const classes = ["seat"];
    if (turn) classes.push("turn");
    if (acting) classes.push("acting");
    if (seat.eliminated) classes.push("eliminated");
    if (viewer && i === view.seat) classes.push("me");
    seats.append(
      h(
        "div",
        {
          class: classes.join(" "),
          "data-testid": "seat",
          "data-seat": i,
          "data-acting": acting ? "true" : "false",
          "data-turn": turn ? "true" : "false",
        },
        h(
          "div",
          { class: "seat-name" },
          `P${i}`,
          seat.name && seat.name !== `P${i}` ? ` ${seat.name}` : "",
          viewer && i === view.seat ? h("span", { class: "badge" }, "you") : null,
        ),
        h(
          "div",
          { class: "seat-facts" },
          h("span", { title: "match score" }, `score ${seat.score}`),
          handSizes[i] === undefined ? null : backsEl(handSizes[i] ?? 0, "cards in hand"),
          seat.team ? h("span", {}, `team ${seat.team}`) : null,
          seat.eliminated ? h("span", { class: "out" }, "out") : null,
        ),
        h(
          "div",
          { class: "seat-state" },
          turn ? "turn" : "",
          turn && acting ? " · " : "",
          acting ? "may act" : "",
        ),
      ),
    );
  });

  const match = view.match;
  const phase = match === undefined ? "—" : enumText(MatchPhaseSchema, match.phase);
  const matchEl = h(
    "div",
    { class: "match facts", "data-testid": "match", "data-phase": phase },
    fact("deal", scalarEl(match?.dealNumber ?? 0)),
    fact("move", scalarEl(view.moveNumber)),
    fact("phase", h("span", { class: "value" }, phase)),
    match && match.dealPoints.length
      ? fact("deal points", h("span", { class: "value" }, `[${match.dealPoints.join(", ")}]`))
      : null,
    match && match.dealWinners.length
      ? fact(
          "deal winners",
          h("span", { class: "value" }, match.dealWinners.map((s) => `P${s}`).join(", ")),
        )
      : null,
    match && match.winners.length
      ? fact("winners", h("span", { class: "value" }, match.winners.map((s) => `P${s}`).join(", ")))
      : null,
  );

  const table =
    gameView === undefined
      ? h("div", { class: "dim" }, "(no game view)")
      : renderMessage(gameView.desc, gameView.value, { skip: new Set(["hand", "hand_sizes"]) });
  table.dataset["testid"] = "table";

  const hand = {
    typeName: handField?.enum?.typeName ?? "",
    cards: gameView === undefined ? [] : ((gameView.value["hand"] as number[] | undefined) ?? []),
  };

  const optionsOf =
    view.options === undefined
      ? undefined
      : oneofMessage(GameOptionsSchema, view.options as unknown as Msg, "game");
  const options = h(
    "details",
    { class: "options-view" },
    h("summary", {}, "rule options"),
    optionsOf === undefined
      ? h("span", { class: "dim" }, "(none)")
      : renderMessage(optionsOf.desc, optionsOf.value),
  );

  return { seats, match: matchEl, table, hand, options };
}

/** A server error as the page shows it: its code, its message and each
 * detail (a BadRequest's field violations); `testid` prefixes the hooks. */
export function problemParts(problem: Problem, testid: string): Child[] {
  return [
    h("strong", { "data-testid": `${testid}-code` }, problem.code),
    " ",
    h("span", { "data-testid": `${testid}-message` }, problem.message),
    problem.details.length
      ? h(
          "ul",
          {},
          problem.details.map((d) => h("li", {}, d)),
        )
      : null,
  ];
}
