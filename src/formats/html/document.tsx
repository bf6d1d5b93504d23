/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/** @module The page around every document: the head, and a header with the way home and the session. */
import type { PageContext, SessionView } from '../format.js';
import { FieldInput, FormOf } from './forms.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { escapeHtml, type FC, Fragment, type Html, h } from './jsx.js';
import { label } from './parts.js';

/**
 * A whole page: `body` in the page's `<main>`, under the header. `script` names an asset of the view's
 * own that this kind of page needs besides the common script (the search page's suggestions);
 * `linkedData` is a JSON-LD document to embed (schema.org, for search engines).
 */
export function document(
  title: string,
  page: PageContext | undefined,
  body: unknown,
  options: { script?: string | undefined; linkedData?: string | undefined } = {},
): string {
  const home = page?.home ?? '/';
  const base = escapeHtml(home.replace(/\/$/, ''));
  const main = (
    <body>
      <header>
        <a rel="home" href={home} class="brand">
          catalogue
        </a>
        {page?.session && <SessionBar session={page.session} />}
      </header>
      <main>{body}</main>
    </body>
  );
  // The head is written as text. No favicon to fetch: without the icon link every page view asks for
  // /favicon.ico and gets a 404.
  const head =
    '<head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>' +
    `<title>${escapeHtml(title)} · catalogue</title><link rel="icon" href="data:,"/>` +
    `<link rel="stylesheet" href="${base}/assets/catalogue.css"/>` +
    `<script src="${base}/assets/catalogue.js" defer=""></script>` +
    (options.script ? `<script src="${base}/assets/${options.script}" defer=""></script>` : '') +
    (options.linkedData ? `<script type="application/ld+json">${scriptText(options.linkedData)}</script>` : '') +
    '</head>';
  return `<!DOCTYPE html><html lang="en">${head}${main}</html>`;
}

/**
 * The header's markup of each frozen session (an anonymous caller's, the same on every page), memoized:
 * kept for its figure in docs/performance.md ("What stays and why").
 */
const drawnSessions = new WeakMap<SessionView, Html>();

const SessionBar: FC<{ session: SessionView }> = ({ session }) => {
  if (!Object.isFrozen(session)) return <SessionForms session={session} />;
  let drawn = drawnSessions.get(session);
  if (!drawn) {
    drawn = <SessionForms session={session} />;
    drawnSessions.set(session, drawn);
  }
  return drawn;
};

/** Who is signed in, and the way in or out, on every page. */
const SessionForms: FC<{ session: SessionView }> = ({ session }) => (
  <div class="session">
    {session.user && (
      <span class="who">
        Signed in as <a href={session.user.href}>{session.user.name}</a>
      </span>
    )}
    {session.controls.map((control) => {
      const id = `header-${control.name}`;
      // A person signs in with their library card; a token (scripts, the operator) is a click away.
      const tucked = control.fields.filter((field) => field.name === 'token');
      return (
        <FormOf control={control} id={id}>
          {control.fields
            .filter((field) => !tucked.includes(field))
            .map((field) => (
              <FieldInput field={field} formId={id} control={control.name} />
            ))}
          {tucked.length > 0 && (
            <details class="more">
              <summary>Sign in with a token</summary>
              {tucked.map((field) => (
                <FieldInput field={field} formId={id} control={control.name} />
              ))}
            </details>
          )}
          <button type="submit">{control.title ?? label(control.name)}</button>
          <p class="form-error" role="alert" hidden />
        </FormOf>
      );
    })}
  </div>
);

/**
 * JSON as the text of a `<script>`, which ends at the first `</script` whatever JSON's quotes say: every
 * `<` written `\u003c`, the same character to a JSON parser, so neither `</script>` nor `<!--` in a title
 * can end the script or the page early.
 */
export function scriptText(json: string): string {
  return json.replaceAll('<', '\\u003c');
}
