-- Leads listed by segment (leads/get with segment_id, the console's lead filter), newest first.
create index if not exists leads_site_segment_idx on leads (site_id, segment_id, created_at desc, id desc) where segment_id is not null;
