// Plain JavaScript: the server entry (server.mjs) runs it with `node`, without a TypeScript loader.

/**
 * Starts `handle(req, res)` for each request in event-loop turns of about `budgetMs` of work each.
 *
 * Node accepts one new connection per turn of its event loop (libuv 1.45 and later). Started as
 * they arrive, the requests read in one turn are all worked on in that turn: when the server is busy
 * a turn lasts as long as those requests' work, so a burst of new connections (a client opening its
 * pool, a load balancer adding connections) is accepted one per long turn while the connections
 * already open are served again and again. With Next's no-op route at 50 connections, the first
 * requests of a burst waited 0.8–1.9 s in the accept queue; started in turns, 0.2–0.4 s.
 *
 * Each request starts in its own `setImmediate` callback (microtasks, where most of an async
 * handler's work runs, are drained between them). Once a turn's budget is spent the rest move, in
 * their order, to the next turn, and the loop accepts and reads in between. An idle server starts a
 * request one `setImmediate` later than it would have.
 */
export function inTurns(handle, budgetMs) {
  let turnStart = -Infinity;
  let turnMarked = false;
  const markTurn = () => {
    turnStart = performance.now();
    turnMarked = false;
  };
  const schedule = (req, res) => {
    // The turn's start is marked by the first callback of the turn, ahead of the requests of that turn.
    if (!turnMarked) {
      turnMarked = true;
      setImmediate(markTurn);
    }
    setImmediate(start, req, res);
  };
  const start = (req, res) => {
    if (performance.now() - turnStart > budgetMs) schedule(req, res);
    else handle(req, res);
  };
  return schedule;
}
