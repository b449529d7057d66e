-- Every foreign key gets an index that starts with its referencing column. Deleting (or re-keying) a
-- referenced row makes Postgres find the rows that reference it — to cascade, set null or refuse —
-- by that column, once per deleted row: without an index, one scan of the referencing table each.
-- Deleting a visitor deleted its sessions, and each session deleted scanned every session for its
-- `previous_session_id`; deleting a segment scanned every lead; pruning outbound events scanned every
-- webhook delivery per event. Columns that are mostly null get a partial index (the lookup is by
-- equality, which implies not null, so the partial index serves it).
create index if not exists api_keys_user_fk_idx on api_keys (user_id);
create index if not exists commands_conversation_fk_idx on commands (conversation_id) where conversation_id is not null;
create index if not exists conversation_messages_site_fk_idx on conversation_messages (site_id);
create index if not exists email_mailboxes_secret_fk_idx on email_mailboxes (secret_id);
create index if not exists email_messages_app_fk_idx on email_messages (app_id) where app_id is not null;
create index if not exists email_messages_lead_fk_idx on email_messages (lead_id) where lead_id is not null;
create index if not exists finder_mined_people_lead_fk_idx on finder_mined_people (lead_id) where lead_id is not null;
create index if not exists finder_mined_people_role_query_fk_idx on finder_mined_people (role_query_id) where role_query_id is not null;
create index if not exists finder_role_query_segments_segment_fk_idx on finder_role_query_segments (segment_id);
create index if not exists instance_logs_site_fk_idx on instance_logs (site_id);
create index if not exists instance_plans_site_fk_idx on instance_plans (site_id);
create index if not exists leads_segment_fk_idx on leads (segment_id) where segment_id is not null;
create index if not exists platform_audit_log_app_fk_idx on platform_audit_log (app_id);
create index if not exists platform_audit_log_key_fk_idx on platform_audit_log (key_id);
create index if not exists platform_keys_app_fk_idx on platform_keys (app_id);
create index if not exists platform_quota_usage_app_fk_idx on platform_quota_usage (app_id);
create index if not exists remote_instances_user_fk_idx on remote_instances (user_id);
create index if not exists visitor_segments_site_fk_idx on visitor_segments (site_id);
create index if not exists visitor_sessions_previous_fk_idx on visitor_sessions (previous_session_id) where previous_session_id is not null;
create index if not exists visitor_uploads_visitor_fk_idx on visitor_uploads (visitor_id);
create index if not exists webhook_attempts_site_fk_idx on webhook_attempts (site_id);
create index if not exists webhook_deliveries_event_fk_idx on webhook_deliveries (event_id);
create index if not exists webhook_deliveries_endpoint_fk_idx on webhook_deliveries (endpoint_id);
