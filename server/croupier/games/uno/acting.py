"""Who may act now (GameState.acting_seats), from options and public facts only.

Never from a hidden card (DESIGN.md, §0.5): a window is offered to every seat
that public facts make eligible, whether or not it holds a card to use it
with (C-UNO-3), so the list of acting seats tells nobody anything.

- An overlay (H6's exchange, H16's "Ready", H8's slap window) pauses the game:
  only its seats act.
- Otherwise the seat whose turn it is, plus every seat in an open window:
  H1 jump-in (any seat in the round but the top card's player, unless H2,
  while a card with a twin in the deck lies on top and no turn action
  followed it, C-UNO-3); the catch window of R8 (every other seat in the
  round; the offender too under UNTIL_CAUGHT or U16, C-UNO-4, C-UNO-11);
  H5 silence (every seat in the round may report a speaker).
- Under U16 (misplay_penalty) every seat in the round, at every moment the
  game is not paused: H17 makes a false "UNO!" or a false catch a move that
  costs its maker 2 cards whenever it is made — with no window open, after
  the target called in time, after the window closed.
"""

from __future__ import annotations

from croupier.games.uno.rules import JUMPABLE
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

DEAL_OVER = pb.UNO_PHASE_DEAL_OVER
NAME_COLOUR = pb.UNO_PHASE_NAME_COLOUR


def acting_seats(state: game_pb2.GameState) -> list[int]:
    """The seats that may move now, ascending (the deal is in progress)."""
    deal = state.uno
    if deal.phase == DEAL_OVER:
        return []
    options = state.options.uno
    offender = deal.uno_offender if deal.HasField("uno_offender") else -1
    everyone = options.jump_in and deal.jump_in_open and deal.discard[-1] in JUMPABLE
    overlay = options.swap_on_five or options.politeness_ready or options.uno_in_centre
    misplay = options.misplay_penalty
    if not (everyone or offender >= 0 or deal.silence or overlay or misplay):
        return [state.current_seat]  # the common case: only the seat to act
    if deal.HasField("card_swap"):
        return [deal.card_swap.offered_to]
    if deal.HasField("ready_seat"):
        return [deal.ready_seat]
    seats = len(state.seats)
    finished = set(deal.finished)
    if deal.HasField("slap"):
        window = deal.slap
        skip = {window.caller, *window.slapped, *finished}
        waiting = {s for s in range(seats) if s not in skip}
        return sorted(waiting | {window.caller})
    current = state.current_seat
    if deal.phase == NAME_COLOUR:
        return [current]
    acting = {current}
    if everyone:
        top_player = deal.top_player if deal.HasField("top_player") else -1
        acting.update(s for s in range(seats) if s != top_player or options.jump_in_own_card)
    if offender >= 0:
        acting.update(s for s in range(seats) if s != offender)
        until_caught = options.uno_call_timing == pb.UNO_CALL_TIMING_UNTIL_CAUGHT
        if until_caught or options.misplay_penalty:
            acting.add(offender)
    if deal.silence or misplay:
        acting.update(range(seats))  # H5: any seat reports; U16: any seat may shout (H17)
    return sorted(acting - finished)
