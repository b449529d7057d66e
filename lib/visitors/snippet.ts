/**
 * The browser tracking tag served at /t.js (minified: ./snippet.min.ts, made from this source by
 * `npm run snippet`; a unit test keeps the two the same). A site owner pastes:
 *
 *   <script async src="https://<app>/t.js" data-site-id="<site uuid>"></script>
 *
 * What it records, with nothing more to write:
 * - page views: the page itself, and every navigation of a single-page app (`history.pushState`,
 *   `replaceState` and the back/forward buttons, when the path or query changes; with
 *   data-hash-routing="true" the fragment counts too, for hash routers);
 * - `engagement` when a page is left (another route of the app, pagehide, the tab hidden):
 *   `engaged_ms`, the time the page was visible with the visitor active on it (an idle spell counts
 *   up to 30 s), and `scroll_depth`, the deepest point reached (0–100). None for a page visible < 1 s;
 *   after a tab comes back, the next one reports only the time since;
 * - `outbound` for a click on a link to another host, `download` for a file link (DOWNLOADS below,
 *   more with data-download-extensions="ext,ext", or any `<a download>`), both with `href`;
 * - `form_submit` for a submitted form: its id, name, method and action path — never a field's
 *   value; `data-sgp-ignore` on a form leaves it out;
 * - `custom` events from markup: a click on an element with data-sgp-event="name" sends that name,
 *   with its data-sgp-prop-<key>="value" attributes as properties.
 * Events sent as a page is left go as `text/plain` with `keepalive`, so they reach the server
 * even when the click navigates away, without a CORS preflight.
 *
 * Options: data-consent-analytics="false" (store only strictly necessary data), data-ping-interval
 * (ms, default 300000 = 5 min), data-api (API origin; default: where t.js came from),
 * data-exclude="/admin/*, /drafts/**" (paths where nothing is sent; `*` within a segment, `**`
 * across), data-include-localhost (localhost, 127.x and file: pages are ignored without it).
 * Owners leave their own visits out with `?sgp_opt_out=1` on any page of the site (the console's
 * button opens it; `=0` opts back in) or sgp.optOut() / sgp.optIn(): a flag in that browser.
 *
 * API (each call answers a promise): sgp.track(name, properties?) for a custom event,
 * sgp.track({event_type, ...}) for any type, sgp.identify(email, firstName?, lastName?),
 * sgp.consent({analytics}), sgp.end() when the site knows the visit is over (a logout), and
 * sgp.session() for the current session. Calls made before the script loads are queued:
 * window.sgp = window.sgp || []; sgp.push(['track', 'x']).
 *
 * A visit is one session across the site's pages, reloads and tabs: the session is kept in the
 * site's localStorage (`sgp_session:<site id>`, shared by its tabs) and each page sends its page
 * view to it. When the session ran out of time (the server answers 404) or was ended (409), the
 * tag starts the next one — the server chains it by `previous_session_id` — and sends the event
 * again. The visitor is a random first-party id (`sgp_fp`, never derived from the device), sent as
 * `fingerprint` so the server finds the visitor's open session when the page has none; it is
 * stored only once the server has answered that the visit is not anonymous. An anonymous visit
 * (the site's cookieless mode, or Global Privacy Control / Do Not Track honoured by the site) keeps
 * nothing in the browser: the server counts it under a daily id, and each page load joins the
 * visit's session through it (one request more per page load). Leaving a page ends nothing:
 * navigation, reloads, the back/forward cache (a restored page sends a page view) and tab switches
 * are part of the visit. Activity pings (PUT, every 5 minutes while the user is active) report the
 * page and the time the site was visible.
 */
export const DOWNLOAD_EXTENSIONS = [
  '7z',
  'avi',
  'csv',
  'dmg',
  'doc',
  'docx',
  'epub',
  'exe',
  'gz',
  'iso',
  'key',
  'mov',
  'mp3',
  'mp4',
  'mpeg',
  'msi',
  'odp',
  'ods',
  'odt',
  'pdf',
  'pkg',
  'ppt',
  'pptx',
  'rar',
  'rtf',
  'tar',
  'tgz',
  'txt',
  'wav',
  'wma',
  'wmv',
  'xls',
  'xlsx',
  'zip',
];

export const SNIPPET_SOURCE = String.raw`(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || (window.sgp && window.sgp.__loaded)) return;
  function attr(name) { return script.getAttribute('data-' + name); }
  function list(name) { return (attr(name) || '').split(',').map(function (v) { return v.trim(); }).filter(Boolean); }
  var siteId = attr('site-id');
  if (!siteId) { console.warn('[sgp] data-site-id is missing'); return; }
  var api = attr('api') || new URL(script.src, location.href).origin;
  var pingEvery = Number(attr('ping-interval')) || 300000;
  var hashRouting = attr('hash-routing') === 'true';
  var consent = attr('consent-analytics') === 'false' ? { necessary: true, analytics: false } : undefined;
  var downloads = '${DOWNLOAD_EXTENSIONS.join(',')}'.split(',').concat(list('download-extensions').map(function (e) { return e.replace(/^\./, '').toLowerCase(); }));
  var excluded = list('exclude').map(function (p) {
    return new RegExp('^' + p.replace(/[.+?^${'$'}{}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*') + '$');
  });
  var ignoredHost = attr('include-localhost') === null && (location.protocol === 'file:' || /^(localhost|127(\.\d+){3}|\[::1\])$/.test(location.hostname));
  var queued = Array.isArray(window.sgp) ? window.sgp : [];
  var KEY = 'sgp_session:' + siteId, IGNORE = 'sgp_ignore';
  var privacySignal = navigator.globalPrivacyControl === true || navigator.doNotTrack === '1' || window.doNotTrack === '1';
  var session = null, starting = null, anonymous = false, newVisitorKey = null, lastActive = Date.now(), lastStamp = 0;
  var visibleSince = document.visibilityState === 'visible' ? Date.now() : 0;
  var page;

  function store() { try { return window.localStorage; } catch (e) { return null; } }
  function get(key) { try { return store().getItem(key); } catch (e) { return null; } }
  function put(key, value) { try { if (value === null) store().removeItem(key); else store().setItem(key, value); } catch (e) { /* memory only */ } }
  function uuid() { return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now(); }
  // Each event's time, strictly increasing, so a page left is always before the next page view.
  function stamp() { var t = Date.now(); lastStamp = t > lastStamp ? t : lastStamp + 1; return lastStamp; }
  // The page's URL as reported: without the fragment, unless a hash router makes it part of the route.
  function pageUrl() { return hashRouting ? location.href : location.href.split('#')[0]; }
  function ignored(url) {
    var path = new URL(url, location.href).pathname;
    return ignoredHost || get(IGNORE) === '1' || excluded.some(function (re) { return re.test(path); });
  }
  function load() {
    if (anonymous) return null;
    try { var v = JSON.parse(get(KEY)); return v && v.session_id ? v : null; } catch (e) { return null; }
  }
  function save(s) { session = s; if (!anonymous) put(KEY, JSON.stringify(s)); }
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
    if (stored && stored.session_id === id) put(KEY, null);
  }
  function visibleTime(s) { return (s.active || 0) + (visibleSince ? Date.now() - visibleSince : 0); }
  function send(method, path, body, plain) {
    return fetch(api + path, {
      method: method, headers: { 'content-type': plain ? 'text/plain' : 'application/json' }, body: JSON.stringify(body), keepalive: true, credentials: 'omit'
    }).then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }, function () { return { status: r.status, body: null }; }); });
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
    newVisitorKey = newVisitorKey || uuid();
    var body = {
      site_id: siteId, fingerprint: get('sgp_fp') || newVisitorKey, url: pageUrl(), referrer: document.referrer || undefined, started_at: Date.now(),
      device: {
        screen_size: screen.width + 'x' + screen.height, pixel_ratio: window.devicePixelRatio || 1,
        orientation: screen.orientation ? screen.orientation.type.split('-')[0] : undefined,
        memory: navigator.deviceMemory ? navigator.deviceMemory * 1024 : undefined,
        cpu_cores: navigator.hardwareConcurrency || undefined, touch_support: 'ontouchstart' in window || navigator.maxTouchPoints > 0
      },
      browser: { language: navigator.language },
      performance: perf(),
      consent: consent,
      privacy_signal: privacySignal || undefined
    };
    var done = function () { starting = null; };
    starting = send('POST', '/api/visitors/session', body).then(function (r) {
      if (!r.body || !r.body.success) throw new Error('[sgp] session start failed: ' + JSON.stringify(r.body));
      var d = r.body.data;
      anonymous = d.anonymous === true;
      // An anonymous visit keeps nothing here; any other visit keeps its visitor id from now on.
      if (anonymous) { put(KEY, null); put('sgp_fp', null); } else if (!get('sgp_fp')) put('sgp_fp', body.fingerprint);
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
  // Runs a call about the page at url in the current session, starting one when needed (unless onlyCurrent), and once more in
  // a new session if that one is over. Nothing is sent from an ignored host, an excluded path, or a browser that opted out.
  function inSession(call, url, onlyCurrent, retried) {
    if (ignored(url)) return Promise.resolve(null);
    var s = current();
    if (!s && onlyCurrent) return Promise.resolve(null);
    return (s ? Promise.resolve(s) : start()).then(function (s) {
      return call(s).then(function (r) {
        if (r.status < 300) { update(function (c) { if (c.session_id === s.session_id) c.last = Date.now(); }); return r.body && r.body.data; }
        if (over(r)) drop(s.session_id);
        if (!retried && !onlyCurrent && over(r)) return inSession(call, url, false, true);
        throw new Error('[sgp] ' + JSON.stringify(r.body));
      });
    });
  }
  function track(evt, onlyCurrent) {
    var body = Object.assign({ site_id: siteId, url: pageUrl(), timestamp: stamp() }, evt);
    return inSession(function (s) {
      return send('POST', '/api/visitors/track', Object.assign({ session_id: s.session_id, visitor_id: s.visitor_id }, body), true);
    }, body.url, onlyCurrent);
  }
  function warn(e) { console.warn(e); }
  function ping() {
    var s = current();
    // Only while the user is active, and never to revive a session that ran out of time.
    if (!s || ignored(location.href) || document.visibilityState !== 'visible' || lastActive < Date.now() - pingEvery) return;
    send('PUT', '/api/visitors/session', {
      site_id: siteId, session_id: s.session_id, last_activity_at: lastActive, current_url: pageUrl(), active_time: visibleTime(s)
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

  // ---- the page being viewed: its engagement, sent once it is left ----
  function route() { return location.pathname + location.search + (hashRouting ? location.hash : ''); }
  function depthNow() {
    var doc = document.documentElement, height = Math.max(doc.scrollHeight, document.body ? document.body.scrollHeight : 0);
    return height > 0 ? Math.min(100, Math.round(((window.scrollY || doc.scrollTop) + window.innerHeight) / height * 100)) : 100;
  }
  function newPage() {
    var visible = document.visibilityState === 'visible';
    page = { url: pageUrl(), route: route(), visible: 0, engaged: 0, shown: visible ? Date.now() : 0, tick: visible ? Date.now() : 0, depth: 0 };
  }
  // Time since the last input counts up to 30 s of it: a reader pauses, a tab left open is not engaged.
  function engage(t) { if (page.tick) { page.engaged += Math.min(t - page.tick, 30000); page.tick = t; } }
  function pageHidden() {
    var t = Date.now();
    engage(t);
    if (page.shown) page.visible += t - page.shown;
    page.shown = page.tick = 0;
  }
  function pageShown() { if (!page.shown) page.shown = page.tick = Date.now(); }
  // The page is left (or hidden, maybe for good): what it saw since the last report, if it was visible for 1 s.
  function leave() {
    pageHidden();
    page.depth = Math.max(page.depth, depthNow());
    if (page.visible < 1000) return;
    track({ event_type: 'engagement', url: page.url, properties: { engaged_ms: Math.round(page.engaged), scroll_depth: page.depth } }, true).catch(warn);
    page.visible = page.engaged = 0;
  }
  function pageview() { return track({ event_type: 'pageview' }).catch(warn); }
  function navigated() {
    if (route() === page.route) return;
    leave();
    newPage();
    pageview();
  }

  // ---- clicks and forms ----
  function onClick(e) {
    if (e.type === 'auxclick' && e.button !== 1) return;
    var target = e.target && e.target.closest ? e.target : null;
    var tagged = target && target.closest('[data-sgp-event]');
    if (tagged) {
      var props = {};
      [].forEach.call(tagged.attributes, function (a) { if (a.name.indexOf('data-sgp-prop-') === 0) props[a.name.slice(14)] = a.value; });
      track({ event_type: 'custom', event_name: tagged.getAttribute('data-sgp-event'), properties: props }).catch(warn);
    }
    var link = target && target.closest('a[href]');
    if (!link) return;
    var to;
    try { to = new URL(link.href, location.href); } catch (err) { return; }
    if (!/^https?:$/.test(to.protocol)) return;
    var ext = (to.pathname.split('/').pop().split('.').slice(1).pop() || '').toLowerCase();
    var type = link.hasAttribute('download') || (ext && downloads.indexOf(ext) >= 0) ? 'download' : to.host !== location.host ? 'outbound' : null;
    if (type) track({ event_type: type, properties: { href: to.href } }).catch(warn);
  }
  function onSubmit(e) {
    var form = e.target;
    if (!form || form.tagName !== 'FORM' || form.hasAttribute('data-sgp-ignore')) return;
    // Attributes, not properties: a field named "id" or "action" would shadow them (and carry a value).
    var props = { action: new URL(form.getAttribute('action') || location.href, location.href).pathname, method: (form.getAttribute('method') || 'get').toLowerCase() };
    if (form.getAttribute('id')) props.id = form.getAttribute('id');
    if (form.getAttribute('name')) props.name = form.getAttribute('name');
    track({ event_type: 'form_submit', properties: props }).catch(warn);
  }

  var sgp = {
    __loaded: true,
    track: function (name, properties) {
      var evt = typeof name === 'object' ? name : { event_type: 'custom', event_name: String(name), properties: properties };
      return track(evt).catch(warn);
    },
    identify: function (email, firstName, lastName) {
      return inSession(function (s) {
        return send('POST', '/api/visitors/identify', { site_id: siteId, session_id: s.session_id, email: email, firstName: firstName, lastName: lastName });
      }, location.href).catch(warn);
    },
    consent: function (flags) {
      consent = Object.assign({}, consent, flags);
      return inSession(function (s) { return send('PUT', '/api/visitors/session', { site_id: siteId, session_id: s.session_id, consent: consent }); }, location.href)
        .then(function () { return track({ event_type: 'consent', properties: consent }); })
        .catch(warn);
    },
    // The visit is over (a logout): the session is closed and the next page starts a new one.
    end: function () {
      var s = current();
      if (!s) return Promise.resolve(null);
      drop(s.session_id);
      return send('POST', '/api/visitors/session/end', { site_id: siteId, session_id: s.session_id, exit_url: pageUrl() })
        .then(function (r) { return r.body && r.body.data; })
        .catch(warn);
    },
    session: function () { var s = current(); return s && Object.assign({}, s); },
    optOut: function () { put(IGNORE, '1'); },
    optIn: function () { put(IGNORE, null); },
    push: function (call) { return sgp[call[0]].apply(null, call.slice(1)); }
  };
  window.sgp = sgp;

  var optOut = new URLSearchParams(location.search).get('sgp_opt_out');
  if (optOut === '1') sgp.optOut();
  if (optOut === '0') sgp.optIn();
  if (optOut) console.info('[sgp] visits from this browser are ' + (optOut === '1' ? 'no longer' : 'again') + ' counted');

  newPage();
  ['pointerdown', 'keydown', 'scroll', 'touchstart', 'mousemove'].forEach(function (t) {
    addEventListener(t, function () {
      lastActive = Date.now();
      engage(lastActive);
      if (t === 'scroll') page.depth = Math.max(page.depth, depthNow());
    }, { passive: true, capture: true });
  });
  setInterval(ping, pingEvery);
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible') { visibleSince = visibleSince || Date.now(); pageShown(); } else { settleVisibleTime(); leave(); }
  });
  // Leaving a page is not the end of a visit: only what this page saw is written down.
  addEventListener('pagehide', function () { settleVisibleTime(); leave(); });
  // A page restored from the back/forward cache is shown again: a page view of the visit.
  addEventListener('pageshow', function (e) {
    if (!e.persisted) return;
    visibleSince = document.visibilityState === 'visible' ? Date.now() : 0;
    lastActive = Date.now();
    newPage();
    pageview();
  });
  ['pushState', 'replaceState'].forEach(function (m) {
    var original = history[m];
    history[m] = function () { var out = original.apply(this, arguments); navigated(); return out; };
  });
  addEventListener('popstate', navigated);
  if (hashRouting) addEventListener('hashchange', navigated);
  document.addEventListener('click', onClick, true);
  document.addEventListener('auxclick', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  pageview();
  queued.forEach(function (call) { sgp.push(call); });
})();
`;
