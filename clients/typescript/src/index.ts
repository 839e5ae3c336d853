// @croupier/client: the TypeScript client of Croupier.
export {
  baseUrlOf,
  createCroupierClient,
  type CroupierClient,
  type CroupierClientOptions,
  type FieldViolation,
  fieldViolations,
} from "./client.js";
export { type Bot, mulberry32, RandomBot } from "./bots.js";
export {
  choosingSeat,
  DEFAULT_MAX_MOVES,
  type LegalMoves,
  type MatchBackend,
  type MatchResult,
  type MatchSpec,
  MatchTooLong,
  playMatch,
  ServerContradiction,
} from "./playout.js";
// The contract's messages most callers touch; every other one is under
// "@croupier/client/gen/croupier/v1/<file>_pb.js".
export {
  type GameState,
  GameStateSchema,
  MatchPhase,
  type Move,
  MoveSchema,
  type View,
  ViewSchema,
} from "./gen/croupier/v1/game_pb.js";
export { CroupierService, type LegalMove, LegalMoveSchema } from "./gen/croupier/v1/service_pb.js";
export { BotService } from "./gen/croupier/v1/bot_pb.js";
