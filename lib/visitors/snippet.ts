/**
 * The browser snippet served at /t.js. A site owner pastes:
 *
 *   <script async src="https://<app>/t.js" data-site-id="<site uuid>"></script>
 *
 * Optional attributes: data-consent-analytics="false" (store only strictly necessary data),
 * data-ping-interval (ms, default 300000 = 5 min), data-api (API origin; default: where t.js came from).
 * API: window.sgp.track(name, properties?) for a custom event, window.sgp.track({event_type, ...})
 * for any type, window.sgp.identify(email, firstName?, lastName?), window.sgp.consent({analytics}).
 * Calls made before the script loads are queued: window.sgp = window.sgp || []; sgp.push(['track', 'x']).
 *
 * It starts or resumes the session with a first-party fingerprint (a random id kept in
 * localStorage — no device fingerprinting), sends a pageview, pings activity every 5 minutes
 * while the user is active, and ends the session on page hide with navigator.sendBeacon.
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
  var session = null, pending = [], pageViews = 0, started = Date.now(), activeSince = 0, lastActive = Date.now(), ended = false, interacted = false;

  function fingerprint() {
    var key = 'sgp_fp';
    try {
      var v = localStorage.getItem(key);
      if (!v) { v = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now()); localStorage.setItem(key, v); }
      return v;
    } catch (e) { return undefined; }
  }
  function send(method, path, body) {
    return fetch(api + path, { method: method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), keepalive: true, credentials: 'omit' })
      .then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }); });
  }
  function utm() {
    var q = new URLSearchParams(location.search), out = {};
    ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'].forEach(function (k) { if (q.get(k)) out[k] = q.get(k).slice(0, 500); });
    return out;
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
  function start() {
    var body = Object.assign({
      site_id: siteId, fingerprint: fingerprint(), url: location.href, referrer: document.referrer || undefined, started_at: started,
      device: {
        screen_size: screen.width + 'x' + screen.height, pixel_ratio: window.devicePixelRatio || 1,
        orientation: screen.orientation ? screen.orientation.type.split('-')[0] : undefined,
        memory: navigator.deviceMemory ? navigator.deviceMemory * 1024 : undefined,
        cpu_cores: navigator.hardwareConcurrency || undefined, touch_support: 'ontouchstart' in window || navigator.maxTouchPoints > 0
      },
      browser: { language: navigator.language },
      performance: perf(),
      consent: consent
    }, utm());
    return send('POST', '/api/visitors/session', body).then(function (r) {
      if (!r.body || !r.body.success) throw new Error('[sgp] session start failed: ' + JSON.stringify(r.body));
      session = r.body.data;
      ended = false;
      var flush = pending; pending = [];
      flush.forEach(function (f) { f(); });
    });
  }
  function whenReady(fn) { if (session) fn(); else pending.push(fn); }
  function track(evt) {
    whenReady(function () {
      var body = Object.assign({ site_id: siteId, session_id: session.session_id, visitor_id: session.visitor_id, url: location.href, timestamp: Date.now() }, evt);
      if (body.event_type === 'pageview') pageViews++;
      send('POST', '/api/visitors/track', body).then(function (r) {
        // The session expired or was closed: start a new one and send the event again.
        if (r.status === 404 || r.status === 409 && r.body && r.body.error && r.body.error.details && r.body.error.details.status === 'closed') {
          session = null; pending.push(function () { track(evt); }); start();
        }
      });
    });
  }
  function ping() {
    if (!session || ended || lastActive < Date.now() - pingEvery) return; // only while the user is active
    send('PUT', '/api/visitors/session', {
      site_id: siteId, session_id: session.session_id, last_activity_at: lastActive, current_url: location.href,
      page_views: pageViews, active_time: Date.now() - started
    });
  }
  function end() {
    if (!session || ended) return;
    ended = true;
    var body = JSON.stringify({
      site_id: siteId, session_id: session.session_id, exit_url: location.href,
      exit_type: pageViews <= 1 && !interacted ? 'bounce' : 'exit', duration: Date.now() - started, page_views: pageViews
    });
    var sent = navigator.sendBeacon && navigator.sendBeacon(api + '/api/visitors/session/end', new Blob([body], { type: 'text/plain' }));
    if (!sent) fetch(api + '/api/visitors/session/end', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: body, keepalive: true, credentials: 'omit' });
  }
  function activity() { lastActive = Date.now(); interacted = true; }

  var sgp = {
    __loaded: true,
    track: function (name, properties) {
      if (typeof name === 'object') return track(name);
      track({ event_type: 'custom', event_name: String(name), properties: properties });
    },
    identify: function (email, firstName, lastName) {
      whenReady(function () { send('POST', '/api/visitors/identify', { site_id: siteId, session_id: session.session_id, email: email, firstName: firstName, lastName: lastName }); });
    },
    consent: function (flags) {
      consent = Object.assign({}, consent, flags);
      whenReady(function () { send('PUT', '/api/visitors/session', { site_id: siteId, session_id: session.session_id, consent: consent }); });
      track({ event_type: 'consent', properties: consent });
    },
    session: function () { return session; },
    push: function (call) { sgp[call[0]].apply(null, call.slice(1)); }
  };
  window.sgp = sgp;

  ['pointerdown', 'keydown', 'scroll', 'touchstart', 'mousemove'].forEach(function (t) { addEventListener(t, activity, { passive: true }); });
  setInterval(ping, pingEvery);
  addEventListener('pagehide', end);
  addEventListener('pageshow', function (e) { if (e.persisted && ended) { session = null; start().then(function () { track({ event_type: 'pageview' }); }); } });
  start().catch(function (e) { console.warn(e); });
  track({ event_type: 'pageview' });
  queued.forEach(function (call) { sgp.push(call); });
})();
`;
