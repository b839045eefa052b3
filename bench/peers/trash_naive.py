# ruff: noqa  -- the peer as its author wrote it: a baseline to measure against, not the project's code
"""A naive plain-Python Trash simulator, kept as a speed baseline (no API, no events, no legality
objects): dicts for the layout, jacks wild, Q/K stop, draw from stock or a useful discard, chain
displacement, a jack displaced by its natural card moves on. `play_hand(policies, slots, rng)` plays
one hand. Used by the project's Trash benchmark as the peer to beat."""
import random, statistics, sys

RANKS = list(range(1, 14))  # 1=A .. 10, 11=J, 12=Q, 13=K

def new_deck(n_decks, rng):
    d = [r for r in RANKS for _ in range(4)] * n_decks
    rng.shuffle(d)
    return d

class Player:
    def __init__(self, n, draw_policy, wild_policy):
        self.n = n; self.draw_policy = draw_policy; self.wild_policy = wild_policy
    def deal(self, deck):
        self.down = {i: deck.pop() for i in range(1, self.n + 1)}  # face-down cards
        self.up = {}  # slot -> 'N' (natural) or 'W' (wild)
    def done(self):
        return len(self.up) == self.n
    def useful(self, c):
        if c in (12, 13): return False
        if c == 11: return len(self.down) > 0
        if c > self.n: return False
        return self.up.get(c) != 'N'
    def choose_wild_slot(self, rng):
        slots = sorted(self.down)
        if self.wild_policy == 'low': return slots[0]
        if self.wild_policy == 'high': return slots[-1]
        return rng.choice(slots)
    def play_card(self, c, rng):
        """Resolve a chain starting with card c; return the card to discard (or None if layout completed)."""
        while True:
            if c in (12, 13):
                return c
            if c == 11:
                if not self.down: return c
                s = self.choose_wild_slot(rng)
                c = self.down.pop(s); self.up[s] = 'W'
                if self.done(): return None
                continue
            if c > self.n: return c
            st = self.up.get(c)
            if st == 'N': return c
            if st == 'W':  # natural replaces wild; wild moves to another face-down slot
                self.up[c] = 'N'
                if not self.down: return None if self.done() else 11
                s = self.choose_wild_slot(rng)
                c = self.down.pop(s); self.up[s] = 'W'
                if self.done(): return None
                continue
            # face-down slot
            nxt = self.down.pop(c); self.up[c] = 'N'
            if self.done(): return None
            c = nxt

def play_hand(pols, n, rng, n_decks=1, first=0):
    deck = new_deck(n_decks, rng)
    players = [Player(n, *p) for p in pols]
    for p in players: p.deal(deck)
    discard = []; turn = first; turns = 0
    while True:
        p = players[turn]; turns += 1
        if discard and p.draw_policy == 'smart' and p.useful(discard[-1]):
            c = discard.pop()
        else:
            if not deck:
                top = discard.pop(); deck = discard; rng.shuffle(deck); discard = [top]
            c = deck.pop()
        out = p.play_card(c, rng)
        if out is None:
            return turn, turns
        discard.append(out)
        turn = (turn + 1) % len(players)
        if turns > 10000: raise RuntimeError('no end')

def match(polA, polB, hands, n=10, seed=1):
    rng = random.Random(seed); winsA = 0; lens = []
    for h in range(hands):
        first = h % 2
        w, t = play_hand([polA, polB], n, rng, first=first)
        winsA += (w == 0); lens.append(t)
    p = winsA / hands; se = (p * (1 - p) / hands) ** 0.5
    return p, se, statistics.mean(lens)

def first_player_edge(pol, hands, n=10, seed=2):
    rng = random.Random(seed); w0 = 0
    for _ in range(hands):
        w, _ = play_hand([pol, pol], n, rng, first=0); w0 += (w == 0)
    p = w0 / hands; return p, (p * (1 - p) / hands) ** 0.5


# --- card-counting wild placement (used for the "count" row in mission_anchors.md) ---
from collections import Counter

class CountPlayer(Player):
    seen = None
    def choose_wild_slot(self, rng):
        if self.wild_policy != 'count': return super().choose_wild_slot(rng)
        return min(sorted(self.down, reverse=True), key=lambda s: 4 - self.seen[s])

def play_hand_count(pols, n, rng, first=0):
    deck = new_deck(1, rng); seen = Counter(); players = []
    for p in pols:
        pl = CountPlayer(n, *p); pl.seen = seen; pl.deal(deck); players.append(pl)
    discard = []; turn = first; turns = 0
    while True:
        p = players[turn]; turns += 1
        seen.clear()
        for c in discard: seen[c] += 1
        for pl in players:
            for s, st in pl.up.items():
                if st == 'N': seen[s] += 1
        if discard and p.draw_policy == 'smart' and p.useful(discard[-1]):
            c = discard.pop()
        else:
            if not deck:
                top = discard.pop(); deck = discard; rng.shuffle(deck); discard = [top]
            c = deck.pop()
        out = p.play_card(c, rng)
        if out is None: return turn, turns
        discard.append(out); turn = (turn + 1) % 2

def count_vs_random(hands=40000, seed=7):
    rng = random.Random(seed); w = 0
    for h in range(hands):
        win, _ = play_hand_count([('smart', 'count'), ('smart', 'random')], 10, rng, first=h % 2)
        w += (win == 0)
    p = w / hands
    return p, 1.96 * (p * (1 - p) / hands) ** 0.5

if __name__ == '__main__':
    H = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    base = ('smart', 'random')
    print(f'hands per cell: {H}')
    for n in (10, 6, 3):
        p, se = first_player_edge(base, H, n=n)
        print(f'first-player win rate, identical smart/random policies, layout={n}: {p:.3f} +/- {1.96*se:.3f}')
    for a, b in [(('smart','random'), ('naive','random')),
                 (('smart','high'), ('smart','low')),
                 (('smart','high'), ('smart','random')),
                 (('smart','high'), ('naive','low'))]:
        p, se, L = match(a, b, H)
        print(f'{a} vs {b}: A wins {p:.3f} +/- {1.96*se:.3f}; mean turns/hand {L:.1f}')
    p, ci = count_vs_random()
    print(f'count-based wild placement vs random: {p:.3f} +/- {ci:.3f} over 40000 hands')
