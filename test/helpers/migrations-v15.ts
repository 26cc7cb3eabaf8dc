// The views as rmreplay made them up to schema version 15: VIEWS_TO_15[i] are the view statements
// that migration i (from version i to i + 1) ran after its table statements, the later ones
// redefining views by copying their text. Frozen: this is what older databases hold, so that
// test/helpers/old-database.ts makes them as an older rmreplay did (views included) and the
// upgrade is tested on them. Never edit it. The tables come from src/store/migrations.ts, whose
// statements up to version 15 are the same history (migrations are only ever appended to); the
// current views are views/*.sql.

import { MIGRATIONS } from '../../src/store/migrations.js';

const VIEWS_TO_15: readonly (readonly string[])[] = [
  [],
  [
    `CREATE OR REPLACE VIEW rm_events AS
   SELECT f.trace, e.file_id, f.path, e.line_number, e.time_ms, e.kind,
     rm_app_of(e.subject) AS app_id, rm_attempt_of(e.subject) AS attempt_id, rm_container_of(e.subject) AS container_id,
     e.node_id, e.from_state, e.to_state, e.memory_mb, e.vcores, e.priority, e.queue, e.user_name, e.detail,
     CAST(e.extra AS JSON) AS extra
   FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)`,
    `CREATE OR REPLACE VIEW rm_nodes AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.kind IN ('node_registered', 'node_removed', 'node_state', 'rm_started')
   ),
   reg AS (
     SELECT trace, node_id, time_ms AS registered_ms, memory_mb, vcores, json_extract_string(extra, '$.host') AS host,
            lead(time_ms) OVER (PARTITION BY trace, node_id ORDER BY time_ms, file_id, line_number) AS next_registration_ms
     FROM ev WHERE kind = 'node_registered'
   )
   SELECT reg.trace, reg.node_id, reg.host, reg.memory_mb, reg.vcores, reg.registered_ms,
     (SELECT min(r.time_ms) FROM ev AS r WHERE r.trace = reg.trace AND r.kind = 'node_removed' AND r.node_id = reg.node_id
        AND r.time_ms >= reg.registered_ms AND (reg.next_registration_ms IS NULL OR r.time_ms < reg.next_registration_ms)) AS removed_ms,
     (SELECT arg_max(s.to_state, s.time_ms) FROM ev AS s WHERE s.trace = reg.trace AND s.kind = 'node_state' AND s.node_id = reg.node_id
        AND s.to_state IN ('UNHEALTHY', 'LOST', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')
        AND s.time_ms >= reg.registered_ms AND (reg.next_registration_ms IS NULL OR s.time_ms < reg.next_registration_ms)) AS removed_as,
     (SELECT max(st.time_ms) FROM ev AS st WHERE st.trace = reg.trace AND st.kind = 'rm_started'
        AND st.time_ms <= reg.registered_ms) AS rm_started_ms
   FROM reg`,
    `CREATE OR REPLACE VIEW rm_containers AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'container_')
   ),
   c AS (
     SELECT trace, subject AS container_id,
       bool_or(kind = 'am_container') AS master,
       any_value(node_id) FILTER (WHERE node_id IS NOT NULL) AS node_id,
       any_value(memory_mb) FILTER (WHERE memory_mb IS NOT NULL) AS memory_mb,
       any_value(vcores) FILTER (WHERE vcores IS NOT NULL) AS vcores,
       any_value(priority) FILTER (WHERE priority IS NOT NULL) AS priority,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ALLOCATED') AS state_allocated_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ACQUIRED') AS acquired_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_state,
       any_value(detail) FILTER (WHERE kind = 'container_completed') AS completed_event,
       any_value(to_state) FILTER (WHERE kind = 'container_released' AND to_state IS NOT NULL) AS released_event,
       min(time_ms) FILTER (WHERE kind IN ('container_assigned', 'am_container')
                            OR (kind = 'audit' AND detail = 'AM Allocated Container')) AS first_assignment_ms,
       bool_or(kind IN ('container_released', 'container_completed', 'container_unknown')
               OR (kind = 'audit' AND detail = 'AM Released Container')) AS release_seen
     FROM ev GROUP BY trace, subject
   ),
   ids AS (
     SELECT *, rm_app_of(container_id) AS app_id, rm_attempt_of(container_id) AS attempt_id,
            CAST(regexp_extract(container_id, '_(\\d+)$', 1) AS INTEGER) AS container_number
     FROM c
   ),
   attempts_with_master AS (SELECT DISTINCT trace, attempt_id, true AS has_master FROM ids WHERE master)
   SELECT ids.trace, container_id, app_id, attempt_id, container_number,
     CASE WHEN has_master THEN master ELSE container_number = 1 OR coalesce(priority = 0, false) END AS is_am,
     node_id, memory_mb, vcores,
     CASE WHEN memory_mb IS NOT NULL THEN 'logged' END AS size_source,
     priority,
     coalesce(state_allocated_ms, first_assignment_ms) AS allocated_ms,
     acquired_ms, running_ms, end_ms, end_state,
     coalesce(completed_event, released_event) AS exit_event,
     state_allocated_ms IS NULL AND first_assignment_ms IS NULL AS start_unknown,
     end_ms IS NULL AND NOT coalesce(release_seen, false) AS still_running
   FROM ids LEFT JOIN attempts_with_master USING (trace, attempt_id)`,
    `CREATE OR REPLACE VIEW rm_apps AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'application_') OR starts_with(e.subject, 'appattempt_')
   ),
   a AS (
     SELECT trace, subject AS app_id,
       any_value(json_extract_string(extra, '$.name')) FILTER (WHERE kind = 'app_summary') AS app_name,
       coalesce(any_value(user_name) FILTER (WHERE kind IN ('app_accepted', 'app_summary')), any_value(user_name)) AS user_name,
       coalesce(any_value(queue) FILTER (WHERE kind = 'app_summary'), any_value(queue) FILTER (WHERE kind = 'app_accepted'),
                any_value(queue) FILTER (WHERE queue IS NOT NULL)) AS queue,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND from_state = 'NEW') AS new_ms,
       min(time_ms) FILTER (WHERE kind = 'audit' AND detail = 'Submit Application Request') AS submit_request_ms,
       min(time_ms) FILTER (WHERE kind = 'app_accepted' OR (kind = 'app_state' AND to_state = 'ACCEPTED')) AS accepted_ms,
       min(time_ms) FILTER (WHERE kind = 'app_activated') AS activated_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS finish_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS final_state,
       arg_max(to_state, time_ms) FILTER (WHERE kind = 'app_state') AS last_state,
       any_value(to_state) FILTER (WHERE kind = 'app_summary') AS summary_state,
       any_value(detail) FILTER (WHERE kind = 'app_summary') AS final_status,
       any_value(CAST(json_extract_string(extra, '$.startTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_start_ms,
       any_value(CAST(json_extract_string(extra, '$.finishTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_finish_ms
     FROM ev WHERE starts_with(subject, 'application_') GROUP BY trace, subject
   ),
   attempts AS (
     SELECT trace, app_id, count(DISTINCT attempt_id) AS attempts FROM (
       SELECT trace, rm_app_of(subject) AS app_id, subject AS attempt_id FROM ev
       WHERE starts_with(subject, 'appattempt_') GROUP BY trace, subject
       UNION SELECT trace, app_id, attempt_id FROM rm_containers
     ) GROUP BY trace, app_id
   ),
   containers AS (
     SELECT trace, app_id, count(*) AS containers, min(allocated_ms) FILTER (WHERE is_am) AS am_allocated_ms
     FROM rm_containers GROUP BY trace, app_id
   ),
   every_app AS (
     SELECT trace, app_id FROM a UNION SELECT trace, app_id FROM attempts UNION SELECT trace, app_id FROM containers
   )
   SELECT every_app.trace, every_app.app_id, a.app_name, a.user_name, a.queue,
     coalesce(a.new_ms IS NOT NULL OR a.submit_request_ms IS NOT NULL, false) AS submitted_in_log,
     coalesce(a.submit_request_ms, a.new_ms) AS submit_ms,
     a.accepted_ms, a.activated_ms, containers.am_allocated_ms, a.running_ms, a.finish_ms,
     coalesce(a.final_state, a.summary_state, a.last_state) AS state,
     a.final_status, a.summary_start_ms, a.summary_finish_ms,
     coalesce(attempts.attempts, 0) AS attempts, coalesce(containers.containers, 0) AS containers
   FROM every_app LEFT JOIN a USING (trace, app_id) LEFT JOIN attempts USING (trace, app_id)
     LEFT JOIN containers USING (trace, app_id)`,
  ],
  [
    `CREATE OR REPLACE VIEW latest_runs AS
   SELECT * FROM runs
   QUALIFY row_number() OVER (PARTITION BY spec_sha256 ORDER BY run_id DESC) = 1`,
    `CREATE OR REPLACE VIEW stg_run_apps AS
   SELECT *, app_type IS DISTINCT FROM 'streaming' AS is_batch FROM run_apps`,
  ],
  [],
  [],
  [],
  [
    `CREATE OR REPLACE VIEW rm_containers AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'container_')
   ),
   c AS (
     SELECT trace, subject AS container_id,
       bool_or(kind = 'am_container') AS master,
       any_value(node_id) FILTER (WHERE node_id IS NOT NULL) AS node_id,
       any_value(memory_mb) FILTER (WHERE memory_mb IS NOT NULL) AS memory_mb,
       any_value(vcores) FILTER (WHERE vcores IS NOT NULL) AS vcores,
       any_value(priority) FILTER (WHERE priority IS NOT NULL) AS priority,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ALLOCATED') AS state_allocated_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ACQUIRED') AS acquired_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_state,
       any_value(detail) FILTER (WHERE kind = 'container_completed') AS completed_event,
       any_value(to_state) FILTER (WHERE kind = 'container_released' AND to_state IS NOT NULL) AS released_event,
       min(time_ms) FILTER (WHERE kind IN ('container_assigned', 'am_container')
                            OR (kind = 'audit' AND detail = 'AM Allocated Container')) AS first_assignment_ms,
       bool_or(kind IN ('container_released', 'container_completed', 'container_unknown')
               OR (kind = 'audit' AND detail = 'AM Released Container')) AS release_seen,
       bool_or(kind = 'container_state' AND to_state = 'RESERVED')
         AND NOT bool_or(kind = 'container_state' AND to_state NOT IN ('RESERVED', 'KILLED', 'RELEASED'))
         AND NOT bool_or(kind IN ('container_assigned', 'am_container')) AS reserved_only
     FROM ev GROUP BY trace, subject
   ),
   ids AS (
     SELECT *, rm_app_of(container_id) AS app_id, rm_attempt_of(container_id) AS attempt_id,
            CAST(regexp_extract(container_id, '_(\\d+)$', 1) AS INTEGER) AS container_number
     FROM c
   ),
   attempts_with_master AS (SELECT DISTINCT trace, attempt_id, true AS has_master FROM ids WHERE master),
   unmanaged_attempts AS (
     SELECT DISTINCT f.trace, e.subject AS attempt_id, true AS unmanaged FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.kind = 'attempt_state' AND e.to_state = 'LAUNCHED_UNMANAGED_SAVING'
   ),
   numbered AS (
     SELECT *, min(container_number) FILTER (WHERE NOT coalesce(reserved_only, false))
                 OVER (PARTITION BY trace, attempt_id) AS first_assigned_number
     FROM ids
   )
   SELECT numbered.trace, container_id, app_id, attempt_id, container_number,
     CASE WHEN coalesce(unmanaged, false) OR coalesce(reserved_only, false) THEN false
          WHEN has_master THEN master
          WHEN priority IS NOT NULL THEN priority = 0
          ELSE container_number = first_assigned_number END AS is_am,
     node_id, memory_mb, vcores,
     CASE WHEN memory_mb IS NOT NULL THEN 'logged' END AS size_source,
     priority,
     coalesce(state_allocated_ms, first_assignment_ms) AS allocated_ms,
     acquired_ms, running_ms, end_ms, end_state,
     coalesce(completed_event, released_event) AS exit_event,
     state_allocated_ms IS NULL AND first_assignment_ms IS NULL AS start_unknown,
     end_ms IS NULL AND NOT coalesce(release_seen, false) AND NOT coalesce(reserved_only, false) AS still_running,
     coalesce(reserved_only, false) AS reserved_only
   FROM numbered LEFT JOIN attempts_with_master USING (trace, attempt_id) LEFT JOIN unmanaged_attempts USING (trace, attempt_id)`,
    `CREATE OR REPLACE VIEW rm_apps AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'application_') OR starts_with(e.subject, 'appattempt_')
   ),
   a AS (
     SELECT trace, subject AS app_id,
       any_value(json_extract_string(extra, '$.name')) FILTER (WHERE kind = 'app_summary') AS app_name,
       coalesce(any_value(user_name) FILTER (WHERE kind IN ('app_accepted', 'app_summary')), any_value(user_name)) AS user_name,
       coalesce(any_value(queue) FILTER (WHERE kind = 'app_summary'), any_value(queue) FILTER (WHERE kind = 'app_accepted'),
                any_value(queue) FILTER (WHERE queue IS NOT NULL)) AS queue,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND from_state = 'NEW') AS new_ms,
       min(time_ms) FILTER (WHERE kind = 'audit' AND detail = 'Submit Application Request') AS submit_request_ms,
       min(time_ms) FILTER (WHERE kind = 'app_accepted' OR (kind = 'app_state' AND to_state = 'ACCEPTED')) AS accepted_ms,
       min(time_ms) FILTER (WHERE kind = 'app_activated') AS activated_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS finish_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS final_state,
       arg_max(to_state, time_ms) FILTER (WHERE kind = 'app_state') AS last_state,
       any_value(to_state) FILTER (WHERE kind = 'app_summary') AS summary_state,
       any_value(detail) FILTER (WHERE kind = 'app_summary') AS final_status,
       any_value(CAST(json_extract_string(extra, '$.startTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_start_ms,
       any_value(CAST(json_extract_string(extra, '$.finishTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_finish_ms
     FROM ev WHERE starts_with(subject, 'application_') GROUP BY trace, subject
   ),
   attempts AS (
     SELECT trace, app_id, count(DISTINCT attempt_id) AS attempts FROM (
       SELECT trace, rm_app_of(subject) AS app_id, subject AS attempt_id FROM ev
       WHERE starts_with(subject, 'appattempt_') GROUP BY trace, subject
       UNION SELECT trace, app_id, attempt_id FROM rm_containers
     ) GROUP BY trace, app_id
   ),
   unmanaged AS (
     SELECT DISTINCT trace, rm_app_of(subject) AS app_id, true AS unmanaged_am FROM ev
     WHERE kind = 'attempt_state' AND to_state = 'LAUNCHED_UNMANAGED_SAVING'
   ),
   containers AS (
     SELECT trace, app_id, count(*) AS containers, min(allocated_ms) FILTER (WHERE is_am) AS am_allocated_ms
     FROM rm_containers GROUP BY trace, app_id
   ),
   every_app AS (
     SELECT trace, app_id FROM a UNION SELECT trace, app_id FROM attempts UNION SELECT trace, app_id FROM containers
   )
   SELECT every_app.trace, every_app.app_id, a.app_name, a.user_name, a.queue,
     coalesce(a.new_ms IS NOT NULL OR a.submit_request_ms IS NOT NULL, false) AS submitted_in_log,
     coalesce(a.submit_request_ms, a.new_ms) AS submit_ms,
     a.accepted_ms, a.activated_ms, containers.am_allocated_ms, a.running_ms, a.finish_ms,
     coalesce(a.final_state, a.summary_state, a.last_state) AS state,
     a.final_status, a.summary_start_ms, a.summary_finish_ms,
     coalesce(attempts.attempts, 0) AS attempts, coalesce(containers.containers, 0) AS containers,
     coalesce(unmanaged.unmanaged_am, false) AS unmanaged_am
   FROM every_app LEFT JOIN a USING (trace, app_id) LEFT JOIN attempts USING (trace, app_id)
     LEFT JOIN containers USING (trace, app_id) LEFT JOIN unmanaged USING (trace, app_id)`,
  ],
  [
    `CREATE OR REPLACE VIEW superseded_runs AS
   SELECT r.run_id, r.trace, r.trace_sha256, t.source_sha256 AS current_trace_sha256
   FROM runs AS r JOIN traces AS t ON t.trace = r.trace
   WHERE r.trace_sha256 IS NOT NULL AND t.source_sha256 <> r.trace_sha256`,
    `CREATE OR REPLACE VIEW latest_runs AS
   SELECT * FROM runs
   WHERE run_id NOT IN (SELECT run_id FROM superseded_runs)
   QUALIFY row_number() OVER (PARTITION BY spec_sha256 ORDER BY run_id DESC) = 1`,
  ],
  [],
  [],
  [],
  [],
  [],
  [
    `CREATE OR REPLACE VIEW rm_node_spans AS
   WITH node_lines AS (
     SELECT f.trace, e.node_id, e.kind, e.memory_mb, e.vcores, e.time_ms,
       lead(e.time_ms) OVER (PARTITION BY f.trace, e.node_id ORDER BY e.time_ms, e.file_id, e.line_number) AS next_ms
     FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.node_id IS NOT NULL AND (e.kind IN ('node_registered', 'node_removed')
           OR (e.kind = 'node_state' AND e.to_state IN ('LOST', 'UNHEALTHY', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')))
   ),
   resets AS (
     SELECT DISTINCT f.trace, e.time_ms FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.kind IN ('rm_started', 'rm_stopped')
   )
   SELECT l.trace, l.node_id, l.memory_mb, l.vcores, l.time_ms AS start_ms,
     least(l.next_ms, (SELECT min(r.time_ms) FROM resets AS r WHERE r.trace = l.trace AND r.time_ms > l.time_ms)) AS end_ms
   FROM node_lines AS l WHERE l.kind = 'node_registered'`,
  ],
  [
    `CREATE OR REPLACE VIEW stg_run_apps AS
   SELECT *, app_type IS DISTINCT FROM 'streaming' AS is_batch,
     state = 'FINISHED' AND final_status IS DISTINCT FROM 'FAILED' AND final_status IS DISTINCT FROM 'KILLED' AS succeeded
   FROM run_apps`,
  ],
];

/** Migration i as it ran before views moved to views/: its table statements, then its views. */
export const MIGRATIONS_TO_15: readonly (readonly string[])[] = VIEWS_TO_15.map((views, i) => [...MIGRATIONS[i]!, ...views]);
