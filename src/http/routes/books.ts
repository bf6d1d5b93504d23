/** @module Books: the collection, one book, and the author of a book. */
import type { Hono } from 'hono';
import { addBook, borrowBook, changeBook, deleteBook, searchBooks } from '../../affordances/books.js';
import type { RenderContext } from '../../affordances/context.js';
import { addCopy } from '../../affordances/copies.js';
import { holdBook } from '../../affordances/holds.js';
import type { Db } from '../../db/client.js';
import type { LendingRulesCache } from '../../db/lending-rules.js';
import { findAuthorOfBook } from '../../db/queries/authors.js';
import {
  type BookRecord,
  countBookFacets,
  findBook,
  findBookForCaller,
  insertBook,
  listBooksPage,
  deleteBook as removeBook,
  streamBooks,
  updateBook,
} from '../../db/queries/books.js';
import { borrowCopy, addCopy as insertCopy, placeHold, settleExpiredHolds } from '../../db/queries/circulation.js';
import { listCopiesPage, streamCopies } from '../../db/queries/copies.js';
import { listHoldsPage, streamHolds } from '../../db/queries/holds.js';
import {
  type CopyFacts,
  decideBorrow,
  decideBorrowFrom,
  decideHold,
  decideHoldFrom,
  findBorrower,
  findCopyOfBook,
  findCopyToLend,
} from '../../db/queries/lending-decisions.js';
import type { BookInput, StoredBook } from '../../domain/book.js';
import { Conflict, Forbidden, InvalidInput, Unauthorized, UnprocessableEntity } from '../../domain/errors.js';
import { type Hold, pickupBranchOf } from '../../domain/hold.js';
import { type LendingDecision, lendingRefusalReason } from '../../domain/lending-rules.js';
import { idOf } from '../../domain/limits.js';
import { parseListing } from '../../domain/listing.js';
import { bookListingSpec, copyListingSpec, holdListingSpec } from '../../domain/listings.js';
import { authorize, type BorrowDecision, type CallerCirculation, type SignedIn } from '../../domain/policy.js';
import { firstPage, paths } from '../../hypermedia/uris.js';
import { renderAuthor } from '../../renderers/author.js';
import { renderBook } from '../../renderers/book.js';
import { bookHoldsCollection, booksCollection, copiesCollection } from '../../renderers/collections.js';
import { renderCopy } from '../../renderers/copy.js';
import { renderExplanation } from '../../renderers/explanation.js';
import { renderHold } from '../../renderers/hold.js';
import { bookInvalidates, loanInvalidates } from '../../renderers/invalidations.js';
import { renderLoan } from '../../renderers/loan.js';
import { readJson, readOptionalJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { listHandler, sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { send, sendCreated } from '../respond.js';
import { route } from '../route.js';
import {
  type CreatableResource,
  changeHandler,
  createHandler,
  type DeletableResource,
  deleteHandler,
  notFound,
} from '../stored-resource.js';

export const bookNotFound = (id: number) => notFound('book', id);

/** The library's time zone: a borrow's due date runs by the lending branch's days in it. */
export function bookRoutes(app: Hono<AppEnv>, settings: { timeZone: string }): void {
  const { timeZone } = settings;
  route(
    app,
    paths.books,
    { GET: searchBooks, POST: addBook },
    {
      GET: listHandler({
        spec: bookListingSpec,
        collection: booksCollection,
        page: listBooksPage,
        stream: streamBooks,
        facets: countBookFacets,
        renderItem: renderBook,
      }),
      POST: createHandler(storedBook, addBook),
    },
  );

  route(
    app,
    paths.book,
    { GET: { summary: 'A book' }, PUT: changeBook.update, PATCH: changeBook.edit, DELETE: deleteBook },
    {
      async GET(c) {
        const id = idParam(c, 'id', 'book');
        const ctx = c.get('ctx');
        return send(
          c,
          renderBook(
            await bookAsSeenBy(c.get('database').db, id, ctx, c.get('clock').now(), {
              decide: true,
              timeZone,
              rules: c.get('lendingRules'),
            }),
            ctx,
          ),
        );
      },
      PUT: changeHandler(storedBook, changeBook.update),
      PATCH: changeHandler(storedBook, changeBook.edit),
      DELETE: deleteHandler(storedBook, deleteBook),
    },
  );

  /** The one verb path the seed allows: borrowing a book. The due date is the library's, not the client's. */
  route(
    app,
    paths.borrow,
    { POST: borrowBook },
    {
      async POST(c) {
        const id = idParam(c, 'id', 'book');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const at = c.get('clock').now();
        await settleExpiredHolds(db, { bookId: id, holdDays: ctx.policy.rules.holdDays, at });
        const book = await bookAsSeenBy(db, id, ctx, at, { decide: true, timeZone });
        // Who may borrow at all (for a librarian: lend to someone) is settled before the body is read;
        // for whom, once it is.
        borrowBook.authorize(ctx, { book });
        const input = borrowBook.validate(await readOptionalJson(c));
        const caller = ctx.caller as SignedIn;
        const borrowerId = input.borrower_id ?? caller.id;
        borrowBook.authorize(ctx, { book, borrowerId, branchId: input.branch_id });
        // A librarian lends at their desk (their home branch unless named); a member at the copy's home.
        const branchId = ctx.policy.lendForOthers(caller) ? (input.branch_id ?? caller.homeBranchId) : undefined;
        const loan = await borrowCopy(db, {
          bookId: id,
          borrowerId,
          copyId: input.copy_id,
          branchId,
          holdDays: ctx.policy.rules.holdDays,
          fineLimit: ctx.policy.rules.fineLimit,
          currency: ctx.policy.currency,
          at,
          timeZone,
        });
        // The answer is the loan, at its own URI.
        return sendCreated(
          c,
          renderLoan(loan, ctx),
          ctx.uris.loan(loan.id),
          loanInvalidates(ctx.uris, loan, book.author_id),
        );
      },
    },
  );

  route(
    app,
    paths.bookExplain,
    {
      GET: {
        summary:
          'Why a loan of a book would get its terms now: the rule behind each value and the rules considered (a librarian may name `borrower_id`, `copy_id`, `branch_id`)',
      },
    },
    {
      async GET(c) {
        const id = idParam(c, 'id', 'book');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const { caller } = ctx;
        if (caller.kind !== 'user') throw new Unauthorized();
        const at = c.get('clock').now();
        const book = await bookAsSeenBy(db, id, ctx, at);
        const query = explainQuery(c.req.query());
        const librarian = ctx.policy.lendForOthers(caller);
        if (!librarian && (query.branch_id !== undefined || (query.borrower_id ?? caller.id) !== caller.id)) {
          throw new Forbidden('a member asks about their own loans at the copy\u2019s home branch');
        }
        const borrower = query.borrower_id === undefined ? caller : await findBorrower(db, { id: query.borrower_id });
        if (!borrower) {
          throw new UnprocessableEntity(`borrower_id ${query.borrower_id} names no user`, {
            borrower_id: 'names no user',
          });
        }
        const copy =
          query.copy_id !== undefined
            ? await findCopyOfBook(db, { bookId: id, copyId: query.copy_id })
            : ((await findCopyToLend(db, { bookId: id, borrowerId: borrower.id, at })) ??
              (await findCopyOfBook(db, { bookId: id })));
        if (!copy) {
          if (query.copy_id !== undefined) {
            throw new UnprocessableEntity(`copy_id ${query.copy_id} names no copy of book ${id}`, {
              copy_id: 'names no copy of this book',
            });
          }
          throw new Conflict(`book ${id} has no copies: there is no loan of it to explain`);
        }
        const desk = librarian ? (query.branch_id ?? caller.homeBranchId) : undefined;
        const decided = await decideBorrow(db, borrower, copy, { branchId: desk, at, timeZone });
        return send(
          c,
          renderExplanation(
            {
              of: 'book',
              bookId: book.id,
              borrowerId: borrower.id,
              copyId: copy.id,
              decision: decided.decision,
              dueAt: decided.due_at,
              refusal: lendingRefusalReason(decided.decision, decided.loansInScope),
            },
            ctx,
          ),
        );
      },
    },
  );

  route(
    app,
    paths.bookCopies,
    { GET: { summary: 'The copies of a book', listing: copyListingSpec }, POST: addCopy },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        const database = c.get('database');
        const book = await bookAsSeenBy(c.get('database').db, idParam(c, 'id', 'book'), ctx, c.get('clock').now());
        const listing = parseListing(copyListingSpec, queryParams(c));
        return sendListing(
          c,
          copyListingSpec,
          listing,
          copiesCollection(ctx, book),
          {
            page: (paged) => listCopiesPage(database.db, paged, book.id),
            stream: (all) => streamCopies(database, all, book.id),
          },
          (copy) => renderCopy(copy, ctx, { fields: listing.fields, asItem: true }),
        );
      },
      async POST(c) {
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const book = await bookAsSeenBy(c.get('database').db, idParam(c, 'id', 'book'), ctx, c.get('clock').now());
        addCopy.authorize(ctx, book);
        const input = addCopy.validate(await readJson(c));
        const copy = await insertCopy(db, {
          bookId: book.id,
          barcode: input.barcode?.trim(),
          branchId: input.branch_id,
          itemTypeId: input.item_type_id,
          holdDays: ctx.policy.rules.holdDays,
          at: c.get('clock').now(),
        });
        return sendCreated(c, renderCopy(copy, ctx), ctx.uris.copy(copy.id), [ctx.uris.book(book.id)]);
      },
    },
  );

  route(
    app,
    paths.bookHolds,
    { GET: { summary: 'The holds of a book: its queue (librarians)', listing: holdListingSpec }, POST: holdBook },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        const database = c.get('database');
        const id = idParam(c, 'id', 'book');
        authorize(ctx.policy.seeBookHolds(ctx.caller));
        const at = c.get('clock').now();
        const book = await bookAsSeenBy(database.db, id, ctx, at);
        // The queue as it stands unless asked otherwise: waiting and ready, in queue order.
        const params = queryParams(c);
        const listing = parseListing(holdListingSpec, {
          ...params,
          filter: params.filter ?? ['status:open'],
          sort: params.sort ?? ['position'],
        });
        return sendListing(
          c,
          holdListingSpec,
          listing,
          bookHoldsCollection(ctx, book),
          {
            page: (paged) => listHoldsPage(database.db, paged, { bookId: book.id }, at),
            stream: (all) => streamHolds(database, all, { bookId: book.id }, at),
          },
          (hold: Hold) => renderHold(hold, ctx, { fields: listing.fields, asItem: true }),
        );
      },
      async POST(c) {
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const id = idParam(c, 'id', 'book');
        const at = c.get('clock').now();
        await settleExpiredHolds(db, { bookId: id, holdDays: ctx.policy.rules.holdDays, at });
        // The rules decide a hold at its pickup branch, so the body is read first; a refusal of the caller
        // still comes before a complaint about the body.
        const body = await readOptionalJson(c);
        let input: ReturnType<typeof holdBook.validate> | undefined;
        let invalid: unknown;
        try {
          input = holdBook.validate(body);
        } catch (error) {
          invalid = error;
        }
        // Decided, and placed, at one branch: the one named, else the caller's home, as the control is.
        const { caller } = ctx;
        const pickupBranchId = caller.kind === 'user' ? pickupBranchOf(caller, input?.pickup_branch_id) : undefined;
        const book = await bookAsSeenBy(db, id, ctx, at, { decide: true, timeZone, pickupBranchId });
        holdBook.authorize(ctx, book);
        if (!input) throw invalid;
        const { rules } = ctx.policy;
        const hold = await placeHold(db, {
          bookId: book.id,
          borrowerId: (caller as SignedIn).id,
          pickupBranchId,
          maxHolds: rules.maxHolds,
          holdDays: rules.holdDays,
          at,
        });
        return sendCreated(c, renderHold(hold, ctx), ctx.uris.hold(hold.id), [ctx.uris.book(book.id)]);
      },
    },
  );

  route(
    app,
    paths.bookAuthor,
    { GET: { summary: 'The author of a book' } },
    {
      async GET(c) {
        const id = idParam(c, 'id', 'book');
        const author = await findAuthorOfBook(c.get('database').db, { bookId: id });
        if (!author) throw bookNotFound(id);
        const ctx = c.get('ctx');
        return send(c, renderAuthor(author, ctx), { headers: { 'Content-Location': ctx.uris.author(author.id) } });
      },
    },
  );
}

/** The explanation's query: whole-number ids, each optional; anything else is a 400 naming it. */
function explainQuery(params: Record<string, string>) {
  const ids: { borrower_id?: number; copy_id?: number; branch_id?: number } = {};
  for (const name of ['borrower_id', 'copy_id', 'branch_id'] as const) {
    const raw = params[name];
    if (raw === undefined || raw === '') continue;
    const id = idOf(raw);
    if (id === undefined) throw new InvalidInput(`${name} must be a positive whole number`, { [name]: 'not an id' });
    ids[name] = id;
  }
  return ids;
}

type BookAsSeen = BookRecord &
  Partial<{ copies_ready: number; lending: BorrowDecision | undefined; holding: LendingDecision | undefined }>;

/**
 * The book as this caller sees it: for a signed-in caller with their own loan and hold of it (which
 * decide borrow and hold), in the same statement; 404 if there is none. With `decide`, also the lending
 * rules' decision on the caller borrowing it (when a copy is theirs to borrow) or holding it (when none
 * is on the shelf): what the borrow and hold controls and requests read. With `rules` (a read's controls
 * only), decided from the rules remembered and the caller's loans read with them; else from the database.
 */
export async function bookAsSeenBy(
  db: Db,
  id: number,
  ctx: RenderContext,
  at: Date,
  options:
    | { decide?: false }
    | { decide: true; timeZone: string; rules?: LendingRulesCache; pickupBranchId?: number | undefined } = {},
): Promise<BookAsSeen> {
  const { caller } = ctx;
  const book: BookAsSeen | undefined =
    caller.kind === 'user'
      ? await findBookForCaller(db, { id, callerId: caller.id, at, shelfCopy: options.decide })
      : await findBook(db, { id });
  if (!book) throw bookNotFound(id);
  if (!options.decide || caller.kind !== 'user' || !('mine' in book)) return book;
  const { mine } = book as { mine: CallerCirculation };
  if (mine.on_loan) return book;
  const { loansByKind } = caller;
  const remembered = options.rules && loansByKind ? await options.rules.rules() : undefined;
  if (book.copies_available > 0 || mine.hold?.status === 'ready') {
    // Without a hold of theirs, no copy is set aside for the caller: the first on the shelf, read with the
    // book, is the one a borrow would lend.
    const { shelf_copy } = book as { shelf_copy?: CopyFacts | null };
    const copy = mine.hold
      ? await findCopyToLend(db, { bookId: id, borrowerId: caller.id, at })
      : (shelf_copy ?? undefined);
    const desk = ctx.policy.lendForOthers(caller) ? caller.homeBranchId : undefined;
    if (copy) {
      const { timeZone } = options;
      book.lending =
        (remembered &&
          loansByKind &&
          decideBorrowFrom(remembered.rules, { ...caller, loansByKind }, copy, {
            branchId: desk,
            at,
            calendarOf: (branchId) => remembered.calendarOf(branchId, timeZone),
          })) ||
        (await decideBorrow(db, caller, copy, { branchId: desk, at, timeZone }));
    }
  } else if (!mine.hold) {
    book.holding = remembered
      ? await decideHoldFrom(db, remembered.rules, caller, id, book.copies_total > 0, options.pickupBranchId)
      : await decideHold(db, caller, id, book.copies_total > 0, options.pickupBranchId);
  }
  return book;
}

/** The book as a stored resource; what may be done to it is declared in `affordances/books.ts`. */
const storedBook = {
  kind: 'book',
  find: (db, id) => findBook(db, { id }),
  update: updateBook,
  insert: insertBook,
  uri: (ctx, book) => ctx.uris.book(book.id),
  render: (book, ctx) => renderBook(book, ctx),
  // An update answers the author the book had before it (`previous_author_id`): a moved book names both.
  invalidates: (ctx, book: StoredBook & { previous_author_id?: number }) =>
    bookInvalidates(ctx.uris, book.id, [book.previous_author_id ?? book.author_id, book.author_id]),
  remove: removeBook,
  next: (ctx) => ctx.uris.books(firstPage),
} satisfies CreatableResource<StoredBook, BookInput> & DeletableResource<StoredBook>;
