/** @module What a test sends requests through, as one caller: the app in-process or a server process. */

/** Requests as one caller. */
export interface TestClient {
  /** Sends a request to the app in-process, as `fetch` would. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Sends a JSON body. */
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}
