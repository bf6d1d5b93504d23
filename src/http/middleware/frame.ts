/**
 * @module The frame around every handler: the Host check, the format, the services, the caller and a write's
 * limits before it; the security headers, the unread body discarded and the log line after it. Kept over
 * Hono's `app.use` chain for its figure in docs/performance.md ("What stays and why").
 */
import type { Context, Handler, Hono } from 'hono';
import { type Format, writesEveryKind } from '../../formats/format.js';
import type { Logger } from '../../log.js';
import type { AppEnv } from '../env.js';
import { isSafe } from '../methods.js';
import { type Authentication, authenticate } from './authenticate.js';
import { checkHost, discardPendingBody } from './connection.js';
import { noteContextHeaders } from './context-headers.js';
import { formMethod, isDispatchedAgain } from './form-method.js';
import { limitBody, uploadLimiter } from './limit-body.js';
import { chooseFormat, type MediaTypes, preferredFormat } from './negotiate.js';
import { noteWrite, replicaReads } from './replica-reads.js';
import { logRequest } from './request-log.js';
import { secure } from './security-headers.js';

/** What every route handler finds on the context, the same for every request. */
export type Services = Pick<
  AppEnv['Variables'],
  | 'database'
  | 'uris'
  | 'deprecations'
  | 'rateLimiter'
  | 'listingCountLimit'
  | 'pageJumpLimit'
  | 'formats'
  | 'clock'
  | 'lendingRules'
>;

export interface FrameOptions {
  log: Logger;
  formats: readonly Format[];
  services: Services;
  authentication: Authentication;
  /** The app's answer to an error, in the error shape. */
  onError: (error: Error, c: Context<AppEnv>) => Response;
  /** Largest file an upload (an import) may send, in bytes. */
  uploadMaxBytes: number;
}

/** How a handler is framed, beyond what its method implies. */
export interface FrameHandlerOptions {
  /**
   * A media type of its own that the handler answers (a stylesheet, `/llms.txt`): it is not refused for
   * its `Accept`, and the format chosen only writes its errors.
   */
  produces?: string | undefined;
  /**
   * Media types the handler answers besides the formats (an event stream), which `Accept` may then ask
   * for alone.
   */
  alsoProduces?: readonly MediaTypes[] | undefined;
  /**
   * The handler does its work through requests to the app itself (MCP's tools), each framed in its turn:
   * its body is bounded like a write's, but it spends no write limit and changes no caller of its own. It
   * speaks its own protocol, so its `Accept` is never refused (406); the frame's own errors (401, 405,
   * 413) come in the format `Accept` prefers, or else the first.
   */
  dispatches?: boolean | undefined;
  /** A POST that only reads (see `Operation.reads`): its body is bounded, and nothing else of a write applies. */
  reads?: boolean | undefined;
  /** A write whose body is a file (see `Operation.upload`): bounded by the upload limit, not the fields' one. */
  upload?: boolean | undefined;
}

/** Wraps a handler in the frame. */
export type Frame = (handler: Handler<AppEnv>, options?: FrameHandlerOptions) => Handler<AppEnv>;

export function createFrame(app: Hono<AppEnv>, options: FrameOptions): Frame {
  const { log, formats, services, authentication, onError } = options;
  const dispatchFormMethod = formMethod(app);
  const limitUpload = uploadLimiter(options.uploadMaxBytes);
  // A write, and an endpoint of a protocol of its own, answer in a format that writes every kind: a write
  // asking for MARC alone is refused before it changes anything, not after.
  const wholeFormats = formats.filter(writesEveryKind);
  // With standbys, reads may be answered from one, and writes note where they left the WAL.
  const primary = services.database;
  const readFromReplica = primary.replicas && replicaReads(primary, primary.replicas);

  /** The handler's answer, after what a write must pass first. */
  async function write(c: Context<AppEnv>, handler: Handler<AppEnv>, upload: boolean): Promise<Response> {
    try {
      await (upload ? limitUpload : limitBody)(c);
      const dispatched = await dispatchFormMethod(c);
      if (dispatched) return dispatched;
      // Spent before the handler runs, so that a refused write changes nothing.
      await c.get('rateLimiter')?.spend(c, 'write');
      const response = await handler(c, noNext);
      if (readFromReplica) await noteWrite(primary, c, log);
      return response;
    } finally {
      // A write may have changed a caller (a loan, a role, a revoked token). The database tells every
      // process, this one too, but the client's next request could come before the notification does.
      authentication.callers.forgetAll();
    }
  }

  /** The answer of a request that only reads: from a standby when one may answer it. */
  function read(c: Context<AppEnv>, handler: Handler<AppEnv>): Response | Promise<Response> {
    if (!readFromReplica) return handler(c, noNext) as Response | Promise<Response>;
    return readFromReplica(c, () => handler(c, noNext) as Response | Promise<Response>);
  }

  function answer(
    c: Context<AppEnv>,
    handler: Handler<AppEnv>,
    onlyReads: boolean,
    dispatches: boolean,
    upload: boolean,
  ): Response | Promise<Response> {
    const method = c.req.method;
    const fetches = method === 'GET' || method === 'HEAD';
    // A dispatching handler reads nothing itself: each request it makes is framed, and routed, in its turn.
    const routed = !dispatches && (fetches || onlyReads);
    if (fetches) return routed ? read(c, handler) : (handler(c, noNext) as Response | Promise<Response>);
    if (routed) return limitBody(c).then(() => read(c, handler));
    if (isSafe(method) || onlyReads || dispatches) {
      return limitBody(c).then(() => handler(c, noNext) as Response | Promise<Response>);
    }
    return write(c, handler, upload);
  }

  return (handler, options = {}) => {
    const { produces, alsoProduces, dispatches = false, reads = false, upload = false } = options;
    const choose =
      produces || dispatches
        ? (c: Context<AppEnv>) => preferredFormat(c, wholeFormats)
        : (c: Context<AppEnv>) => chooseFormat(c, isSafe(c.req.method) ? formats : wholeFormats, alsoProduces);
    return function framed(c) {
      const started = performance.now();
      const finish = (response: Response) => {
        secure(response);
        discardPendingBody(c);
        // A form standing for another method runs again from the top; its line is the one of the request
        // as it was sent.
        if (!isDispatchedAgain(c.env)) logRequest(log, c.req, response.status, started);
        return response;
      };
      const fail = (error: unknown) => finish(onError(error as Error, c));
      try {
        checkHost(c);
        noteContextHeaders(c);
        for (const name in services) c.set(name as keyof Services, services[name as keyof Services]);
        c.set('format', choose(c));
        const identifying = authenticate(c, authentication);
        const response = identifying
          ? identifying.then(() => answer(c, handler, reads, dispatches, upload))
          : answer(c, handler, reads, dispatches, upload);
        return response instanceof Promise ? response.then(finish, fail) : finish(response);
      } catch (error) {
        return fail(error);
      }
    };
  };
}

/** Handlers answer; none passes the request on. */
async function noNext(): Promise<void> {}
