"""Results per entrant: matches, wins, the win rate with its 95 % Wilson
interval, faults, and an openskill (Plackett-Luce) rating.

A finished match counts 1 win for a sole winner and 1/k for each of k
winners (a shared win between two counts a half). Ratings are updated from
each match's ranking: the winners first (tied), then the other seats by their
match score, or tied when the score does not say. Which way a game's score
runs (penalty points in 101, points won in UNO) is not part of the
contract, so it is read from the match itself: when every winner's score is
below every other seat's, lower is better; above, higher is better. Matches
are taken in match order, whatever order they finished in, so the ratings
are a function of the seed.

Matches stopped at the move bound or by an error count for no one (they
are listed as unfinished).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from croupier.tournament.records import OVER, Record

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal


def wilson(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of `points` out of `n` ((0, 1) for n = 0)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def ranking(winners: Sequence[int], scores: Sequence[int]) -> list[int]:
    """The rank of each seat (0 best, ties share a rank): winners 0, the
    others by score in the direction the winners' scores show, else tied."""
    seats = len(scores)
    won = set(winners)
    others = [seat for seat in range(seats) if seat not in won]
    ranks = [0] * seats
    if not won or not others:
        return ranks
    best = [scores[s] for s in won]
    rest = [scores[s] for s in others]
    if max(best) < min(rest):
        order = sorted(set(rest))  # lower is better
    elif min(best) > max(rest):
        order = sorted(set(rest), reverse=True)  # higher is better
    else:
        order = []
    for seat in others:
        ranks[seat] = 1 + (order.index(scores[seat]) if order else 0)
    return ranks


@dataclass
class EntrantResult:
    name: str
    spec: str
    matches: int = 0  # finished matches played
    points: float = 0.0  # wins, a shared win counting 1/k
    faults: int = 0
    unfinished: int = 0  # matches played that stopped at the bound or by an error
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def losses(self) -> float:
        return self.matches - self.points

    @property
    def rate(self) -> float:
        return self.points / self.matches if self.matches else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.matches)

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a conservative skill estimate (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "name": self.name,
            "spec": self.spec,
            "matches": self.matches,
            "wins": self.points,
            "losses": self.losses,
            "win_rate": self.rate,
            "wilson95": [low, high],
            "faults": self.faults,
            "unfinished": self.unfinished,
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
        }


@dataclass
class _Summary:
    """What the standings need of a record (records of long matches are large)."""

    match: int
    entrants: list[str]
    outcome: str
    winners: list[int]
    scores: list[int]
    faults: list[int]  # the seat of each fault
    moves: int
    deals: int


@dataclass
class Standings:
    entrants: list[EntrantResult]
    _summaries: list[_Summary] = field(default_factory=list)
    # After each finished match in match order: (match index, {name: mu}).
    history: list[tuple[int, dict[str, float]]] = field(default_factory=list)

    @classmethod
    def of(cls, names_and_specs: Sequence[tuple[str, str]]) -> Standings:
        return cls([EntrantResult(name, spec) for name, spec in names_and_specs])

    def add(self, record: Record) -> None:
        self._summaries.append(
            _Summary(
                record.match,
                list(record.entrants),
                record.outcome,
                list(record.winners),
                list(record.scores),
                [seat for _, seat, _ in record.faults],
                len(record.moves),
                len(record.deals),
            )
        )

    @property
    def finished(self) -> int:
        return sum(1 for s in self._summaries if s.outcome == OVER)

    @property
    def unfinished(self) -> list[tuple[int, str]]:
        """(match index, outcome) of every match that did not finish."""
        return sorted((s.match, s.outcome) for s in self._summaries if s.outcome != OVER)

    @property
    def moves(self) -> int:
        return sum(s.moves for s in self._summaries)

    @property
    def deals(self) -> int:
        return sum(s.deals for s in self._summaries)

    def compute(self) -> list[EntrantResult]:
        """Tally every match added, in match order; the entrants' results."""
        by_name = {e.name: e for e in self.entrants}
        for entrant in self.entrants:
            entrant.matches, entrant.points, entrant.faults, entrant.unfinished = 0, 0.0, 0, 0
        model = PlackettLuce()
        ratings = {name: model.rating(name=name) for name in by_name}
        self.history = []
        for summary in sorted(self._summaries, key=lambda s: s.match):
            for seat in summary.faults:
                by_name[summary.entrants[seat]].faults += 1
            if summary.outcome != OVER:
                for name in summary.entrants:
                    by_name[name].unfinished += 1
                continue
            for seat, name in enumerate(summary.entrants):
                entrant = by_name[name]
                entrant.matches += 1
                if seat in summary.winners:
                    entrant.points += 1 / len(summary.winners)
            teams = [[ratings[name]] for name in summary.entrants]
            ranks = [float(rank) for rank in ranking(summary.winners, summary.scores)]
            rated = model.rate(teams, ranks=ranks)
            for name, (rating,) in zip(summary.entrants, rated, strict=True):
                ratings[name] = rating
            self.history.append((summary.match, {name: r.mu for name, r in ratings.items()}))
        for name, rating in ratings.items():
            by_name[name].mu, by_name[name].sigma = rating.mu, rating.sigma
        return self.entrants
