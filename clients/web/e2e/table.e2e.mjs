// The web table in a real browser (Debian's Chromium driven by playwright-core),
// against a real `croupier serve --web`: run by tests/web/test_web_table.py.
//
//   CROUPIER_WEB_URL=http://127.0.0.1:8071 node e2e/table.e2e.mjs
//
// Through the page only (clicks and form fields), it plays a whole deal of
// every game the page lists against the server's built-in bots, clicking the
// first legal move whenever the player may act; in 101 it clicks a card of
// the hand that no legal move uses and checks that the page shows the very
// Rejection the server gives for that move; it loads a hand-built state into
// the inspector and checks every seat's view, the legal moves, a move applied,
// a step back, the exports and a refused state. The server is asked directly
// (Connect JSON) only to check what the page shows.
//
// Screenshots go to REPORT_DIR (default reports/web): every game's end, the
// illegal try, the inspector, and a table in play at phone width (375x800).
// Prints one TAP line per check; exits 1 when any fails.

import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { chromium } from "playwright-core";

const BASE = process.env.CROUPIER_WEB_URL;
const REPORT_DIR = process.env.REPORT_DIR ?? "reports/web";
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
// The server was started with sealing keys: also play a sealed match.
const SEALED = process.env.CROUPIER_WEB_SEALED === "1";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
// Seeds and seat counts of short deals (with the match ids below, the
// server's bots make the same choices every run); a game not listed plays
// its smallest table with seed 1.
const DEALS = {
  hundred_and_one: { seats: 2, seed: 7 },
  uno: { seats: 3, seed: 12 },
  scala40: { seats: 2, seed: 5 },
  most: { seats: 2, seed: 1 },
  sto: { seats: 3, seed: 2 },
  one_hundred: { seats: 3, seed: 9 },
  chips_101: { seats: 2, seed: 3 },
};
// The game whose deal also makes the illegal try.
const ILLEGAL_TRY_GAME = "hundred_and_one";
// The game whose table is also shot at phone width.
const PHONE_GAME = "uno";
const MAX_CLICKS = 300; // per deal: far above what the deals above take
const STEP_TIMEOUT = 20_000; // ms for the page to settle after one action
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };

if (!BASE) {
  console.error("CROUPIER_WEB_URL is not set (the server's --web address, http://host:port)");
  process.exit(2);
}

let passed = 0;
let failed = 0;
let number = 0;

async function check(name, body) {
  number += 1;
  const started = Date.now();
  try {
    const note = await body();
    passed += 1;
    console.log(`ok ${number} - ${name}${note ? ` # ${note}` : ""} (${Date.now() - started} ms)`);
  } catch (error) {
    failed += 1;
    console.log(`not ok ${number} - ${name}`);
    console.log(`  ---\n  ${String(error?.stack ?? error).replace(/\n/g, "\n  ")}\n  ...`);
  }
}

/** A call of CroupierService in Connect's JSON form, to check the page against. */
async function rpc(method, body) {
  const answer = await fetch(`${BASE}/croupier.v1.CroupierService/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1" },
    body: JSON.stringify(body),
  });
  const json = await answer.json();
  return { ok: answer.ok, json };
}

const statusSel = '[data-testid="status"]';

async function seqOf(page, selector = statusSel) {
  return Number(await page.getAttribute(selector, "data-seq"));
}

/** Waits until the page is idle after the status numbered `after`: its new status. */
async function settled(page, after, selector = statusSel) {
  await page.waitForFunction(
    ([sel, seq]) => {
      const status = document.querySelector(sel);
      return (
        status !== null && status.dataset.status !== "busy" && Number(status.dataset.seq) > seq
      );
    },
    [selector, after],
    { timeout: STEP_TIMEOUT },
  );
  return {
    status: await page.getAttribute(selector, "data-status"),
    seq: await seqOf(page, selector),
  };
}

async function shownError(page) {
  const error = page.locator('[data-testid="error"]');
  return (await error.isVisible()) ? (await error.innerText()).trim() : "";
}

/** Sets up a new game through the form and plays until the deal is over. */
async function playDeal(page, game, { seats, seed, sealed = false }, onTurn) {
  await page.click('[data-testid="tab-table"]');
  // The form folds while a table is in play.
  if (!(await page.locator('[data-testid="new-game-panel"]').evaluate((panel) => panel.open))) {
    await page.click('[data-testid="new-game-panel"] > summary');
  }
  await page.selectOption('[data-testid="game"]', game);
  await page.selectOption('[data-testid="seat-count"]', String(seats));
  await page.selectOption('[data-testid="my-seat"]', "0");
  await page.fill('[data-testid="seed"]', String(seed));
  await page.fill('[data-testid="bot-delay"]', "0");
  await page.fill('[data-testid="match-id-input"]', `e2e-${game}`);
  await page.setChecked('[data-testid="seal"]', sealed);
  const before = await seqOf(page);
  await page.click('[data-testid="new-game"]');
  const { status, seq } = await settled(page, before);
  return playOn(page, status, seq, onTurn);
}

/** Clicks the first legal move whenever the player may act, until the deal is over. */
async function playOn(page, status, seq, onTurn) {
  let clicks = 0;
  while (status === "your-turn") {
    if (onTurn !== undefined) {
      seq = await onTurn(page, seq);
    }
    const moves = page.locator('[data-testid="legal-move"]');
    assert.ok((await moves.count()) > 0, "your turn, but no legal move is shown");
    await moves.first().click();
    clicks += 1;
    assert.ok(clicks <= MAX_CLICKS, `still playing after ${MAX_CLICKS} clicks`);
    ({ status, seq } = await settled(page, seq));
  }
  assert.ok(
    status === "deal-over" || status === "match-over",
    `the deal stopped at status ${status}: ${await shownError(page)}`,
  );
  return clicks;
}

/** At the end of a deal: Next deal deals deal 2, where the player's first move is played. */
async function nextDeal(page) {
  const button = page.locator('[data-testid="next-deal"]');
  assert.ok(await button.isVisible(), "no Next deal button after a deal (was the match over?)");
  let { status, seq } = { status: "", seq: await seqOf(page) };
  await button.click();
  ({ status, seq } = await settled(page, seq));
  assert.match(
    await page.locator('[data-testid="table-tab"] [data-testid="match"]').innerText(),
    /deal:\s*2\b/,
  );
  if (status === "your-turn") {
    await page.locator('[data-testid="legal-move"]').first().click();
    ({ status, seq } = await settled(page, seq));
  }
  assert.ok(
    ["your-turn", "deal-over", "match-over"].includes(status),
    `deal 2: status ${status}: ${await shownError(page)}`,
  );
  return `deal 2 dealt and played on (${status})`;
}

/**
 * The rule options form, generated from ListGames: a preset's values are its
 * defaults, and what is changed there is what the new game plays with.
 */
async function optionsForm(page) {
  await page.click('[data-testid="tab-table"]');
  if (!(await page.locator('[data-testid="new-game-panel"]').evaluate((panel) => panel.open))) {
    await page.click('[data-testid="new-game-panel"] > summary');
  }
  await page.selectOption('[data-testid="game"]', "chips_101");
  await page.selectOption('[data-testid="preset"]', "pagat");
  if (!(await page.locator('[data-testid="options-details"]').evaluate((d) => d.open))) {
    await page.click('[data-testid="options-details"] > summary');
  }
  // pagat sets chips 5 and ten_effect PLUS_OR_MINUS_10; the rest are the catalogue's defaults.
  assert.equal(await page.inputValue("#opt-chips"), "5");
  assert.equal(await page.inputValue("#opt-ten_effect"), "PLUS_OR_MINUS_10");
  assert.equal(await page.inputValue("#opt-limit"), "101");
  assert.equal(await page.isChecked("#opt-floor_zero"), true);
  await page.fill("#opt-chips", "2");
  await page.selectOption("#opt-limit", "100");
  await page.screenshot({ path: join(REPORT_DIR, "options-form.png"), fullPage: true });
  await page.selectOption('[data-testid="seat-count"]', "2");
  await page.fill('[data-testid="seed"]', "3");
  await page.fill('[data-testid="bot-delay"]', "0");
  await page.setChecked('[data-testid="seal"]', false);
  const before = await seqOf(page);
  await page.click('[data-testid="new-game"]');
  const { status } = await settled(page, before);
  assert.ok(status !== "error", await shownError(page));
  const option = (name) =>
    page
      .locator(`[data-testid="table-tab"] .options-view [data-field="${name}"] .value`)
      .textContent();
  assert.equal(await option("chips"), "2");
  assert.equal(await option("limit"), "100");
  assert.equal(await option("ten_effect"), "plus or minus 10");
  const scores = await page
    .locator('[data-testid="table-tab"] [data-testid="seat"]')
    .allInnerTexts();
  assert.ok(
    scores.every((text) => /score 2\b/.test(text)),
    `each seat starts with 2 chips: ${scores}`,
  );
  // A card that carries a choice (an ace counts 1 or 11, a ten +10 or -10
  // under pagat): clicking it offers its legal moves to choose from.
  let chose = "";
  if (status === "your-turn") {
    const choosy = page.locator(
      '[data-testid="hand"] .playable:is([data-card$="_ACE"], [data-card$="_10"])',
    );
    if ((await choosy.count()) > 0) {
      const card = await choosy.first().getAttribute("data-card");
      await choosy.first().click();
      const offered = await page
        .locator('[data-testid="choice"]')
        .evaluateAll((els) => els.map((e) => e.dataset.notation));
      assert.ok(offered.length >= 2, `${card} offers ${offered}`);
      const seq = await seqOf(page);
      await page.locator('[data-testid="choice"]').first().click();
      const after = await settled(page, seq);
      assert.ok(after.status !== "error", await shownError(page));
      chose = `; ${card} offered ${offered.join(" / ")}`;
    }
  }
  return `chips_101 pagat with chips 2 and limit 100${chose}`;
}

/** The state the page holds, as the inspector shows it ("Load this table into the inspector"). */
async function tableState(page) {
  const before = await seqOf(page, '[data-testid="inspector-status"]');
  await page.click('[data-testid="to-inspector"]');
  await settled(page, before, '[data-testid="inspector-status"]');
  const text = await page.locator('[data-testid="inspector-state"]').textContent();
  await page.click('[data-testid="tab-table"]');
  return JSON.parse(text);
}

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "JACK", "QUEEN", "KING", "ACE"];
const SUITS = ["CLUBS", "DIAMONDS", "HEARTS", "SPADES"];

/**
 * In 101, once: a card of the hand that no legal move uses is clicked; the
 * page must show the rejection the server gives for "play that card".
 */
function illegalTry(record) {
  return async (page, seq) => {
    if (record.done) return seq;
    const unusable = page.locator('[data-testid="hand"] [data-testid="card"]:not(.playable)');
    if ((await unusable.count()) === 0) return seq;
    const card = await unusable.first().getAttribute("data-card");
    const state = await tableState(page);
    seq = await seqOf(page);
    await unusable.first().click();
    const after = await settled(page, seq);
    assert.equal(after.status, "your-turn", "a refused move leaves the player to move");
    const message = (await page.locator('[data-testid="rejection-message"]').innerText()).trim();
    const rule = (await page.locator('[data-testid="rejection-rule"]').innerText()).trim();
    // What the server answers for that move (a Queen names its own suit).
    const play = { card };
    const queen = /^FRENCH_CARD_(\w+)_QUEEN$/.exec(card);
    if (queen) play.namedSuit = `SUIT_${queen[1]}`;
    const { ok, json } = await rpc("ApplyMove", {
      state,
      move: { seat: 0, hundredAndOne: { play } },
    });
    assert.ok(ok, `ApplyMove failed: ${JSON.stringify(json)}`);
    assert.ok(!json.accepted, `the server accepts ${card}, which the page did not highlight`);
    assert.equal(message, json.rejection.message);
    assert.equal(rule, json.rejection.rule);
    await page.screenshot({ path: join(REPORT_DIR, "illegal-try.png"), fullPage: true });
    Object.assign(record, { done: true, card, message, rule });
    return after.seq;
  };
}

/** Once: the table in play at phone width, with no horizontal scroll. */
function phoneShot(record) {
  return async (page, seq) => {
    if (record.done) return seq;
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(100);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
      window: window.innerWidth,
    }));
    await page.screenshot({ path: join(REPORT_DIR, "phone-table.png") });
    await page.screenshot({ path: join(REPORT_DIR, "phone-table-full.png"), fullPage: true });
    await page.setViewportSize(DESKTOP);
    Object.assign(record, { done: true, widths });
    return seq;
  };
}

// A hand-built state of 101 with chips (not one the page played): two
// seats, deal 2, P0 to play on a total of 97 holding K♣ 9♠ 5♥; P1 holds
// 4♦ 9♦ 6♦. Every other card is on the pile or in the stock.
function handBuiltState() {
  const hands = [
    ["FRENCH_CARD_CLUBS_KING", "FRENCH_CARD_SPADES_9", "FRENCH_CARD_HEARTS_5"],
    ["FRENCH_CARD_DIAMONDS_4", "FRENCH_CARD_DIAMONDS_9", "FRENCH_CARD_DIAMONDS_6"],
  ];
  const pile = [
    "FRENCH_CARD_CLUBS_7",
    "FRENCH_CARD_SPADES_8",
    "FRENCH_CARD_HEARTS_ACE",
    "FRENCH_CARD_CLUBS_QUEEN",
  ];
  const placed = new Set([...hands.flat(), ...pile]);
  const stock = SUITS.flatMap((s) => RANKS.map((r) => `FRENCH_CARD_${s}_${r}`)).filter(
    (c) => !placed.has(c),
  );
  return {
    schemaVersion: 2,
    game: "chips_101",
    rulesVersion: 1,
    options: {
      chips101: {
        limit: 101,
        cardTable: "CHIPS101_CARD_TABLE_NINETY_NINE_101",
        tenEffect: "CHIPS101_TEN_EFFECT_MINUS_10",
        chips: 3,
        floorZero: true,
      },
    },
    seats: [
      { name: "P0", score: "3" },
      { name: "P1", score: "2" },
    ],
    currentSeat: 0,
    seed: "42",
    rngCounter: "60",
    moveNumber: "4",
    match: { phase: "MATCH_PHASE_DEAL_IN_PROGRESS", dealNumber: 2 },
    actingSeats: [0],
    chips101: {
      hands: hands.map((cards) => ({ cards })),
      stock,
      pile,
      total: "97",
      dealer: 1,
    },
  };
}

async function cardsIn(page, selector) {
  return page
    .locator(`${selector} [data-testid="card"]`)
    .evaluateAll((els) => els.map((e) => e.dataset.card));
}

async function download(page, testid) {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.click(`[data-testid="${testid}"]`),
  ]);
  return JSON.parse(await readFile(await file.path(), "utf8"));
}

async function inspector(page) {
  const statusOf = '[data-testid="inspector-status"]';
  const state = handBuiltState();
  await page.click('[data-testid="tab-inspector"]');
  let seq = await seqOf(page, statusOf);
  // Uploaded as a file (the broken one below is pasted).
  await page.setInputFiles('[data-testid="inspector-file"]', {
    name: "hand-built-state.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(state, null, 2)),
  });
  let status;
  ({ status, seq } = await settled(page, seq, statusOf));
  assert.equal(status, "ready", await page.locator('[data-testid="inspector-error"]').innerText());

  // Every seat's view, side by side: each shows its own hand, none the other's.
  const views = page.locator('[data-testid="inspector-view"]');
  assert.equal(await views.count(), 2);
  const [hand0, hand1] = state.chips101.hands.map((h) => h.cards);
  assert.deepEqual(
    await cardsIn(
      page,
      '[data-testid="inspector-view"][data-seat="0"] [data-testid="inspector-hand"]',
    ),
    hand0,
  );
  assert.deepEqual(
    await cardsIn(
      page,
      '[data-testid="inspector-view"][data-seat="1"] [data-testid="inspector-hand"]',
    ),
    hand1,
  );
  const seenBy1 = await cardsIn(page, '[data-testid="inspector-view"][data-seat="1"]');
  assert.ok(!hand0.some((c) => seenBy1.includes(c)), `P1's view shows P0's cards: ${seenBy1}`);
  const pileShown = await cardsIn(
    page,
    '[data-testid="inspector-view"][data-seat="0"] [data-field="pile"]',
  );
  assert.deepEqual(pileShown, state.chips101.pile);

  // The legal moves of the acting seat: K♣ and 9♠ keep 97 within 101; 5♥ does not.
  const notations = (sel) =>
    page.locator(sel).evaluateAll((els) => els.map((e) => e.dataset.notation));
  const shown0 = await notations('[data-testid="inspector-move"][data-seat="0"]');
  const listed = await rpc("ListLegalMoves", { state, seat: 0 });
  assert.deepEqual(
    shown0,
    listed.json.moves.map((m) => m.notation),
  );
  assert.deepEqual(shown0, ["KC", "9S"]);
  assert.equal(
    await page.locator('[data-testid="inspector-moves"][data-seat="1"]').count(),
    0,
    "P1 may not act",
  );

  // The state exports as it was loaded.
  const exported = await download(page, "export-state");
  assert.deepEqual(exported.chips101, state.chips101);
  assert.equal(exported.game, "chips_101");

  // Apply 9♠: P1 acts next; export the move list; step back.
  await page.click('[data-testid="inspector-move"][data-notation="9S"]');
  ({ status, seq } = await settled(page, seq, statusOf));
  assert.equal(status, "ready");
  assert.equal(await page.locator('[data-testid="inspector-history"] li').count(), 2);
  assert.ok(
    (await notations('[data-testid="inspector-move"][data-seat="1"]')).length > 0,
    "P1 has moves after 9S",
  );
  const handAfter = await cardsIn(
    page,
    '[data-testid="inspector-view"][data-seat="0"] [data-testid="inspector-hand"]',
  );
  assert.ok(
    !handAfter.includes("FRENCH_CARD_SPADES_9") && handAfter.includes("FRENCH_CARD_CLUBS_KING"),
    `P0 holds ${handAfter}`,
  );
  const moves = await download(page, "export-moves");
  assert.deepEqual(moves, [
    { seat: 0, notation: "9S", move: { chips101: { play: { card: "FRENCH_CARD_SPADES_9" } } } },
  ]);
  await page.screenshot({ path: join(REPORT_DIR, "inspector.png"), fullPage: true });
  await page.click('[data-testid="inspector-back"]');
  ({ status, seq } = await settled(page, seq, statusOf));
  assert.equal(await page.locator('[data-testid="inspector-history"] li').count(), 1);
  assert.deepEqual(await notations('[data-testid="inspector-move"][data-seat="0"]'), ["KC", "9S"]);

  // A broken state (K♣ in both hands) is refused: the server's code and message are shown.
  const broken = structuredClone(state);
  broken.chips101.hands[1].cards[0] = "FRENCH_CARD_CLUBS_KING";
  await page.fill('[data-testid="inspector-json"]', JSON.stringify(broken));
  await page.click('[data-testid="inspector-load"]');
  ({ status, seq } = await settled(page, seq, statusOf));
  assert.equal(status, "error");
  const refused = await rpc("GetView", { state: broken, seat: 0 });
  assert.equal(refused.ok, false);
  assert.equal(refused.json.code, "invalid_argument");
  assert.equal(
    await page.locator('[data-testid="inspector-error-code"]').innerText(),
    "INVALID_ARGUMENT",
  );
  assert.equal(
    await page.locator('[data-testid="inspector-error-message"]').innerText(),
    refused.json.message,
  );
  await page.screenshot({ path: join(REPORT_DIR, "inspector-refused.png"), fullPage: true });
  return `hand-built chips_101 state: ${shown0.join(" ")} legal`;
}

async function main() {
  await mkdir(REPORT_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const pageErrors = [];
  try {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(BASE);
    await page.waitForSelector(`${statusSel}[data-status="idle"]`, { timeout: STEP_TIMEOUT });

    const listed = await page
      .locator('[data-testid="game"] option')
      .evaluateAll((els) => els.map((e) => e.value));
    await check("the page lists every game of ListGames", async () => {
      const { json } = await rpc("ListGames", {});
      assert.deepEqual([...listed].sort(), json.games.map((g) => g.name).sort());
      return listed.join(" ");
    });

    const illegal = { done: false };
    const phone = { done: false };
    for (const game of listed) {
      const deal = DEALS[game] ?? { seats: 0, seed: 1 };
      await check(`${game}: a whole deal against the bots`, async () => {
        if (!deal.seats) {
          deal.seats = Number(
            await page.locator('[data-testid="seat-count"] option').first().getAttribute("value"),
          );
        }
        const onTurn =
          game === ILLEGAL_TRY_GAME
            ? illegalTry(illegal)
            : game === PHONE_GAME
              ? phoneShot(phone)
              : undefined;
        const clicks = await playDeal(page, game, deal, onTurn);
        const over = page.locator('[data-testid="deal-over"], [data-testid="match-over"]');
        assert.ok(await over.isVisible(), "no scores between deals");
        assert.equal(await page.locator('[data-testid="scores"] tbody tr').count(), deal.seats);
        assert.ok(
          (await page.locator('[data-testid="event-log"] li').count()) > 1,
          "the event log is empty",
        );
        await page.screenshot({ path: join(REPORT_DIR, `${game}-end.png`), fullPage: true });
        return `${deal.seats} seats, seed ${deal.seed}: ${clicks} moves clicked`;
      });
    }
    await check("Next deal deals the next deal of the match", async () => {
      const game = listed.includes("chips_101") ? "chips_101" : listed[0];
      await playDeal(page, game, DEALS[game] ?? { seats: 2, seed: 1 });
      return nextDeal(page);
    });
    await check("a sealed match: the page holds and sends the sealed state", async () => {
      if (!SEALED) return "SKIP the server has no sealing keys (CROUPIER_WEB_SEALED=1 says it has)";
      const game = listed.includes("chips_101") ? "chips_101" : listed[0];
      await playDeal(page, game, { ...(DEALS[game] ?? { seats: 2, seed: 1 }), sealed: true });
      assert.match(
        await page.locator('[data-testid="new-game-panel"] > summary').innerText(),
        /sealed/,
      );
      const held = await tableState(page);
      assert.ok(
        held.blob && held.matchId === `e2e-${game}` && held.state === undefined,
        JSON.stringify(held).slice(0, 200),
      );
      await page.screenshot({ path: join(REPORT_DIR, "sealed-end.png"), fullPage: true });
      return `${held.keyId ? `key ${held.keyId}, ` : ""}${await nextDeal(page)}`;
    });
    await check(`${ILLEGAL_TRY_GAME}: an illegal card shows the server's rejection`, async () => {
      // The deal above made the try if one of its turns had a card that no
      // legal move uses; if none had, a few more deals look for one.
      const first = DEALS[ILLEGAL_TRY_GAME] ?? { seats: 2, seed: 1 };
      for (let extra = 1; !illegal.done && extra <= 5; extra++) {
        await playDeal(
          page,
          ILLEGAL_TRY_GAME,
          { ...first, seed: first.seed + extra },
          illegalTry(illegal),
        );
      }
      assert.ok(illegal.done, "no turn of 6 deals had a card that no legal move uses");
      return `${illegal.card}: "${illegal.message}" (${illegal.rule})`;
    });
    await check("a table in play at 375 px wide has no horizontal scroll", async () => {
      assert.ok(phone.done, `no turn of ${PHONE_GAME} to shoot`);
      assert.ok(
        phone.widths.page <= PHONE.width && phone.widths.body <= PHONE.width,
        JSON.stringify(phone.widths),
      );
      return JSON.stringify(phone.widths);
    });
    await check("the options form comes from ListGames, with the preset's values as defaults", () =>
      optionsForm(page),
    );
    await check("the inspector: a hand-built state's views, legal moves, apply, back, export", () =>
      inspector(page),
    );
    await check("no uncaught error in the page", async () => {
      assert.deepEqual(pageErrors, []);
      assert.equal(await page.locator('[data-testid="fatal"]').isVisible(), false);
    });
  } finally {
    await browser.close();
  }
  console.log(`1..${number}`);
  console.log(`# pass ${passed}`);
  console.log(`# fail ${failed}`);
  process.exitCode = failed === 0 ? 0 : 1;
}

const guard = setTimeout(() => {
  console.log("not ok - the browser test ran out of time (150 s)");
  process.exit(1);
}, 150_000);
guard.unref();
await main();
