import { isbot } from 'isbot';

/**
 * Device, browser and location derived from request headers, used only to fill what the client
 * did not send (client values win field by field):
 *   User-Agent       → browser.name/version, device.os.name/version, device.type; bot detection (isbot)
 *   Accept-Language  → browser.language (first tag)
 *   X-Vercel-IP-Country / CF-IPCountry / CloudFront-Viewer-Country → location.country
 *   X-Vercel-IP-Country-Region / CloudFront-Viewer-Country-Region  → location.region
 *   X-Vercel-IP-City / CloudFront-Viewer-City                       → location.city
 * The client IP (X-Forwarded-For) is never stored.
 */
export interface ClientInfo {
  isBot: boolean;
  device: Record<string, unknown>;
  browser: Record<string, unknown>;
  location: Record<string, unknown>;
}

const BROWSERS: [string, RegExp][] = [
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /(?:OPR|Opera)\/([\d.]+)/],
  ['Samsung Internet', /SamsungBrowser\/([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:Chrome|CriOS|HeadlessChrome)\/([\d.]+)/],
  ['Safari', /Version\/([\d.]+).*Safari\//],
];

const SYSTEMS: [string, RegExp][] = [
  ['Windows', /Windows NT ([\d.]+)/],
  ['iOS', /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/],
  ['Android', /Android ([\d.]+)/],
  ['macOS', /Mac OS X ([\d_.]+)/],
  ['ChromeOS', /CrOS \S+ ([\d.]+)/],
  ['Linux', /Linux()/],
];

function parseUserAgent(ua: string) {
  const browser: Record<string, string> = {};
  for (const [name, re] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser.name = name;
      browser.version = m[1];
      break;
    }
  }
  const os: Record<string, string> = {};
  for (const [name, re] of SYSTEMS) {
    const m = re.exec(ua);
    if (m) {
      os.name = name;
      if (m[1]) os.version = m[1].replace(/_/g, '.');
      break;
    }
  }
  const type = /iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua)) ? 'tablet' : /Mobi|iPhone|iPod/.test(ua) ? 'mobile' : 'desktop';
  return { browser, os, type };
}

const header = (req: Request, ...names: string[]) => {
  for (const name of names) {
    const value = req.headers.get(name)?.trim();
    if (value) {
      try {
        return decodeURIComponent(value).slice(0, 100);
      } catch {
        return value.slice(0, 100);
      }
    }
  }
  return undefined;
};

const compact = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));

export function clientInfo(req: Request): ClientInfo {
  const ua = req.headers.get('user-agent') ?? '';
  const parsed = parseUserAgent(ua);
  const language = req.headers.get('accept-language')?.split(',')[0]?.split(';')[0]?.trim();
  const country = header(req, 'x-vercel-ip-country', 'cf-ipcountry', 'cloudfront-viewer-country');
  return {
    // No User-Agent at all is a script, not a browser.
    isBot: ua === '' || isbot(ua),
    device: ua ? compact({ type: parsed.type, os: Object.keys(parsed.os).length ? parsed.os : undefined }) : {},
    browser: compact({ ...parsed.browser, language: language || undefined }),
    location: compact({
      country: country && country !== 'XX' ? country.toUpperCase() : undefined,
      region: header(req, 'x-vercel-ip-country-region', 'cloudfront-viewer-country-region'),
      city: header(req, 'x-vercel-ip-city', 'cloudfront-viewer-city'),
    }),
  };
}

/** Client values first; header-derived values fill the gaps. Null when nothing is known. */
export function merged(derived: Record<string, unknown>, sent?: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { ...derived };
  for (const [k, v] of Object.entries(sent ?? {})) {
    const d = out[k];
    out[k] = v && typeof v === 'object' && d && typeof d === 'object' ? { ...(d as object), ...(v as object) } : v;
  }
  return Object.keys(out).length ? out : undefined;
}
