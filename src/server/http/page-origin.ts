/**
 * A description, or its docs page, as seen from where it is served. Both name their first server
 * (`npm start`'s address, `http://127.0.0.1:8080`), which the page shows in its servers list, code samples and
 * introduction, and a client of `/openapi.json` takes for the API's address; served from another port or
 * host, a reader would copy an address that is not this server's. So each is sent with that address replaced
 * by the origin it was asked for at, taken from the request's protocol and `Host` header, which the client
 * chooses: only a plain host (a hostname or an IP literal, and a port) is used, so nothing a client sends can
 * put markup or script into the page, or a quote into the JSON; anything else gets the text as built.
 */

/** A hostname (labels of letters, digits and inner hyphens) or an IPv4 or bracketed IPv6 literal, and a port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/i;

/**
 * The origin a request was made to (`http://localhost:8080`), or undefined when its host is not a plain one.
 *
 * @example
 *   requestOrigin(request.protocol, request.host); // 'http://127.0.0.1:41234'
 */
export function requestOrigin(protocol: string, host: string | undefined): string | undefined {
  if ((protocol !== 'http' && protocol !== 'https') || !host || host.length > 261) return undefined;
  const match = HOST.exec(host);
  if (!match || (match[1] !== undefined && Number(match[1]) > 65_535)) return undefined;
  return `${protocol}://${host.toLowerCase()}`;
}

export interface ServedPage {
  html: string;
  /** Its Content-Security-Policy, which hashes its inline scripts: so computed for the page as sent. */
  policy: string;
}

/**
 * A text (a page, a description) as served from each origin: `address` (the description's first server)
 * replaced by the origin, then made into what is sent by `make` (the page and its policy, say), once per
 * origin. Only the last `keep` origins' are kept (each is as large as the text, and any client can ask under
 * many hosts); the one built is kept apart.
 *
 * @example
 *   const pageAt = servedByOrigin(html, 'http://127.0.0.1:8080', (page) => ({ html: page, policy: pagePolicy(page) }));
 *   reply.send(pageAt(requestOrigin(request.protocol, request.host)).html);
 */
export function servedByOrigin<T>(text: string, address: string | undefined, make: (text: string) => T, keep = 4): (origin: string | undefined) => T {
  const built = make(text);
  // Not where a longer address begins (`…:80801`, `…:8080-staging`).
  const occurrences = address ? new RegExp(`${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g') : undefined;
  const served = new Map<string, T>();
  return (origin) => {
    if (!origin || !occurrences || origin === address) return built;
    let made = served.get(origin);
    if (made !== undefined) {
      // Most recently used last, so the oldest is the first to go.
      served.delete(origin);
    } else {
      made = make(text.replace(occurrences, () => origin));
      if (served.size >= keep) served.delete(served.keys().next().value!);
    }
    served.set(origin, made);
    return made;
  };
}
