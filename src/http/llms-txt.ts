/**
 * @module `/llms.txt` (https://llmstxt.org): a short Markdown index of the service for LLM tools — what
 * it is, where to start, what describes it, and how to sign in. Its URLs are the catalogue's hrefs:
 * path-absolute (Markdown resolves them against this document) unless a public base is configured.
 */
import { firstPage, type Uris } from '../hypermedia/uris.js';

/**
 * The index. Never from the request's Host: a cache shared by many callers would keep and hand out
 * whatever host one of them sent.
 */
export function llmsTxt(uris: Uris): string {
  const root = uris.root();
  const profile = uris.profile();
  const openapi = uris.openapi();
  // The MCP endpoint is served at this path of the same app.
  const mcp = uris.mcp();
  const users = uris.users(firstPage);
  return `# catalogue

> A library catalogue of books, authors, users and loans, as a hypermedia API: start at the root document,
> follow links by their relation and submit controls by name. Never build a URL by hand; every one a client
> needs comes in a link or a control.

Documents come as JSON (the default), HAL (\`application/hal+json\`), HAL-FORMS
(\`application/prs.hal-forms+json\`) or HTML, chosen by \`Accept\`; books also as MARC 21
(\`application/marcxml+xml\`, \`application/marc\`), books and authors as schema.org JSON-LD
(\`application/ld+json\`). Errors are
\`{"error":{"code","message"}}\`, or RFC 9457 problem documents with \`Accept: application/problem+json\`.
A successful write names the documents it made stale in \`Link: <…>; rel="invalidates"\`.

## Start

- [Root document](${root}): links to books, authors and search; signed in, to your user document and loans
- [MCP endpoint](${mcp}): the same links and controls as Model Context Protocol tools (Streamable HTTP)

## Describe

- [Profile](${profile}): what every link relation, control and problem type means, and each control's fields
- [OpenAPI description](${openapi}): the HTTP interface, for tools

## Authenticate

- Send \`Authorization: Bearer <token>\` with every request. Anonymous callers may read (unless the
  operator closed the catalogue) but not write or borrow.
- A librarian issues tokens: they add a user with the \`create\` control of the [users collection](${users}),
  then submit \`create\` on that user's \`tokens\` link; the answer carries the token's secret, once. An
  operator can also run \`catalogue users add\` and \`catalogue tokens add --user <id>\` on the server.
- A token is revoked by the \`delete\` control on it; a revoked token answers 401.
`;
}
