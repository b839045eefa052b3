// A table that moves: cards travel from where they were to where the new state puts them (FLIP:
// First, Last, Invert, Play, with the Web Animations API). The animation is decoration over the
// final DOM: the renderer draws the new state as always, then each card that came from somewhere
// is moved back to where it was and slides home. Nothing waits for it, and no state depends on it.
//
// What a renderer marks:
//   data-anim="key"   a place on the table that holds a card (a slot, a pile top, a trick seat);
//                     data-card its face (none: a back or an empty place)
//   data-from="css"   where a card that was nowhere in sight comes from (a seat's box: its hand)
// and it may export exitTo(card, view): where a card that left the table goes (a selector: the
// trick's winner), else it just goes.
//
// A card that left one place and shows at another flies there; a place whose back became a face
// turns over; a card that left for nowhere in sight flies to exitTo as a ghost. Short (MS), and
// a newer frame finishes whatever still runs before it draws (settle): nothing queues. Off under
// prefers-reduced-motion. The page counts what it started on <html data-motion="n"> and lists the
// last drawing's moves in data-motion-moves ("hand:QH>trick:0 | …"), for its tests.
const MS = 200;
const EASE = "cubic-bezier(.2, .7, .3, 1)";
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

let frame = 0;
let running = [];
let ghosts = [];

export function motionOff() { return reduced.matches; }

// Finish what still moves (the next frame's positions are taken from the final DOM).
export function settle() {
  for (const a of running) { try { a.finish(); } catch { /* already gone */ } }
  running = [];
  for (const g of ghosts) g.remove();
  ghosts = [];
}

// The places and their cards before a render: key -> {rect, card, node}.
export function capture(root) {
  settle();
  const out = new Map();
  if (motionOff() || !root.isConnected) return out;
  for (const el of root.querySelectorAll("[data-anim]")) {
    out.set(el.dataset.anim, { rect: el.getBoundingClientRect(), card: el.dataset.card || null, node: el });
  }
  return out;
}

function started(a, what) {
  running.push(a);
  const html = document.documentElement;
  html.dataset.motion = String(Number(html.dataset.motion || 0) + 1);
  html.dataset.motionMoves = html.dataset.motionMoves ? `${html.dataset.motionMoves} | ${what}` : what;
  a.finished.then(() => { running = running.filter((x) => x !== a); }, () => {});
}

function fly(el, from, what, turn = false) {
  const to = el.getBoundingClientRect();
  if (!to.width || !from.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.3, Math.min(1.5, from.width / to.width));
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2 && !turn) return;
  const first = `translate(${dx}px, ${dy}px) scale(${scale})${turn ? " rotateY(90deg)" : ""}`;
  const a = el.animate([{ transform: first }, { transform: "none" }], { duration: MS, easing: EASE });
  a.id = `motion-${frame}-${el.dataset.anim}`;
  started(a, what);
}

function turnOver(el, what) {
  const a = el.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }], { duration: MS, easing: EASE });
  a.id = `motion-${frame}-${el.dataset.anim}`;
  started(a, what);
}

// A card that left the table for a place not drawn as cards (a trick to its winner's seat).
function ghost(before, target, what) {
  const to = target.getBoundingClientRect();
  const from = before.rect;
  if (!to.width || !from.width) return;
  const g = before.node.cloneNode(true);
  g.removeAttribute("data-anim");
  g.removeAttribute("data-testid");
  g.classList.add("ghost");
  Object.assign(g.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`,
    height: `${from.height}px`, margin: "0", pointerEvents: "none", zIndex: "7" });
  g.setAttribute("aria-hidden", "true");
  document.body.append(g);
  ghosts.push(g);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const a = g.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0.2 }],
    { duration: MS, easing: EASE, fill: "forwards" });
  a.id = `motion-${frame}-ghost-${before.card}`;
  started(a, what);
  a.finished.then(() => g.remove(), () => g.remove());
}

// After a render: move each card from where it was (`before`, from capture) to where it is.
export function animate(root, before, exitTo = null) {
  frame += 1;
  document.documentElement.dataset.motionFrame = String(frame);
  document.documentElement.dataset.motionMoves = "";
  if (motionOff() || !before.size || !root.isConnected) return;
  const now = new Map([...root.querySelectorAll("[data-anim]")].map((el) => [el.dataset.anim, el]));
  const left = new Map(); // card -> the place it left
  for (const [key, b] of before) {
    if (!b.card) continue;
    const el = now.get(key);
    if (!el || (el.dataset.card || null) !== b.card) left.set(b.card, { key, ...b });
  }
  for (const [key, el] of now) {
    const card = el.dataset.card || null;
    const was = before.get(key);
    if (!card || (was && was.card === card)) continue; // empty, or the same card as before
    const source = left.get(card);
    if (source && source.key !== key) {
      left.delete(card);
      fly(el, source.rect, `${source.key}>${key}`);
    } else if (el.dataset.from) {
      const from = root.querySelector(el.dataset.from) || document.querySelector(el.dataset.from);
      if (from) fly(el, from.getBoundingClientRect(), `${el.dataset.from}>${key}`, true);
    } else if (was && !was.card) {
      turnOver(el, `turn>${key}`); // a back (or an empty place) became this face
    }
  }
  if (!exitTo) return;
  for (const [card, b] of left) {
    const target = exitTo(card);
    const el = target && (root.querySelector(target) || document.querySelector(target));
    if (el) ghost(b, el, `${b.key}>${target}`);
  }
}
