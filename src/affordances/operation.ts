/**
 * @module What one method of a route takes and answers. The route table records one per method served,
 * and the profile and the OpenAPI document are generated from it; an affordance (`affordance.ts`) is an
 * operation that a control submits to.
 */
import type { BodySpec, InputField } from '../domain/input.js';
import type { ListingSpec } from '../domain/listing.js';

/** A body an operation reads: its fields, and whether it may be left out. */
export interface OperationBody extends BodySpec {
  /** The body may be left out, standing for `{}`. */
  optional?: boolean;
}

export interface Operation {
  /** What it does, in one line. */
  summary: string;
  /** The body it reads, checked against these fields (`validateInput`). */
  body?: OperationBody;
  /** The listing parameters it takes (`parseListing`). */
  listing?: ListingSpec;
  /** Status of success; by default 201 for POST, 204 for DELETE, 200 otherwise. */
  status?: 200 | 201 | 204;
  /** `If-Match` makes it conditional (412 on a stale tag). */
  conditional?: boolean;
  /** Error statuses beyond those its shape implies (see `openapi.ts`). */
  errors?: readonly number[];
  /** The media type answered when it is not a resource in the negotiated format (a stylesheet, say). */
  produces?: string;
  /**
   * Besides its representation, it answers this media type when `Accept` prefers it (the change feed's
   * `text/event-stream`), described by the text given.
   */
  alsoProduces?: { mediaType: string; description: string };
  /**
   * The media types of the body it reads when that is not fields (`body`): MCP's JSON-RPC messages, an
   * import's files (the first is the one its control names).
   */
  consumes?: string | readonly string[];
  /**
   * Its body is a file (an import), streamed as it is read and bounded by the import limit
   * (`CATALOGUE_IMPORT_MAX_BYTES`) rather than the limit of a request's fields.
   */
  upload?: boolean;
  /**
   * An endpoint of a protocol of its own (MCP), whose tools answer through requests to the app itself, each
   * with its own checks and limits: its body is bounded, but it is no write of its own, and its `Accept` is
   * never refused (see `FrameHandlerOptions`).
   */
  dispatches?: boolean;
  /**
   * A POST that only reads, as a protocol allows a query to be sent as a form (OAI-PMH): its body is
   * bounded, but it is no write (no write limit spent, no form standing for another method).
   */
  reads?: boolean;
  /**
   * The query parameters a GET control reads, declared as fields: its control's fields, the profile's and
   * OpenAPI's parameters are all these.
   */
  query?: readonly InputField[];
  /** Query parameters it reads beyond a listing's, for its description. */
  parameters?: readonly QueryParameter[];
  /** Answered before any token is read (a load balancer's probe). */
  unauthenticated?: boolean;
  /**
   * Open even in a closed catalogue (`CATALOGUE_PUBLIC_READS=false`): what a sign-in page needs (the root,
   * signing in, the stylesheet, the descriptions). Every other operation first asks `policy.read`.
   */
  open?: boolean;
}

/** A query parameter, described for OpenAPI. */
export interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  /** The request is refused without it. */
  required?: boolean;
}
