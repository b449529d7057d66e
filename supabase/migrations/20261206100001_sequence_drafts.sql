-- An agent-drafted step's email, written by the email agent when the step is due:
-- {step, subject, body, approved, created_at}. A step with review waits (next_send_at null) until the
-- draft is approved (and perhaps edited); without review it is approved as written. Cleared once sent.
alter table sequence_enrollments add column if not exists draft jsonb;
