// Moves built in the page: "play (or discard) this card of my hand" as the
// game's typed move, and which cards of a hand a move uses.
//
// A Move holds the game's move in the oneof `game_move` (the field named
// after the game), which holds one action in its oneof `action`. Clicking a
// card of the hand means, per game:
//   101 (hundred_and_one), UNO and the counting games (sto, one_hundred,
//   chips_101): `play`; Scala 40 and «Мост» (scala40, most): `discard`.
// A game not listed here gets `play` if it has one, else `discard`.

import { create, type DescField, type DescMessage } from "@bufbuild/protobuf";

import { MoveSchema, type Move } from "../../typescript/src/gen/croupier/v1/game_pb.js";

import { FRENCH_CARD, isCardEnum, UNO_CARD } from "./cards.js";
import { fieldValue } from "./render.js";

type Msg = Record<string, unknown>;

const CARD_ACTION: Record<string, string> = {
  hundred_and_one: "play",
  uno: "play",
  sto: "play",
  one_hundred: "play",
  chips_101: "play",
  scala40: "discard",
  most: "discard",
};

/** The field of Move's `game_move` oneof that holds `game`'s moves. */
function gameMoveField(game: string): (DescField & { fieldKind: "message" }) | undefined {
  const field = MoveSchema.fields.find((f) => f.oneof?.name === "game_move" && f.name === game);
  return field?.fieldKind === "message" ? field : undefined;
}

/** The action (a field of the game move's `action` oneof) a click on a card makes. */
function cardActionField(game: string):
  | {
      gameField: DescField & { fieldKind: "message" };
      action: DescField & { fieldKind: "message" };
    }
  | undefined {
  const gameField = gameMoveField(game);
  if (gameField === undefined) return undefined;
  const names = [CARD_ACTION[game] ?? "play", "play", "discard"];
  for (const name of names) {
    const action = gameField.message.fields.find((f) => f.oneof !== undefined && f.name === name);
    if (action?.fieldKind === "message" && action.message.field["card"] !== undefined) {
      return { gameField, action };
    }
  }
  return undefined;
}

/** The action case and its message of a move for `game`, when it is one. */
function actionOf(move: Move, game: string): { name: string; value: Msg } | undefined {
  const gameField = gameMoveField(game);
  if (gameField === undefined) return undefined;
  const gameMove = fieldValue(move as unknown as Msg, gameField) as Msg | undefined;
  if (gameMove === undefined) return undefined;
  for (const field of gameField.message.fields) {
    if (field.oneof === undefined) continue;
    const value = fieldValue(gameMove, field);
    if (value !== undefined) return { name: field.name, value: value as Msg };
  }
  return undefined;
}

/** Is `move` the click-on-a-card action of `game` with this card (any choice it carries)? */
export function isCardAction(move: Move, game: string, card: number): boolean {
  const wanted = cardActionField(game);
  const action = actionOf(move, game);
  if (wanted === undefined || action === undefined) return false;
  // UNO's jump-in is a play out of turn: a click on the card makes it too.
  const names = wanted.action.name === "play" ? ["play", "jump_in"] : [wanted.action.name];
  return names.includes(action.name) && action.value["card"] === card;
}

/**
 * The typed move "play/discard `card`" of `game` for `seat`, with the choices
 * a card must carry filled in plainly (a 101 Queen names its own suit, a UNO
 * wild names red). Undefined for a game whose moves take no card.
 */
export function cardMove(
  game: string,
  seat: number,
  card: number,
  seenMoveNumber?: bigint,
): Move | undefined {
  const found = cardActionField(game);
  if (found === undefined) return undefined;
  const { gameField, action } = found;
  const inner = create(action.message, { card }) as unknown as Msg;
  const cardType = action.message.field["card"]?.enum?.typeName;
  const suitField = action.message.field["namedSuit"];
  if (
    suitField !== undefined &&
    cardType === FRENCH_CARD &&
    card >= 1 &&
    card <= 52 &&
    (card - 1) % 13 === 10
  ) {
    inner["namedSuit"] = Math.floor((card - 1) / 13) + 1; // a Queen names its own suit
  }
  if (action.message.field["colour"] !== undefined && cardType === UNO_CARD && card >= 53) {
    inner["colour"] = 1; // UNO_COLOR_RED
  }
  const oneof = action.oneof!;
  const gameMove = create(
    gameField.message as DescMessage,
    {
      [oneof.localName]: { case: action.localName, value: inner },
    } as never,
  );
  return create(MoveSchema, {
    seat,
    seenMoveNumber,
    gameMove: { case: gameField.localName, value: gameMove } as never,
  });
}

/**
 * Every card value a move names, in any field (a card played, a meld's
 * cards), except what a joker is declared to be (`joker_as`): the cards of
 * the hand that the move uses.
 */
export function cardsUsedBy(move: Move): Set<number> {
  const found = new Set<number>();
  walk(MoveSchema, move as unknown as Msg, found);
  return found;
}

function walk(desc: DescMessage, message: Msg, found: Set<number>): void {
  for (const field of desc.fields) {
    if (field.name.endsWith("_as")) continue;
    const value = fieldValue(message, field);
    if (value === undefined) continue;
    if (field.fieldKind === "enum" && isCardEnum(field.enum.typeName)) {
      found.add(value as number);
    } else if (
      field.fieldKind === "list" &&
      field.listKind === "enum" &&
      isCardEnum(field.enum.typeName)
    ) {
      for (const card of value as number[]) found.add(card);
    } else if (field.fieldKind === "message") {
      walk(field.message, value as Msg, found);
    } else if (field.fieldKind === "list" && field.listKind === "message") {
      for (const item of value as Msg[]) walk(field.message, item, found);
    }
  }
}
