// Moving between the page's addresses without reloading: app.js says which function draws the
// page for the current address (onNavigate), and go() changes the address and draws it.
let draw = () => {};

export function onNavigate(fn) { draw = fn; }

export function go(path) { history.pushState(null, "", path); draw(); }

// the page's address for a finished game's replay, as `seat` saw it (null: a spectator)
export function replayLink(id, seat) { return `/t/${id}/replay?seat=${seat === null || seat === undefined ? "none" : seat}`; }
