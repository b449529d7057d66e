import { sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { rows } from '@/lib/db/raw';
import type { FinderCallType } from './pricing';

/**
 * A site's finder credits: one account row (balance, this month's spend, cap) and a ledger of
 * every grant, charge and refund. A charge is a single conditional UPDATE — the balance covers
 * the price and the month's spend stays within the cap — so concurrent charges serialize on the
 * account row and can never overspend; the ledger row is written in the same transaction.
 */
export interface LedgerEntry {
  id: string;
  kind: 'grant' | 'charge' | 'refund';
  call_type: string | null;
  amount: number;
  balance_after: number;
  refund_of: string | null;
  workflow_id: string | null;
  note: string | null;
  created_at: string;
}

export interface CreditAccount {
  balance: number;
  /** The site's own cap, or null when the deployment default applies. */
  monthly_cap: number | null;
  /** The cap in force this month (null: none). */
  effective_monthly_cap: number | null;
  month: string;
  spent_this_month: number;
}

/** 'YYYY-MM' (UTC) of the service clock: the period the monthly cap counts. */
export const currentMonth = (): string => currentDate().toISOString().slice(0, 7);

const defaultCap = (): number | null => config().FINDER_MONTHLY_CAP || null;

type AccountRow = { balance: string | number; monthly_cap: string | number | null; period_month: string; period_spent: string | number };
const num = (v: string | number) => Number(v);

function toAccount(row: AccountRow | undefined, month: string): CreditAccount {
  const cap = row?.monthly_cap == null ? null : num(row.monthly_cap);
  return {
    balance: row ? num(row.balance) : 0,
    monthly_cap: cap,
    effective_monthly_cap: cap ?? defaultCap(),
    month,
    spent_this_month: row && row.period_month === month ? num(row.period_spent) : 0,
  };
}

export async function creditAccount(siteId: string): Promise<CreditAccount> {
  const [row] = await rows<AccountRow>(
    sql`select balance, monthly_cap, period_month, period_spent from finder_credit_accounts where site_id = ${siteId}`,
  );
  return toAccount(row, currentMonth());
}

/**
 * Takes `amount` credits for one call; 402 INSUFFICIENT_CREDITS (nothing taken) when the balance
 * or the month's cap cannot cover it. Answers the ledger id of the charge (to refund it).
 */
export async function chargeCredits(
  siteId: string,
  callType: FinderCallType,
  amount: number,
  o: { workflowId?: string | null } = {},
): Promise<{ chargeId: string; balance: number }> {
  const month = currentMonth();
  const cap = defaultCap();
  const at = currentDate();
  const db = await getDb();
  const charged = await db.transaction(async (tx) => {
    const [row] = await rows<{ balance: string | number }>(
      sql`
      update finder_credit_accounts set
        balance = balance - ${amount},
        period_spent = case when period_month = ${month} then period_spent + ${amount} else ${amount} end,
        period_month = ${month},
        updated_at = ${at}
      where site_id = ${siteId}
        and balance >= ${amount}
        and (coalesce(monthly_cap, ${cap}::bigint) is null
             or (case when period_month = ${month} then period_spent else 0 end) + ${amount} <= coalesce(monthly_cap, ${cap}::bigint))
      returning balance`,
      tx,
    );
    if (!row) return undefined;
    const balance = num(row.balance);
    const [inserted] = await rows<{ id: string }>(
      sql`
      insert into finder_credit_ledger (site_id, kind, call_type, amount, balance_after, workflow_id, created_at)
      values (${siteId}, 'charge', ${callType}, ${-amount}, ${balance}, ${o.workflowId ?? null}, ${at})
      returning id`,
      tx,
    );
    return { chargeId: inserted.id, balance };
  });
  if (charged) return charged;
  const account = await creditAccount(siteId);
  const capped =
    account.effective_monthly_cap !== null && account.spent_this_month + amount > account.effective_monthly_cap && account.balance >= amount;
  throw new ApiError(
    'INSUFFICIENT_CREDITS',
    capped
      ? `This call costs ${amount} credits and would pass the site's monthly cap of ${account.effective_monthly_cap} (${account.spent_this_month} spent in ${account.month})`
      : `This call costs ${amount} credits and the site's balance is ${account.balance}`,
    {
      reason: capped ? 'monthly_cap' : 'balance',
      required: amount,
      balance: account.balance,
      monthly_cap: account.effective_monthly_cap,
      spent_this_month: account.spent_this_month,
    },
  );
}

/** Gives back the credits of one charge (the call failed); a charge is refunded at most once. */
export async function refundCharge(siteId: string, chargeId: string, note: string): Promise<void> {
  const db = await getDb();
  const at = currentDate();
  try {
    await db.transaction(async (tx) => {
      const [charge] = await rows<{ amount: string | number; call_type: string | null; workflow_id: string | null; created_at: Date | string }>(
        sql`
        select amount, call_type, workflow_id, created_at from finder_credit_ledger
        where id = ${chargeId} and site_id = ${siteId} and kind = 'charge'`,
        tx,
      );
      if (!charge) return;
      const amount = -num(charge.amount);
      const chargeMonth = new Date(charge.created_at).toISOString().slice(0, 7);
      const [updated] = await rows<{ balance: string | number }>(
        sql`
        update finder_credit_accounts set
          balance = balance + ${amount},
          period_spent = case when period_month = ${chargeMonth} then greatest(period_spent - ${amount}, 0) else period_spent end,
          updated_at = ${at}
        where site_id = ${siteId}
        returning balance`,
        tx,
      );
      await tx.execute(sql`
        insert into finder_credit_ledger (site_id, kind, call_type, amount, balance_after, refund_of, workflow_id, note, created_at)
        values (${siteId}, 'refund', ${charge.call_type}, ${amount}, ${num(updated.balance)}, ${chargeId}, ${charge.workflow_id}, ${note}, ${at})`);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return; // refunded already
    throw error;
  }
}

/**
 * Operators: adds credits (a grant in the ledger) and optionally sets the site's monthly cap
 * (`null` → the deployment default). Answers the account after the change.
 */
export async function grantCredits(siteId: string, amount: number, o: { note?: string; monthlyCap?: number | null } = {}): Promise<CreditAccount> {
  const db = await getDb();
  const at = currentDate();
  await db.transaction(async (tx) => {
    const setCap = o.monthlyCap !== undefined;
    const [upserted] = await rows<{ balance: string | number }>(
      sql`
      insert into finder_credit_accounts (site_id, balance, monthly_cap, created_at, updated_at)
      values (${siteId}, ${amount}, ${setCap ? o.monthlyCap : null}, ${at}, ${at})
      on conflict (site_id) do update set
        balance = finder_credit_accounts.balance + ${amount},
        monthly_cap = case when ${setCap} then ${setCap ? o.monthlyCap : null}::bigint else finder_credit_accounts.monthly_cap end,
        updated_at = ${at}
      returning balance`,
      tx,
    );
    if (amount !== 0 || !setCap) {
      await tx.execute(sql`
        insert into finder_credit_ledger (site_id, kind, amount, balance_after, note, created_at)
        values (${siteId}, 'grant', ${amount}, ${num(upserted.balance)}, ${o.note ?? null}, ${at})`);
    }
  });
  return creditAccount(siteId);
}

/** The site's most recent ledger entries, newest first. */
export async function recentLedger(siteId: string, limit: number): Promise<LedgerEntry[]> {
  const list = await rows<
    Omit<LedgerEntry, 'amount' | 'balance_after' | 'created_at'> & {
      amount: string | number;
      balance_after: string | number;
      created_at: Date | string;
    }
  >(sql`
    select id, kind, call_type, amount, balance_after, refund_of, workflow_id, note, created_at
    from finder_credit_ledger where site_id = ${siteId}
    order by created_at desc, id desc limit ${limit}`);
  return list.map((r) => ({ ...r, amount: num(r.amount), balance_after: num(r.balance_after), created_at: new Date(r.created_at).toISOString() }));
}

/** Net credits a workflow run spent (charges minus refunds). */
export async function workflowSpend(siteId: string, workflowId: string): Promise<number> {
  const [row] = await rows<{ spent: string | number | null }>(sql`
    select -coalesce(sum(amount), 0) as spent from finder_credit_ledger
    where site_id = ${siteId} and workflow_id = ${workflowId} and kind in ('charge', 'refund')`);
  return num(row?.spent ?? 0);
}
