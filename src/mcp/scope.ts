/**
 * @module Which URLs the tools may be given: those of this service, under its public base, and nothing
 * else. An agent only repeats URLs it was given; one from anywhere else is refused before any request.
 */
import { ToolError } from './errors.js';

export class Scope {
  private readonly origin: string;
  /** The base's path without its final slash: `''`, or `/catalogue` behind a proxy's prefix. */
  private readonly prefix: string;

  /**
   * `root`: the root document's href as links name it (`/`, or under the public URL). `origin`: the one a
   * path-absolute `root` is taken to be at (the MCP request's), to accept the agent's absolute URLs of it;
   * never shown, since an answer made from the request's Host could carry another host's name.
   */
  constructor(
    readonly root: string,
    origin: string,
  ) {
    const url = new URL(root, origin);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
  }

  /**
   * The path and query the app serves for `href` (resolved against the root, as a client resolves a
   * path-absolute link); a `ToolError` for a URL of another origin, outside the base path, or not http(s).
   */
  pathOf(href: string): string {
    if (/[{}]/.test(href)) {
      throw new ToolError(`${href} is a URI template: use the follow tool with its rel and values for its variables`);
    }
    let url: URL;
    try {
      url = new URL(href, `${this.origin}${this.prefix}/`);
    } catch {
      throw new ToolError(`${JSON.stringify(href)} is not a URL`);
    }
    const inside =
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.origin === this.origin &&
      (url.pathname === this.prefix || url.pathname.startsWith(`${this.prefix}/`));
    if (!inside) {
      throw new ToolError(
        `${href} is outside this service (${this.root}): use only URLs from the links, items and Location of its documents`,
      );
    }
    return (url.pathname.slice(this.prefix.length) || '/') + url.search;
  }
}
