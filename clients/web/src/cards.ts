// Cards drawn as cards: the same face for every game. A French card is its
// rank and suit symbol (red for hearts and diamonds), a UNO card its symbol
// on its colour, a joker a star; a face-down card is a back, with a count.
//
// Both decks are enums whose numbering is arithmetic (cards.proto): value =
// 1 + 13 * suit (or colour) index + rank (or symbol) index.

import type { DescEnum } from "@bufbuild/protobuf";

import { FrenchCardSchema, UnoCardSchema } from "../../typescript/src/gen/croupier/v1/cards_pb.js";

import { h } from "./dom.js";

export const FRENCH_CARD = FrenchCardSchema.typeName;
export const UNO_CARD = UnoCardSchema.typeName;
export const SUIT = "croupier.v1.Suit";
export const UNO_COLOR = "croupier.v1.UnoColor";

/** The name of an enum's value ("FRENCH_CARD_HEARTS_7"), as proto JSON spells it. */
export function enumName(desc: DescEnum, value: number): string | undefined {
  return desc.values.find((v) => v.number === value)?.name;
}

/** Is an enum of this name a card (drawn as a card)? */
export function isCardEnum(typeName: string | undefined): boolean {
  return typeName === FRENCH_CARD || typeName === UNO_CARD;
}

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
// Index = suit index of cards.proto (clubs, diamonds, hearts, spades).
const SUITS = ["♣", "♦", "♥", "♠"];
const SUIT_LETTERS = ["C", "D", "H", "S"];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const UNO_COLOURS = ["red", "yellow", "green", "blue"];
const UNO_SYMBOLS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "⊘", "⇄", "+2"];
const UNO_SYMBOL_NAMES = [...UNO_SYMBOLS.slice(0, 10), "skip", "reverse", "draw two"];

export interface Face {
  /** What is printed in the corner: "10", "Q", "+2", "W". */
  rank: string;
  /** The big symbol: "♥", or the UNO symbol. */
  symbol: string;
  /** CSS classes of the colour: "red", "black", "uno-green", "uno-wild". */
  colour: string;
  /** Words for a screen reader and a tooltip: "10 of hearts". */
  title: string;
  /** The canonical text of cards.proto ("10H", "RJ"); UNO: the enum name. */
  text: string;
}

export function frenchFace(value: number): Face {
  if (value === 53 || value === 54) {
    const red = value === 53;
    return {
      rank: "JK",
      symbol: "★",
      colour: red ? "red joker" : "black joker",
      title: red ? "red joker" : "black joker",
      text: red ? "RJ" : "BJ",
    };
  }
  if (value < 1 || value > 52) {
    return { rank: "?", symbol: "?", colour: "black", title: `card ${value}`, text: "?" };
  }
  const suit = Math.floor((value - 1) / 13);
  const rank = RANKS[(value - 1) % 13] ?? "?";
  return {
    rank,
    symbol: SUITS[suit] ?? "?",
    colour: suit === 1 || suit === 2 ? "red" : "black",
    title: `${rank} of ${SUIT_NAMES[suit]}`,
    text: `${rank}${SUIT_LETTERS[suit]}`,
  };
}

export function unoFace(value: number): Face {
  const name = enumName(UnoCardSchema, value) ?? `UNO card ${value}`;
  if (value >= 1 && value <= 52) {
    const colour = UNO_COLOURS[Math.floor((value - 1) / 13)] ?? "red";
    const symbol = UNO_SYMBOLS[(value - 1) % 13] ?? "?";
    return {
      rank: symbol,
      symbol,
      colour: `uno uno-${colour}`,
      title: `${colour} ${UNO_SYMBOL_NAMES[(value - 1) % 13]}`,
      text: name,
    };
  }
  const wild: Record<number, [string, string]> = {
    53: ["W", "wild"],
    54: ["+4", "wild draw four"],
    55: ["□", "blank"],
  };
  const [symbol, title] = wild[value] ?? ["?", name];
  return { rank: symbol, symbol, colour: "uno uno-wild", title, text: name };
}

export function faceOf(typeName: string, value: number): Face {
  return typeName === UNO_CARD ? unoFace(value) : frenchFace(value);
}

/** The enum value's name, e.g. "FRENCH_CARD_HEARTS_7" (what proto JSON spells). */
export function cardName(typeName: string, value: number): string {
  return enumName(typeName === UNO_CARD ? UnoCardSchema : FrenchCardSchema, value) ?? String(value);
}

/**
 * A card face. With `onClick` it is a button (a card of the player's hand);
 * `playable` marks a card that some legal move uses.
 */
export function cardEl(
  typeName: string,
  value: number,
  options: { onClick?: () => void; playable?: boolean; small?: boolean } = {},
): HTMLElement {
  const face = faceOf(typeName, value);
  const classes = ["card", face.colour];
  if (options.playable) classes.push("playable");
  if (options.small) classes.push("small");
  const attrs = {
    class: classes.join(" "),
    title: face.title,
    "aria-label": face.title,
    "data-card": cardName(typeName, value),
    "data-testid": "card",
  };
  const content = [
    h("span", { class: "rank" }, face.rank),
    h("span", { class: "pip" }, face.symbol),
  ];
  if (options.onClick === undefined) return h("span", attrs, ...content);
  const onClick = options.onClick;
  return h("button", { ...attrs, type: "button", onclick: () => onClick() }, ...content);
}

/** Face-down cards: one back, and the count beside it when there are several. */
export function backsEl(count: number, title = "face-down cards"): HTMLElement {
  return h(
    "span",
    { class: "backs", title: `${count} ${title}`, "data-count": count },
    h("span", { class: count > 0 ? "card back" : "card back empty" }),
    h("span", { class: "count" }, `×${count}`),
  );
}

/** A suit (Suit enum) as its coloured symbol. */
export function suitEl(value: number): HTMLElement {
  if (value < 1 || value > 4) return h("span", { class: "dim" }, "—");
  const index = value - 1;
  return h(
    "span",
    { class: index === 1 || index === 2 ? "suit red" : "suit black", title: SUIT_NAMES[index] },
    SUITS[index],
  );
}

/** A UNO colour (UnoColor enum) as a swatch and its name. */
export function unoColourEl(value: number): HTMLElement {
  if (value < 1 || value > 4) return h("span", { class: "dim" }, "—");
  const colour = UNO_COLOURS[value - 1] ?? "";
  return h("span", { class: "colour" }, h("span", { class: `swatch uno-${colour}` }), colour);
}
