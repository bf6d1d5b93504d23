/**
 * Circulation's requests (borrow, return, renew, hold, cancel) written once, for tests in which the request is
 * a step towards what they check. Each comes twice: the bare request answering its `Response` (the test
 * checks the status), and a past participle (`borrowed`) that requires success and answers the typed body.
 * `borrowByControl` and `returnByControl` follow the control the resource offers, as a generic client does.
 * Tests whose subject is the raw request itself (no body, a malformed one, a header) write it out.
 */
import { expect } from 'vitest';
import { json, type TestClient } from './catalogue.js';
import { type BookDocument, controlOf, type HoldDocument, type LoanDocument, submit } from './documents.js';

/** What a borrow may say: a librarian names the borrower and may name the copy. */
export interface BorrowBody {
  borrower_id?: number;
  copy_id?: number;
}

/** `POST /books/{id}/borrow` with a JSON body (`{}` by default). */
export function borrow(client: TestClient, bookId: number, body: BorrowBody = {}): Promise<Response> {
  return client.send('POST', `/books/${bookId}/borrow`, body);
}

/** Borrows the book, requiring a 201, and answers the loan. */
export async function borrowed(client: TestClient, bookId: number, body: BorrowBody = {}): Promise<LoanDocument> {
  return succeeded(await borrow(client, bookId, body), 201, `borrowing book ${bookId}`);
}

/** `PATCH /loans/{id}` with `{"status":"returned"}`. */
export function returnLoan(client: TestClient, loanId: number): Promise<Response> {
  return client.send('PATCH', `/loans/${loanId}`, { status: 'returned' });
}

/** Returns the loan, requiring a 200, and answers it. */
export async function returned(client: TestClient, loanId: number): Promise<LoanDocument> {
  return succeeded(await returnLoan(client, loanId), 200, `returning loan ${loanId}`);
}

/** `POST /loans/{id}/renewals`, without a body. */
export function renew(client: TestClient, loanId: number): Promise<Response> {
  return client.request(`/loans/${loanId}/renewals`, { method: 'POST' });
}

/** Renews the loan, requiring a 200, and answers it. */
export async function renewed(client: TestClient, loanId: number): Promise<LoanDocument> {
  return succeeded(await renew(client, loanId), 200, `renewing loan ${loanId}`);
}

/** `POST /books/{id}/holds`, without a body. */
export function placeHold(client: TestClient, bookId: number): Promise<Response> {
  return client.request(`/books/${bookId}/holds`, { method: 'POST' });
}

/** Places a hold on the book, requiring a 201, and answers the hold. */
export async function held(client: TestClient, bookId: number): Promise<HoldDocument> {
  return succeeded(await placeHold(client, bookId), 201, `holding book ${bookId}`);
}

/** `PATCH /holds/{id}` with `{"status":"cancelled"}`. */
export function cancelHold(client: TestClient, holdId: number): Promise<Response> {
  return client.send('PATCH', `/holds/${holdId}`, { status: 'cancelled' });
}

/** Cancels the hold, requiring a 200, and answers it. */
export async function cancelled(client: TestClient, holdId: number): Promise<HoldDocument> {
  return succeeded(await cancelHold(client, holdId), 200, `cancelling hold ${holdId}`);
}

/** Reads the book as this client and submits the `borrow` control it offers, with `values` for its fields. */
export async function borrowByControl(
  client: TestClient,
  bookId: number,
  values: Record<string, unknown> = {},
): Promise<Response> {
  const book = await json<BookDocument>(await client.request(`/books/${bookId}`));
  return submit(client, controlOf(book, 'borrow'), values);
}

/** Reads the loan as this client and submits the `return` control it offers. */
export async function returnByControl(client: TestClient, loanId: number): Promise<Response> {
  const loan = await json<LoanDocument>(await client.request(`/loans/${loanId}`));
  return submit(client, controlOf(loan, 'return'));
}

/** The body of a response that must have this status; the failure names the step and quotes the answer. */
async function succeeded<T>(response: Response, status: number, what: string): Promise<T> {
  const text = await response.text();
  expect(response.status, `${what}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}
