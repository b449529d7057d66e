/**
 * The browser snippet served at /t.js. A site owner pastes:
 *
 *   <script async src="https://<app>/t.js" data-site-id="<site uuid>"></script>
 *
 * Optional attributes: data-consent-analytics="false" (store only strictly necessary data),
 * data-ping-interval (ms, default 300000 = 5 min), data-api (API origin; default: where t.js came from).
 * API (each call answers a promise): sgp.track(name, properties?) for a custom event,
 * sgp.track({event_type, ...}) for any type, sgp.identify(email, firstName?, lastName?),
 * sgp.consent({analytics}), sgp.end() when the site knows the visit is over (a logout), and
 * sgp.session() for the current session. Calls made before the script loads are queued:
 * window.sgp = window.sgp || []; sgp.push(['track', 'x']).
 *
 * A visit is one session across the site's pages, reloads and tabs: the session is kept in the
 * site's localStorage (`sgp_session:<site id>`, shared by its tabs) and each page sends its page
 * view to it. When the session ran out of time (the server answers 404) or was ended (409), the
 * snippet starts the next one — the server chains it by `previous_session_id` — and sends the
 * event again. The visitor is a random first-party id (`sgp_fp`, never derived from the device),
 * sent as `fingerprint` so the server finds the visitor's open session when the page has none.
 * Leaving a page ends nothing: navigation, reloads, the back/forward cache (a restored page sends
 * a page view) and tab switches are part of the visit. Activity pings (PUT, every 5 minutes while
 * the user is active) report the page and the time the site was visible.
 */
export const SNIPPET = String.raw`(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || (window.sgp && window.sgp.__loaded)) return;
  var siteId = script.getAttribute('data-site-id');
  if (!siteId) { console.warn('[sgp] data-site-id is missing'); return; }
  var api = script.getAttribute('data-api') || new URL(script.src, location.href).origin;
  var pingEvery = Number(script.getAttribute('data-ping-interval')) || 300000;
  var consent = script.getAttribute('data-consent-analytics') === 'false' ? { necessary: true, analytics: false } : undefined;
  var queued = Array.isArray(window.sgp) ? window.sgp : [];
  var KEY = 'sgp_session:' + siteId;
  var session = null, starting = null, lastActive = Date.now();
  var visibleSince = document.visibilityState === 'visible' ? Date.now() : 0;

  function store() { try { return window.localStorage; } catch (e) { return null; } }
  function uuid() { return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now(); }
  function visitorKey() {
    var s = store(), v;
    try { v = s && s.getItem('sgp_fp'); if (!v && s) { v = uuid(); s.setItem('sgp_fp', v); } } catch (e) { v = null; }
    return v || undefined;
  }
  function load() {
    try { var v = JSON.parse(store().getItem(KEY)); return v && v.session_id ? v : null; } catch (e) { return null; }
  }
  function save(s) { session = s; try { store().setItem(KEY, JSON.stringify(s)); } catch (e) { /* memory only */ } }
  function fresh(s) { return !!s && Date.now() - s.last < s.ttl; }
  // The session of the site's pages: a newer one another tab started wins over this page's copy.
  function current() {
    var stored = load();
    if (fresh(stored)) session = stored;
    return fresh(session) ? session : null;
  }
  function update(fn) {
    var s = current();
    if (s) { fn(s); save(s); }
  }
  function drop(id) {
    if (session && session.session_id === id) session = null;
    var stored = load();
    if (stored && stored.session_id === id) try { store().removeItem(KEY); } catch (e) { /* nothing stored */ }
  }
  function visibleTime(s) { return (s.active || 0) + (visibleSince ? Date.now() - visibleSince : 0); }
  function send(method, path, body) {
    return fetch(api + path, { method: method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), keepalive: true, credentials: 'omit' })
      .then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }, function () { return { status: r.status, body: null }; }); });
  }
  function perf() {
    var nav = performance.getEntriesByType && performance.getEntriesByType('navigation')[0], out = {};
    if (nav) { out.dom_interactive = Math.round(nav.domInteractive); if (nav.loadEventEnd > 0) out.page_load_time = Math.round(nav.loadEventEnd); }
    (performance.getEntriesByType ? performance.getEntriesByType('paint') : []).forEach(function (p) {
      if (p.name === 'first-paint') out.first_paint = Math.round(p.startTime);
      if (p.name === 'first-contentful-paint') out.first_contentful_paint = Math.round(p.startTime);
    });
    return out;
  }
  // Starts the visitor's session (or joins its open one); the server reads UTM values and ref from the URL.
  function start() {
    if (starting) return starting;
    var body = {
      site_id: siteId, fingerprint: visitorKey(), url: location.href, referrer: document.referrer || undefined, started_at: Date.now(),
      device: {
        screen_size: screen.width + 'x' + screen.height, pixel_ratio: window.devicePixelRatio || 1,
        orientation: screen.orientation ? screen.orientation.type.split('-')[0] : undefined,
        memory: navigator.deviceMemory ? navigator.deviceMemory * 1024 : undefined,
        cpu_cores: navigator.hardwareConcurrency || undefined, touch_support: 'ontouchstart' in window || navigator.maxTouchPoints > 0
      },
      browser: { language: navigator.language },
      performance: perf(),
      consent: consent
    };
    var done = function () { starting = null; };
    starting = send('POST', '/api/visitors/session', body).then(function (r) {
      if (!r.body || !r.body.success) throw new Error('[sgp] session start failed: ' + JSON.stringify(r.body));
      var d = r.body.data;
      save({
        session_id: d.session_id, visitor_id: d.visitor_id, is_new_session: d.is_new_session, previous_session_id: d.previous_session_id,
        ttl: d.ttl * 1000, last: Date.now(), active: 0
      });
      done();
      return session;
    }, function (e) { done(); throw e; });
    return starting;
  }
  // The session was closed or ran out of time on the server: the visit goes on in a new one.
  function over(r) {
    return r.status === 404 || (r.status === 409 && !!r.body && !!r.body.error && !!r.body.error.details && r.body.error.details.status === 'closed');
  }
  // Runs a call in the current session, starting one when needed, and once more in a new session if that one is over.
  function inSession(call, retried) {
    var s = current();
    return (s ? Promise.resolve(s) : start()).then(function (s) {
      return call(s).then(function (r) {
        if (r.status < 300) { update(function (c) { if (c.session_id === s.session_id) c.last = Date.now(); }); return r.body && r.body.data; }
        if (!retried && over(r)) { drop(s.session_id); return inSession(call, true); }
        throw new Error('[sgp] ' + JSON.stringify(r.body));
      });
    });
  }
  function track(evt) {
    var at = Date.now();
    return inSession(function (s) {
      return send('POST', '/api/visitors/track', Object.assign({ site_id: siteId, session_id: s.session_id, visitor_id: s.visitor_id, url: location.href, timestamp: at }, evt));
    });
  }
  function ping() {
    var s = current();
    // Only while the user is active, and never to revive a session that ran out of time.
    if (!s || document.visibilityState !== 'visible' || lastActive < Date.now() - pingEvery) return;
    send('PUT', '/api/visitors/session', {
      site_id: siteId, session_id: s.session_id, last_activity_at: lastActive, current_url: location.href, active_time: visibleTime(s)
    }).then(function (r) {
      if (r.status < 300) update(function (c) { if (c.session_id === s.session_id) c.last = Date.now(); });
      else if (over(r)) drop(s.session_id);
    }, function () { /* offline: the next call tries again */ });
  }
  function settleVisibleTime() {
    if (!visibleSince) return;
    var since = visibleSince;
    visibleSince = 0;
    update(function (c) { c.active = (c.active || 0) + (Date.now() - since); });
  }
  function warn(e) { console.warn(e); }

  var sgp = {
    __loaded: true,
    track: function (name, properties) {
      var evt = typeof name === 'object' ? name : { event_type: 'custom', event_name: String(name), properties: properties };
      return track(evt).catch(warn);
    },
    identify: function (email, firstName, lastName) {
      return inSession(function (s) {
        return send('POST', '/api/visitors/identify', { site_id: siteId, session_id: s.session_id, email: email, firstName: firstName, lastName: lastName });
      }).catch(warn);
    },
    consent: function (flags) {
      consent = Object.assign({}, consent, flags);
      return inSession(function (s) { return send('PUT', '/api/visitors/session', { site_id: siteId, session_id: s.session_id, consent: consent }); })
        .then(function () { return track({ event_type: 'consent', properties: consent }); })
        .catch(warn);
    },
    // The visit is over (a logout): the session is closed and the next page starts a new one.
    end: function () {
      var s = current();
      if (!s) return Promise.resolve(null);
      drop(s.session_id);
      return send('POST', '/api/visitors/session/end', { site_id: siteId, session_id: s.session_id, exit_url: location.href })
        .then(function (r) { return r.body && r.body.data; })
        .catch(warn);
    },
    session: function () { var s = current(); return s && Object.assign({}, s); },
    push: function (call) { return sgp[call[0]].apply(null, call.slice(1)); }
  };
  window.sgp = sgp;

  ['pointerdown', 'keydown', 'scroll', 'touchstart', 'mousemove'].forEach(function (t) {
    addEventListener(t, function () { lastActive = Date.now(); }, { passive: true });
  });
  setInterval(ping, pingEvery);
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible') visibleSince = visibleSince || Date.now();
    else settleVisibleTime();
  });
  // Leaving a page is not the end of a visit: only what this page saw is written down.
  addEventListener('pagehide', settleVisibleTime);
  // A page restored from the back/forward cache is shown again: a page view of the visit.
  addEventListener('pageshow', function (e) {
    if (!e.persisted) return;
    visibleSince = document.visibilityState === 'visible' ? Date.now() : 0;
    lastActive = Date.now();
    sgp.track({ event_type: 'pageview' });
  });
  sgp.track({ event_type: 'pageview' });
  queued.forEach(function (call) { sgp.push(call); });
})();
`;
