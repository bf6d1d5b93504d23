-- One notice per lost loan: the overdue fine charged in one statement with its loan's lost item (as the
-- lost-items job charges them) is told in that loan's `lost` notice, beside the lost item's charge, not in a
-- `charged` notice of its own. A fine charged on return, or with no lost item beside it (a lost_charge of 0),
-- still has its own. The lost items' job writes one notice a loan instead of two (docs/performance/lost-loans.md).
-- The lost items of a statement are joined, not looked up row by row with EXISTS: transition tables have no
-- index (see 0041).

CREATE OR REPLACE FUNCTION public.queue_notices()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'holds' THEN
    INSERT INTO notices (user_id, kind, hold_id, dedupe_key, status, last_error, next_attempt_at, created_at)
    SELECT n.borrower_id, 'hold_ready', n.id, notice_key('hold_ready', n.id, n.ready_at),
      CASE WHEN u.email IS NULL THEN 'skipped' ELSE 'pending' END,
      CASE WHEN u.email IS NULL THEN 'no email address' END,
      n.ready_at, n.ready_at
    FROM new_rows n JOIN old_rows o USING (id) JOIN users u ON u.id = n.borrower_id
    WHERE n.status = 'ready' AND o.status <> 'ready'
    ORDER BY n.id
    ON CONFLICT (dedupe_key) DO NOTHING;
  ELSIF TG_TABLE_NAME = 'loans' THEN
    INSERT INTO notices (user_id, kind, loan_id, account_entry_id, dedupe_key, status, last_error, next_attempt_at,
      created_at)
    SELECT n.borrower_id, 'lost', n.id, e.id, notice_key('lost', n.id, n.lost_at),
      CASE WHEN u.email IS NULL THEN 'skipped' ELSE 'pending' END,
      CASE WHEN u.email IS NULL THEN 'no email address' END,
      n.lost_at, n.lost_at
    FROM new_rows n JOIN old_rows o USING (id) JOIN users u ON u.id = n.borrower_id
      LEFT JOIN account_entries e ON e.loan_id = n.id AND e.kind = 'lost_item'
    WHERE n.lost_at IS NOT NULL AND o.lost_at IS NULL
    ORDER BY n.id
    ON CONFLICT (dedupe_key) DO NOTHING;
  ELSE
    INSERT INTO notices (user_id, kind, account_entry_id, dedupe_key, status, last_error, next_attempt_at, created_at)
    SELECT n.user_id, 'charged', n.id, notice_key('charged', n.id, NULL),
      CASE WHEN u.email IS NULL THEN 'skipped' ELSE 'pending' END,
      CASE WHEN u.email IS NULL THEN 'no email address' END,
      n.created_at, n.created_at
    FROM new_rows n JOIN users u ON u.id = n.user_id
      LEFT JOIN (SELECT loan_id FROM new_rows WHERE kind = 'lost_item') lost USING (loan_id)
    WHERE n.kind = 'manual' OR (n.kind = 'overdue_fine' AND lost.loan_id IS NULL)
    ORDER BY n.id
    ON CONFLICT (dedupe_key) DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;;
